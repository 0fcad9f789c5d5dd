#pragma once
// The OA timestamp clock on the virtual clock: the unit's timestamp counter
// reads floor(time_ns * timestamp_hz / 10^9) ticks (its report dword 1 is
// the low 32 bits of that). One definition for the emulated unit
// (emulator/behaviours/oa_workload.cpp) and the recordings exported from it
// (tools/regemu/oa_recording.cpp), which must agree to the tick. Exact, and free of overflow for timestamp_hz up
// to kMaxTimestampHz and virtual times up to 50 years.

#include <cstdint>

namespace regemu::regdb {

inline constexpr uint64_t kNsPerSecond = 1'000'000'000;
inline constexpr uint64_t kMaxTimestampHz = 10'000'000'000;  // keeps the products below under 2^64

// Ticks at virtual time `ns`.
constexpr uint64_t TimestampTicksAt(uint64_t ns, uint64_t timestamp_hz) {
  return ns / kNsPerSecond * timestamp_hz + ns % kNsPerSecond * timestamp_hz / kNsPerSecond;
}

// The first virtual time at which the counter reads `ticks`, or 2^64-1 ns
// (the end of time, where the clock saturates: never) when that lies
// beyond it, as for a timer period of 2^62 ticks.
constexpr uint64_t NsAtTimestampTick(uint64_t ticks, uint64_t timestamp_hz) {
  constexpr uint64_t kEndOfTime = ~uint64_t{0};
  uint64_t seconds = ticks / timestamp_hz;
  if (seconds > kEndOfTime / kNsPerSecond) return kEndOfTime;
  uint64_t whole = seconds * kNsPerSecond;
  uint64_t rest = ticks % timestamp_hz * kNsPerSecond;
  uint64_t part = (rest + timestamp_hz - 1) / timestamp_hz;
  return part > kEndOfTime - whole ? kEndOfTime : whole + part;
}

}  // namespace regemu::regdb
