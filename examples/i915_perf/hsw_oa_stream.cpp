#include "examples/i915_perf/hsw_oa_stream.hpp"

namespace regemu::i915_perf {

template <fakes::MmioBusLike Io>
HswOaStream<Io>::HswOaStream(Io& mmio, GgttMemory& memory, i915_mini::Delay delay, OaStreamOptions options)
    : io_(mmio),
      delay_(std::move(delay)),
      options_(options),
      buffer_(memory, options.gtt_offset, options.buffer_size, ReadLoopReportSize(options), OaReportRules::kGen7) {}

template <fakes::MmioBusLike Io>
void HswOaStream<Io>::Open(const MetricSet& metric_set) {
  EnableMetricSet(metric_set);
  OaEnable();
}

template <fakes::MmioBusLike Io>
void HswOaStream<Io>::EnableMetricSet(const MetricSet& metric_set) {
  // PRM: OA needs DOP clock gating off and the CS unit's clock on.
  UncoreRmw(io_, gen7::kMiscCpCtl, gen7::kDopClockGateEnable, 0);
  UncoreRmw(io_, gen7::kUcgCtl1, 0, gen7::kCsUnitClockGateDisable);
  WriteRegList(io_, metric_set.mux);
  delay_(kDelayAfterMuxNs);
  WriteRegList(io_, metric_set.b_counter);
}

template <fakes::MmioBusLike Io>
void HswOaStream<Io>::DisableMetricSet() {
  UncoreRmw(io_, gen7::kUcgCtl1, gen7::kCsUnitClockGateDisable, 0);
  UncoreRmw(io_, gen7::kMiscCpCtl, 0, gen7::kDopClockGateEnable);
  UncoreRmw(io_, gen7::kGdtChickenBits, gen7::kGtNoaEnable, 0);
}

template <fakes::MmioBusLike Io>
void HswOaStream<Io>::InitOaBuffer() {
  const uint32_t gtt = options_.gtt_offset;
  const uint32_t tail = gtt | OaBufferSizeField(options_.buffer_size);
  // Pre-BDW: OABUFFER is written with the counters off, after OASTATUS2
  // (head) and before OASTATUS1 (tail and size).
  Write32(gen7::kOaStatus2, gtt | gen7::kOaStatus2MemSelectGgtt);
  if (options_.bugs.Has(Bug::kTailBeforeBuffer)) Write32(gen7::kOaStatus1, tail);
  Write32(gen7::kOaBuffer, gtt);
  if (!options_.bugs.Has(Bug::kTailBeforeBuffer)) Write32(gen7::kOaStatus1, tail);
  latched_oastatus1_ = 0;
  buffer_.Reset();
}

template <fakes::MmioBusLike Io>
void HswOaStream<Io>::OaEnable() {
  // Reset the pointers so no report from before now goes out.
  InitOaBuffer();
  Write32(gen7::kOaControl, (options_.period_exponent << gen7::kOaControlTimerPeriodShift) |
                                gen7::kOaControlTimerEnable | (kOaFormatCode << gen7::kOaControlFormatShift) |
                                gen7::kOaControlEnable);
}

template <fakes::MmioBusLike Io>
bool HswOaStream<Io>::OaDisable() {
  return DisableOa(io_, delay_, gen7::kOaControl, gen7::kOaControlEnable);
}

template <fakes::MmioBusLike Io>
std::vector<OaRecord> HswOaStream<Io>::Read() {
  std::vector<OaRecord> records;
  buffer_.CheckTail(Read32(gen7::kOaStatus1) & kOaPointerMask, !options_.bugs.Has(Bug::kIgnoreTailRace));

  uint32_t status = Read32(gen7::kOaStatus1) & ~latched_oastatus1_;
  // An overflow means the unit may be trampling reports not yet read, and
  // its status cannot be cleared while sampling: start over.
  if ((status & gen7::kOaStatus1BufferOverflow) != 0) {
    records.push_back({OaRecordType::kBufferLost, {}});
    OaDisable();
    OaEnable();
    status = Read32(gen7::kOaStatus1);
  }
  if ((status & gen7::kOaStatus1ReportLost) != 0) {
    records.push_back({OaRecordType::kReportLost, {}});
    latched_oastatus1_ |= gen7::kOaStatus1ReportLost;
  }

  if (buffer_.AppendReports(records) && !options_.bugs.Has(Bug::kNoHeadWriteBack)) {
    Write32(gen7::kOaStatus2,
            ((buffer_.head() + buffer_.gtt_offset()) & kOaPointerMask) | gen7::kOaStatus2MemSelectGgtt);
  }
  return records;
}

template <fakes::MmioBusLike Io>
bool HswOaStream<Io>::Close() {
  const bool off = OaDisable();
  DisableMetricSet();
  return off;
}

template class HswOaStream<fakes::MmioBus>;

}  // namespace regemu::i915_perf
