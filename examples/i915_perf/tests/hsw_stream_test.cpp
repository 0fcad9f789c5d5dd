// The OA stream on the shipped Haswell database, driven as i915-perf drives
// gen7: the open sequence, periodic reports and what they count, overflow
// recovery, and REPORT_LOST latched in software because OASTATUS1 cannot be
// cleared while periodic sampling runs. The device is strict.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "examples/i915_perf/hsw_oa_stream.hpp"
#include "examples/i915_perf/metric_set.hpp"
#include "examples/i915_perf/tests/oa_stream_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::i915_perf {
namespace {

using fakes::AccessesInOrder;
using fakes::FieldIs;
using fakes::ReadOf;
using fakes::WriteOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Not;

constexpr uint32_t kHswEus = 20;  // GT2: 1 slice x 2 subslices x 10 EUs
// At 1000 MHz one period (2^14 ticks of 12.5 MHz = 1.31072 ms) is exactly
// 1,310,720 GPU clocks.
constexpr unsigned kGpuMhz = 1000;
constexpr uint32_t kClocksPerPeriod = 1'310'720;

using HswStreamTest = HswOaStreamTest;

// hsw_enable_metric_set (clock gating RMWs, mux, b-counters), then
// gen7_init_oa_buffer in the PRM's order (OASTATUS2, OABUFFER, OASTATUS1)
// and OACONTROL = exponent | TIMER_ENABLE | A45_B8_C8 | ENABLE.
TEST_F(HswStreamTest, OpenProgramsMetricSetThenBufferInI915Order) {
  auto stream = MakeStream();
  stream.Open(HswRenderBasic());
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("GEN7_MISCCPCTL"), WriteOf("GEN7_MISCCPCTL"), ReadOf("GEN6_UCGCTL1"),
                                         WriteOf("GEN6_UCGCTL1"), WriteOf("GDT_CHICKEN_BITS", 0x80),
                                         WriteOf("OA_PERFCNT2_HI", 0xE4500000), WriteOf("OASTARTTRIG6", 0x00800000),
                                         WriteOf("OASTARTTRIG1", 0), WriteOf("OASTATUS2", kGtt | 1),
                                         WriteOf("OABUFFER", kGtt), WriteOf("OASTATUS1", kGtt | 0x38),
                                         WriteOf("OACONTROL", (kExponent << 6) | 0x35)}));
  EXPECT_THAT(device(), FieldIs("GEN7_MISCCPCTL.DOP_CLOCK_GATE_ENABLE", 0));
  EXPECT_THAT(device(), FieldIs("GEN6_UCGCTL1.CSUNIT_CLOCK_GATE_DISABLE", 1));
}

// Periodic reports every 2^(exp+1) ticks with the timer reason in dword 0;
// C2 counts GPU clocks, A41 the busy ones, A0 active EU cycles over the 20
// EUs (oa_spec counter model).
TEST_F(HswStreamTest, PeriodicReportsCountTheInjectedLoad) {
  RunWorkload(kGpuMhz);
  auto stream = MakeStream();
  stream.Open(HswRenderBasic());
  device().Advance(10 * kHswPeriodNs);

  std::vector<std::vector<uint8_t>> samples = ReadAllButNewest(stream);
  ASSERT_GE(samples.size(), 8u);
  ExpectTimerReportsOnePeriodApart(samples);
  for (size_t i = 1; i < samples.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& before = samples[i - 1];
    const auto& after = samples[i];
    const uint32_t clocks = HswC(after, 2) - HswC(before, 2);
    EXPECT_EQ(clocks, kClocksPerPeriod);
    EXPECT_EQ(HswA(after, 41) - HswA(before, 41), clocks / 2);
    EXPECT_EQ(HswA(after, 0) - HswA(before, 0), clocks / 4 * kHswEus);
  }
  EXPECT_THAT(device(), FieldIs("OASTATUS2", (kGtt + samples.size() * kOaReportSize) | 1));
}

// 16 MiB fill up with nobody reading: OABUFFER_OVERFLOW. i915 cannot clear
// it while sampling, so it emits BUFFER_LOST and restarts OA; the restart
// (OACONTROL off, then OASTATUS1 rewritten) clears the status.
TEST_F(HswStreamTest, OverflowIsReportedAsBufferLostAndTheStreamRestarts) {
  auto stream = MakeStream();
  stream.Open(HswRenderBasic());
  device().Advance((kOaBufferSize / kOaReportSize + 10) * kHswPeriodNs);
  EXPECT_THAT(device(), FieldIs("OASTATUS1.BUFFER_OVERFLOW", 1));

  EXPECT_THAT(Types(stream.Read()), ElementsAre(OaRecordType::kBufferLost));
  EXPECT_THAT(device(), FieldIs("OASTATUS1", kGtt | 0x38));
  EXPECT_THAT(device(), FieldIs("OASTATUS2", kGtt | 1));

  device().Advance(4 * kHswPeriodNs);
  std::vector<std::vector<uint8_t>> samples = Samples(stream.Read());
  EXPECT_GE(samples.size(), 2u);
  ExpectTimerReportsOnePeriodApart(samples);
}

// REPORT_LOST, set by the hardware (here by the backdoor): on Haswell the
// driver has no safe way to clear OASTATUS1 while periodic sampling runs,
// so i915 reports it once, remembers it has, and the bit stays set.
TEST_F(HswStreamTest, ReportLostIsReportedOnceAndLatched) {
  auto stream = MakeStream();
  stream.Open(HswRenderBasic());
  device().Advance(3 * kHswPeriodNs);
  device().PokeRegister(*device().model().FindRegister("OASTATUS1"), Peek("OASTATUS1") | 1);

  std::vector<OaRecord> records = stream.Read();
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front().type, OaRecordType::kReportLost);
  device().Advance(kHswPeriodNs);
  EXPECT_THAT(Types(stream.Read()), Not(Contains(OaRecordType::kReportLost)));
  EXPECT_THAT(device(), FieldIs("OASTATUS1.REPORT_LOST_ERROR", 1));
}

// gen7_oa_disable, then hsw_disable_metric_set's three RMWs.
TEST_F(HswStreamTest, CloseTurnsOaOffAndRestoresClockGating) {
  auto stream = MakeStream();
  stream.Open(HswRenderBasic());
  EXPECT_TRUE(stream.Close());
  EXPECT_THAT(device(), FieldIs("OACONTROL", 0));
  EXPECT_THAT(device(), FieldIs("GEN6_UCGCTL1.CSUNIT_CLOCK_GATE_DISABLE", 0));
  EXPECT_THAT(device(), FieldIs("GEN7_MISCCPCTL.DOP_CLOCK_GATE_ENABLE", 1));
  EXPECT_THAT(device(), FieldIs("GDT_CHICKEN_BITS.GT_NOA_ENABLE", 0));
}

}  // namespace
}  // namespace regemu::i915_perf
