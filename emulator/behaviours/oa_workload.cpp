#include "emulator/behaviours/oa_workload.hpp"

#include <algorithm>

namespace regemu::emulator {
namespace {

__extension__ typedef unsigned __int128 u128;  // products of ns, MHz and millionths
constexpr uint64_t kMicros = 1'000'000;

unsigned SlotOf(const regdb::OaUnitConfig& config, regdb::OaCounterBank bank, unsigned index) {
  switch (bank) {
    case regdb::OaCounterBank::kA: return index;
    case regdb::OaCounterBank::kB: return config.a_count + index;
    case regdb::OaCounterBank::kC: return config.a_count + config.b_count + index;
  }
  return 0;
}

// a x b / d, exact; 64-bit arithmetic while the product fits (the common
// case: a 128-bit division is a library call, several times slower).
inline uint64_t MulDiv(uint64_t a, uint64_t b, uint64_t d) {
  uint64_t product;
  if (!__builtin_mul_overflow(a, b, &product)) return product / d;
  return static_cast<uint64_t>(static_cast<u128>(a) * b / d);
}

}  // namespace

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
}

uint64_t OaWorkload::ClocksSince(uint64_t t_ns) const {
  // GPU clocks in [segment start, t): MHz x ns / 1000.
  return MulDiv(t_ns - segment_start_ns_, mhz_, 1000);
}

void OaWorkload::StartSegment(uint64_t now_ns) {
  if (now_ns < segment_start_ns_) now_ns = segment_start_ns_;
  uint64_t clocks = ClocksSince(now_ns);
  for (const Active& active : active_) {
    bases_[active.slot] += MulDiv(active.micros, clocks, kMicros);
  }
  segment_ticks_ += clocks;
  segment_start_ns_ = now_ns;
}

void OaWorkload::Rebuild() {
  active_.clear();
  if (!counting_) return;
  for (const regdb::OaCounterSource& source : config_->sources) {
    u128 micros = static_cast<u128>(rates_[source.signal]) * source.scale_micros / kMicros;
    if (source.per_eu) micros *= config_->eu_count();
    if (micros == 0) continue;
    active_.push_back({static_cast<uint16_t>(SlotOf(*config_, source.bank, source.index)),
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

uint64_t OaWorkload::TimestampAt(uint64_t t_ns) const {
  return MulDiv(t_ns, config_->timestamp_hz, 1'000'000'000);
}

uint64_t OaWorkload::TimeOfTimestamp(uint64_t ticks) const {
  // ceil(ticks x 1e9 / hz): the first ns whose timestamp reaches `ticks`.
  uint64_t product;
  if (!__builtin_mul_overflow(ticks, uint64_t{1'000'000'000}, &product) &&
      product <= ~uint64_t{0} - config_->timestamp_hz) {
    return (product + config_->timestamp_hz - 1) / config_->timestamp_hz;
  }
  u128 scaled = static_cast<u128>(ticks) * 1'000'000'000;
  u128 t = (scaled + config_->timestamp_hz - 1) / config_->timestamp_hz;
  return t > ~uint64_t{0} ? ~uint64_t{0} : static_cast<uint64_t>(t);
}

void OaWorkload::SampleAt(uint64_t t_ns, OaSample& out) const {
  if (t_ns < segment_start_ns_) t_ns = segment_start_ns_;
  uint64_t clocks = ClocksSince(t_ns);
  out.timestamp = TimestampAt(t_ns);
  out.gpu_ticks = segment_ticks_ + clocks;
  const unsigned a = config_->a_count, b = config_->b_count;
  for (unsigned i = 0; i < a; ++i) out.a[i] = bases_[i];
  for (unsigned i = 0; i < b; ++i) out.b[i] = bases_[a + i];
  for (unsigned i = 0; i < config_->c_count; ++i) out.c[i] = bases_[a + b + i];
  for (const Active& active : active_) {
    uint64_t add = MulDiv(active.micros, clocks, kMicros);
    unsigned slot = active.slot;
    if (slot < a) {
      out.a[slot] += add;
    } else if (slot < a + b) {
      out.b[slot - a] += add;
    } else {
      out.c[slot - a - b] += add;
    }
  }
}

}  // namespace regemu::emulator
