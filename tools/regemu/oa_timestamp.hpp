#pragma once
// The OA timestamp clock on the virtual clock: the unit's timestamp counter
// reads floor(time_ns * timestamp_hz / 10^9) ticks (its report dword 1 is
// the low 32 bits of that). Exact, and free of overflow for timestamp_hz up
// to kMaxTimestampHz and virtual times up to 50 years.

#include <cstdint>

namespace regemu::tools {

inline constexpr uint64_t kNsPerSecond = 1'000'000'000;
inline constexpr uint64_t kMaxTimestampHz = 10'000'000'000;  // keeps the products below under 2^64

// Ticks at virtual time `ns`.
constexpr uint64_t TimestampTicksAt(uint64_t ns, uint64_t timestamp_hz) {
  return ns / kNsPerSecond * timestamp_hz + ns % kNsPerSecond * timestamp_hz / kNsPerSecond;
}

// The first virtual time at which the counter reads `ticks`.
constexpr uint64_t NsAtTimestampTick(uint64_t ticks, uint64_t timestamp_hz) {
  uint64_t rest = ticks % timestamp_hz * kNsPerSecond;
  return ticks / timestamp_hz * kNsPerSecond + (rest + timestamp_hz - 1) / timestamp_hz;
}

}  // namespace regemu::tools
