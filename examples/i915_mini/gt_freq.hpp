#pragma once
// The GT frequency limits and status i915 reads from the host bridge's
// MCHBAR through its mirror in GTTMMADR (intel_rps.c, i915 intel_mchbar_regs.h).

#include <cstdint>

#include "examples/i915_mini/bugs.hpp"
#include "regemu/fakes/mmio_bus.hpp"
#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini {

// i915's MCHBAR_MIRROR_BASE_SNB, from the database's MCHBAR_MIRROR window.
inline constexpr uint64_t kMchbarMirrorBase = regs::icl::MCHBAR_MIRROR_BASE;
// Gen9+ RPS units: GT_FREQUENCY_MULTIPLIER (50) * GEN9_FREQ_SCALER (3) / 3.
inline constexpr unsigned kFreqUnitMhz = 50;

struct GtFrequencies {
  unsigned rp0_mhz = 0;  // maximum
  unsigned rp1_mhz = 0;  // most efficient at full load
  unsigned rpn_mhz = 0;  // minimum
  unsigned rpe_mhz = 0;  // efficient (GEN10_FREQ_INFO_REC)
  uint32_t perf_status = 0;  // GEN6_GT_PERF_STATUS, raw
};

// MCHBAR registers (regs::icl, space "mchbar") read through the mirror:
// an IO window that adds the mirror's base.
class MchbarMirror {
 public:
  explicit MchbarMirror(fakes::MmioBus& mmio) : mmio_(mmio) {}
  uint64_t Read(uint64_t offset, unsigned width) { return mmio_.Read(kMchbarMirrorBase + offset, width); }
  void Write(uint64_t offset, unsigned width, uint64_t value) { mmio_.Write(kMchbarMirrorBase + offset, width, value); }

 private:
  fakes::MmioBus& mmio_;
};

// Needs memory decode on (the mirror is part of GTTMMADR). With
// Bug::kWriteMchbarMirror it also tries to cap RP0 at RPe by writing
// RP_STATE_CAP through the mirror.
GtFrequencies ReadGtFrequencies(fakes::MmioBus& mmio, Bugs bugs = {});

}  // namespace regemu::i915_mini
