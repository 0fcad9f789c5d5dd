// The `counter` behaviour (yaml/README.md "behaviours"): "a free-running
// counter driven by the virtual clock: adds `increment` every `period`,
// wrapping at the field width".
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/forcewake.hpp"
#include "tests/emulator/device_test_support.hpp"
#include "tests/emulator/hpet_test_device.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::HpetNsFor;
using testing_support::kGenConf;
using testing_support::kMainCnt;
using testing_support::RegisterNamed;

// A device with TIMESTAMP (64-bit, hw) and OASTATUS (COUNT in 31:8, a w1c
// OVERFLOW bit 0, NIBBLE in 7:4), plus the given counter sections.
constexpr const char* kCounterDevice = R"(device: counter
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: TIMESTAMP, space: mmio, offset: 0x2358, width: 64, access: hw}
  - name: OASTATUS
    space: mmio
    offset: 0x2364
    fields:
      - {name: COUNT, bits: "31:8", access: hw}
      - {name: NIBBLE, bits: "7:4", access: hw}
      - {name: OVERFLOW, bits: 0, access: w1c}
behaviours:
)";

std::unique_ptr<Device> CounterDevice(const std::string& behaviours, DeviceOptions options = {}) {
  return MakeDevice(kCounterDevice + behaviours, std::move(options));
}

uint64_t Value(const Device& device, const char* name) {
  return device.PeekRegister(RegisterNamed(device.model(), name));
}

constexpr const char* kTimestamp80ns = "  - {kind: counter, register: TIMESTAMP, period: 80ns}\n";

// The counter counts period boundaries of virtual time: 79ns is none, 80ns one.
TEST(CounterBehaviourTest, CountsPeriodBoundaries) {
  auto device = CounterDevice(kTimestamp80ns);
  device->Advance(79);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 0u);
  device->Advance(1);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1u);
  device->Advance(159);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 2u);
  device->Advance(1);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 3u);
}

// Boundaries are counted from the epoch, not per step: eighty 1ns steps are
// one period, the same as one 80ns step.
TEST(CounterBehaviourTest, SmallStepsAddUp) {
  auto device = CounterDevice(kTimestamp80ns);
  for (int i = 0; i < 80; ++i) device->Advance(1);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1u);
}

// A frontdoor read sees the count (the register is hw: readable).
TEST(CounterBehaviourTest, FrontdoorReadSeesTheCount) {
  auto device = CounterDevice(kTimestamp80ns);
  device->Advance(800);
  EXPECT_EQ(device->Read(0, 0x2358, 64), 10u);
  EXPECT_EQ(device->Read(0, 0x2358, 32), 10u);
}

// `increment` is added at every boundary.
TEST(CounterBehaviourTest, AddsIncrementPerPeriod) {
  auto device = CounterDevice("  - {kind: counter, register: TIMESTAMP, period: 1us, increment: 3}\n");
  device->Advance(999);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 0u);
  device->Advance(2001);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 9u);
}

// Counting in a field leaves the register's other bits alone.
TEST(CounterBehaviourTest, FieldCountingLeavesOtherBitsAlone) {
  auto device = CounterDevice("  - {kind: counter, register: OASTATUS, field: COUNT, period: 10ns}\n");
  RegisterId status = RegisterNamed(device->model(), "OASTATUS");
  device->PokeRegister(status, 0x0000'0051);  // NIBBLE = 5, OVERFLOW = 1
  device->Advance(30);
  EXPECT_EQ(device->PeekRegister(status), 0x0000'0351u);
  device->Write(0, 0x2364, 32, 0x0000'0351);  // clears OVERFLOW; COUNT and NIBBLE written with their values
  EXPECT_EQ(device->PeekRegister(status), 0x0000'0350u);
  device->Advance(10);
  EXPECT_EQ(device->PeekRegister(status), 0x0000'0450u);
}

// The count wraps at the field width: a 4-bit field after 17 ticks holds 1,
// and the 24-bit COUNT's carry does not spill into other bits.
TEST(CounterBehaviourTest, WrapsAtTheFieldWidth) {
  auto device = CounterDevice("  - {kind: counter, register: OASTATUS, field: NIBBLE, period: 1ns}\n");
  RegisterId status = RegisterNamed(device->model(), "OASTATUS");
  device->PokeRegister(status, 0xFFFF'FF01);
  device->Advance(17);
  EXPECT_EQ(device->PeekRegister(status), 0xFFFF'FF11u);

  auto wide = CounterDevice("  - {kind: counter, register: OASTATUS, field: COUNT, period: 1ns}\n");
  wide->PokeRegister(status, 0xFFFF'FF51);
  wide->Advance(2);
  EXPECT_EQ(wide->PeekRegister(status), 0x0000'0151u);
}

// Coverage: the wrap is the counter's one path, at a field's width as at 2^64.
TEST(CounterBehaviourTest, CoversTheWrap) {
  DeviceOptions options;
  options.coverage = true;
  auto device =
      CounterDevice("  - {name: nibble, kind: counter, register: OASTATUS, field: NIBBLE, period: 1ns}\n", options);
  device->Advance(15);
  EXPECT_THAT(testing_support::PointHits(*device, "nibble"), ElementsAre(Pair("counter/wrapped", 0)));
  device->Advance(1);
  EXPECT_THAT(testing_support::PointHits(*device, "nibble"), ElementsAre(Pair("counter/wrapped", 1)));

  auto wide = CounterDevice("  - {name: ts, kind: counter, register: TIMESTAMP, period: 1ns, increment: 2}\n", options);
  wide->PokeRegister(RegisterNamed(wide->model(), "TIMESTAMP"), ~uint64_t{0} - 2);
  wide->Advance(1);  // reaches 2^64-1
  EXPECT_THAT(testing_support::PointHits(*wide, "ts"), ElementsAre(Pair("counter/wrapped", 0)));
  wide->Advance(1);
  EXPECT_THAT(testing_support::PointHits(*wide, "ts"), ElementsAre(Pair("counter/wrapped", 1)));
}

// A 64-bit register wraps at 2^64.
TEST(CounterBehaviourTest, WholeRegisterWrapsAt64Bits) {
  auto device = CounterDevice("  - {kind: counter, register: TIMESTAMP, period: 1ns, increment: 2}\n");
  device->PokeRegister(RegisterNamed(device->model(), "TIMESTAMP"), ~uint64_t{0} - 2);
  device->Advance(3);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 3u);
}

// A long step costs the same as a short one: one second, and a year, at a
// 1ns period (a per-tick loop would not finish the year).
TEST(CounterBehaviourTest, LongStepsAreConstantTime) {
  auto device = CounterDevice("  - {kind: counter, register: TIMESTAMP, period: 1ns}\n");
  device->Advance(1'000'000'000);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1'000'000'000u);
  constexpr uint64_t kYearNs = 365ull * 24 * 3600 * 1'000'000'000;
  device->Advance(kYearNs);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1'000'000'000u + kYearNs);
}

// Reset() puts the register back to its reset value and restarts the
// epoch: periods are counted from the reset, not from time 0.
TEST(CounterBehaviourTest, ResetRestartsTheEpoch) {
  auto device = CounterDevice(kTimestamp80ns);
  device->Advance(130);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1u);
  device->Reset();  // at t=130
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 0u);
  device->Advance(79);  // t=209: would cross t=160 if the epoch were still 0
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 0u);
  device->Advance(1);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1u);
}

// A snapshot keeps the count and the position within the period.
TEST(CounterBehaviourTest, SnapshotRestoreKeepsThePhase) {
  auto device = CounterDevice(kTimestamp80ns);
  device->Reset();
  device->Advance(100);  // count 1, 20ns into the second period
  DeviceSnapshot snapshot = device->Snapshot();
  device->Advance(1000);
  device->Reset();
  device->Advance(33);
  device->Restore(snapshot);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1u);
  device->Advance(59);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 1u);
  device->Advance(1);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 2u);
}

// Per-access cost drives the counter too, so a polling loop sees it move.
TEST(CounterBehaviourTest, AccessCostDrivesTheCounter) {
  DeviceOptions options;
  options.access_cost_ns = 40;
  auto device = CounterDevice(kTimestamp80ns, options);
  EXPECT_EQ(device->Read(0, 0x2358, 64), 0u);  // at t=0
  EXPECT_EQ(device->Read(0, 0x2358, 64), 0u);  // at t=40
  EXPECT_EQ(device->Read(0, 0x2358, 64), 1u);  // at t=80
}

// The counter is hw ("like ro"): a frontdoor write that changes it is a
// read-only violation and does not change the count.
TEST(CounterBehaviourTest, WritingTheCounterIsReadOnly) {
  auto device = CounterDevice(kTimestamp80ns);
  device->Advance(160);
  device->Write(0, 0x2358, 64, 0);
  EXPECT_THAT(Kinds(*device), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 2u);
}

// Two counters run independently, each on its own register.
TEST(CounterBehaviourTest, TwoCountersAreIndependent) {
  auto device = CounterDevice(
      "  - {kind: counter, name: ts, register: TIMESTAMP, period: 80ns}\n"
      "  - {kind: counter, name: oa, register: OASTATUS, field: COUNT, period: 20ns, increment: 2}\n");
  device->Advance(160);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 2u);
  EXPECT_EQ(Value(*device, "OASTATUS"), 16u << 8);
}

// --- Exact rates, enable, writes, saturation (HPET numbers) ---------------

// IA-PC HPET 1.0a: COUNTER_CLK_PERIOD 69841279 fs, "14.31818 MHz". One
// second of virtual time is floor(10^15 / 69841279) = 14318179 ticks: the
// datasheet's 14318180 within one tick, and exact to the fraction.
TEST(CounterBehaviourTest, HpetPeriodCountsFourteenMillionTicksASecond) {
  auto hpet = testing_support::Hpet(32);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(1'000'000'000);
  uint64_t count = hpet->Read(0, kMainCnt, 32);
  EXPECT_NEAR(static_cast<double>(count), 14'318'180.0, 1.0);
  EXPECT_EQ(count, 14'318'179u);
}

// An hour is exact however it is stepped: one step, or uneven steps (each
// leaving a fraction of a tick), give floor(3600 * 10^15 / 69841279) =
// 51545447785 ticks; a 32-bit counter holds that modulo 2^32.
TEST(CounterBehaviourTest, AnHourIsExactWhateverTheSteps) {
  constexpr uint64_t kHourNs = 3'600'000'000'000;
  constexpr uint64_t kTicks = 51'545'447'785;
  for (unsigned width : {32u, 64u}) {
    auto one = testing_support::Hpet(width);
    auto many = testing_support::Hpet(width);
    one->Write(0, kGenConf, 64, 1);
    many->Write(0, kGenConf, 64, 1);
    one->Advance(kHourNs);
    for (uint64_t left = kHourNs, step = 1; left != 0; step = step * 7 + 3) {
      uint64_t now = std::min(left, step % 9'999'999'967);
      many->Advance(now);
      left -= now;
    }
    uint64_t expected = width == 32 ? kTicks & 0xFFFF'FFFF : kTicks;
    EXPECT_EQ(one->Read(0, kMainCnt, width), expected) << width;
    EXPECT_EQ(many->Read(0, kMainCnt, width), expected) << width;
  }
}

// `frequency:` is exact too, decimals included; `period:` takes ps.
TEST(CounterBehaviourTest, FrequenciesAndPicosecondsCountExactly) {
  auto device = CounterDevice(
      "  - {kind: counter, name: hpet, register: TIMESTAMP, frequency: 14318180Hz}\n"
      "  - {kind: counter, name: rtc, register: OASTATUS, field: COUNT, frequency: 32.768kHz}\n");
  device->Advance(1'000'000'000);
  EXPECT_EQ(Value(*device, "TIMESTAMP"), 14'318'180u);
  EXPECT_EQ(Value(*device, "OASTATUS") >> 8, 32'768u);

  auto ps = CounterDevice("  - {kind: counter, register: TIMESTAMP, period: 1500ps}\n");
  ps->Advance(2);  // 1.5ns: one tick
  EXPECT_EQ(Value(*ps, "TIMESTAMP"), 1u);
  ps->Advance(1);  // 3ns: two
  EXPECT_EQ(Value(*ps, "TIMESTAMP"), 2u);
  ps->Advance(2'999'997);  // 3ms: 2000000
  EXPECT_EQ(Value(*ps, "TIMESTAMP"), 2'000'000u);
}

// Time while halted does not count, and starting and stopping loses
// nothing: 10000 runs of 50ns count what 500000ns in one run counts,
// floor(500000 * 10^6 / 69841279) = 7159.
TEST(CounterBehaviourTest, EnableGatesTheCountingTimeExactly) {
  auto hpet = testing_support::Hpet();
  hpet->Advance(1'000'000);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 0u);
  for (int i = 0; i < 10'000; ++i) {
    hpet->Write(0, kGenConf, 64, 1);
    hpet->Advance(50);
    hpet->Write(0, kGenConf, 64, 0);
    hpet->Advance(30);
  }
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 7'159u);
}

// An HPET driver halts the main counter to write it. A write while
// halted sets the count, and counting goes on from it once started.
TEST(CounterBehaviourTest, AWriteWhileHaltedSetsTheCount) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kMainCnt, 64, 1000);
  EXPECT_THAT(Kinds(*hpet), IsEmpty());
  hpet->Advance(1'000'000);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 1000u);
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(5));
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 1005u);
}

// A write while running restarts counting from the written value at that
// instant: the next tick comes a whole period after the write, not at the
// old phase (30ns after it).
TEST(CounterBehaviourTest, AWriteWhileRunningRestartsFromTheWrittenValue) {
  auto hpet = testing_support::Hpet();
  hpet->Write(0, kGenConf, 64, 1);
  hpet->Advance(HpetNsFor(10) + 40);  // count 10, 40ns into the next ~70ns tick
  ASSERT_EQ(hpet->Read(0, kMainCnt, 64), 10u);
  hpet->Write(0, kMainCnt, 64, 500);
  hpet->Advance(HpetNsFor(1) - 1);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 500u);
  hpet->Advance(1);
  EXPECT_EQ(hpet->Read(0, kMainCnt, 64), 501u);
}

// `saturate: true` stops at all-ones (covered once each time it gets
// stuck); a lower count set afterwards counts again.
TEST(CounterBehaviourTest, SaturatingCounterStopsAtAllOnes) {
  DeviceOptions options;
  options.coverage = true;
  auto device = CounterDevice(
      "  - {name: nibble, kind: counter, register: OASTATUS, field: NIBBLE, period: 1ns, saturate: true}\n", options);
  RegisterId status = RegisterNamed(device->model(), "OASTATUS");
  device->Advance(15);
  EXPECT_EQ(device->PeekRegister(status), 0xF0u);
  EXPECT_THAT(testing_support::PointHits(*device, "nibble"), ElementsAre(Pair("counter/saturated", 0)));
  device->Advance(5);
  EXPECT_EQ(device->PeekRegister(status), 0xF0u);
  device->Advance(100);
  EXPECT_EQ(device->PeekRegister(status), 0xF0u);
  EXPECT_THAT(testing_support::PointHits(*device, "nibble"), ElementsAre(Pair("counter/saturated", 1)));
  device->PokeRegister(status, 0x30);
  device->Advance(2);
  EXPECT_EQ(device->PeekRegister(status), 0x50u);
  device->Advance(1'000);
  EXPECT_EQ(device->PeekRegister(status), 0xF0u);
  EXPECT_THAT(testing_support::PointHits(*device, "nibble"), ElementsAre(Pair("counter/saturated", 2)));
}

// Compile builds behaviours from the configs the checker keeps in the specs.
// A spec without one (never checked, or refused) is an error naming the
// behaviour, not a crash.
TEST(CounterBehaviourTest, CompilingAnUncheckedBehaviourIsAnError) {
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(
      kCounterDevice + std::string("  - {kind: counter, name: ticks, register: TIMESTAMP, period: 80ns}\n"));
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << regdb::testing_support::Rendered(loaded);
  loaded.database.behaviours[0].config.reset();
  CompileResult compiled = Compile(loaded.database);
  EXPECT_EQ(compiled.model, nullptr);
  EXPECT_THAT(compiled.errors, ElementsAre(AllOf(HasSubstr("behaviour 'ticks'"), HasSubstr("not checked"))));
}

TEST(CounterBehaviourTest, CompilingAConfigOfAnotherKindIsAnError) {
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(
      kCounterDevice + std::string("  - {kind: counter, name: ticks, register: TIMESTAMP, period: 80ns}\n"));
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << regdb::testing_support::Rendered(loaded);
  loaded.database.behaviours[0].config = std::make_shared<regdb::ForcewakeConfig>();
  CompileResult compiled = Compile(loaded.database);
  EXPECT_EQ(compiled.model, nullptr);
  EXPECT_THAT(compiled.errors,
              ElementsAre(AllOf(HasSubstr("behaviour 'ticks'"), HasSubstr("not one of kind 'counter'"))));
}

// A database that was only loaded: its registers have no resolved space, so
// they do not compile, and Compile stops before the behaviours (whose
// register indices would no longer be the model's).
TEST(CounterBehaviourTest, CompilingAnUncheckedDatabaseIsAnError) {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader(
      {{"test.yaml", kCounterDevice + std::string("  - {kind: counter, name: ticks, register: TIMESTAMP, "
                                                  "period: 80ns}\n")}});
  regdb::LoadedDatabase loaded = regdb::LoadDatabase("test.yaml", options);
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << regdb::testing_support::Rendered(loaded);
  ASSERT_EQ(loaded.database.behaviours[0].config, nullptr);
  CompileResult compiled = Compile(loaded.database);
  EXPECT_EQ(compiled.model, nullptr);
  EXPECT_THAT(compiled.errors, Not(IsEmpty()));
  for (const std::string& error : compiled.errors) {
    EXPECT_THAT(error, AllOf(HasSubstr("has no resolved space"), Not(HasSubstr("behaviour"))));
  }
}

}  // namespace
}  // namespace regemu::emulator
