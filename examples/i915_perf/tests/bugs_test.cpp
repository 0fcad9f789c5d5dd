// Each deliberate OA driver bug and exactly what shows it: the violation
// regemu reports (the test then takes it; the fixture would fail on any
// left over), or, where the device has nothing to object to because the
// mistake is in how the driver reads memory, what the stream then hands
// to userspace.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "examples/i915_mini/tests/i915_mini_test.hpp"
#include "examples/i915_perf/metric_set.hpp"
#include "examples/i915_perf/tests/oa_stream_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::i915_perf {
namespace {

using fakes::FieldIs;
using i915_mini::ViolationIs;
using ::testing::ElementsAre;

using IclBugsTest = IclOaStreamTest;
using HswBugsTest = HswOaStreamTest;

// OATAILPTR right after OAHEADPTR, OABUFFER only then: the PRM's order for
// the overflow bit is broken, and the device says so at the tail write.
TEST_F(IclBugsTest, TailBeforeBufferIsAProtocolViolation) {
  auto stream = MakeStream(WithBug(Bug::kTailBeforeBuffer));
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("protocol", "OATAILPTR",
                                      "OATAILPTR written after OAHEADPTR with no OABUFFER write between them: the PRM "
                                      "requires OABUFFER to be programmed after OAHEADPTR and before OATAILPTR")));
}

// The same on Haswell: OASTATUS1 (tail, size) before OABUFFER.
TEST_F(HswBugsTest, TailBeforeBufferIsAProtocolViolation) {
  auto stream = MakeStream(WithBug(Bug::kTailBeforeBuffer));
  stream.Open(HswRenderBasic());
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("protocol", "OASTATUS1",
                                      "OASTATUS1 written after OASTATUS2 with no OABUFFER write between them: the PRM "
                                      "requires OABUFFER to be programmed after OASTATUS2 and before OASTATUS1")));
}

// The driver reads every 100 ms, 73 reports at a time, and yet the unit
// overflows once it has written a buffer's worth (65535 reports): it never
// learnt that the head moved. (The correct driver at the same pace never
// overflows: IclStreamTest.ReadingRegularlyNeverOverflows.)
TEST_F(IclBugsTest, NoHeadWriteBackOverflowsTheBufferThoughTheDriverReads) {
  auto stream = MakeStream(WithBug(Bug::kNoHeadWriteBack));
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  size_t samples = 0;
  bool lost = false;
  for (int read = 0; read < 1000 && !lost; ++read) {
    device().Advance(100'000'000);
    std::vector<OaRecord> records = stream.Read();
    lost = !records.empty() && records.front().type == OaRecordType::kBufferLost;
    samples += Samples(records).size();
  }
  EXPECT_TRUE(lost);
  const size_t capacity = kOaBufferSize / kOaReportSize - 1;
  EXPECT_GT(samples, capacity - 2 * 74);
  EXPECT_LT(samples, capacity);
  EXPECT_THAT(device(), FieldIs("OAHEADPTR", kGtt));
}

// Read just after a report trigger, before its dwords 0 and 1 landed: the
// driver that trusts the hardware tail hands that report out with both
// zero. The buffer is memory; the device sees nothing wrong.
TEST_F(IclBugsTest, IgnoringTheTailRaceHandsOutAHalfWrittenReport) {
  auto stream = MakeStream(WithBug(Bug::kIgnoreTailRace));
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  device().Advance(3 * kIclPeriodNs);
  ASSERT_NO_FATAL_FAILURE(AdvanceToJustAfterNextReport());

  std::vector<std::vector<uint8_t>> samples = Samples(stream.Read());
  ASSERT_EQ(samples.size(), reports_written());
  EXPECT_EQ(ReportDword(samples.back(), 0), 0u);
  EXPECT_EQ(ReportTimestamp(samples.back()), 0u);
  EXPECT_NE(ReportTimestamp(samples.front()), 0u);
}

// OACONTROL selects the 256-byte format; the read loop steps by 128 bytes.
// Every report comes out as two samples, the back half read as a report:
// its "report id" and "timestamp" are A28 and A29, which count nothing
// here. The device sees nothing wrong.
TEST_F(IclBugsTest, AssumingA128ByteFormatSplitsEveryReportInTwo) {
  auto stream = MakeStream(WithBug(Bug::kAssume128ByteReports));
  ASSERT_TRUE(stream.Open(IclRenderBasic()));
  device().Advance(5 * kIclPeriodNs);

  std::vector<std::vector<uint8_t>> samples = Samples(stream.Read());
  ASSERT_EQ(samples.size(), 2 * (reports_written() - 1));
  for (size_t i = 0; i < samples.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(samples[i].size(), kOaReportSize / 2);
    if (i % 2 == 0) {
      EXPECT_EQ(ReportReason(samples[i]), kReasonTimer);
    } else {
      EXPECT_EQ(ReportDword(samples[i], 0), 0u);
      EXPECT_EQ(ReportTimestamp(samples[i]), 0u);
    }
  }
}

}  // namespace
}  // namespace regemu::i915_perf
