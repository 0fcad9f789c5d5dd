// The `oa-unit` behaviour (yaml/README.md "oa-unit") on the shipped
// Broadwell (Gen8) and Haswell databases: periodic reports and their
// contents, the workload model, the buffer (tail race, report lost,
// overflow, half full), MI_RPC, context switches, determinism and the
// protocol rules. The per-generation scripts (tests/scripts/*_oa_*.script)
// run the same through the script runner.
#include <array>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/oa_timestamp.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::CompileDatabaseAt;
using testing_support::Kinds;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

constexpr uint64_t kBuffer = 0x01000000;

class OaUnitTest : public ::testing::Test {
 protected:
  void Open(const std::string& db, DeviceOptions options = {}) {
    model_ = CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/" + db);
    device_ = std::make_unique<Device>(model_, std::move(options));
    ggtt_ = SpaceNamed(*model_, "ggtt");
  }
  void Write(std::string_view reg, uint64_t value) { device_->WriteRegister(RegisterNamed(*model_, reg), value); }
  uint64_t Read(std::string_view reg) { return device_->ReadRegister(RegisterNamed(*model_, reg)); }
  std::string Inject(std::string verb, std::vector<std::string> args) { return device_->Inject(verb, args); }
  uint32_t Dword(uint64_t address) {
    std::array<uint8_t, 4> bytes{};
    device_->ReadMemory(ggtt_, address, bytes);
    uint32_t value;
    std::memcpy(&value, bytes.data(), 4);
    return value;
  }
  uint64_t A40(uint64_t report, unsigned i) {  // a 40-bit A counter of an A32u40 report
    return Dword(report + 16 + 4 * i) | uint64_t{static_cast<uint8_t>(Dword(report + 160 + (i & ~3u)) >> (8 * (i & 3)))} << 32;
  }
  // gen8_init_oa_buffer and gen8_oa_enable, as i915 writes them.
  void OpenGen8Stream(unsigned exponent, uint64_t size_field = 7) {
    Write("OACTXCONTROL", exponent << 2 | 3);
    Write("OASTATUS", 0);
    Write("OAHEADPTR", kBuffer);
    Write("OABUFFER_UDW", 0);
    Write("OABUFFER", kBuffer | size_field << 3 | 1);
    Write("OATAILPTR", kBuffer);
    Write("OACONTROL", 0x15);
  }
  void OpenHswStream(unsigned exponent, uint64_t size_field = 7) {
    Write("OASTATUS2", kBuffer | 1);
    Write("OABUFFER", kBuffer);
    Write("OASTATUS1", kBuffer | size_field << 3);
    Write("OACONTROL", exponent << 6 | 0x35);
  }

  std::shared_ptr<const Model> model_;
  std::unique_ptr<Device> device_;
  SpaceId ggtt_ = 0;
};

TEST_F(OaUnitTest, PeriodicReportsAreSpacedByTheExponentAndCountTheWorkload) {
  Open("bdw");
  ASSERT_EQ(Inject("oa-load", {"gpu-busy", "0.75", "eu-active", "0.5"}), "");
  OpenGen8Stream(13);
  device_->Advance(10'000'000);  // 10 ms: 7 reports of 1310720 ns
  EXPECT_EQ(Read("OATAILPTR"), kBuffer + 7 * 256);
  for (unsigned r = 1; r < 7; ++r) {
    uint64_t prev = kBuffer + (r - 1) * 256, cur = kBuffer + r * 256;
    EXPECT_EQ(Dword(cur + 4) - Dword(prev + 4), 16384u) << "timestamp delta of report " << r;
    uint64_t ticks = Dword(cur + 12) - Dword(prev + 12);
    EXPECT_EQ(ticks, 1310720u) << "1000 MHz x 1310720 ns";
    EXPECT_EQ(A40(cur, 0) - A40(prev, 0), ticks * 3 / 4) << "A0 = gpu-busy x clocks";
    EXPECT_EQ(A40(cur, 7) - A40(prev, 7), ticks * 24 / 2) << "A7 = eu-active x 24 EUs x clocks";
    EXPECT_EQ(Dword(cur), 0x00080000u) << "timer reason, no context";
  }
  EXPECT_THAT(Kinds(*device_), ElementsAre());
}

// Found by access_fuzz (tests/fuzz/regressions/access_fuzz/oa_timer_exponent_63):
// the period 2^(exponent+1) ticks overflowed to 0 at exponent 63, and the
// next trigger was computed by dividing by it.
TEST_F(OaUnitTest, TheLargestTimerExponentNeverFiresInsteadOfDividingByZero) {
  for (const char* db : {"bdw", "hsw"}) {
    Open(db);
    if (std::string(db) == "bdw") OpenGen8Stream(63); else OpenHswStream(63);
    device_->Advance(10'000'000);
    // No report written: the tail (Haswell: OASTATUS1 above its size bits) is where the stream opened it.
    EXPECT_EQ(Read(std::string(db) == "bdw" ? "OATAILPTR" : "OASTATUS1") & ~uint64_t{0x3F}, kBuffer) << db;
  }
}

// Found by access_fuzz (tests/fuzz/regressions/access_fuzz/oa_timer_exponent_61_hang):
// a period of 2^62 ticks lies past the end of time (2^64-1 ns) at any
// timestamp rate, and converting its trigger to nanoseconds overflowed
// into the past, so a step triggered forever.
TEST_F(OaUnitTest, TimerPeriodsPastTheEndOfTimeNeverFireInsteadOfHanging) {
  for (unsigned exponent : {55u, 60u, 61u, 62u}) {
    for (const char* db : {"bdw", "hsw"}) {
      Open(db);
      if (std::string(db) == "bdw") OpenGen8Stream(exponent); else OpenHswStream(exponent);
      device_->Advance(10'000'000);
      EXPECT_EQ(Read(std::string(db) == "bdw" ? "OATAILPTR" : "OASTATUS1") & ~uint64_t{0x3F}, kBuffer)
          << db << " exponent " << exponent;
    }
  }
}

TEST(OaTimestampTest, TheTimeOfATickSaturatesAtTheEndOfTime) {
  constexpr uint64_t kEnd = ~uint64_t{0};
  EXPECT_EQ(regdb::NsAtTimestampTick(0, 12'500'000), 0u);
  EXPECT_EQ(regdb::NsAtTimestampTick(1, 12'500'000), 80u);
  EXPECT_EQ(regdb::NsAtTimestampTick(12'500'001, 12'500'000), 1'000'000'080u);
  EXPECT_EQ(regdb::NsAtTimestampTick(uint64_t{1} << 62, 12'500'000), kEnd);
  EXPECT_EQ(regdb::NsAtTimestampTick(kEnd, 1), kEnd);
  // The last tick before the end, exactly: 18446744073 s is under the end, its + 1 s is not.
  EXPECT_EQ(regdb::NsAtTimestampTick(18'446'744'073, 1), 18'446'744'073'000'000'000u);
  EXPECT_EQ(regdb::NsAtTimestampTick(18'446'744'074, 1), kEnd);
  // Whole seconds fit, the fraction may not: the end is 0.709551615 s past them.
  EXPECT_EQ(regdb::NsAtTimestampTick(uint64_t{18'446'744'073} * 1000 + 709, 1000), 18'446'744'073'709'000'000u);
  EXPECT_EQ(regdb::NsAtTimestampTick(uint64_t{18'446'744'073} * 1000 + 710, 1000), kEnd);
}

TEST_F(OaUnitTest, GpuFrequencyChangesTheTickRate) {
  Open("bdw");
  OpenGen8Stream(13);
  ASSERT_EQ(Inject("gpu-freq", {"300"}), "");
  device_->Advance(3'000'000);
  EXPECT_EQ(Dword(kBuffer + 256 + 12) - Dword(kBuffer + 12), 393216u) << "300 MHz x 1310720 ns";
}

TEST_F(OaUnitTest, FortyBitCountersCarryIntoTheHighByte) {
  Open("bdw");
  ASSERT_EQ(Inject("oa-load", {"eu-active", "1"}), "");
  OpenGen8Stream(20);                 // 2^21 ticks = 167.8 ms
  device_->Advance(340'000'000);      // two reports; A7 passes 2^32 (24 EUs x 1 GHz)
  uint64_t second = kBuffer + 256;
  EXPECT_GT(A40(second, 7), uint64_t{1} << 32);
  EXPECT_EQ(A40(second, 7), uint64_t{24} * Dword(second + 12)) << "lo | hi << 32 is the whole count";
}

TEST_F(OaUnitTest, SameScriptSameBytes) {
  std::array<std::vector<uint8_t>, 2> runs;
  for (auto& bytes : runs) {
    Open("bdw");
    ASSERT_EQ(Inject("oa-load", {"gpu-busy", "0.3", "eu-stall", "0.125", "pixels", "2.5"}), "");
    OpenGen8Stream(5);
    device_->Advance(200'000);
    ASSERT_EQ(Inject("ctx-switch", {"9"}), "");
    device_->Advance(100'000);
    bytes.resize(64 * 256);
    device_->ReadMemory(ggtt_, kBuffer, bytes);
  }
  EXPECT_EQ(runs[0], runs[1]);
}

TEST_F(OaUnitTest, ReportBodyLandsBeforeItsFirstTwoDwords) {
  Open("bdw");
  OpenGen8Stream(13);
  device_->Advance(1'310'720);  // exactly the first trigger
  EXPECT_EQ(Read("OATAILPTR"), kBuffer + 256) << "the tail moves at once";
  EXPECT_EQ(Dword(kBuffer), 0u);
  EXPECT_EQ(Dword(kBuffer + 4), 0u);
  EXPECT_NE(Dword(kBuffer + 12), 0u) << "the rest is there";
  device_->Advance(100);
  EXPECT_EQ(Dword(kBuffer), 0x00080000u);
  EXPECT_EQ(Dword(kBuffer + 4), 16384u);
}

TEST_F(OaUnitTest, TriggerWhileAReportLandsIsLost) {
  std::vector<UnitRecordKind> records;
  DeviceOptions options;
  options.on_record = [&](const UnitRecord& record) { records.push_back(record.kind); };
  Open("bdw", std::move(options));
  OpenGen8Stream(13);
  device_->Advance(1'310'720);
  ASSERT_EQ(Inject("ctx-switch", {"5"}), "");  // inside the 100 ns landing window
  EXPECT_EQ(Read("OASTATUS") & 1, 1u) << "REPORT_LOST";
  EXPECT_EQ(Read("OATAILPTR"), kBuffer + 256) << "the switch report was not written";
  EXPECT_THAT(records, ElementsAre(UnitRecordKind::kReport, UnitRecordKind::kReportLost));
  // i915's clear: a read-modify-write with REPORT_LOST | COUNTER_OVERFLOW as 0.
  Write("OASTATUS", (Read("OASTATUS") & ~uint64_t{5}) | 0x30000);
  EXPECT_EQ(Read("OASTATUS") & 0xF, 0u);
  EXPECT_THAT(Kinds(*device_), ElementsAre());
}

TEST_F(OaUnitTest, FullBufferDropsReportsAndRecordsOneBufferLost) {
  std::vector<UnitRecordKind> records;
  DeviceOptions options;
  options.on_record = [&](const UnitRecord& record) {
    if (record.kind != UnitRecordKind::kReport) records.push_back(record.kind);
  };
  Open("bdw", std::move(options));
  OpenGen8Stream(0, /*128 KiB*/ 0);  // 511 reports fit, one every 160 ns
  device_->Advance(200'000);
  EXPECT_EQ(Read("OATAILPTR"), kBuffer + 511 * 256);
  EXPECT_EQ(Read("OASTATUS") & 0xF, 0xAu) << "OABUFFER_OVERFLOW | OVERRUN_STATUS";
  EXPECT_THAT(records, ElementsAre(UnitRecordKind::kBufferLost));
  // The driver consumes everything: reporting resumes at the tail.
  Write("OAHEADPTR", Read("OATAILPTR"));
  device_->Advance(1'000);
  EXPECT_NE(Read("OATAILPTR"), kBuffer + 511 * 256);
}

TEST_F(OaUnitTest, HaswellHalfFullLatchesGtiirBitNineUnlessMasked) {
  Open("hsw");
  Write("GTIMR", ~uint64_t{0x200} & 0xFFFFFFFF);
  Write("GTIER", 0x200);
  OpenHswStream(0, /*128 KiB*/ 0);
  device_->Advance(40'000);  // 250 reports: below half
  EXPECT_EQ(Read("GTIIR"), 0u);
  device_->Advance(2'000);   // the 256th crosses 64 KiB
  EXPECT_EQ(Read("GTIIR"), 0x200u);
  EXPECT_TRUE(device_->interrupt_asserted());
}

TEST_F(OaUnitTest, GenEightHalfFullIsMaskedByOaImr) {
  for (uint64_t imr : {uint64_t{0}, uint64_t{1} << 28}) {
    Open("bdw");  // no GT interrupt registers: the pulse reaches the device's line
    Write("OA_IMR", imr);
    OpenGen8Stream(0, 0);
    device_->Advance(42'000);
    EXPECT_EQ(device_->interrupt_edges(), imr == 0 ? 1u : 0u) << "OA_IMR " << imr;
  }
}

TEST_F(OaUnitTest, HaswellThirtyTwoBitCounterWrapSetsCounterOverflow) {
  Open("hsw");
  ASSERT_EQ(Inject("oa-load", {"eu-active", "1"}), "");  // A0: 20 per clock, wraps after 215 ms
  OpenHswStream(20);                                     // 2^21 ticks = 167.8 ms
  device_->Advance(200'000'000);
  EXPECT_EQ(Read("OASTATUS1") & 4, 0u);
  device_->Advance(200'000'000);
  EXPECT_EQ(Read("OASTATUS1") & 4, 4u) << "COUNTER_OVERFLOW";
}

TEST_F(OaUnitTest, ContextFilterStopsCountingForOtherContexts) {
  Open("bdw");
  ASSERT_EQ(Inject("oa-load", {"gpu-busy", "1"}), "");
  Write("OACTXID", 0x10);
  OpenGen8Stream(13);
  Write("OACONTROL", 0x15 | 2);  // SPECIFIC_CONTEXT_ENABLE
  ASSERT_EQ(Inject("ctx-switch", {"0x20"}), "");
  device_->Advance(3'000'000);
  uint64_t first = kBuffer + 256;  // after the context-switch report
  EXPECT_EQ(A40(first + 256, 0) - A40(first, 0), 0u) << "context 0x20 is filtered out";
  EXPECT_EQ(Dword(first + 8), 0x20u);
}

// Coverage: each report counts for its format and its reason; a trigger
// inside the landing window is a lost report.
TEST_F(OaUnitTest, CoversFormatsReasonsAndLostReports) {
  DeviceOptions options;
  options.coverage = true;
  Open("bdw", std::move(options));
  OpenGen8Stream(13);
  device_->Advance(1'310'720);                   // a timer report
  ASSERT_EQ(Inject("ctx-switch", {"5"}), "");    // lost: the timer report is still landing
  device_->Advance(1'000);
  ASSERT_EQ(Inject("ctx-switch", {"6"}), "");    // a context-switch report
  ASSERT_EQ(Inject("mi-rpc", {"0x4000", "1"}), "");
  std::map<std::string, uint64_t> hits = testing_support::PointHits(*device_, "oa");
  EXPECT_EQ(hits.at("formats/A32u40_A4u32_B8_C8"), 3u);
  EXPECT_EQ(hits.at("formats/A12"), 0u);
  EXPECT_EQ(hits.at("reasons/timer"), 1u);
  EXPECT_EQ(hits.at("reasons/context switch"), 1u);
  EXPECT_EQ(hits.at("reasons/MI_REPORT_PERF_COUNT"), 1u);
  EXPECT_EQ(hits.at("buffer/report lost"), 1u);
  EXPECT_EQ(hits.at("buffer/overflow"), 0u);
  EXPECT_EQ(hits.count("buffer/paused (overrun disabled)"), 0u) << "Haswell's only";
}

TEST_F(OaUnitTest, CoversOverflowAndTheRingWrapping) {
  DeviceOptions options;
  options.coverage = true;
  Open("bdw", std::move(options));
  OpenGen8Stream(0, /*128 KiB*/ 0);
  device_->Advance(200'000);  // full: one overflow episode
  Write("OAHEADPTR", Read("OATAILPTR"));
  device_->Advance(1'000);    // the next reports cross the buffer's end
  std::map<std::string, uint64_t> hits = testing_support::PointHits(*device_, "oa");
  EXPECT_EQ(hits.at("buffer/overflow"), 1u);
  EXPECT_EQ(hits.at("buffer/wrapped"), 1u);
  EXPECT_EQ(hits.at("buffer/counter overflow"), 0u);
}

TEST_F(OaUnitTest, MiRpcWritesASnapshotWithTheReportId) {
  Open("bdw");
  OpenGen8Stream(13);
  ASSERT_EQ(Inject("mi-rpc", {"0x4000", "0xABC"}), "");
  EXPECT_EQ(Dword(0x4000), 0xABCu);
  EXPECT_EQ(Read("OATAILPTR"), kBuffer) << "not into the buffer";
  EXPECT_THAT(Inject("mi-rpc", {"0x4004", "1"}), HasSubstr("64-byte aligned"));
}

TEST_F(OaUnitTest, ProtocolRules) {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  Open("hsw", options);
  Inject("mi-rpc", {"0x4000", "1"});
  Write("OACONTROL", 0x0D);  // format 3 (A29_B8_C8, not offered), no buffer yet
  Write("OACONTROL", 0);
  Write("OASTATUS2", 0x00100001);
  Write("OABUFFER", 0x00100000);  // not 16 MiB aligned
  std::vector<std::string> rules;
  for (const Violation& v : device_->violations()) rules.push_back(v.rule);
  ASSERT_EQ(rules.size(), 4u) << ::testing::PrintToString(rules);
  EXPECT_THAT(rules[0], HasSubstr("MI_REPORT_PERF_COUNT while the OA counters are disabled"));
  EXPECT_THAT(rules[1], HasSubstr("report format 3"));
  EXPECT_THAT(rules[2], HasSubstr("before the OA buffer was programmed"));
  EXPECT_THAT(rules[3], HasSubstr("16 MiB aligned"));
}

TEST_F(OaUnitTest, InjectRejectsBadArguments) {
  Open("icl");
  EXPECT_THAT(Inject("oa-load", {"gpu-busy"}), HasSubstr("SIGNAL VALUE pairs"));
  EXPECT_THAT(Inject("oa-load", {"gpu-bussy", "0.5"}), HasSubstr("unknown signal 'gpu-bussy'"));
  EXPECT_THAT(Inject("oa-load", {"eu-active", "1.5"}), HasSubstr("from 0 to 1"));
  EXPECT_THAT(Inject("oa-load", {"pixels", "0.1234567"}), HasSubstr("six decimals"));
  EXPECT_THAT(Inject("gpu-freq", {"0"}), HasSubstr("MHZ from 1"));
  EXPECT_THAT(Inject("ctx-switch", {}), HasSubstr("CTX_ID|idle"));
  EXPECT_EQ(Inject("oa-load", {"pixels", "3.25"}), "");
}

TEST_F(OaUnitTest, ResetStopsTheUnitAndClearsTheCounters) {
  Open("bdw");
  ASSERT_EQ(Inject("oa-load", {"gpu-busy", "1"}), "");
  OpenGen8Stream(13);
  device_->Advance(2'000'000);
  device_->Reset();
  device_->Advance(5'000'000);
  EXPECT_EQ(Read("OATAILPTR"), 0u);
  EXPECT_EQ(Dword(kBuffer), 0u) << "memory is cleared by reset";
}

}  // namespace
}  // namespace regemu::emulator
