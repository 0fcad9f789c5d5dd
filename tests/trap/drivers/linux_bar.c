/* A userspace NVMe driver in Linux style: readl()/writel() are volatile
 * dereferences of a mapped BAR, as in SPDK, libvfn or a kernel driver
 * compiled for userspace. Plain C, no header of regemu. */
#include <stdint.h>

#define __iomem

static inline uint32_t readl(const volatile void __iomem *addr)
{
	return *(const volatile uint32_t *)addr;
}

static inline void writel(uint32_t value, volatile void __iomem *addr)
{
	*(volatile uint32_t *)addr = value;
}

static inline void cpu_relax(void)
{
	__asm__ __volatile__("pause" ::: "memory");
}

static inline void lo_hi_writeq(uint64_t value, volatile void __iomem *addr)
{
	writel((uint32_t)value, addr);
	writel((uint32_t)(value >> 32), (volatile uint8_t __iomem *)addr + 4);
}

enum {
	NVME_REG_CAP = 0x0000,
	NVME_REG_VS = 0x0008,
	NVME_REG_INTMS = 0x000c,
	NVME_REG_INTMC = 0x0010,
	NVME_REG_CC = 0x0014,
	NVME_REG_CSTS = 0x001c,
	NVME_REG_AQA = 0x0024,
	NVME_REG_ASQ = 0x0028,
	NVME_REG_ACQ = 0x0030,
};

#define NVME_CC_ENABLE (1u << 0)
#define NVME_CC_CSS_NVM (0u << 4)
#define NVME_CC_MPS_SHIFT 7
#define NVME_CC_IOSQES (6u << 16)
#define NVME_CC_IOCQES (4u << 20)
#define NVME_CSTS_RDY (1u << 0)

uint32_t nvme_read_version(uint8_t __iomem *bar)
{
	return readl(bar + NVME_REG_VS);
}

void nvme_mask_vectors(uint8_t __iomem *bar, uint32_t set, uint32_t clear)
{
	writel(set, bar + NVME_REG_INTMS);
	writel(clear, bar + NVME_REG_INTMC);
}

/* nvme_pci_configure_admin_queue: queue sizes (0's based) and bases, with
 * the controller disabled. */
void nvme_configure_admin_queue(uint8_t __iomem *bar, uint64_t asq, uint64_t acq, uint32_t depth)
{
	uint32_t aqa = depth - 1;

	aqa |= aqa << 16;
	writel(aqa, bar + NVME_REG_AQA);
	lo_hi_writeq(asq, bar + NVME_REG_ASQ);
	lo_hi_writeq(acq, bar + NVME_REG_ACQ);
}

/* nvme_wait_ready: CSTS.RDY polled until it reads `want`; the number of
 * reads, or -1 after `max_polls`. No sleep between reads: each one takes
 * the device's access time. */
long nvme_wait_ready(uint8_t __iomem *bar, uint32_t want, long max_polls)
{
	long polls = 0;

	while ((readl(bar + NVME_REG_CSTS) & NVME_CSTS_RDY) != want) {
		if (++polls >= max_polls)
			return -1;
		cpu_relax();
	}
	return polls + 1;
}

/* nvme_enable_ctrl: configure, then set CC.EN, then wait for CSTS.RDY. */
long nvme_enable_ctrl(uint8_t __iomem *bar, unsigned page_shift, long max_polls)
{
	uint32_t ctrl_config = NVME_CC_CSS_NVM | (page_shift - 12) << NVME_CC_MPS_SHIFT | NVME_CC_IOSQES |
			       NVME_CC_IOCQES;

	writel(ctrl_config, bar + NVME_REG_CC);
	ctrl_config |= NVME_CC_ENABLE;
	writel(ctrl_config, bar + NVME_REG_CC);
	return nvme_wait_ready(bar, NVME_CSTS_RDY, max_polls);
}

/* nvme_disable_ctrl: clear CC.EN by read-modify-write, wait for RDY = 0. */
long nvme_disable_ctrl(uint8_t __iomem *bar, long max_polls)
{
	uint32_t ctrl_config = readl(bar + NVME_REG_CC);

	writel(ctrl_config & ~NVME_CC_ENABLE, bar + NVME_REG_CC);
	return nvme_wait_ready(bar, 0, max_polls);
}

/* A driver bug, for the test that regemu reports it at this line. */
void nvme_write_version_by_mistake(uint8_t __iomem *bar)
{
	writel(0x00010400, bar + NVME_REG_VS); /* regemu-test: read-only write */
}
