// The memory half of i915's read path (OaBuffer) on a plain array: which
// reports a read may hand out, what it zeroes, and how each generation's
// loop treats a report. No device: these are the driver's own rules.
#include "examples/i915_perf/oa_buffer.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "examples/i915_perf/oa_regs.hpp"

namespace regemu::i915_perf {
namespace {

constexpr uint32_t kBase = 0x00100000;
constexpr uint32_t kSize = kOaBufferSizeMin;  // 512 reports of 256 bytes

class ArrayMemory : public GgttMemory {
 public:
  void Read(uint64_t address, std::span<uint8_t> out) override {
    std::memcpy(out.data(), bytes.data() + (address - kBase), out.size());
  }
  void Write(uint64_t address, std::span<const uint8_t> in) override {
    std::memcpy(bytes.data() + (address - kBase), in.data(), in.size());
  }
  void SetDword(uint32_t offset, uint32_t value) { std::memcpy(bytes.data() + offset, &value, 4); }
  uint32_t Dword(uint32_t offset) const {
    uint32_t value = 0;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
  }

  std::vector<uint8_t> bytes = std::vector<uint8_t>(kSize, 0xEE);
};

class OaBufferTest : public ::testing::Test {
 protected:
  OaBufferTest() { buffer_.Reset(); }

  // A report at `slot` as the unit leaves it: id (timer reason), timestamp
  // and a counter, or with dwords 0 and 1 not landed yet.
  void WriteReport(uint32_t slot, bool landed = true, uint32_t report_id = kTimerId) {
    const uint32_t at = slot * kOaReportSize;
    memory_.SetDword(at, landed ? report_id : 0);
    memory_.SetDword(at + 4, landed ? 1000 + slot : 0);
    memory_.SetDword(at + 16, 7);
  }
  std::vector<OaRecord> Append() {
    std::vector<OaRecord> records;
    buffer_.AppendReports(records);
    return records;
  }

  static constexpr uint32_t kTimerId = (1u << 19) | gen8::kReportCtxValid;
  ArrayMemory memory_;
  OaBuffer buffer_{memory_, kBase, kSize, kOaReportSize, OaReportRules::kGen8};
};

TEST_F(OaBufferTest, ResetZeroesTheBuffer) {
  EXPECT_EQ(memory_.bytes, std::vector<uint8_t>(kSize, 0));
  EXPECT_EQ(buffer_.head(), 0u);
  EXPECT_EQ(buffer_.tail(), 0u);
}

// The slot at the hardware tail is empty, so the walk steps back once: the
// newest report waits until a later one's first dwords land behind it.
TEST_F(OaBufferTest, TheNewestLandedReportWaitsForTheNext) {
  for (uint32_t slot = 0; slot < 3; ++slot) WriteReport(slot);
  EXPECT_TRUE(buffer_.CheckTail(kBase + 3 * kOaReportSize));
  EXPECT_EQ(buffer_.tail(), 2 * kOaReportSize);
  EXPECT_EQ(Append().size(), 2u);
  EXPECT_EQ(buffer_.head(), 2 * kOaReportSize);
}

TEST_F(OaBufferTest, OneNewReportIsNotReadable) {
  WriteReport(0);
  EXPECT_FALSE(buffer_.CheckTail(kBase + kOaReportSize));
  EXPECT_TRUE(Append().empty());
}

TEST_F(OaBufferTest, ReportsWhoseFirstDwordsHaveNotLandedAreWalkedBackOver) {
  WriteReport(0);
  WriteReport(1);
  WriteReport(2, /*landed=*/false);
  buffer_.CheckTail(kBase + 3 * kOaReportSize);
  EXPECT_EQ(buffer_.tail(), kOaReportSize);
}

TEST_F(OaBufferTest, APartiallyClaimedReportIsDropped) {
  for (uint32_t slot = 0; slot < 3; ++slot) WriteReport(slot);
  buffer_.CheckTail(kBase + 3 * kOaReportSize + 64);
  EXPECT_EQ(buffer_.tail(), 2 * kOaReportSize);
}

TEST_F(OaBufferTest, WithoutTheWalkBackTheHardwareTailIsTrusted) {
  WriteReport(0);
  WriteReport(1, /*landed=*/false);
  buffer_.CheckTail(kBase + 2 * kOaReportSize, /*walk_back=*/false);
  std::vector<OaRecord> records = Append();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ReportDword(records[1].report, 0), 0u);
}

// Consumed reports lose their id and timestamp (and only those: the size
// is a power of two), so a stale report is never taken for a landed one.
TEST_F(OaBufferTest, AppendZeroesTheIdAndTimestampOfWhatItRead) {
  for (uint32_t slot = 0; slot < 3; ++slot) WriteReport(slot);
  buffer_.CheckTail(kBase + 3 * kOaReportSize);
  std::vector<OaRecord> records = Append();
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(ReportDword(records[0].report, 4), 7u);
  EXPECT_EQ(ReportTimestamp(records[1].report), 1001u);
  EXPECT_EQ(memory_.Dword(0), 0u);
  EXPECT_EQ(memory_.Dword(4), 0u);
  EXPECT_EQ(memory_.Dword(16), 7u);
  EXPECT_EQ(memory_.Dword(2 * kOaReportSize), kTimerId);  // not read yet
}

TEST_F(OaBufferTest, ReadingWrapsAroundTheEnd) {
  const uint32_t last = kSize / kOaReportSize - 1;
  for (uint32_t slot = 0; slot < last; ++slot) WriteReport(slot);  // a full buffer: one slot stays free
  buffer_.CheckTail(kBase + last * kOaReportSize);
  EXPECT_EQ(Append().size(), last - 1);
  // The unit wrapped: slots `last`, 0 and 1 are new.
  WriteReport(last);
  WriteReport(0);
  WriteReport(1);
  buffer_.CheckTail(kBase + 2 * kOaReportSize);
  std::vector<OaRecord> records = Append();
  ASSERT_EQ(records.size(), 3u);  // last-1 (held back before), last, 0
  EXPECT_EQ(ReportTimestamp(records[1].report), 1000u + last);
  EXPECT_EQ(ReportTimestamp(records[2].report), 1000u);
  EXPECT_EQ(buffer_.head(), kOaReportSize);
}

// Gen8: a report with the context-valid bit clear goes out with its
// context id squashed.
TEST_F(OaBufferTest, Gen8SquashesTheContextIdOfAnInvalidContext) {
  WriteReport(0, true, 1u << 19);
  memory_.SetDword(8, 0x1234);
  WriteReport(1);
  buffer_.CheckTail(kBase + 2 * kOaReportSize);
  std::vector<OaRecord> records = Append();
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(ReportDword(records[0].report, 2), gen8::kInvalidCtxId);
}

// Gen7: a report whose dword 0 is zero is spurious: skipped, not zeroed,
// and the head still moves past it.
TEST(OaBufferGen7Test, SkipsSpuriousReports) {
  ArrayMemory memory;
  OaBuffer buffer(memory, kBase, kSize, kOaReportSize, OaReportRules::kGen7);
  buffer.Reset();
  memory.SetDword(4, 1234);  // dword 0 zero, timestamp set
  memory.SetDword(kOaReportSize, 1u << 19);
  memory.SetDword(2 * kOaReportSize, 1u << 19);
  buffer.CheckTail(kBase + 3 * kOaReportSize);
  std::vector<OaRecord> records;
  EXPECT_TRUE(buffer.AppendReports(records));
  EXPECT_EQ(records.size(), 1u);
  EXPECT_EQ(memory.Dword(4), 1234u);
  EXPECT_EQ(buffer.head(), 2 * kOaReportSize);
}

}  // namespace
}  // namespace regemu::i915_perf
