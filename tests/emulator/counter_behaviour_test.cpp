// The `counter` behaviour (yaml/README.md "behaviours"): "a free-running
// counter driven by the virtual clock: adds `increment` every `period`,
// wrapping at the field width".
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/forcewake.hpp"
#include "tests/emulator/device_test_support.hpp"

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
