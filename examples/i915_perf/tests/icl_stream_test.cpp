// The OA stream on the shipped Ice Lake database, driven as i915-perf
// drives it: the open sequence, periodic reports and what they count, the
// tail race, overflow recovery and a lost report. The device is strict and
// the force-wake rules watch every access, so a correct driver passes only
// if the database and the OA unit agree with i915.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "examples/i915_perf/icl_oa_stream.hpp"
#include "examples/i915_perf/metric_set.hpp"
#include "examples/i915_perf/tests/oa_stream_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::i915_perf {
namespace {

using fakes::AccessesInOrder;
using fakes::FieldIs;
using fakes::WriteOf;
using ::testing::ElementsAre;
using ::testing::Each;
using ::testing::IsEmpty;

constexpr uint64_t kIclEus = 64;  // 1 slice x 8 subslices x 8 EUs
// At 750 MHz one period of 2^14 ticks of the 12 MHz timestamp is exactly
// 1,024,000 GPU clocks.
constexpr unsigned kGpuMhz = 750;

using IclStreamTest = IclOaStreamTest;

// gen8_enable_metric_set, then gen8_init_oa_buffer in the PRM's order and
// OACONTROL = A32u40_A4u32_B8_C8 | COUNTER_ENABLE (i915_perf.c).
TEST_F(IclStreamTest, OpenProgramsMetricSetThenBufferInI915Order) {
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("OA_DEBUG", 0x00600060), WriteOf("OACTXCONTROL", (13 << 2) | 3),
                                         WriteOf("RPM_CONFIG1", 0x200), WriteOf("NOA_WRITE", 0x421F4001),
                                         WriteOf("OASTARTTRIG6", 0x00800000), WriteOf("EU_PERF_CNTL4", 0x52),
                                         WriteOf("OASTATUS", 0), WriteOf("OAHEADPTR", kGtt),
                                         WriteOf("OABUFFER_UDW", 0), WriteOf("OABUFFER", kGtt | 0x38 | 1),
                                         WriteOf("OATAILPTR", kGtt), WriteOf("OACONTROL", 0x15)}));
  EXPECT_EQ(forcewake().held(), kOaForcewake);
}

// Periodic reports every 2^(exp+1) timestamp ticks with the timer reason;
// A0 counts busy GPU clocks and A7 active EU cycles summed over the 64 EUs
// (oa_spec counter model). i915 hands out a report once the next one's
// first dwords have landed, so the newest stays in the buffer.
TEST_F(IclStreamTest, PeriodicReportsCountTheInjectedLoad) {
  RunWorkload(kGpuMhz);
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  device().Advance(10 * kIclPeriodNs);

  std::vector<std::vector<uint8_t>> samples = ReadAllButNewest(stream);
  ASSERT_GE(samples.size(), 8u);
  ExpectTimerReportsOnePeriodApart(samples);
  for (size_t i = 1; i < samples.size(); ++i) {
    SCOPED_TRACE(i);
    const auto& before = samples[i - 1];
    const auto& after = samples[i];
    EXPECT_EQ(Gen8ContextId(after), 0xFFFFFFFFu);  // no context runs
    const uint64_t ticks = Gen8GpuTicks(after) - Gen8GpuTicks(before);
    EXPECT_NEAR(static_cast<double>(ticks), 1'024'000.0, 1.0);
    EXPECT_NEAR(static_cast<double>(Gen8A(after, 0) - Gen8A(before, 0)), 0.5 * static_cast<double>(ticks), 1.0);
    EXPECT_NEAR(static_cast<double>(Gen8A(after, 7) - Gen8A(before, 7)),
                0.25 * kIclEus * static_cast<double>(ticks), 1.0);
  }
  // The head went back to the unit: the last sample's end.
  EXPECT_THAT(device(), FieldIs("OAHEADPTR", kGtt + samples.size() * kOaReportSize));
}

// Read inside the 100 ns in which the newest report's dwords 0 and 1 are
// still zero: the walk back from the tail skips it (and, as always, the one
// before it stays behind until a later report lands).
TEST_F(IclStreamTest, ReadDuringTheTailRaceReturnsNoHalfWrittenReport) {
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  device().Advance(3 * kIclPeriodNs);
  ASSERT_NO_FATAL_FAILURE(AdvanceToJustAfterNextReport());
  ASSERT_EQ(HardwareTail(), reports_written() * kOaReportSize);

  std::vector<std::vector<uint8_t>> samples = Samples(stream.Read());
  EXPECT_EQ(samples.size(), reports_written() - 2);
  for (const auto& sample : samples) {
    EXPECT_NE(ReportDword(sample, 0), 0u);
    EXPECT_NE(ReportTimestamp(sample), 0u);
  }
  // Once it has landed and another report followed and landed, both come
  // out. (The clock is still in step with the triggers.)
  device().Advance(kIclPeriodNs + kReportLandingNs);
  EXPECT_EQ(Samples(stream.Read()).size(), 2u);
}

// Nobody reads for long enough to fill 16 MiB (65535 reports: the tail
// never catches the head): OABUFFER_OVERFLOW. The read emits BUFFER_LOST,
// restarts OA with a fresh buffer and cleared status, and reports flow
// again.
TEST_F(IclStreamTest, OverflowIsReportedAsBufferLostAndTheStreamRestarts) {
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  device().Advance((kOaBufferSize / kOaReportSize + 10) * kIclPeriodNs);
  EXPECT_THAT(device(), FieldIs("OASTATUS.OABUFFER_OVERFLOW", 1));

  EXPECT_THAT(Types(stream.Read()), ElementsAre(OaRecordType::kBufferLost));
  EXPECT_THAT(device(), FieldIs("OASTATUS", 0));
  EXPECT_THAT(device(), FieldIs("OACONTROL", 0x15));
  EXPECT_EQ(stream.buffer().head(), 0u);

  device().Advance(4 * kIclPeriodNs);
  std::vector<std::vector<uint8_t>> samples = Samples(stream.Read());
  EXPECT_GE(samples.size(), 2u);
  ExpectTimerReportsOnePeriodApart(samples);
}

// Reading every 100 ms and writing the head back, the driver keeps the
// unit out of overflow indefinitely (here: longer than 16 MiB of reports).
TEST_F(IclStreamTest, ReadingRegularlyNeverOverflows) {
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  size_t samples = 0;
  for (int read = 0; read < 1000; ++read) {
    device().Advance(100'000'000);
    std::vector<OaRecord> records = stream.Read();
    ASSERT_THAT(Types(records), Each(OaRecordType::kSample)) << "read " << read;
    samples += records.size();
  }
  EXPECT_GT(samples, kOaBufferSize / kOaReportSize);
}

// A context switch within 100 ns of a timer report: the unit drops its
// context-switch report (REPORT_LOST). The read emits REPORT_LOST and
// clears the bit with i915's RMW, which on Gen8-11 also sets the pointer
// wrap bits 16 and 17.
TEST_F(IclStreamTest, ReportLostIsReportedAndCleared) {
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  device().Advance(2 * kIclPeriodNs);
  ASSERT_NO_FATAL_FAILURE(AdvanceToJustAfterNextReport());
  Inject("ctx-switch", {"7"});
  EXPECT_THAT(device(), FieldIs("OASTATUS.REPORT_LOST", 1));

  device().Advance(2 * kIclPeriodNs + kReportLandingNs);
  std::vector<OaRecord> records = stream.Read();
  ASSERT_FALSE(records.empty());
  EXPECT_EQ(records.front().type, OaRecordType::kReportLost);
  EXPECT_THAT(device(), FieldIs("OASTATUS.REPORT_LOST", 0));
  EXPECT_THAT(device(), FieldIs("OASTATUS.HEAD_POINTER_WRAP", 1));
  EXPECT_THAT(device(), FieldIs("OASTATUS.TAIL_POINTER_WRAP", 1));
  // The timer reports after the switch carry the context.
  std::vector<std::vector<uint8_t>> samples = Samples(records);
  ASSERT_FALSE(samples.empty());
  EXPECT_EQ(Gen8ContextId(samples.back()), 7u);

  EXPECT_THAT(Types(stream.Read()), Each(OaRecordType::kSample));  // reported once
}

// gen8_oa_disable, then Gen11's disable_metric_set, then force-wake put.
TEST_F(IclStreamTest, CloseTurnsOaAndNoaOffAndReleasesForcewake) {
  auto stream = MakeStream();
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  EXPECT_TRUE(stream.Close());
  EXPECT_THAT(device(), FieldIs("OACONTROL", 0));
  EXPECT_THAT(device(), FieldIs("RPM_CONFIG1.GT_NOA_ENABLE", 0));
  EXPECT_EQ(forcewake().held(), 0u);
  EXPECT_THAT(TakeBreaches(), IsEmpty());
}

// A second stream after the first closed programs everything again, and the
// unit takes it as a fresh programming: nothing of the first leaks out.
TEST_F(IclStreamTest, ASecondStreamAfterCloseStartsAfresh) {
  auto first = MakeStream();
  ASSERT_TRUE(first.Open(IclRenderBasic()));
  device().Advance(5 * kIclPeriodNs);
  ASSERT_TRUE(first.Close());

  auto second = MakeStream();
  ASSERT_TRUE(second.Open(IclRenderBasic()));
  EXPECT_THAT(device(), FieldIs("OATAILPTR", kGtt));
  device().Advance(4 * kIclPeriodNs);
  std::vector<std::vector<uint8_t>> samples = Samples(second.Read());
  EXPECT_GE(samples.size(), 2u);
  ExpectTimerReportsOnePeriodApart(samples);
  EXPECT_TRUE(second.Close());
}

}  // namespace
}  // namespace regemu::i915_perf
