// The example Goldmont PMU driver without bugs, against the shipped
// yaml/goldmont: the probe, counting on fixed and GP counters with exact
// counts, privilege filters, sampling through the PMI with its ack, and
// stopping. The fixture fails a test on any violation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "examples/goldmont_perf/tests/goldmont_pmu_test.hpp"

namespace regemu::goldmont_perf {
namespace {

using fakes::FieldIs;

TEST_F(GoldmontPmuTest, ProbeFindsFullWidthWritesAndAWorkingCounter) {
  GoldmontPmu pmu = MakePmu();
  EXPECT_TRUE(pmu.Probe());
  EXPECT_TRUE(pmu.full_width_writes());
  EXPECT_THAT(device(), FieldIs("IA32_A_PMC0", 0xFFFF));
}

TEST_F(GoldmontPmuTest, CountsInstructionsCyclesAndCacheMissesExactly) {
  GoldmontPmu pmu = MakePmu();
  ASSERT_TRUE(pmu.Probe());
  auto instructions = pmu.Start({.code = kInstructions});
  auto cycles = pmu.Start({.code = kCycles});
  auto misses = pmu.Start({.code = kCacheMisses});
  ASSERT_TRUE(instructions && cycles && misses);
  // Fixed counters first: instructions on fixed 0, cycles on fixed 1, the
  // cache misses on GP 0.
  EXPECT_THAT(device(), FieldIs("IA32_FIXED_CTR_CTRL", 0xBB));
  EXPECT_THAT(device(), FieldIs("IA32_PERFEVTSEL0", 0x53412E));
  EXPECT_THAT(device(), FieldIs("IA32_PERF_GLOBAL_CTRL", 0x70000000F));

  InjectEvents("INST_RETIRED.ANY", 12345);
  InjectRate("LONGEST_LAT_CACHE.MISS", "0.25");
  device().Advance(40'000);  // 40 us
  EXPECT_EQ(pmu.Read(*instructions), 12345u);
  EXPECT_EQ(pmu.Read(*cycles), 40 * kCyclesPerUs);
  EXPECT_EQ(pmu.Read(*misses), 10u);
}

TEST_F(GoldmontPmuTest, UserOnlyEventsSkipKernelTime) {
  GoldmontPmu pmu = MakePmu();
  ASSERT_TRUE(pmu.Probe());
  auto user = pmu.Start({.code = 0x00C4, .kernel = false});  // BR_INST_RETIRED.ALL_BRANCHES:u
  ASSERT_TRUE(user);
  InjectEvents("BR_INST_RETIRED.ALL_BRANCHES", 100);  // kernel mode
  CpuMode("user");
  InjectEvents("BR_INST_RETIRED.ALL_BRANCHES", 7);
  EXPECT_EQ(pmu.Read(*user), 7u);
}

TEST_F(GoldmontPmuTest, SamplesCyclesEveryPeriodThroughThePmi) {
  GoldmontPmu pmu = MakePmu();
  ASSERT_TRUE(pmu.Probe());
  // perf record -e cycles -c 110000: fixed counter 1, with its PMI bit.
  auto handle = pmu.Start({.code = 0x003C, .period = 110'000});
  ASSERT_TRUE(handle);
  for (int period = 1; period <= 5; ++period) {
    device().Advance(99'000);  // 108,900 cycles: not yet
    ASSERT_FALSE(PmiPending()) << period;
    device().Advance(1'000);  // 110,000
    ASSERT_TRUE(PmiPending()) << period;
    EXPECT_TRUE(pmu.HandlePmi());
    EXPECT_FALSE(PmiPending());
    EXPECT_EQ(pmu.samples(*handle), static_cast<uint64_t>(period));
  }
  EXPECT_THAT(device(), FieldIs("IA32_PERF_GLOBAL_STATUS", 0));
}

TEST_F(GoldmontPmuTest, SamplesCacheMissesOnAGpCounter) {
  GoldmontPmu pmu = MakePmu();
  ASSERT_TRUE(pmu.Probe());
  auto handle = pmu.Start({.code = kCacheMisses, .period = 1000});
  ASSERT_TRUE(handle);
  // -period through the full-width alias.
  EXPECT_THAT(device(), FieldIs("IA32_A_PMC0", 0xFFFFFFFFFC18));
  InjectEvents("LONGEST_LAT_CACHE.MISS", 999);
  EXPECT_FALSE(PmiPending());
  InjectEvents("LONGEST_LAT_CACHE.MISS", 1);
  ASSERT_TRUE(PmiPending());
  EXPECT_TRUE(pmu.HandlePmi());
  EXPECT_EQ(pmu.samples(*handle), 1u);
  EXPECT_EQ(pmu.Read(*handle), 1000u);
  EXPECT_THAT(device(), FieldIs("IA32_A_PMC0", 0xFFFFFFFFFC18));  // re-armed
  EXPECT_FALSE(pmu.HandlePmi());  // nothing pending: a spurious NMI
}

TEST_F(GoldmontPmuTest, StoppingLeavesTheCountAndFreesTheCounter) {
  GoldmontPmu pmu = MakePmu();
  ASSERT_TRUE(pmu.Probe());
  auto misses = pmu.Start({.code = kCacheMisses});
  ASSERT_TRUE(misses);
  InjectEvents("LONGEST_LAT_CACHE.MISS", 3);
  pmu.Stop(*misses);
  InjectEvents("LONGEST_LAT_CACHE.MISS", 3);
  EXPECT_EQ(pmu.Read(*misses), 3u);
  EXPECT_THAT(device(), FieldIs("IA32_PERFEVTSEL0.EN", 0));
}

}  // namespace
}  // namespace regemu::goldmont_perf
