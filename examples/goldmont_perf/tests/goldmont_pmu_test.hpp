#pragma once
// The fixture for the example Goldmont PMU driver: a strict device of the
// shipped yaml/goldmont, its `msr` bus, and the hardware side (events,
// rates, the CPU mode, virtual time) as a test drives it.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "examples/goldmont_perf/pmu.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::goldmont_perf {

// perf's raw configs (Linux intel_perfmon_event_map).
inline constexpr uint16_t kInstructions = 0x00C0;
inline constexpr uint16_t kCycles = 0x003C;
inline constexpr uint16_t kRefCycles = 0x0300;
inline constexpr uint16_t kCacheMisses = 0x412E;  // LONGEST_LAT_CACHE.MISS
// The shipped core clock: 1100 MHz.
inline constexpr uint64_t kCyclesPerUs = 1100;

class GoldmontPmuTest : public fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(fakes::ShippedDatabase("goldmont")); }

  GoldmontPmu MakePmu(Bugs bugs = {}) { return GoldmontPmu(bus("msr"), bugs); }
  void InjectEvents(const std::string& event, uint64_t count) {
    ASSERT_EQ(device().Inject("event", std::vector<std::string>{event, std::to_string(count)}), "");
  }
  void InjectRate(const std::string& event, const std::string& per_us) {
    ASSERT_EQ(device().Inject("event-rate", std::vector<std::string>{event, per_us}), "");
  }
  void CpuMode(const std::string& mode) {
    ASSERT_EQ(device().Inject("cpu-mode", std::vector<std::string>{mode}), "");
  }
  // The PMI is the device's interrupt request (an NMI: the driver takes it at once).
  bool PmiPending() { return device().interrupt_requested(); }
};

}  // namespace regemu::goldmont_perf
