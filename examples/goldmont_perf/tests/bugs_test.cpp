// Each deliberate Goldmont PMU driver bug and the violation regemu reports
// for it (the test takes it; the fixture would fail on any left over).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "examples/goldmont_perf/tests/goldmont_pmu_test.hpp"

namespace regemu::goldmont_perf {
namespace {

using fakes::ViolationIs;
using ::testing::ElementsAre;

// The handler never writes IA32_PERF_GLOBAL_OVF_CTRL: re-enabling with
// the overflow still in GLOBAL_STATUS is a protocol violation, and the
// PMI stays asserted.
TEST_F(GoldmontPmuTest, StatusNeverAckedIsAProtocolViolation) {
  GoldmontPmu pmu = MakePmu({Bug::kStatusNeverAcked});
  ASSERT_TRUE(pmu.Probe());
  auto handle = pmu.Start({.code = kCacheMisses, .period = 1000});
  ASSERT_TRUE(handle);
  InjectEvents("LONGEST_LAT_CACHE.MISS", 1000);
  ASSERT_TRUE(PmiPending());
  pmu.HandlePmi();
  EXPECT_TRUE(PmiPending());
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("protocol", "IA32_PERF_GLOBAL_CTRL",
                                      "slot PMC0 starts counting with its overflow unacknowledged "
                                      "(IA32_PERF_GLOBAL_STATUS bit 0 still set; clear it through "
                                      "IA32_PERF_GLOBAL_OVF_CTRL)")));
}

// AnyThread (bit 21) in the event select: KVM's vPMU reserves it (#GP).
TEST_F(GoldmontPmuTest, ReservedEvtselBitIsAnMbzViolation) {
  GoldmontPmu pmu = MakePmu({Bug::kReservedEvtselBit});
  ASSERT_TRUE(pmu.Probe());
  ASSERT_TRUE(pmu.Start({.code = kCacheMisses}));
  EXPECT_THAT(TakeViolations(), ElementsAre(ViolationIs("mbz", "IA32_PERFEVTSEL0", "must-be-zero bits 0x200000")));
}

// The period programmed after enabling: the counter is written while it counts.
TEST_F(GoldmontPmuTest, CounterWrittenWhileEnabledIsAProtocolViolation) {
  GoldmontPmu pmu = MakePmu({Bug::kCounterWrittenWhileEnabled});
  ASSERT_TRUE(pmu.Probe());
  ASSERT_TRUE(pmu.Start({.code = kCacheMisses, .period = 1000}));
  EXPECT_THAT(TakeViolations(), ElementsAre(ViolationIs("protocol", "IA32_A_PMC0", "written while it counts")));
}

// The same mistake on a fixed counter.
TEST_F(GoldmontPmuTest, FixedCounterWrittenWhileEnabledIsAProtocolViolation) {
  GoldmontPmu pmu = MakePmu({Bug::kCounterWrittenWhileEnabled});
  ASSERT_TRUE(pmu.Probe());
  ASSERT_TRUE(pmu.Start({.code = kRefCycles}));
  EXPECT_THAT(TakeViolations(), ElementsAre(ViolationIs("protocol", "IA32_FIXED_CTR2", "written while it counts")));
}

}  // namespace
}  // namespace regemu::goldmont_perf
