/* Linux style on purpose (tabs, readl): this file compiles unchanged
 * against the kernel's accessors or regemu's; see mchbar_freq.h. */
#include "examples/i915_mini/mchbar_freq.h"

#include "regemu/regs/icl.h"

static uint32_t mchbar_read(uint8_t __iomem *regs, uint64_t mchbar_offset)
{
	return readl(regs + ICL_MCHBAR_MIRROR_BASE + mchbar_offset);
}

void icl_read_gt_freq(uint8_t __iomem *regs, struct icl_gt_freq *freq)
{
	uint32_t caps = mchbar_read(regs, ICL_RP_STATE_CAP);
	uint32_t info = mchbar_read(regs, ICL_FREQ_INFO_REC);

	freq->rp0_mhz = (unsigned int)REGEMU_FIELD_GET(ICL_RP_STATE_CAP_RP0_CAP_MASK, caps) * ICL_FREQ_UNIT_MHZ;
	freq->rp1_mhz = (unsigned int)REGEMU_FIELD_GET(ICL_RP_STATE_CAP_RP1_CAP_MASK, caps) * ICL_FREQ_UNIT_MHZ;
	freq->rpn_mhz = (unsigned int)REGEMU_FIELD_GET(ICL_RP_STATE_CAP_RPN_CAP_MASK, caps) * ICL_FREQ_UNIT_MHZ;
	freq->rpe_mhz = (unsigned int)REGEMU_FIELD_GET(ICL_FREQ_INFO_REC_RPE_MASK, info) * ICL_FREQ_UNIT_MHZ;
	freq->perf_status = mchbar_read(regs, ICL_GT_PERF_STATUS);
}
