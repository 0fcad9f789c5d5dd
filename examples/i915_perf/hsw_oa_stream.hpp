#pragma once
// An i915-perf OA stream on Haswell (gen7), as i915_perf.c drives it
// (i915_perf.c): hsw_enable_metric_set, gen7_init_oa_buffer,
// gen7_oa_enable at open; oa_buffer_check_unlocked and gen7_oa_read at
// read; gen7_oa_disable and hsw_disable_metric_set at close. A template
// over the register IO; the MmioBus instance is compiled once, in
// hsw_oa_stream.cpp.
//
//   HswOaStream<fakes::MmioBus> stream(mmio, ggtt, delay, {.period_exponent = 13});
//   stream.Open(HswRenderBasic());
//   std::vector<OaRecord> records = stream.Read();
//   stream.Close();

#include <cstdint>
#include <utility>
#include <vector>

#include "examples/i915_mini/delay.hpp"
#include "examples/i915_perf/ggtt_memory.hpp"
#include "examples/i915_perf/metric_set.hpp"
#include "examples/i915_perf/oa_buffer.hpp"
#include "examples/i915_perf/oa_record.hpp"
#include "examples/i915_perf/oa_stream_common.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_perf {

template <fakes::MmioBusLike Io>
class HswOaStream {
 public:
  HswOaStream(Io& mmio, GgttMemory& memory, i915_mini::Delay delay, OaStreamOptions options = {});

  // Clock gating for OA, the metric set, then the buffer and OA on.
  void Open(const MetricSet& metric_set);
  // What one read() returns: status records, then the reports that landed.
  std::vector<OaRecord> Read();
  // OA off, clock gating and NOA back. False when OA did not turn off.
  bool Close();

  const OaBuffer& buffer() const { return buffer_; }

 private:
  void EnableMetricSet(const MetricSet& metric_set);
  void DisableMetricSet();
  void InitOaBuffer();
  void OaEnable();
  bool OaDisable();
  uint32_t Read32(uint64_t offset) { return static_cast<uint32_t>(io_.Read(offset, 32)); }
  void Write32(uint64_t offset, uint32_t value) { io_.Write(offset, 32, value); }

  Io& io_;
  i915_mini::Delay delay_;
  OaStreamOptions options_;
  OaBuffer buffer_;
  // OASTATUS1 flags already reported: they cannot be cleared while
  // periodic sampling runs (perf->gen7_latched_oastatus1).
  uint32_t latched_oastatus1_ = 0;
};

}  // namespace regemu::i915_perf
