/* The GT frequency read of gt_freq.cpp as a Linux-style C file: readl()
 * through the MCHBAR mirror of a mapped GTTMMADR, register offsets from
 * the generated C header regemu/regs/icl.h. */
#ifndef REGEMU_EXAMPLES_MCHBAR_FREQ_H
#define REGEMU_EXAMPLES_MCHBAR_FREQ_H

#include <stdint.h>

#include "examples/i915_mini/i915_io.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ICL_MCHBAR_MIRROR_BASE (i915's MCHBAR_MIRROR_BASE_SNB) comes with the
 * register offsets from regemu/regs/icl.h: the database's window. */
/* Gen9+ RPS frequency unit. */
#define ICL_FREQ_UNIT_MHZ 50u

struct icl_gt_freq {
	unsigned int rp0_mhz;
	unsigned int rp1_mhz;
	unsigned int rpn_mhz;
	unsigned int rpe_mhz;
	uint32_t perf_status;
};

/* `regs` is GTTMMADR mapped (ioremap / regemu_iomap), memory decode on. */
void icl_read_gt_freq(uint8_t __iomem *regs, struct icl_gt_freq *freq);

#ifdef __cplusplus
}
#endif

#endif /* REGEMU_EXAMPLES_MCHBAR_FREQ_H */
