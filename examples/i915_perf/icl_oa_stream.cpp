#include "examples/i915_perf/icl_oa_stream.hpp"

namespace regemu::i915_perf {

template <fakes::MmioBusLike Io>
IclOaStream<Io>::IclOaStream(Io& mmio, i915_mini::Forcewake& forcewake, GgttMemory& memory, i915_mini::Delay delay,
                             OaStreamOptions options)
    : io_(mmio),
      forcewake_(forcewake),
      delay_(std::move(delay)),
      options_(options),
      buffer_(memory, options.gtt_offset, options.buffer_size, ReadLoopReportSize(options), OaReportRules::kGen8) {}

template <fakes::MmioBusLike Io>
bool IclOaStream<Io>::Open(const MetricSet& metric_set) {
  // The PRM wants RC6 and trunk clock gating off while OA runs: i915 holds
  // force-wake from open to close.
  if (!forcewake_.Get(kOaForcewake)) {
    forcewake_.Put(kOaForcewake);
    return false;
  }
  EnableMetricSet(metric_set);
  OaEnable();
  return true;
}

template <fakes::MmioBusLike Io>
void IclOaStream<Io>::EnableMetricSet(const MetricSet& metric_set) {
  // Clock-ratio-change reports are too noisy; the ratio goes into every
  // report instead (Gen9-11).
  Write32(gen8::kOaDebug,
          fakes::MaskedBitEnable(gen8::kOaDebugDisableClkRatioReports | gen8::kOaDebugIncludeClkRatio));
  // The context image's OACTXCONTROL: periodic timer, counters resumed.
  Write32(gen8::kOaCtxControl, (options_.period_exponent << gen8::kOaTimerPeriodShift) | gen8::kOaTimerEnable |
                                   gen8::kOaCounterResume);
  WriteRegList(io_, metric_set.mux);
  delay_(kDelayAfterMuxNs);
  WriteRegList(io_, metric_set.b_counter);
  WriteRegList(io_, metric_set.flex);  // the context image's flex EU registers
}

template <fakes::MmioBusLike Io>
void IclOaStream<Io>::DisableMetricSet() {
  UncoreRmw(io_, gen8::kRpmConfig1, gen8::kGen10GtNoaEnable, 0);
}

template <fakes::MmioBusLike Io>
void IclOaStream<Io>::InitOaBuffer() {
  const uint32_t gtt = options_.gtt_offset;
  const uint32_t tail = gtt & kOaPointerMask;
  Write32(gen8::kOaStatus, 0);
  Write32(gen8::kOaHeadPtr, gtt);
  Write32(gen8::kOaBufferUdw, 0);
  // PRM: OABUFFER "must be set before the OATAILPTR register and after the
  // OAHEADPTR register. This is to enable proper functionality of the
  // overflow bit."
  if (options_.bugs.Has(Bug::kTailBeforeBuffer)) Write32(gen8::kOaTailPtr, tail);
  Write32(gen8::kOaBuffer, gtt | OaBufferSizeField(options_.buffer_size) | gen8::kOaBufferMemSelectGgtt);
  if (!options_.bugs.Has(Bug::kTailBeforeBuffer)) Write32(gen8::kOaTailPtr, tail);
  buffer_.Reset();
}

template <fakes::MmioBusLike Io>
void IclOaStream<Io>::OaEnable() {
  // Reset the pointers so no report from before now goes out; this also
  // clears the status and the buffer in error paths.
  InitOaBuffer();
  Write32(gen8::kOaControl, (kOaFormatCode << gen8::kOaReportFormatShift) | gen8::kOaCounterEnable);
}

template <fakes::MmioBusLike Io>
bool IclOaStream<Io>::OaDisable() {
  return DisableOa(io_, delay_, gen8::kOaControl, gen8::kOaCounterEnable);
}

template <fakes::MmioBusLike Io>
std::vector<OaRecord> IclOaStream<Io>::Read() {
  std::vector<OaRecord> records;
  buffer_.CheckTail(Read32(gen8::kOaTailPtr) & kOaPointerMask, !options_.bugs.Has(Bug::kIgnoreTailRace));

  uint32_t status = Read32(gen8::kOaStatus);
  // An overflow means old reports may have been trampled: start over
  // (oa_enable re-initialises the buffer and clears OASTATUS).
  if ((status & gen8::kOaStatusBufferOverflow) != 0) {
    records.push_back({OaRecordType::kBufferLost, {}});
    OaDisable();
    OaEnable();
    status = Read32(gen8::kOaStatus);
  }
  if ((status & gen8::kOaStatusReportLost) != 0) {
    records.push_back({OaRecordType::kReportLost, {}});
    // Gen8-11: the same write sets the head and tail pointer wrap bits.
    UncoreRmw(io_, gen8::kOaStatus, gen8::kOaStatusCounterOverflow | gen8::kOaStatusReportLost,
              gen8::kOaStatusHeadPointerWrap | gen8::kOaStatusTailPointerWrap);
  }

  if (buffer_.AppendReports(records) && !options_.bugs.Has(Bug::kNoHeadWriteBack)) {
    Write32(gen8::kOaHeadPtr, (buffer_.head() + buffer_.gtt_offset()) & kOaPointerMask);
  }
  return records;
}

template <fakes::MmioBusLike Io>
bool IclOaStream<Io>::Close() {
  const bool off = OaDisable();
  DisableMetricSet();
  forcewake_.Put(kOaForcewake);
  return off;
}

template class IclOaStream<fakes::MmioBus>;

}  // namespace regemu::i915_perf
