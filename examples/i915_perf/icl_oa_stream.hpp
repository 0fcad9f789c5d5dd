#pragma once
// An i915-perf OA stream on Ice Lake (Gen11, i915's gen8 OA paths), as
// i915_perf.c drives it (i915_perf.c): force-wake held for the
// stream's life; gen8_enable_metric_set, gen8_init_oa_buffer, gen8_oa_enable
// at open; oa_buffer_check_unlocked and gen8_oa_read at read;
// gen8_oa_disable and gen11_disable_metric_set at close. A template over the
// register IO; the MmioBus instance is compiled once, in icl_oa_stream.cpp.
//
//   Forcewake forcewake(mmio, delay);
//   IclOaStream<fakes::MmioBus> stream(mmio, forcewake, ggtt, delay, {.period_exponent = 13});
//   stream.Open(IclRenderBasic());
//   std::vector<OaRecord> records = stream.Read();
//   stream.Close();
//
// OACTXCONTROL and the flex EU registers live in the render context image
// on Gen8-11 (i915 writes them there, not by MMIO). Under regemu no context
// is loaded, so the stream writes them by MMIO, which stands for the
// context restore.

#include <cstdint>
#include <utility>
#include <vector>

#include "examples/i915_mini/delay.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "examples/i915_perf/ggtt_memory.hpp"
#include "examples/i915_perf/metric_set.hpp"
#include "examples/i915_perf/oa_buffer.hpp"
#include "examples/i915_perf/oa_record.hpp"
#include "examples/i915_perf/oa_stream_common.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_perf {

// The domains the OA, NOA and flex registers need (i915 takes them all:
// FORCEWAKE_ALL).
inline constexpr i915_mini::FwDomains kOaForcewake = i915_mini::kFwRender | i915_mini::kFwGt;

template <fakes::MmioBusLike Io>
class IclOaStream {
 public:
  IclOaStream(Io& mmio, i915_mini::Forcewake& forcewake, GgttMemory& memory, i915_mini::Delay delay,
              OaStreamOptions options = {});

  // Force-wake, the metric set, then the buffer and OA on. False when a
  // force-wake ack did not come (the stream is not opened).
  bool Open(const MetricSet& metric_set);
  // What one read() returns: status records, then the reports that landed.
  std::vector<OaRecord> Read();
  // OA off, NOA off, force-wake released. False when OA did not turn off.
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
  i915_mini::Forcewake& forcewake_;
  i915_mini::Delay delay_;
  OaStreamOptions options_;
  OaBuffer buffer_;
};

}  // namespace regemu::i915_perf
