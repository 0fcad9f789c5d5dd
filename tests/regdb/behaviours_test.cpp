// `behaviours:` sections (yaml/README.md "behaviours"): the kind is checked
// by the loader against behaviour_kinds.def, the kind's own configuration
// by its schema once every register is known. Here: `counter`.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

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
  - {name: "OAPERF_A{n}", space: mmio, offset: 0x2800, array: {count: 4, stride: 4}}
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
  // The kind reads its own configuration later: the whole mapping is kept.
  ASSERT_NE(spec.config.Find("period"), nullptr);
  EXPECT_EQ(spec.config.Find("period")->text, "80ns");
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
                          ErrorAt(14, 5, HasSubstr("counter behaviour 'counter' has no 'period' (required)"))))
      << Rendered(loaded);
}

TEST(BehavioursTest, CounterPeriodNeedsAKnownUnit) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: a, register: TIMESTAMP, period: 80xs}
  - {kind: counter, name: b, register: TIMESTAMP, period: 80}
  - {kind: counter, name: c, register: TIMESTAMP, period: "80 ns"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 59, HasSubstr("period: expected a duration with a unit (ns, us, ms, s), "
                                                    "got '80xs'")),
                          ErrorAt(15, 59, HasSubstr("period: expected a duration with a unit (ns, us, ms, s), "
                                                    "got '80'")),
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

TEST(BehavioursTest, DuplicateBehaviourNamesAreAnError) {
  LoadedDatabase loaded = CheckBehaviours(R"(  - {kind: counter, name: ticks, register: TIMESTAMP, period: 80ns}
  - {kind: counter, name: other, register: TIMESTAMP, period: 1us}
  - {kind: counter, name: ticks, register: OASTATUS, period: 80ns}
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
}

}  // namespace
}  // namespace regemu::regdb
