#pragma once
// The mistakes the example MI200 counter collector can be told to make, one
// switch each. A collector with no bug set is the one that mirrors ROCm's
// aqlprofile sequences (ROCm/aqlprofile).

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::rocm_collector {

enum class Bug : uint8_t {
  // SPI's counters have HI below LO (dword 0x3180 + 2n is HI): the collector
  // reads them the other way round and reports HI:LO swapped. Nothing on
  // the bus is wrong; the value is (the oracle's count says so).
  kSpiHiLoSwapped,
  // After programming TCC_HIT instance by instance, GRBM_GFX_INDEX is left
  // on the last instance, and TCC_MISS's select, meant as a broadcast,
  // reaches that instance only: the other instances count no misses and
  // L2CacheHit comes out too high.
  kGfxIndexLeftOnInstance,
  // The read writes CP_PERFMON_CNTL = START without PERFMON_SAMPLE_ENABLE:
  // the counters show no sample (`protocol`, read-without-sample).
  kReadWithoutSample,
};

inline constexpr Bug kAllBugs[] = {Bug::kSpiHiLoSwapped, Bug::kGfxIndexLeftOnInstance, Bug::kReadWithoutSample};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kSpiHiLoSwapped: return "spi-hi-lo-swapped";
    case Bug::kGfxIndexLeftOnInstance: return "gfx-index-left-on-instance";
    case Bug::kReadWithoutSample: return "read-without-sample";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::rocm_collector
