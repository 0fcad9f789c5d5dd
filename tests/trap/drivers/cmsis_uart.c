/* Firmware in CMSIS style: a peripheral is a struct of volatile registers
 * overlaid at its bus address, and fields change by read-modify-write
 * (UART0->CR |= ...). Plain C, no header of regemu: the test maps the
 * emulated peripherals where these addresses say they are. */
#include <stdint.h>

#define __IO volatile
#define __I volatile const

typedef struct {
	__IO uint32_t CR;     /* 0x00 control */
	__I uint32_t SR;      /* 0x04 status */
	__IO uint32_t DR;     /* 0x08 data */
	__IO uint16_t BRR;    /* 0x0C baud rate divisor */
	__IO uint8_t LCR;     /* 0x0E line control */
	uint8_t RESERVED0;
	__I uint64_t TSTAMP;  /* 0x10 free-running timestamp */
} UART_TypeDef;

typedef struct {
	__IO uint32_t ISER[8];  /* 0x000 interrupt set-enable */
	uint32_t RESERVED0[24];
	__IO uint32_t ICER[8];  /* 0x080 interrupt clear-enable */
} NVIC_Type;

#define PERIPH_BASE 0x40000000UL
#define UART0 ((UART_TypeDef *)(PERIPH_BASE + 0x1000UL))
/* Above 2 GiB: no 32-bit displacement reaches it (movabs, or a register). */
#define NVIC ((NVIC_Type *)0xE000E100UL)

#define UART_CR_UE (1u << 0)
#define UART_CR_LBE (1u << 2)
#define UART_CR_TE (1u << 3)
#define UART_SR_TXE (1u << 7)
#define UART_LCR_PARITY_ODD (1u << 7)

void cmsis_uart_init(uint16_t divisor)
{
	UART0->CR &= ~UART_CR_UE; /* off while it is configured */
	UART0->CR &= ~UART_CR_LBE;
	UART0->BRR = divisor;
	UART0->LCR ^= UART_LCR_PARITY_ODD;
	UART0->CR |= UART_CR_TE | UART_CR_UE;
}

/* Waits for the transmitter, at most `spins` status reads, then sends. */
int cmsis_uart_put(char c, unsigned spins)
{
	while (!(UART0->SR & UART_SR_TXE)) {
		if (spins-- == 0)
			return -1;
	}
	UART0->DR = (uint8_t)c;
	return 0;
}

uint64_t cmsis_uart_timestamp(void)
{
	return UART0->TSTAMP;
}

void cmsis_nvic_enable_irq(unsigned irq)
{
	NVIC->ISER[irq >> 5] = 1u << (irq & 31u);
}

void cmsis_nvic_disable_irq(unsigned irq)
{
	NVIC->ICER[irq >> 5] = 1u << (irq & 31u);
}
