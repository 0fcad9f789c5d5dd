#include "examples/i915_mini/engines.hpp"

#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini {

namespace icl = ::regemu::regs::icl;

EngineInfo InitEngines(fakes::MmioBus& mmio, Forcewake& forcewake, uint32_t rcs_ring_start, Bugs bugs) {
  EngineInfo info;
  const bool hold = !bugs.Has(Bug::kSkipForcewake);
  info.forcewake_acked = hold ? forcewake.Get(kFwRender | kFwGt) : false;

  auto fuses = icl::GEN11_GT_VEBOX_VDBOX_DISABLE::Get().ReadFrom(mmio);
  info.vdbox_mask = ~uint32_t{fuses.vdbox_disable()} & 0xFF;
  info.vebox_mask = ~uint32_t{fuses.vebox_disable()} & 0xF;

  const uint64_t rcs = icl::ENGINE_RING::RCS0_BASE;
  icl::ENGINE_RING::RING_START::FromValue(rcs, rcs_ring_start).WriteTo(mmio);
  info.rcs_ring_ok = icl::ENGINE_RING::RING_START::Get(rcs).ReadFrom(mmio).reg_value() == rcs_ring_start;

  if (hold) forcewake.Put(kFwRender | kFwGt);
  return info;
}

}  // namespace regemu::i915_mini
