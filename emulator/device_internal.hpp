#pragma once
// What device.cpp (state, backdoor, time) and device_frontdoor.cpp (the
// access path) share; not part of the public API.

#include <cstdint>
#include <vector>

#include "emulator/device.hpp"

namespace regemu::emulator {

struct Device::Access {
  Access(const TraceEntry& entry_in, bool violated_in) : entry(entry_in), violated(violated_in) {}

  TraceEntry entry;
  bool violated = false;
  // Its violations, recorded when it finishes: only then is the value a read
  // returns known (a violation carries it).
  std::vector<Violation> pending;
};


inline bool IsAccessWidth(unsigned width) { return width == 8 || width == 16 || width == 32 || width == 64; }
inline uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

}  // namespace regemu::emulator
