#pragma once
// The clockevents arithmetic Linux applies to the HPET
// (kernel/time/clockevents.c, kernel/time/clocksource.c): the frequency
// from the period GCAP_ID reports, the mult/shift pair that turns
// nanoseconds into ticks, and the bounds of a programmable delta. Pure
// functions, no registers.

#include <cstdint>

namespace regemu::hpet {

inline constexpr uint64_t kFsPerSecond = 1'000'000'000'000'000;
inline constexpr uint64_t kNsPerSecond = 1'000'000'000;
inline constexpr uint32_t kMinPeriodFs = 100'000;       // HPET_MIN_PERIOD
inline constexpr uint32_t kMaxPeriodFs = 100'000'000;   // HPET_MAX_PERIOD (HPET 1.0a §2.3.4: at most 05F5E100h)
inline constexpr uint32_t kMinCycles = 128;             // HPET_MIN_CYCLES
inline constexpr uint32_t kMinProgDelta = kMinCycles + kMinCycles / 2;  // HPET_MIN_PROG_DELTA
inline constexpr uint32_t kMaxDeltaTicks = 0x7FFFFFFF;  // clockevents_config_and_register's max

// A clock_event_device's conversion: ticks = (ns * mult) >> shift.
struct ClockEvent {
  uint64_t freq_hz = 0;
  uint32_t mult = 0;
  uint32_t shift = 0;
  uint64_t min_delta_ns = 0;
  uint64_t max_delta_ns = 0;

  // clockevents_config_and_register(evt, freq, HPET_MIN_PROG_DELTA, 0x7FFFFFFF).
  static ClockEvent Configure(uint64_t freq_hz);
  // The ticks of `ns`, as clockevents_program_event computes them (ns
  // clamped to [min_delta_ns, max_delta_ns]).
  uint64_t TicksFor(uint64_t ns) const;
  // cev_delta2ns: the ns of `ticks`, rounded up (the delta bounds).
  uint64_t NsFor(uint64_t ticks, bool ismax) const;
};

// hpet_enable: freq = FSEC_PER_SEC / period.
constexpr uint64_t FrequencyOf(uint32_t period_fs) { return kFsPerSecond / period_fs; }

}  // namespace regemu::hpet
