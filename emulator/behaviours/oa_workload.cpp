#include "regemu/emulator/behaviours/oa_workload.hpp"

#include <algorithm>

#include "regemu/regdb/oa_timestamp.hpp"

namespace regemu::emulator {
namespace {

constexpr uint64_t kMicros = 1'000'000;

}  // namespace

unsigned OaCounterSlot(const regdb::OaUnitConfig& config, regdb::OaCounterBank bank, unsigned index) {
  switch (bank) {
    case regdb::OaCounterBank::kA: return index;
    case regdb::OaCounterBank::kB: return config.a_count + index;
    case regdb::OaCounterBank::kC: return config.a_count + config.b_count + index;
  }
  return 0;
}

OaWorkload::OaWorkload(const regdb::OaUnitConfig& config)
    : config_(&config),
      rates_(config.signals.size(), 0),
      bases_(config.a_count + config.b_count + config.c_count, 0) {
  Reset(0);
}

void OaWorkload::Reset(uint64_t now_ns) {
  mhz_ = config_->gpu_mhz;
  counting_ = false;
  std::fill(rates_.begin(), rates_.end(), 0);
  if (!rates_.empty()) rates_[0] = kMicros;  // `clock`: one event per GPU clock
  std::fill(bases_.begin(), bases_.end(), 0);
  segment_start_ns_ = now_ns;
  segment_ticks_ = 0;
  active_.clear();
  ++generation_;
}

void OaWorkload::StartSegment(uint64_t now_ns) {
  if (now_ns < segment_start_ns_) now_ns = segment_start_ns_;
  uint64_t clocks = ClocksSince(now_ns);
  for (const Moving& active : active_) {
    bases_[active.slot] += Events(active.micros, clocks);
  }
  segment_ticks_ += clocks;
  segment_start_ns_ = now_ns;
  ++generation_;
}

void OaWorkload::Rebuild() {
  active_.clear();
  if (!counting_) return;
  for (const regdb::OaCounterSource& source : config_->sources) {
    regdb::Uint128 micros = static_cast<regdb::Uint128>(rates_[source.signal]) * source.scale_micros / kMicros;
    if (source.per_eu) micros *= config_->eu_count();
    if (micros == 0) continue;
    active_.push_back({static_cast<uint16_t>(OaCounterSlot(*config_, source.bank, source.index)),
                       static_cast<uint64_t>(micros)});
  }
}

void OaWorkload::SetFrequencyMhz(uint64_t now_ns, uint64_t mhz) {
  StartSegment(now_ns);
  mhz_ = mhz;
}

void OaWorkload::SetRateMicros(uint64_t now_ns, unsigned signal, uint64_t micros) {
  StartSegment(now_ns);
  rates_[signal] = micros;
  Rebuild();
}

void OaWorkload::SetCounting(uint64_t now_ns, bool counting) {
  if (counting == counting_) return;
  StartSegment(now_ns);
  counting_ = counting;
  Rebuild();
}

uint64_t OaWorkload::TimestampAt(uint64_t t_ns) const { return regdb::TimestampTicksAt(t_ns, config_->timestamp_hz); }

uint64_t OaWorkload::TimeOfTimestamp(uint64_t ticks) const {
  return regdb::NsAtTimestampTick(ticks, config_->timestamp_hz);
}

void OaWorkload::SampleAt(uint64_t t_ns, OaSample& out) const {
  uint64_t clocks = SegmentClocksAt(t_ns);
  out.timestamp = TimestampAt(std::max(t_ns, segment_start_ns_));
  out.gpu_ticks = segment_ticks_ + clocks;
  std::copy(bases_.begin(), bases_.end(), out.counters.begin());
  for (const Moving& active : active_) out.counters[active.slot] += Events(active.micros, clocks);
}

}  // namespace regemu::emulator
