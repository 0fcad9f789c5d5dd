/* The APB timer peripherals of the MPS2 AN385 (Cortex-M3 on V2M-MPS2) as a
 * CMSIS device header declares them: one struct per peripheral, members
 * in register order with reserved gaps, bit positions and masks, and a
 * pointer macro per instance at its fixed address. The shapes and names
 * follow Arm's CMSDK device headers for the CM3/CM3DS (CMSDK_TIMER_TypeDef,
 * CMSDK_DUALTIMER_SINGLE_TypeDef, CMSDK_WATCHDOG_TypeDef, ...); the
 * offsets are those of ARM DDI 0479C (Cortex-M System Design Kit TRM):
 * §4.4 Table 4-5 (APB timer), §4.5 (dual timer, an SP804: ARM DDI 0271D
 * §3.1), §4.6 (watchdog, an SP805: ARM DDI 0270B §3.1).
 *
 * A firmware build includes it as it is; a host test maps regemu's `apb`
 * space of yaml/cmsdk_apb at 0x40000000 (a trapped mapping), and the same
 * pointers reach the emulated device. Its tests check each member's
 * offset against the database (examples/cmsdk/tests/header_test.cpp). */
#ifndef CMSDK_APB_H
#define CMSDK_APB_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* CMSIS's access qualifiers (core_cm3.h), defined here so that the header
 * stands alone. */
#ifndef __I
#ifdef __cplusplus
#define __I volatile /* read only */
#else
#define __I volatile const /* read only */
#endif
#endif
#ifndef __O
#define __O volatile /* write only */
#endif
#ifndef __IO
#define __IO volatile /* read and write */
#endif

/* ---- CMSDK APB timer (ARM DDI 0479C §4.4, Table 4-5) ---- */
typedef struct {
  __IO uint32_t CTRL;   /* 0x000 RW control */
  __IO uint32_t VALUE;  /* 0x004 RW current value */
  __IO uint32_t RELOAD; /* 0x008 RW reload value (writing it also sets VALUE) */
  union {
    __I uint32_t INTSTATUS; /* 0x00C R  interrupt status */
    __O uint32_t INTCLEAR;  /* 0x00C W  interrupt clear (write 1) */
  };
} CMSDK_TIMER_TypeDef;

#define CMSDK_TIMER_CTRL_EN_Pos 0
#define CMSDK_TIMER_CTRL_EN_Msk (0x1UL << CMSDK_TIMER_CTRL_EN_Pos)
#define CMSDK_TIMER_CTRL_SELEXTEN_Pos 1 /* EXTIN as an enable */
#define CMSDK_TIMER_CTRL_SELEXTEN_Msk (0x1UL << CMSDK_TIMER_CTRL_SELEXTEN_Pos)
#define CMSDK_TIMER_CTRL_SELEXTCLK_Pos 2 /* EXTIN as the clock */
#define CMSDK_TIMER_CTRL_SELEXTCLK_Msk (0x1UL << CMSDK_TIMER_CTRL_SELEXTCLK_Pos)
#define CMSDK_TIMER_CTRL_IRQEN_Pos 3
#define CMSDK_TIMER_CTRL_IRQEN_Msk (0x1UL << CMSDK_TIMER_CTRL_IRQEN_Pos)
#define CMSDK_TIMER_VAL_Pos 0
#define CMSDK_TIMER_VAL_Msk (0xFFFFFFFFUL << CMSDK_TIMER_VAL_Pos)
#define CMSDK_TIMER_RELOAD_Pos 0
#define CMSDK_TIMER_RELOAD_Msk (0xFFFFFFFFUL << CMSDK_TIMER_RELOAD_Pos)
#define CMSDK_TIMER_INTSTATUS_Pos 0
#define CMSDK_TIMER_INTSTATUS_Msk (0x1UL << CMSDK_TIMER_INTSTATUS_Pos)
#define CMSDK_TIMER_INTCLEAR_Pos 0
#define CMSDK_TIMER_INTCLEAR_Msk (0x1UL << CMSDK_TIMER_INTCLEAR_Pos)

/* ---- CMSDK APB dual timer (ARM DDI 0479C §4.5; the SP804, ARM DDI 0271D
 * §3.1-3.2) ---- */
typedef struct {
  __IO uint32_t TimerLoad;    /* 0x00 RW load (writing it also sets the count) */
  __I uint32_t TimerValue;    /* 0x04 R  current count */
  __IO uint32_t TimerControl; /* 0x08 RW control */
  __O uint32_t TimerIntClr;   /* 0x0C W  interrupt clear (any value) */
  __I uint32_t TimerRIS;      /* 0x10 R  raw interrupt status */
  __I uint32_t TimerMIS;      /* 0x14 R  masked interrupt status */
  __IO uint32_t TimerBGLoad;  /* 0x18 RW background load (the count kept) */
} CMSDK_DUALTIMER_SINGLE_TypeDef;

typedef struct {
  __IO uint32_t Timer1Load;    /* 0x000 */
  __I uint32_t Timer1Value;    /* 0x004 */
  __IO uint32_t Timer1Control; /* 0x008 */
  __O uint32_t Timer1IntClr;   /* 0x00C */
  __I uint32_t Timer1RIS;      /* 0x010 */
  __I uint32_t Timer1MIS;      /* 0x014 */
  __IO uint32_t Timer1BGLoad;  /* 0x018 */
  uint32_t RESERVED0;          /* 0x01C */
  __IO uint32_t Timer2Load;    /* 0x020 */
  __I uint32_t Timer2Value;    /* 0x024 */
  __IO uint32_t Timer2Control; /* 0x028 */
  __O uint32_t Timer2IntClr;   /* 0x02C */
  __I uint32_t Timer2RIS;      /* 0x030 */
  __I uint32_t Timer2MIS;      /* 0x034 */
  __IO uint32_t Timer2BGLoad;  /* 0x038 */
  uint32_t RESERVED1[945];     /* 0x03C-0xEFC */
  __IO uint32_t ITCR;          /* 0xF00 RW integration test control */
  __O uint32_t ITOP;           /* 0xF04 W  integration test output set */
} CMSDK_DUALTIMER_BOTH_TypeDef;

#define CMSDK_DUALTIMER_CTRL_ONESHOT_Pos 0 /* 0: wrapping, 1: one-shot */
#define CMSDK_DUALTIMER_CTRL_ONESHOT_Msk (0x1UL << CMSDK_DUALTIMER_CTRL_ONESHOT_Pos)
#define CMSDK_DUALTIMER_CTRL_SIZE_Pos 1 /* 0: 16-bit, 1: 32-bit */
#define CMSDK_DUALTIMER_CTRL_SIZE_Msk (0x1UL << CMSDK_DUALTIMER_CTRL_SIZE_Pos)
#define CMSDK_DUALTIMER_CTRL_PRESCALE_Pos 2 /* 0: /1, 1: /16, 2: /256 */
#define CMSDK_DUALTIMER_CTRL_PRESCALE_Msk (0x3UL << CMSDK_DUALTIMER_CTRL_PRESCALE_Pos)
#define CMSDK_DUALTIMER_CTRL_INTEN_Pos 5
#define CMSDK_DUALTIMER_CTRL_INTEN_Msk (0x1UL << CMSDK_DUALTIMER_CTRL_INTEN_Pos)
#define CMSDK_DUALTIMER_CTRL_MODE_Pos 6 /* 0: free-running, 1: periodic */
#define CMSDK_DUALTIMER_CTRL_MODE_Msk (0x1UL << CMSDK_DUALTIMER_CTRL_MODE_Pos)
#define CMSDK_DUALTIMER_CTRL_EN_Pos 7
#define CMSDK_DUALTIMER_CTRL_EN_Msk (0x1UL << CMSDK_DUALTIMER_CTRL_EN_Pos)
#define CMSDK_DUALTIMER_INTCLR_Pos 0
#define CMSDK_DUALTIMER_INTCLR_Msk (0x1UL << CMSDK_DUALTIMER_INTCLR_Pos)
#define CMSDK_DUALTIMER_RAWINTSTAT_Pos 0
#define CMSDK_DUALTIMER_RAWINTSTAT_Msk (0x1UL << CMSDK_DUALTIMER_RAWINTSTAT_Pos)
#define CMSDK_DUALTIMER_MASKINTSTAT_Pos 0
#define CMSDK_DUALTIMER_MASKINTSTAT_Msk (0x1UL << CMSDK_DUALTIMER_MASKINTSTAT_Pos)
#define CMSDK_DUALTIMER_ITCR_EN_Pos 0
#define CMSDK_DUALTIMER_ITCR_EN_Msk (0x1UL << CMSDK_DUALTIMER_ITCR_EN_Pos)
#define CMSDK_DUALTIMER_ITOP_TIMINT1_Pos 0
#define CMSDK_DUALTIMER_ITOP_TIMINT1_Msk (0x1UL << CMSDK_DUALTIMER_ITOP_TIMINT1_Pos)
#define CMSDK_DUALTIMER_ITOP_TIMINT2_Pos 1
#define CMSDK_DUALTIMER_ITOP_TIMINT2_Msk (0x1UL << CMSDK_DUALTIMER_ITOP_TIMINT2_Pos)

/* ---- CMSDK APB watchdog (ARM DDI 0479C §4.6; the SP805, ARM DDI 0270B
 * §3.1-3.3) ---- */
typedef struct {
  __IO uint32_t LOAD;       /* 0x000 RW load (writing it restarts the count) */
  __I uint32_t VALUE;       /* 0x004 R  current count */
  __IO uint32_t CTRL;       /* 0x008 RW control */
  __O uint32_t INTCLR;      /* 0x00C W  interrupt clear and reload (any value) */
  __I uint32_t RAWINTSTAT;  /* 0x010 R  raw interrupt status */
  __I uint32_t MASKINTSTAT; /* 0x014 R  masked interrupt status */
  uint32_t RESERVED0[762];  /* 0x018-0xBFC */
  __IO uint32_t LOCK;       /* 0xC00 RW write 0x1ACCE551 to unlock, else lock; reads 1 locked */
  uint32_t RESERVED1[191];  /* 0xC04-0xEFC */
  __IO uint32_t ITCR;       /* 0xF00 RW integration test control */
  __O uint32_t ITOP;        /* 0xF04 W  integration test output set */
} CMSDK_WATCHDOG_TypeDef;

#define CMSDK_Watchdog_LOAD_Pos 0
#define CMSDK_Watchdog_LOAD_Msk (0xFFFFFFFFUL << CMSDK_Watchdog_LOAD_Pos)
#define CMSDK_Watchdog_VALUE_Pos 0
#define CMSDK_Watchdog_VALUE_Msk (0xFFFFFFFFUL << CMSDK_Watchdog_VALUE_Pos)
#define CMSDK_Watchdog_CTRL_INTEN_Pos 0 /* runs the counter and the interrupt */
#define CMSDK_Watchdog_CTRL_INTEN_Msk (0x1UL << CMSDK_Watchdog_CTRL_INTEN_Pos)
#define CMSDK_Watchdog_CTRL_RESEN_Pos 1 /* the reset output */
#define CMSDK_Watchdog_CTRL_RESEN_Msk (0x1UL << CMSDK_Watchdog_CTRL_RESEN_Pos)
#define CMSDK_Watchdog_INTCLR_Pos 0
#define CMSDK_Watchdog_INTCLR_Msk (0x1UL << CMSDK_Watchdog_INTCLR_Pos)
#define CMSDK_Watchdog_RAWINTSTAT_Pos 0
#define CMSDK_Watchdog_RAWINTSTAT_Msk (0x1UL << CMSDK_Watchdog_RAWINTSTAT_Pos)
#define CMSDK_Watchdog_MASKINTSTAT_Pos 0
#define CMSDK_Watchdog_MASKINTSTAT_Msk (0x1UL << CMSDK_Watchdog_MASKINTSTAT_Pos)
#define CMSDK_Watchdog_LOCK_Pos 0 /* reads 1 while writes are disabled */
#define CMSDK_Watchdog_LOCK_Msk (0x1UL << CMSDK_Watchdog_LOCK_Pos)
#define CMSDK_Watchdog_UNLOCK_KEY 0x1ACCE551UL /* ARM DDI 0270B §3.3.8 */
#define CMSDK_Watchdog_INTEGTESTEN_Pos 0
#define CMSDK_Watchdog_INTEGTESTEN_Msk (0x1UL << CMSDK_Watchdog_INTEGTESTEN_Pos)
#define CMSDK_Watchdog_INTEGTESTOUTSET_RES_Pos 0 /* ITOP: WDOGRES */
#define CMSDK_Watchdog_INTEGTESTOUTSET_RES_Msk (0x1UL << CMSDK_Watchdog_INTEGTESTOUTSET_RES_Pos)
#define CMSDK_Watchdog_INTEGTESTOUTSET_INT_Pos 1 /* ITOP: WDOGINT */
#define CMSDK_Watchdog_INTEGTESTOUTSET_INT_Msk (0x1UL << CMSDK_Watchdog_INTEGTESTOUTSET_INT_Pos)

/* ---- The AN385's memory map (APB subsystem) ---- */
#define CMSDK_APB_BASE 0x40000000UL
#define CMSDK_TIMER0_BASE (CMSDK_APB_BASE + 0x0000UL)     /* 0x40000000 */
#define CMSDK_TIMER1_BASE (CMSDK_APB_BASE + 0x1000UL)     /* 0x40001000 */
#define CMSDK_DUALTIMER_BASE (CMSDK_APB_BASE + 0x2000UL)  /* 0x40002000 */
#define CMSDK_DUALTIMER_1_BASE (CMSDK_DUALTIMER_BASE)     /* 0x40002000 */
#define CMSDK_DUALTIMER_2_BASE (CMSDK_DUALTIMER_BASE + 0x20UL) /* 0x40002020 */
#define CMSDK_WATCHDOG_BASE (CMSDK_APB_BASE + 0x8000UL)   /* 0x40008000 */

/* A peripheral's struct at its address (C++ code gets reinterpret_cast). */
#ifdef __cplusplus
#define CMSDK_PERIPHERAL(type, base) (reinterpret_cast<type *>(base))
#else
#define CMSDK_PERIPHERAL(type, base) ((type *)(base))
#endif

#define CMSDK_TIMER0 CMSDK_PERIPHERAL(CMSDK_TIMER_TypeDef, CMSDK_TIMER0_BASE)
#define CMSDK_TIMER1 CMSDK_PERIPHERAL(CMSDK_TIMER_TypeDef, CMSDK_TIMER1_BASE)
#define CMSDK_DUALTIMER CMSDK_PERIPHERAL(CMSDK_DUALTIMER_BOTH_TypeDef, CMSDK_DUALTIMER_BASE)
#define CMSDK_DUALTIMER1 CMSDK_PERIPHERAL(CMSDK_DUALTIMER_SINGLE_TypeDef, CMSDK_DUALTIMER_1_BASE)
#define CMSDK_DUALTIMER2 CMSDK_PERIPHERAL(CMSDK_DUALTIMER_SINGLE_TypeDef, CMSDK_DUALTIMER_2_BASE)
#define CMSDK_WATCHDOG CMSDK_PERIPHERAL(CMSDK_WATCHDOG_TypeDef, CMSDK_WATCHDOG_BASE)

#ifdef __cplusplus
}
#endif

#endif /* CMSDK_APB_H */
