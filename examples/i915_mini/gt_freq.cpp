#include "examples/i915_mini/gt_freq.hpp"

#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini {

namespace icl = ::regemu::regs::icl;

GtFrequencies ReadGtFrequencies(fakes::MmioBus& mmio, Bugs bugs) {
  MchbarMirror mchbar(mmio);
  GtFrequencies freq;
  auto caps = icl::RP_STATE_CAP::Get().ReadFrom(mchbar);
  freq.rp0_mhz = caps.rp0_cap() * kFreqUnitMhz;
  freq.rp1_mhz = caps.rp1_cap() * kFreqUnitMhz;
  freq.rpn_mhz = caps.rpn_cap() * kFreqUnitMhz;
  auto info = icl::FREQ_INFO_REC::Get().ReadFrom(mchbar);
  freq.rpe_mhz = info.rpe() * kFreqUnitMhz;
  freq.perf_status = icl::GT_PERF_STATUS::Get().ReadFrom(mchbar).reg_value();
  if (bugs.Has(Bug::kWriteMchbarMirror)) {
    caps.set_rp0_cap(info.rpe()).WriteTo(mchbar);  // THE BUG: the mirror is read-only since Haswell
  }
  return freq;
}

}  // namespace regemu::i915_mini
