#pragma once
// Engine bring-up, the part that needs force-wake: the media fuses (GT
// domain, as i915's engine_mask_apply_media_fuses reads them) and the
// render ring's start address (render domain, as intel_ring_submission's
// xcs_resume programs and checks it).

#include <cstdint>

#include "examples/i915_mini/bugs.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_mini {

struct EngineInfo {
  bool forcewake_acked = false;
  uint32_t vdbox_mask = 0;  // VCSn present (bit n)
  uint32_t vebox_mask = 0;  // VECSn present (bit n)
  bool rcs_ring_ok = false;  // RING_START read back what was written
};

// Holds RENDER and GT around the accesses (Bug::kSkipForcewake: does not).
EngineInfo InitEngines(fakes::MmioBus& mmio, Forcewake& forcewake, uint32_t rcs_ring_start, Bugs bugs = {});

}  // namespace regemu::i915_mini
