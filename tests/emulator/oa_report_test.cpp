// OA report composition (emulator/behaviours/oa_report.hpp): a format's
// compiled layout, and the report stream's shortcut (rewrite the header and
// the moving counters of the previous report) against composing each
// report in full, across workload changes, format changes and counter wraps.
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/emulator/behaviours/oa_report.hpp"
#include "regemu/emulator/behaviours/oa_workload.hpp"

namespace regemu::emulator {
namespace {

using regdb::OaCounterBank;
using Kind = regdb::OaLayoutItem::Kind;

// A Gen8-like unit: 36 A counters of 40 bits, 8 B, 8 C; signals clock,
// busy, threads; formats as BDW's A12_B8_C8 and A32u40_A4u32_B8_C8.
regdb::OaUnitConfig Gen8LikeConfig() {
  regdb::OaUnitConfig config;
  config.a_count = 36;
  config.a_width = 40;
  config.timestamp_hz = 12'500'000;
  config.gpu_mhz = 1000;
  config.signals = {{"clock", false}, {"busy", true}, {"threads", false}};
  config.sources = {
      {OaCounterBank::kA, 0, 1, 1'000'000, false},   // A0: busy
      {OaCounterBank::kA, 7, 1, 1'000'000, true},    // A7: busy x EUs
      {OaCounterBank::kA, 33, 2, 1'000'000, false},  // A33: threads (a u32 piece of the big format)
      {OaCounterBank::kB, 0, 0, 1'000'000, false},   // B0: clock
      {OaCounterBank::kC, 7, 2, 500'000, false},     // C7: threads / 2
  };
  regdb::OaFormat small{"A12_B8_C8", 2, 128, {}};
  small.layout = {{Kind::kReportId}, {Kind::kTimestamp}, {Kind::kContextId}, {Kind::kGpuTicks},
                  {Kind::kA, 7, 12},  {Kind::kB, 0, 8},   {Kind::kC, 0, 8}};
  regdb::OaFormat big{"A32u40_A4u32_B8_C8", 5, 256, {}};
  big.layout = {{Kind::kReportId}, {Kind::kTimestamp}, {Kind::kContextId}, {Kind::kGpuTicks},
                {Kind::kA, 0, 32},  {Kind::kA, 32, 4},  {Kind::kAHigh, 0, 32}, {Kind::kB, 0, 8},
                {Kind::kC, 0, 8}};
  config.formats = {small, big};
  return config;
}

std::vector<uint8_t> Composed(const OaReportStream& stream, const OaWorkload& workload, const regdb::OaFormat& format,
                              const OaReportHeader& header, uint64_t t_ns) {
  std::vector<uint8_t> bytes(format.size);
  stream.Snapshot(workload, format, header, t_ns, bytes);
  return bytes;
}

uint32_t DwordAt(std::span<const uint8_t> report, unsigned index) {
  uint32_t value;
  std::memcpy(&value, report.data() + 4 * index, 4);
  return value;
}

class OaReportTest : public ::testing::Test {
 protected:
  regdb::OaUnitConfig config_ = Gen8LikeConfig();
  OaWorkload workload_{config_};
  OaReportStream stream_{config_};
};

TEST_F(OaReportTest, LayoutPutsEachPieceWhereTheFormatSays) {
  workload_.SetCounting(0, true);
  workload_.SetRateMicros(0, 1, 500'000);  // busy 0.5
  OaSample sample;
  workload_.SampleAt(2'000, sample);  // 2000 clocks at 1000 MHz
  OaReportLayout layout(config_, config_.formats[1]);
  ASSERT_EQ(layout.size(), 256u);
  std::array<uint32_t, OaReportLayout::kMaxDwords> dwords{};
  layout.Compose({0x00080000, 42}, sample, dwords);
  EXPECT_EQ(dwords[0], 0x00080000u);
  EXPECT_EQ(dwords[1], 25u);  // 2 us at 12.5 MHz
  EXPECT_EQ(dwords[2], 42u);
  EXPECT_EQ(dwords[3], 2000u);
  EXPECT_EQ(dwords[4], 1000u);      // A0: busy
  EXPECT_EQ(dwords[4 + 7], 8000u);  // A7: busy x 8 EUs
  EXPECT_EQ(dwords[48], 2000u);  // B0: clock, after A0-A31, A32-A35 and 8 dwords of high bytes
}

TEST_F(OaReportTest, HighBytesCarryBits39To32) {
  OaSample sample;
  sample.counters[0] = 0xAB'1234'5678;
  sample.counters[5] = 0x01'0000'0000;
  sample.counters[31] = 0xFF'FFFF'FFFF;
  OaReportLayout layout(config_, config_.formats[1]);
  std::array<uint32_t, OaReportLayout::kMaxDwords> dwords{};
  layout.Compose({}, sample, dwords);
  EXPECT_EQ(dwords[4], 0x12345678u);
  EXPECT_EQ(dwords[40], 0x000000ABu);  // A0-A3's high bytes
  EXPECT_EQ(dwords[41], 0x00000100u);  // A5 is byte 1 of A4-A7's
  EXPECT_EQ(dwords[47], 0xFF000000u);  // A31 is byte 3 of A28-A31's
  layout.SetCounter(5, 0x7F'0000'0001, dwords);
  EXPECT_EQ(dwords[4 + 5], 1u);
  EXPECT_EQ(dwords[41], 0x00007F00u);
}

// The stream's shortcut gives the bytes a full composition gives, report
// after report, through rate, clock and counting changes, a context id
// change and a switch of format.
TEST_F(OaReportTest, StreamMatchesFullCompositionAcrossChanges) {
  workload_.SetCounting(0, true);
  workload_.SetRateMicros(0, 1, 750'000);
  workload_.SetRateMicros(0, 2, 3'000'000);
  uint64_t t = 0;
  unsigned checked = 0;
  for (unsigned i = 0; i < 400; ++i) {
    t += 160;
    if (i == 100) workload_.SetRateMicros(t - 50, 1, 250'000);
    if (i == 150) workload_.SetFrequencyMhz(t - 10, 600);
    if (i == 200) workload_.SetCounting(t - 80, false);
    if (i == 220) workload_.SetCounting(t - 80, true);
    const regdb::OaFormat& format = config_.formats[i >= 300 && i < 320 ? 0 : 1];
    OaReportHeader header{0x00080000, i < 250 ? 7u : 9u};
    OaReportStream::Report report = stream_.Next(workload_, format, header, t);
    std::vector<uint8_t> full = Composed(stream_, workload_, format, header, t);
    ASSERT_EQ(std::vector<uint8_t>(report.bytes.begin(), report.bytes.end()), full) << "report " << i;
    EXPECT_FALSE(report.wrapped) << "report " << i;
    ++checked;
  }
  EXPECT_EQ(checked, 400u);
}

// COUNTER_OVERFLOW: a counter with a source crosses its width between two
// reports. A 40-bit A counter takes 2^40 events; a 32-bit B counter 2^32.
TEST_F(OaReportTest, WrapIsSeenOnTheReportThatCrossesTheWidth) {
  workload_.SetCounting(0, true);
  // B0 counts clocks: 2^32 clocks at 1000 MHz is 4.294967296 s.
  const uint64_t wrap_ns = 4'294'967'296;
  EXPECT_FALSE(stream_.Next(workload_, config_.formats[1], {}, wrap_ns - 2'000).wrapped);  // the first: nothing to compare
  EXPECT_FALSE(stream_.Next(workload_, config_.formats[1], {}, wrap_ns - 1'000).wrapped);
  OaReportStream::Report crossing = stream_.Next(workload_, config_.formats[1], {}, wrap_ns + 1'000);
  EXPECT_TRUE(crossing.wrapped);
  EXPECT_EQ(DwordAt(crossing.bytes, 48), 1'000u);  // B0, cut to 32 bits
  EXPECT_FALSE(stream_.Next(workload_, config_.formats[1], {}, wrap_ns + 2'000).wrapped);
}

TEST_F(OaReportTest, WrapAcrossAWorkloadChangeIsSeen) {
  workload_.SetCounting(0, true);
  const uint64_t wrap_ns = 4'294'967'296;
  stream_.Next(workload_, config_.formats[1], {}, wrap_ns - 1'000);
  workload_.SetRateMicros(wrap_ns + 500, 1, 1'000'000);  // a new segment after the wrap
  EXPECT_TRUE(stream_.Next(workload_, config_.formats[1], {}, wrap_ns + 1'000).wrapped);
}

TEST_F(OaReportTest, ResetForgetsThePreviousReport) {
  workload_.SetCounting(0, true);
  const uint64_t wrap_ns = 4'294'967'296;
  stream_.Next(workload_, config_.formats[1], {}, wrap_ns - 1'000);
  stream_.Reset();
  EXPECT_FALSE(stream_.Next(workload_, config_.formats[1], {}, wrap_ns + 1'000).wrapped);
}

}  // namespace
}  // namespace regemu::emulator
