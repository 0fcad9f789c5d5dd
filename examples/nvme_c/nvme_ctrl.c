/* Linux style on purpose (tabs, readl, lo_hi_writeq): see nvme_ctrl.h.
 * Register offsets and fields from the NVMe base specification (NVMe 2.0c
 * §3.1.3), as include/linux/nvme.h names them. */
#include "examples/nvme_c/nvme_ctrl.h"

enum {
	NVME_REG_CAP = 0x0000,
	NVME_REG_CC = 0x0014,
	NVME_REG_CSTS = 0x001c,
	NVME_REG_AQA = 0x0024,
	NVME_REG_ASQ = 0x0028,
	NVME_REG_ACQ = 0x0030,
};

#define NVME_CAP_TIMEOUT(cap) (((cap) >> 24) & 0xff)
#define NVME_CC_ENABLE (1u << 0)
#define NVME_CC_CSS_NVM (0u << 4)
#define NVME_CC_MPS_SHIFT 7
#define NVME_CC_AMS_RR (0u << 11)
#define NVME_CC_SHN_NORMAL (1u << 14)
#define NVME_CC_SHN_MASK (3u << 14)
#define NVME_CC_IOSQES (6u << 16)
#define NVME_CC_IOCQES (4u << 20)
#define NVME_CSTS_RDY (1u << 0)
#define NVME_CSTS_SHST_CMPLT (2u << 2)
#define NVME_CSTS_SHST_MASK (3u << 2)
#define NVME_CTRL_PAGE_SHIFT 12
#define NVME_SHUTDOWN_TIMEOUT_MS 5000u

/* include/linux/io-64-nonatomic-lo-hi.h: no 64-bit write on every bus. */
static void lo_hi_writeq(uint64_t value, uint8_t __iomem *addr)
{
	writel((uint32_t)value, addr);
	writel((uint32_t)(value >> 32), addr + 4);
}

/* nvme_wait_ready: CSTS & mask == value, a read a millisecond, within
 * timeout_ms. */
static int nvme_c_wait(struct nvme_c_ctrl *ctrl, uint32_t mask, uint32_t value, unsigned int timeout_ms)
{
	ctrl->waited_ms = 0;
	for (;;) {
		uint32_t csts = readl(ctrl->bar + NVME_REG_CSTS);

		if (csts == ~0u)
			return NVME_C_NO_DEVICE;
		if ((csts & mask) == value)
			return NVME_C_OK;
		if (ctrl->waited_ms >= timeout_ms)
			return NVME_C_TIMED_OUT;
		ctrl->msleep(ctrl->context, 1);
		ctrl->waited_ms++;
	}
}

static unsigned int nvme_c_ready_timeout_ms(const struct nvme_c_ctrl *ctrl)
{
	return (unsigned int)(NVME_CAP_TIMEOUT(ctrl->cap) + 1) * 500u;
}

int nvme_c_enable(struct nvme_c_ctrl *ctrl, uint64_t asq, uint64_t acq, unsigned int depth)
{
	uint32_t aqa = depth - 1;

	ctrl->cap = (uint64_t)readl(ctrl->bar + NVME_REG_CAP) | (uint64_t)readl(ctrl->bar + NVME_REG_CAP + 4) << 32;
	aqa |= aqa << 16;
	writel(aqa, ctrl->bar + NVME_REG_AQA);
	lo_hi_writeq(asq, ctrl->bar + NVME_REG_ASQ);
	lo_hi_writeq(acq, ctrl->bar + NVME_REG_ACQ);

	ctrl->ctrl_config = NVME_CC_CSS_NVM | (NVME_CTRL_PAGE_SHIFT - 12) << NVME_CC_MPS_SHIFT | NVME_CC_AMS_RR |
			    NVME_CC_IOSQES | NVME_CC_IOCQES;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	ctrl->ctrl_config |= NVME_CC_ENABLE;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	return nvme_c_wait(ctrl, NVME_CSTS_RDY, NVME_CSTS_RDY, nvme_c_ready_timeout_ms(ctrl));
}

int nvme_c_disable(struct nvme_c_ctrl *ctrl)
{
	ctrl->ctrl_config &= ~NVME_CC_SHN_MASK;
	ctrl->ctrl_config &= ~NVME_CC_ENABLE;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	return nvme_c_wait(ctrl, NVME_CSTS_RDY, 0, nvme_c_ready_timeout_ms(ctrl));
}

int nvme_c_shutdown(struct nvme_c_ctrl *ctrl)
{
	ctrl->ctrl_config &= ~NVME_CC_SHN_MASK;
	ctrl->ctrl_config |= NVME_CC_SHN_NORMAL;
	writel(ctrl->ctrl_config, ctrl->bar + NVME_REG_CC);
	return nvme_c_wait(ctrl, NVME_CSTS_SHST_MASK, NVME_CSTS_SHST_CMPLT, NVME_SHUTDOWN_TIMEOUT_MS);
}
