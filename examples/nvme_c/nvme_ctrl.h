/* An NVMe controller brought up, reset and shut down the way Linux's
 * nvme-core does it (nvme_enable_ctrl, nvme_disable_ctrl,
 * nvme_shutdown_ctrl, nvme_wait_ready), in C against readl()/writel()
 * (nvme_io.h): the same file runs on regemu's accessors and, built with
 * REGEMU_PLAIN_MMIO, on a trapped mapping. */
#ifndef REGEMU_EXAMPLES_NVME_CTRL_H
#define REGEMU_EXAMPLES_NVME_CTRL_H

#include <stdint.h>

#include "examples/nvme_c/nvme_io.h"

#ifdef __cplusplus
extern "C" {
#endif

enum nvme_c_status {
	NVME_C_OK = 0,
	NVME_C_NO_DEVICE = -1, /* CSTS read all-ones: the function is gone (Linux: -ENODEV) */
	NVME_C_TIMED_OUT = -2, /* CSTS did not follow within CAP.TO or the shutdown time */
};

struct nvme_c_ctrl {
	uint8_t __iomem *bar;                           /* BAR0, mapped */
	void (*msleep)(void *context, unsigned int ms); /* the driver's sleep */
	void *context;
	uint64_t cap;       /* CAP, read by nvme_c_enable */
	uint32_t ctrl_config; /* CC as last written */
	unsigned int waited_ms; /* slept in the last wait */
};

/* Admin queue bases and depth, then CC with EN, then CSTS.RDY = 1. */
int nvme_c_enable(struct nvme_c_ctrl *ctrl, uint64_t asq, uint64_t acq, unsigned int depth);
/* CC.EN cleared (a controller reset), then CSTS.RDY = 0. */
int nvme_c_disable(struct nvme_c_ctrl *ctrl);
/* CC.SHN = normal, then CSTS.SHST = complete. */
int nvme_c_shutdown(struct nvme_c_ctrl *ctrl);

#ifdef __cplusplus
}
#endif

#endif /* REGEMU_EXAMPLES_NVME_CTRL_H */
