#pragma once
// The workload model behind an OA unit's counters: named signals with
// per-GPU-clock rates (`inject oa-load`), a GPU clock (`inject gpu-freq`)
// and the virtual clock. Time is cut into segments at every change of rate,
// frequency or counting; within a segment every counter is an exact
// function of time, base + rate x clocks, so sampling costs the same at
// any distance and the same script always gives the same counts.

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "regemu/regdb/behaviour_configs/oa_unit.hpp"
#include "regemu/regdb/wide_math.hpp"

namespace regemu::emulator {

// All counters of a unit at one instant, unbounded (the report cuts them to
// their widths). Counters are numbered by slot: A0.., then B0.., then C0..
struct OaSample {
  static constexpr unsigned kMaxCounters = 96;  // 64 A + 16 B + 16 C, the config check's limits
  uint64_t timestamp = 0;  // timestamp ticks since the device started
  uint64_t gpu_ticks = 0;  // GPU clocks since the device started
  std::array<uint64_t, kMaxCounters> counters{};
};

// The slot of counter `index` of `bank`.
unsigned OaCounterSlot(const regdb::OaUnitConfig& config, regdb::OaCounterBank bank, unsigned index);

class OaWorkload {
 public:
  explicit OaWorkload(const regdb::OaUnitConfig& config);

  // Counters to 0, every rate to 0, the configured GPU clock; counting off.
  void Reset(uint64_t now_ns);

  // Each change takes effect at `now_ns`, which must not be before the
  // previous change.
  void SetFrequencyMhz(uint64_t now_ns, uint64_t mhz);
  void SetRateMicros(uint64_t now_ns, unsigned signal, uint64_t micros);
  void SetCounting(uint64_t now_ns, bool counting);

  uint64_t frequency_mhz() const { return mhz_; }
  uint64_t rate_micros(unsigned signal) const { return rates_[signal]; }
  bool counting() const { return counting_; }

  uint64_t TimestampAt(uint64_t t_ns) const;
  // The first instant at which the timestamp reaches `ticks`.
  uint64_t TimeOfTimestamp(uint64_t ticks) const;
  // Every counter at `t_ns` (not before the last change).
  void SampleAt(uint64_t t_ns, OaSample& out) const;

  // The segment, for a reader that follows only what moves in it: within
  // one segment (one `generation`) a counter's value at t is
  // base(slot) + micros x SegmentClocksAt(t) / 10^6 for the slots in
  // moving(), and base(slot) for every other slot.
  struct Moving {
    uint16_t slot;
    uint64_t micros;  // millionths of an event per GPU clock
  };
  uint64_t generation() const { return generation_; }
  std::span<const Moving> moving() const { return active_; }
  uint64_t base(unsigned slot) const { return bases_[slot]; }
  uint64_t SegmentClocksAt(uint64_t t_ns) const { return ClocksSince(std::max(t_ns, segment_start_ns_)); }
  uint64_t GpuTicksAt(uint64_t t_ns) const { return segment_ticks_ + SegmentClocksAt(t_ns); }
  static uint64_t Events(uint64_t micros, uint64_t clocks) { return regdb::MulDiv(micros, clocks, 1'000'000); }

 private:
  // GPU clocks in [segment start, t): MHz x ns / 1000.
  uint64_t ClocksSince(uint64_t t_ns) const { return regdb::MulDiv(t_ns - segment_start_ns_, mhz_, 1000); }
  void StartSegment(uint64_t now_ns);  // folds the running segment into the bases
  void Rebuild();                      // the active counters from rates and counting

  const regdb::OaUnitConfig* config_;
  uint64_t mhz_ = 0;
  bool counting_ = false;
  std::vector<uint64_t> rates_;    // per signal, millionths per clock
  uint64_t segment_start_ns_ = 0;
  uint64_t segment_ticks_ = 0;     // GPU ticks at the segment start
  std::vector<uint64_t> bases_;    // per counter slot, at the segment start
  std::vector<Moving> active_;  // the counters that move in this segment
  uint64_t generation_ = 0;  // counts segments
};

}  // namespace regemu::emulator
