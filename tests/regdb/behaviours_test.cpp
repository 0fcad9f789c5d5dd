// `behaviours:` sections (yaml/README.md "behaviours"): the kind is checked
// by the loader against behaviour_kinds.def, the kind's own configuration
// by its check once every register is known, which keeps the section as a
// typed, resolved config (or none after an error). Here: `counter`.
#include <cstdint>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/counter.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using testing_support::CheckFiles;
using testing_support::CheckYaml;
using testing_support::WarningAt;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

template <typename... Matchers>
auto WithNotes(Matchers... notes) {
  return Field(&Diagnostic::notes, ElementsAre(notes...));
}

// Thirteen lines of device; each test appends its behaviours from line 14 on.
constexpr const char* kDevice = R"(device: hsw
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: TIMESTAMP, space: mmio, offset: 0x2358, width: 64, access: hw}
  - name: OASTATUS
    space: mmio
    offset: 0x2364
    fields:
      - {name: COUNT, bits: "31:8", access: hw}
      - {name: OVERFLOW, bits: "0", access: w1c}
  - {name: "OAPERF_A{n}", space: mmio, offset: 0x2800, array: {count: 4, stride: 4}, access: hw}
behaviours:
)";

LoadedDatabase CheckBehaviours(const std::string& behaviours) { return CheckYaml(kDevice + behaviours); }

TEST(BehavioursTest, DeviceWithoutBehavioursIsClean) {
  LoadedDatabase loaded = CheckBehaviours("");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(loaded.database.behaviours, IsEmpty());
}

TEST(BehavioursTest, CounterOnAFieldIsClean) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    register: OASTATUS
    field: COUNT
    period: 80ns
    increment: 2
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  ASSERT_THAT(loaded.database.behaviours, SizeIs(1));
  const BehaviourSpec& spec = loaded.database.behaviours[0];
  EXPECT_EQ(spec.kind, "counter");
  EXPECT_EQ(spec.name, "counter");  // the name defaults to the kind
  EXPECT_EQ(spec.loc.line, 14u);
  EXPECT_EQ(spec.kind_loc.line, 14u);
  EXPECT_EQ(spec.kind_loc.column, 11u);
  // The check keeps the section resolved: register index, field bits, the
  // rate as ticks per ns (80ns: 1/80).
  const CounterConfig* config = ConfigAs<CounterConfig>(spec);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->reg, loaded.database.FindRegister("OASTATUS"));
  EXPECT_EQ(config->bits.mask, 0xFFFFFF00u);
  EXPECT_EQ(config->bits.shift, 8u);
  EXPECT_EQ(config->rate.base.num, 1u);
  EXPECT_EQ(config->rate.base.den, 80u);
  EXPECT_EQ(config->increment, 2u);
}

TEST(BehavioursTest, CounterOnAWholeRegisterWithEveryUnitIsClean) {
  // `field` is optional (the whole register); `increment` defaults to 1.
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: ts_ns, register: TIMESTAMP, period: 80ns}
  - {kind: counter, name: ts_us, register: TIMESTAMP, period: 2us}
  - {kind: counter, name: ts_ms, register: TIMESTAMP, period: 1ms}
  - {kind: counter, name: ts_s, register: TIMESTAMP, period: 1s}
  - {kind: counter, name: perf, register: OAPERF_A3, period: 0x10ns, increment: 0xFF}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  ASSERT_THAT(loaded.database.behaviours, SizeIs(5));
  EXPECT_EQ(loaded.database.behaviours[0].name, "ts_ns");
  EXPECT_EQ(loaded.database.behaviours[4].name, "perf");
  std::vector<uint64_t> periods;
  for (const BehaviourSpec& spec : loaded.database.behaviours) {
    const CounterConfig* config = ConfigAs<CounterConfig>(spec);
    ASSERT_NE(config, nullptr) << spec.name;
    EXPECT_EQ(config->rate.base.num, 1u) << spec.name;  // whole ns: one tick per `den` ns
    periods.push_back(config->rate.base.den);
  }
  EXPECT_THAT(periods, ElementsAre(80u, 2'000u, 1'000'000u, 1'000'000'000u, 16u));
  const CounterConfig& ts = *ConfigAs<CounterConfig>(loaded.database.behaviours[0]);
  EXPECT_EQ(ts.reg, loaded.database.FindRegister("TIMESTAMP"));
  EXPECT_EQ(ts.bits.mask, ~uint64_t{0});  // the whole 64-bit register
  EXPECT_EQ(ts.bits.shift, 0u);
  EXPECT_EQ(ts.increment, 1u);
  const CounterConfig& perf = *ConfigAs<CounterConfig>(loaded.database.behaviours[4]);
  EXPECT_EQ(perf.reg, loaded.database.FindRegister("OAPERF_A3"));
  EXPECT_EQ(perf.bits.mask, 0xFFFFFFFFu);
  EXPECT_EQ(perf.increment, 0xFFu);
}

TEST(BehavioursTest, UnknownKindSuggestsTheClosestAndListsKnownKinds) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: countr
    register: TIMESTAMP
    period: 80ns
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 11, AllOf(HasSubstr("unknown behaviour kind 'countr' (did you mean 'counter'?)"),
                                                HasSubstr("expected one of: counter")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.behaviours, IsEmpty());
}

TEST(BehavioursTest, UnknownKindFarFromAnyListsKnownKindsOnly) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: watchdog, register: TIMESTAMP}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 12,
                                  AllOf(HasSubstr("unknown behaviour kind 'watchdog'"), Not(HasSubstr("did you mean")),
                                        HasSubstr("expected one of: counter")))))
      << Rendered(loaded);
}

TEST(BehavioursTest, BehaviourNeedsAKindAndAMapping) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - counter
  - {register: TIMESTAMP, period: 80ns}
  - {kind: [counter]}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 5, HasSubstr("expected a behaviour as a mapping, got a scalar")),
                          ErrorAt(15, 5, HasSubstr("behaviour has no 'kind' (required)")),
                          ErrorAt(16, 12, HasSubstr("expected behaviour kind as a scalar, got a sequence"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, BehaviourNameMustBeAnIdentifier) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: oa-timer, register: TIMESTAMP, period: 80ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 27, HasSubstr("behaviour name 'oa-timer' is not a C identifier"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.behaviours, IsEmpty());
}

TEST(BehavioursTest, CounterWithAnUnknownRegisterSuggestsTheClosest) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    register: OASTATSU
    period: 80ns
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 15, HasSubstr("behaviour 'counter' names unknown register 'OASTATSU' "
                                                    "(did you mean 'OASTATUS'?)"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterRegisterMustBeAName) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, register: 0x2358, period: 80ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 31, HasSubstr("register '0x2358' is not a C identifier"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterWithAnUnknownFieldSuggestsTheClosest) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    register: OASTATUS
    field: CONT
    period: 80ns
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(
                  ErrorAt(16, 12, HasSubstr("register 'OASTATUS' has no field 'CONT' (did you mean 'COUNT'?)"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterFieldOfARegisterWithoutFieldsIsUnknown) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, register: TIMESTAMP, field: LOW, period: 80ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 49, AllOf(HasSubstr("register 'TIMESTAMP' has no field 'LOW'"),
                                                Not(HasSubstr("did you mean"))))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterRequiresRegisterAndPeriod) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    increment: 1
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 5, HasSubstr("behaviour 'counter' has no 'register' (required)")),
                          ErrorAt(14, 5, HasSubstr("counter behaviour 'counter' has neither 'period' nor 'frequency' "
                                                   "(one is required)"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterPeriodNeedsAKnownUnit) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: a, register: TIMESTAMP, period: 80xs}
  - {kind: counter, name: b, register: TIMESTAMP, period: 80}
  - {kind: counter, name: c, register: TIMESTAMP, period: "80 ns"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 59, HasSubstr("period: expected a period with a unit (fs, ps, ns, us, ms, "
                                                    "s), got '80xs'")),
                          ErrorAt(15, 59, HasSubstr("period: expected a period with a unit (fs, ps, ns, us, ms, "
                                                    "s), got '80'")),
                          ErrorAt(16, 59, HasSubstr("got '80 ns'"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterPeriodOfZeroIsAnError) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    register: TIMESTAMP
    period: 0ns
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(16, 13, HasSubstr("counter period must be longer than 0ns"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterIncrementIsAPositiveNumber) {
  LoadedDatabase loaded = CheckBehaviours(
      R"(  - {kind: counter, name: a, register: TIMESTAMP, period: 80ns, increment: 0}
  - {kind: counter, name: b, register: TIMESTAMP, period: 80ns, increment: "2"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 76, HasSubstr("increment 0 is out of range [0x1, 0xffffffffffffffff]")),
                          ErrorAt(15, 76, HasSubstr("expected increment as a number, got a quoted string"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, UnknownKeyInTheCounterConfigSuggestsTheClosest) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    register: TIMESTAMP
    period: 80ns
    incremnt: 2
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(17, 5, AllOf(HasSubstr("unknown key 'incremnt' in a counter behaviour"),
                                               HasSubstr("(did you mean 'increment'?)"),
                                               HasSubstr("known keys: kind, name, register, field, period, "
                                                         "increment")))))
      << Rendered(loaded);
}

TEST(BehavioursTest, EveryErrorOfOneCounterIsReported) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - kind: counter
    register: OASTATUS
    field: CONT
    period: 0ns
    increment: 0
    wrap: true
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(19, 5, HasSubstr("unknown key 'wrap'")),
                          ErrorAt(16, 12, HasSubstr("has no field 'CONT'")),
                          ErrorAt(17, 13, HasSubstr("counter period must be longer than 0ns")),
                          ErrorAt(18, 16, HasSubstr("increment 0 is out of range"))))
      << Rendered(loaded);
  // Nothing runs a section the check refused.
  ASSERT_THAT(loaded.database.behaviours, SizeIs(1));
  EXPECT_EQ(loaded.database.behaviours[0].config, nullptr);
}

TEST(BehavioursTest, TwoUnnamedCountersShareTheDefaultNameAndClash) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, register: TIMESTAMP, period: 80ns}
  - {kind: counter, register: OASTATUS, field: COUNT, period: 80ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(15, 5, HasSubstr("behaviour 'counter' is defined twice")),
                                WithNotes(NoteAt(14, 5, HasSubstr("first defined here"))))))
      << Rendered(loaded);
}

// A counter changes its bits on its own; bits the driver also owns are
// almost always a slip in the database, so `check` says so (a warning: the
// database still loads).
TEST(BehavioursTest, ACounterDrivingBitsThatAreNotHwIsAWarning) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: good, register: OASTATUS, field: COUNT, period: 80ns}
  - {kind: counter, name: field, register: OASTATUS, field: OVERFLOW, period: 80ns}
  - {kind: counter, name: whole, register: OASTATUS, period: 80ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(WarningAt(15, 61, HasSubstr("counter behaviour 'field' drives OASTATUS.OVERFLOW, whose "
                                                      "access is 'w1c', not 'hw'")),
                          WarningAt(16, 44, HasSubstr("counter behaviour 'whole' drives OASTATUS.OVERFLOW"))))
      << Rendered(loaded);
  EXPECT_FALSE(loaded.diagnostics.has_errors());
}

TEST(BehavioursTest, DuplicateBehaviourNamesAreAnError) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: ticks, register: TIMESTAMP, period: 80ns}
  - {kind: counter, name: other, register: TIMESTAMP, period: 1us}
  - {kind: counter, name: ticks, register: TIMESTAMP, period: 80ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(16, 5, HasSubstr("behaviour 'ticks' is defined twice")),
                                WithNotes(NoteAt(14, 5, HasSubstr("first defined here"))))))
      << Rendered(loaded);
}

TEST(BehavioursTest, BehaviourInAnIncludedFileSeesRegistersOfEveryFile) {
  // Configurations are checked after every file is loaded, so order does not matter.
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: hsw
include: [timers.yaml, regs.yaml]
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
)"},
                                      {"timers.yaml", R"(behaviours:
  - {kind: counter, register: TIMESTAMP, period: 80ns}
  - {kind: counter, name: typo, register: TIMESTMP, period: 80ns}
)"},
                                      {"regs.yaml", R"(registers:
  - {name: TIMESTAMP, space: mmio, offset: 0x2358, width: 64, access: hw}
)"}},
                                     "device.yaml");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 43, HasSubstr("names unknown register 'TIMESTMP' (did you mean 'TIMESTAMP'?)"))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.sources.file(loaded.diagnostics.all()[0].loc.file).path, "timers.yaml");
  // Only the section with the error goes without a config.
  ASSERT_THAT(loaded.database.behaviours, SizeIs(2));
  EXPECT_NE(ConfigAs<CounterConfig>(loaded.database.behaviours[0]), nullptr);
  EXPECT_EQ(loaded.database.behaviours[1].config, nullptr);
}

}  // namespace
}  // namespace regemu::regdb
