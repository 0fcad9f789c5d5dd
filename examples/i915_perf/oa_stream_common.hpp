#pragma once
// What the Haswell and Gen8+ streams share: the open parameters i915 takes
// from userspace (here fixed to one periodic RenderBasic stream), and the
// uncore idioms both generations use.

#include <cstdint>

#include "examples/i915_mini/delay.hpp"
#include "examples/i915_perf/bugs.hpp"
#include "examples/i915_perf/oa_regs.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_perf {

struct OaStreamOptions {
  // A periodic report every 2^(exponent + 1) timestamp ticks (i915's
  // DRM_I915_PERF_PROP_OA_EXPONENT; 0..31).
  unsigned period_exponent = 13;
  // Where the buffer is pinned in the GGTT. HSW wants 16 MiB alignment.
  uint32_t gtt_offset = 0x01000000;
  // i915 always allocates 16 MiB; a power of two from 128 KiB, for tests
  // and demos that want the buffer to fill sooner.
  uint32_t buffer_size = kOaBufferSize;
  Bugs bugs;
};

// i915 waits 15-20 ms after the mux writes for the NOA configuration to
// apply (Linux <= 5.4 config_oa_regs callers, "delay_after_mux").
inline constexpr uint64_t kDelayAfterMuxNs = 20'000'000;
// oa_disable: intel_wait_for_register(OACONTROL, ENABLE, 0, 50 ms).
inline constexpr uint64_t kOaDisableTimeoutNs = 50'000'000;
inline constexpr uint64_t kOaDisablePollNs = 10'000;

// intel_uncore_rmw: read, clear `clear`, set `set`, write.
template <fakes::MmioBusLike Io>
void UncoreRmw(Io& io, uint64_t offset, uint32_t clear, uint32_t set) {
  const auto old = static_cast<uint32_t>(io.Read(offset, 32));
  io.Write(offset, 32, (old & ~clear) | set);
}

// gen7/gen8_oa_disable: the control register written 0, then its enable
// bit polled until it reads 0. False on timeout (i915 logs an error and
// goes on).
template <fakes::MmioBusLike Io>
bool DisableOa(Io& io, const i915_mini::Delay& delay, uint64_t control, uint32_t enable_bit) {
  io.Write(control, 32, 0);
  return i915_mini::PollUntil(delay, kOaDisableTimeoutNs, kOaDisablePollNs,
                              [&] { return (io.Read(control, 32) & enable_bit) == 0; });
}

// The report size the read loop steps by: the format's, unless the stream
// is told to get it wrong.
inline uint32_t ReadLoopReportSize(const OaStreamOptions& options) {
  return options.bugs.Has(Bug::kAssume128ByteReports) ? kOaReportSize / 2 : kOaReportSize;
}

}  // namespace regemu::i915_perf
