// The `counter` configuration check (yaml/README.md "kind: counter") beyond
// the basics in behaviours_test.cpp: the rate from a period in any unit or
// a frequency, the enable, saturation and comparators, resolved into the
// config; every mistake reported at its line and column.
#include <cstdint>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/counter.hpp"
#include "regemu/regdb/register_scope.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;
using testing_support::WarningAt;

// Twenty-one lines of an HPET; each test's behaviour starts on line 22.
constexpr const char* kDevice = R"(device: hpet
spaces:
  - {name: mmio, kind: mmio, size: 0x400}
registers:
  - name: GEN_CONF
    space: mmio
    offset: 0x10
    width: 64
    fields: [{name: ENABLE_CNF, bits: 0, access: rw}]
  - name: GINTR_STA
    space: mmio
    offset: 0x20
    width: 64
    fields: [{name: T0_INT_STS, bits: 0, access: w1c}]
  - {name: MAIN_CNT, space: mmio, offset: 0xf0, width: 64, access: rw}
  - {name: T0_CONF, space: mmio, offset: 0x100, width: 64, fields: [{name: TYPE_CNF, bits: 3, access: rw}]}
  - {name: T0_CMP, space: mmio, offset: 0x108, width: 64, access: rw}
  - {name: T0_PERIOD, space: mmio, offset: 0x110, width: 64, access: rw}
  - {name: TS, space: mmio, offset: 0x200, width: 32, access: hw}
  - {name: CTL, space: mmio, offset: 0x204, width: 32, fields: [{name: COUNT, bits: "30:0", access: hw}, {name: RUN, bits: 31, access: rw}]}
behaviours:
)";

LoadedDatabase Check(const std::string& behaviours) { return CheckYaml(kDevice + behaviours); }

// The HPET's main counter: rw, because the driver writes it while halted,
// so with an `enable` there is no warning about its policy.
TEST(CounterCheckTest, HpetCounterIsCleanAndResolved) {
  LoadedDatabase loaded = Check(R"(  - name: hpet
    kind: counter
    register: MAIN_CNT
    period: 69841279fs
    enable: GEN_CONF.ENABLE_CNF
    saturate: false
    compare:
      - {name: T0, register: T0_CMP, set: GINTR_STA.T0_INT_STS, periodic: T0_CONF.TYPE_CNF, period_register: T0_PERIOD}
      - {name: T1, register: T0_PERIOD, signal: false}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const CounterConfig* config = ConfigAs<CounterConfig>(loaded.database.behaviours.at(0));
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->rate.base.num, 1'000'000u);
  EXPECT_EQ(config->rate.base.den, 69'841'279u);
  ASSERT_TRUE(config->enable.has_value());
  // The enable is an expression reading GEN_CONF's ENABLE_CNF field (bit 0).
  ASSERT_EQ(config->enable->operands().size(), 1u);
  EXPECT_EQ(regdb::OperandRegister(config->enable->operands()[0]), loaded.database.FindRegister("GEN_CONF"));
  EXPECT_TRUE(regdb::IsFieldOperand(config->enable->operands()[0]));
  EXPECT_FALSE(config->saturate);
  ASSERT_EQ(config->compare.size(), 2u);
  const CounterComparator& t0 = config->compare[0];
  EXPECT_EQ(t0.name, "T0");
  EXPECT_EQ(t0.value.reg, loaded.database.FindRegister("T0_CMP"));
  EXPECT_EQ(t0.value.bits.mask, ~uint64_t{0});
  ASSERT_TRUE(t0.set && t0.periodic && t0.period_register);
  EXPECT_EQ(t0.set->text, "GINTR_STA.T0_INT_STS");
  EXPECT_EQ(t0.periodic->bits.mask, 8u);
  EXPECT_EQ(t0.period_register->reg, loaded.database.FindRegister("T0_PERIOD"));
  EXPECT_TRUE(t0.signal);
  const CounterComparator& t1 = config->compare[1];
  EXPECT_FALSE(t1.signal);
  EXPECT_FALSE(t1.set || t1.periodic || t1.period_register);
}

TEST(CounterCheckTest, FrequencyAndSaturationAreResolved) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, register: TS, frequency: 19.2MHz, saturate: true, increment: 2}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const CounterConfig* config = ConfigAs<CounterConfig>(loaded.database.behaviours.at(0));
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->rate.base.num, 12u);  // 0.0192 ticks a ns
  EXPECT_EQ(config->rate.base.den, 625u);
  EXPECT_TRUE(config->saturate);
  EXPECT_EQ(config->increment, 2u);
  EXPECT_THAT(config->compare, IsEmpty());
}

// Without an enable the driver cannot halt the counter to write it: a
// writable counter still draws the warning.
TEST(CounterCheckTest, AWritableCounterWithoutEnableIsAWarning) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, register: MAIN_CNT, period: 1ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(WarningAt(22, 31, HasSubstr("drives MAIN_CNT, whose access is 'rw', not 'hw'"))))
      << Rendered(loaded);
}

// `volatile: true` says hardware changes the value behind the driver's back,
// which is what the warning asks for: a writable counter so marked (the whole
// register, or the field the counter drives) is clean; the same counter on a
// register or field that is not volatile is still warned about.
TEST(CounterCheckTest, AWritableCounterMarkedVolatileIsNotAWarning) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - {name: CNT, space: mmio, offset: 0x0, width: 64, access: rw, volatile: true}
  - {name: CTL, space: mmio, offset: 0x8, fields: [{name: COUNT, bits: "15:0", access: rw, volatile: true}]}
  - {name: CNT_FIELDS, space: mmio, offset: 0x10, volatile: true, fields: [{name: LOW, bits: "15:0", access: rw}]}
behaviours:
  - {kind: counter, name: whole, register: CNT, period: 1ns}
  - {kind: counter, name: part, register: CTL, field: COUNT, period: 1ns}
  - {kind: counter, name: fields, register: CNT_FIELDS, period: 1ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
}

TEST(CounterCheckTest, AWritableCounterNotMarkedVolatileIsAWarning) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - {name: CNT, space: mmio, offset: 0x0, width: 64, access: rw, volatile: false}
  - {name: CTL, space: mmio, offset: 0x8, fields: [{name: COUNT, bits: "15:0", access: rw}]}
behaviours:
  - {kind: counter, name: whole, register: CNT, period: 1ns}
  - {kind: counter, name: part, register: CTL, field: COUNT, period: 1ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(WarningAt(7, 44, HasSubstr("drives CNT, whose access is 'rw', not 'hw', and which is not "
                                                     "'volatile: true'")),
                          WarningAt(8, 55, HasSubstr("drives CTL.COUNT, whose access is 'rw'"))))
      << Rendered(loaded);
}

TEST(CounterCheckTest, PeriodAndFrequencyTogetherAreAnError) {
  LoadedDatabase loaded = Check(R"(  - kind: counter
    register: TS
    period: 80ns
    frequency: 12.5MHz
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(25, 16, HasSubstr("counter behaviour 'counter' has both 'period' and "
                                                          "'frequency': give one")),
                                Field(&Diagnostic::notes,
                                      ElementsAre(NoteAt(24, 13, HasSubstr("the period is here")))))))
      << Rendered(loaded);
}

TEST(CounterCheckTest, RateErrorsAreLocated) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, name: a, register: TS, period: 1000}
  - {kind: counter, name: b, register: TS, period: 0fs}
  - {kind: counter, name: c, register: TS, frequency: 0Hz}
  - {kind: counter, name: d, register: TS, frequency: 18446744073709551616Hz}
  - {kind: counter, name: e, register: TS, period: 0.00000000000001fs}
  - {kind: counter, name: f, register: TS, frequency: 0.000000000001Hz}
  - {kind: counter, name: g, register: TS, frequency: 19.2}
  - {kind: counter, name: h, register: TS}
)");
  EXPECT_THAT(
      loaded.diagnostics.all(),
      ElementsAre(ErrorAt(22, 52, HasSubstr("period: expected a period with a unit (fs, ps, ns, us, ms, s), "
                                            "got '1000'")),
                  ErrorAt(23, 52, HasSubstr("period: a counter period must be longer than 0ns")),
                  ErrorAt(24, 55, HasSubstr("frequency: a counter frequency must be above 0Hz")),
                  ErrorAt(25, 55, HasSubstr("does not fit in 64 bits")),
                  ErrorAt(26, 52, HasSubstr("period '0.00000000000001fs' cannot be represented exactly")),
                  ErrorAt(27, 55, HasSubstr("frequency '0.000000000001Hz' cannot be represented exactly")),
                  ErrorAt(28, 55, HasSubstr("expected a frequency with a unit (Hz, kHz, MHz, GHz), got '19.2'")),
                  ErrorAt(29, 5, HasSubstr("counter behaviour 'h' has neither 'period' nor 'frequency'"))))
      << Rendered(loaded);
}

TEST(CounterCheckTest, EnableAndSaturateErrorsAreLocated) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, name: a, register: TS, period: 1ns, enable: GEN_CONF.ENABLE}
  - {kind: counter, name: b, register: TS, period: 1ns, enable: GEN_CNF}
  - {kind: counter, name: c, register: CTL, field: COUNT, period: 1ns, enable: CTL}
  - {kind: counter, name: d, register: TS, period: 1ns, saturate: yes}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(22, 65, HasSubstr("register 'GEN_CONF' has no field 'ENABLE'")),
                          ErrorAt(23, 65, HasSubstr("enable of counter behaviour 'b' names unknown register 'GEN_CNF' "
                                                    "(did you mean 'GEN_CONF'?)")),
                          ErrorAt(24, 80, HasSubstr("enable of counter behaviour 'c': 'CTL' overlaps the counter's "
                                                    "own bits")),
                          ErrorAt(25, 67, HasSubstr("expected saturate as true or false"))))
      << Rendered(loaded);
}

// An enable in the counter's register, beside its bits, is fine (and hw
// counting bits need no warning).
TEST(CounterCheckTest, AnEnableBesideTheCountingBitsIsClean) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, register: CTL, field: COUNT, period: 1ns, enable: CTL.RUN}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
}

TEST(CounterCheckTest, ComparatorErrorsAreLocated) {
  LoadedDatabase loaded = Check(R"(  - name: hpet
    kind: counter
    register: MAIN_CNT
    period: 69841279fs
    enable: GEN_CONF.ENABLE_CNF
    compare:
      - {name: T0, register: T0_CMPP}
      - {name: T1, register: T0_CMP, set: GINTR_STA.T1_INT_STS}
      - {name: T2, register: T0_CMP, periodic: T0_CONF.TYPE_CNF}
      - {name: T3, register: T0_CMP, period_register: T0_PERIOD}
      - {name: T4, register: T0_CMP, signal: maybe}
      - {name: T5, register: MAIN_CNT}
      - {name: T6, registr: T0_CMP}
      - {register: T0_CMP}
      - {name: T0, register: T0_CMP}
)");
  EXPECT_THAT(
      loaded.diagnostics.all(),
      ElementsAre(
          ErrorAt(28, 30, HasSubstr("comparator 'T0' of counter behaviour 'hpet' names unknown register 'T0_CMPP' "
                                    "(did you mean 'T0_CMP'?)")),
          ErrorAt(29, 43, HasSubstr("register 'GINTR_STA' has no field 'T1_INT_STS' (did you mean 'T0_INT_STS'?)")),
          ErrorAt(30, 48, HasSubstr("comparator 'T2' of counter behaviour 'hpet' has 'periodic' but no "
                                    "'period_register'")),
          ErrorAt(31, 55, HasSubstr("comparator 'T3' of counter behaviour 'hpet' has 'period_register' but no "
                                    "'periodic'")),
          ErrorAt(32, 46, HasSubstr("expected signal as true or false")),
          ErrorAt(33, 30, HasSubstr("comparator 'T5' of counter behaviour 'hpet': 'MAIN_CNT' overlaps the "
                                    "counter's own bits")),
          ErrorAt(34, 20, AllOf(HasSubstr("unknown key 'registr' in a counter comparator"),
                                HasSubstr("(did you mean 'register'?)"))),
          ErrorAt(34, 9, HasSubstr("comparator 'T6' of counter behaviour 'hpet' has no 'register' (required)")),
          ErrorAt(35, 9, HasSubstr("a comparator of counter behaviour 'hpet' has no 'name' (required)")),
          AllOf(ErrorAt(36, 16, HasSubstr("comparator 'T0' of counter behaviour 'hpet' is defined twice")),
                Field(&Diagnostic::notes, ElementsAre(NoteAt(28, 16, HasSubstr("first defined here")))))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.database.behaviours.at(0).config, nullptr);
}

// `width:` is the count's low bits a comparator compares: a constant (a
// 32-bit HPET timer) or an expression over registers and fields (a 64-bit
// timer's Tn_32MODE_CNF), parsed into the config.
TEST(CounterCheckTest, ComparatorWidthIsAnExpression) {
  LoadedDatabase loaded = Check(R"(  - name: hpet
    kind: counter
    register: MAIN_CNT
    period: 69841279fs
    enable: GEN_CONF.ENABLE_CNF
    compare:
      - {name: T0, register: T0_CMP, width: "T0_CONF.TYPE_CNF ? 32 : 64"}
      - {name: T1, register: T0_PERIOD, width: 32}
)");
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const CounterConfig* config = ConfigAs<CounterConfig>(loaded.database.behaviours.at(0));
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(config->compare.size(), 2u);
  ASSERT_TRUE(config->compare[0].width.has_value());
  EXPECT_EQ(config->compare[0].width->text(), "T0_CONF.TYPE_CNF ? 32 : 64");
  EXPECT_FALSE(config->compare[0].width->constant());
  ASSERT_TRUE(config->compare[1].width.has_value());
  EXPECT_TRUE(config->compare[1].width->constant());
  EXPECT_EQ(config->compare[1].width->max_value(), 32u);
}

// A width the counter cannot have, a time, an unknown name, and a width on
// a saturating counter (which never wraps) are located errors.
TEST(CounterCheckTest, ComparatorWidthErrorsAreLocated) {
  LoadedDatabase loaded = Check(R"(  - name: hpet
    kind: counter
    register: CTL
    field: COUNT
    period: 1ns
    compare:
      - {name: A, register: T0_CMP, width: 32}
      - {name: B, register: T0_CMP, width: 0}
      - {name: C, register: T0_CMP, width: 1ms}
      - {name: D, register: T0_CMP, width: "T0_CONF.TYPO_CNF ? 8 : 31"}
  - {name: sat, kind: counter, register: TS, period: 1ns, saturate: true, compare: [{name: E, register: T0_CMP, width: 8}]}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(28, 44, HasSubstr("width of comparator 'A' of counter behaviour 'hpet' is 32: the "
                                                    "bits compared are 1 to the counter's width (31)")),
                          ErrorAt(29, 44, HasSubstr("is 0: the bits compared are 1 to the counter's width (31)")),
                          ErrorAt(30, 44, HasSubstr("width of comparator 'C' of counter behaviour 'hpet' is a time")),
                          ErrorAt(31, 45, HasSubstr("unknown name 'T0_CONF.TYPO_CNF' (did you mean "
                                                    "'T0_CONF.TYPE_CNF'?)")),
                          ErrorAt(32, 120, HasSubstr("comparator 'E' of counter behaviour 'sat' has 'width', but the "
                                                     "counter saturates"))))
      << Rendered(loaded);
}

TEST(CounterCheckTest, CompareMustBeAList) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, register: TS, period: 1ns, compare: {name: T0, register: T0_CMP}}
)");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(22, 57, HasSubstr("expected compare as a sequence"))))
      << Rendered(loaded);
}

// Comparators are checked even when the counter's register is unknown.
TEST(CounterCheckTest, ComparatorsOfAnUnknownCounterAreStillChecked) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, register: MAIN, period: 1ns, compare: [{name: T0, register: T9_CMP}]}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(22, 31, HasSubstr("names unknown register 'MAIN'")),
                          ErrorAt(22, 81, AllOf(HasSubstr("names unknown register 'T9_CMP'"), Not(HasSubstr("hpet"))))))
      << Rendered(loaded);
}

// The rate, width, enable and limit as expressions, and each mistake in
// them at its own column: a divider that can be 0 (PRESCALE 0 would stop
// the clock), a width past the counting bits, an enable that reads the
// count, a limit with nothing at it, and the keys that cannot go together.
TEST(CounterCheckTest, ExpressionRatesWidthsAndLimits) {
  LoadedDatabase ok = Check(R"yaml(  - kind: counter
    register: CTL
    field: COUNT
    direction: down
    frequency: "25MHz / (T0_CONF.TYPE_CNF ? 16 : 1)"
    width: "T0_CONF.TYPE_CNF ? 16 : 31"
    enable: "CTL.RUN && GEN_CONF.ENABLE_CNF"
    at_limit: {set: GINTR_STA.T0_INT_STS, reload: T0_PERIOD, stop: T0_CONF.TYPE_CNF}
    write_phase: keep
)yaml");
  EXPECT_THAT(ok.diagnostics.all(), IsEmpty()) << Rendered(ok);
  const CounterConfig* config = ConfigAs<CounterConfig>(ok.database.behaviours.at(0));
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->direction, CountDirection::kDown);
  ASSERT_TRUE(config->rate.scale.has_value());
  EXPECT_TRUE(config->rate.divides);
  EXPECT_EQ(config->rate.scale->max_value(), 16u);
  EXPECT_EQ(config->write_phase, WritePhase::kKeep);
  ASSERT_TRUE(config->at_limit.has_value());
  EXPECT_EQ(config->at_limit->set.size(), 1u);

  LoadedDatabase loaded = Check(R"yaml(  - {kind: counter, name: a, register: TS, frequency: "25MHz / T0_CONF.TYPE_CNF"}
  - {kind: counter, name: b, register: TS, period: 1ns, width: "T0_CONF.TYPE_CNF ? 64 : 32"}
  - {kind: counter, name: c, register: CTL, field: COUNT, period: 1ns, enable: "CTL.COUNT > 3"}
  - {kind: counter, name: d, register: TS, period: 1ns, limit: 5}
  - {kind: counter, name: e, register: TS, period: 1ns, direction: down, compare: [{name: X, register: T0_CMP}]}
  - {kind: counter, name: f, register: TS, period: 1ns, increment: 2, at_limit: {reload: 0}}
  - {kind: counter, name: g, register: TS, period: 1ns, direction: sideways}
  - {kind: counter, name: h, register: TS, period: 1ns, at_limit: {reload: T0_CMPP}}
)yaml");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(22, 64, HasSubstr("'T0_CONF.TYPE_CNF' can be 0, and a counter's rate cannot")),
                          ErrorAt(23, 64, HasSubstr("width of counter behaviour 'b' can be 64: a counter counts 1 to "
                                                    "32 bits")),
                          ErrorAt(24, 80, HasSubstr("enable of counter behaviour 'c': 'CTL.COUNT' overlaps the "
                                                    "counter's own bits")),
                          ErrorAt(25, 64, HasSubstr("has 'limit' but no 'at_limit'")),
                          ErrorAt(26, 83, HasSubstr("has comparators and counts down")),
                          ErrorAt(27, 81, HasSubstr("has 'at_limit' and an increment of 2")),
                          ErrorAt(28, 68, HasSubstr("counter direction")),
                          ErrorAt(29, 76, HasSubstr("unknown name 'T0_CMPP'"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
