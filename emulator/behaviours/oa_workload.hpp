#pragma once
// The workload model behind an OA unit's counters: named signals with
// per-GPU-clock rates (`inject oa-load`), a GPU clock (`inject gpu-freq`)
// and the virtual clock. Time is cut into segments at every change of rate,
// frequency or counting; within a segment every counter is an exact
// function of time, base + rate x clocks, so sampling costs the same at
// any distance and the same script always gives the same counts.

#include <array>
#include <cstdint>
#include <vector>

#include "regdb/behaviour_configs/oa_unit.hpp"

namespace regemu::emulator {

// All counters of a unit at one instant; A, B and C unbounded (the report
// cuts them to their widths).
struct OaSample {
  static constexpr unsigned kMaxA = 64, kMaxB = 16, kMaxC = 16;
  uint64_t timestamp = 0;  // timestamp ticks since the device started
  uint64_t gpu_ticks = 0;  // GPU clocks since the device started
  std::array<uint64_t, kMaxA> a{};
  std::array<uint64_t, kMaxB> b{};
  std::array<uint64_t, kMaxC> c{};
};

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

 private:
  struct Active {
    uint16_t slot;        // into values: A, then B, then C
    uint64_t micros;      // millionths of an event per GPU clock
  };
  uint64_t ClocksSince(uint64_t t_ns) const;
  void StartSegment(uint64_t now_ns);  // folds the running segment into the bases
  void Rebuild();                      // the active counters from rates and counting

  const regdb::OaUnitConfig* config_;
  uint64_t mhz_ = 0;
  bool counting_ = false;
  std::vector<uint64_t> rates_;    // per signal, millionths per clock
  uint64_t segment_start_ns_ = 0;
  uint64_t segment_ticks_ = 0;     // GPU ticks at the segment start
  std::vector<uint64_t> bases_;    // per counter slot, at the segment start
  std::vector<Active> active_;
};

}  // namespace regemu::emulator
