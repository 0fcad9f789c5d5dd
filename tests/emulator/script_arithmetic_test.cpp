// Arithmetic in scripts (script_expression.hpp): expressions in every
// operand, `let` names known when parsed or bound when a read runs, `print`,
// durations as a type, exact arithmetic whose mistakes are located errors.
#include <cstdint>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_expression.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/script_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using regdb::testing_support::ErrorAt;
using script_testing::Parse;
using script_testing::Ran;
using script_testing::TestModel;

regdb::Diagnostic OnlyError(const std::string& text) {
  Script script = Parse(text);
  EXPECT_EQ(script.diagnostics.error_count(), 1u) << script.FormatErrors();
  return script.diagnostics.all().empty() ? regdb::Diagnostic{} : script.diagnostics.all().front();
}

Ran RunText(const std::string& text, RunOptions options = {}) {
  Ran ran;
  ran.script = ParseScript(text, "test.script", *TestModel());
  EXPECT_TRUE(ran.script.ok()) << ran.script.FormatErrors();
  ran.device = std::make_unique<Device>(TestModel());
  ran.result = RunScript(ran.script, *ran.device, options);
  return ran;
}

// A constant expression's value, or its error message.
std::string Value(const std::string& text) {
  ScriptExpressionError error;
  auto none = [](std::string_view) -> std::optional<ScriptBinding> { return std::nullopt; };
  auto expression = ParseScriptExpression(text, 1, none, {}, error);
  if (!expression) return "error at " + std::to_string(error.column) + ": " + error.message;
  auto value = EvaluateScriptExpression(*expression, {}, error);
  if (!value) return "error at " + std::to_string(error.column) + ": " + error.message;
  return FormatScriptValue(*value, expression->type);
}

// ---------------------------------------------------------------- expressions

TEST(ScriptExpression, PrecedenceIsC) {
  EXPECT_EQ(Value("1+2*3"), "0x7 (7)");
  EXPECT_EQ(Value("(1+2)*3"), "0x9 (9)");
  EXPECT_EQ(Value("1<<4|1"), "0x11 (17)");
  EXPECT_EQ(Value("0xff&0x0f^0x01"), "0xe (14)");
  EXPECT_EQ(Value("1+1<<2"), "0x8 (8)");  // + binds tighter than <<, as in C
  EXPECT_EQ(Value("~0&0xffff"), "0xffff (65535)");
  EXPECT_EQ(Value("100/7%5"), "0x4 (4)");
  EXPECT_EQ(Value("( 3 + 4 ) * 2"), "0xe (14)");
  EXPECT_EQ(Value("0b1010_1010>>4"), "0xa (10)");
}

TEST(ScriptExpression, DurationsCarryTheirUnit) {
  EXPECT_EQ(Value("500*40ns"), "20000ns");
  EXPECT_EQ(Value("40ns*500"), "20000ns");
  EXPECT_EQ(Value("1ms+1us"), "1001000ns");
  EXPECT_EQ(Value("1ms/3"), "333333ns");
  EXPECT_EQ(Value("1ms/40ns"), "0x61a8 (25000)");  // how many 40ns periods: a number
  EXPECT_EQ(Value("1ms%300ns"), "100ns");
  EXPECT_THAT(Value("1ms+5"), HasSubstr("error at 4: '+' cannot combine a duration and a number"));
  EXPECT_THAT(Value("1ms*2us"), HasSubstr("'*' cannot combine a duration and a duration"));
  EXPECT_THAT(Value("5/1ms"), HasSubstr("'/' cannot combine a number and a duration"));
  EXPECT_THAT(Value("1ms&1"), HasSubstr("'&' cannot combine a duration and a number"));
  EXPECT_THAT(Value("~1ms"), HasSubstr("'~' takes a number"));
}

TEST(ScriptExpression, ArithmeticIsExactAndItsMistakesAreLocated) {
  EXPECT_EQ(Value("0xffffffffffffffff"), "0xffffffffffffffff (18446744073709551615)");
  EXPECT_EQ(Value("1-2"), "error at 2: 0x1 - 0x2 is below 0");
  EXPECT_EQ(Value("0xffffffffffffffff+1"), "error at 19: 0xffffffffffffffff + 0x1 is past 2^64 - 1");
  EXPECT_EQ(Value("0x100000000*0x100000000"), "error at 12: 0x100000000 * 0x100000000 is past 2^64 - 1");
  EXPECT_EQ(Value("5/(3-3)"), "error at 2: division by 0");
  EXPECT_EQ(Value("5%0"), "error at 2: division by 0");
  EXPECT_EQ(Value("3<<63"), "error at 2: 0x3 << 63 loses set bits past bit 63");
  EXPECT_EQ(Value("1>>64"), "error at 2: a shift by 64 (at most 63)");
  EXPECT_EQ(Value("1<<63"), "0x8000000000000000 (9223372036854775808)");
  EXPECT_THAT(Value("-1"), HasSubstr("error at 1: values are unsigned"));
  EXPECT_THAT(Value("(1+2"), HasSubstr("error at 1: this '(' is not closed"));
  EXPECT_THAT(Value("1+2)"), HasSubstr("error at 4: ')' without its '('"));
  EXPECT_THAT(Value("1+"), HasSubstr("error at 3: missing a value"));
  EXPECT_THAT(Value("0xZZ"), HasSubstr("'Z' is not a hexadecimal digit"));
  EXPECT_THAT(Value("5min"), HasSubstr("expected a duration with a unit"));
  EXPECT_THAT(Value("nope"), HasSubstr("error at 1: unknown name 'nope'"));
  EXPECT_THAT(Value(std::string(200, '(') + "1" + std::string(200, ')')), HasSubstr("nests deeper than 64"));
}

// ------------------------------------------------------------------- parsing

TEST(ScriptArithmetic, EveryOperandTakesAnExpression) {
  Script script = Parse(
      "let T = 40ns\n"
      "let BASE = 0x10\n"
      "write32 mmio BASE+4 (1 << 8) | 1\n"  // one word per operand; spaces only inside parentheses
      "write32 CTRL (1<<8)|1\n"
      "expect32 CTRL 0x101 mask ~0xfe&0xffffffff\n"
      "step 500*T\n"
      "poll32 COUNT 5 timeout 10*T\n"
      "poll-step T/2\n"
      "expect-edges 2*2\n");
  EXPECT_THAT(script.diagnostics.all(), ElementsAre(ErrorAt(3, 30, HasSubstr("unexpected '|'"))));
  script = Parse(
      "let T = 40ns\n"
      "let BASE = 0x10\n"
      "write32 mmio BASE+4 ((1 << 8) | 1)\n"
      "write32 CTRL (1<<8)|1\n"
      "expect32 CTRL 0x101 mask ~0xfe&0xffffffff\n"
      "step 500*T\n"
      "poll32 COUNT 5 timeout 10*T\n"
      "poll-step T/2\n"
      "expect-edges 2*2\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  ASSERT_THAT(script.commands, SizeIs(7));  // a constant let is no command
  EXPECT_EQ(script.commands[0].target.offset, 0x14u);
  EXPECT_EQ(script.commands[0].value, 0x101u);
  EXPECT_EQ(script.commands[1].value, 0x101u);
  EXPECT_EQ(script.commands[2].mask, 0xffffff01u);
  EXPECT_EQ(script.commands[3].value, 20'000u);
  EXPECT_EQ(script.commands[4].timeout_ns, 400u);
  EXPECT_EQ(script.commands[5].value, 20u);
  EXPECT_EQ(script.commands[6].value, 4u);
  EXPECT_TRUE(script.commands[0].deferred.empty());
}

TEST(ScriptArithmetic, NumbersAndDurationsAreNotInterchangeable) {
  EXPECT_THAT(OnlyError("step 500*2\n"), ErrorAt(1, 6, HasSubstr("bad duration: '500*2' is a number")));
  EXPECT_THAT(OnlyError("write32 CTRL 40ns\n"), ErrorAt(1, 14, HasSubstr("bad VALUE: '40ns' is a duration")));
  EXPECT_THAT(OnlyError("let T = 40ns\nwrite32 CTRL T*2\n"), ErrorAt(2, 14, HasSubstr("is a duration")));
}

TEST(ScriptArithmetic, ValuesStillFitTheirAccess) {
  EXPECT_THAT(OnlyError("write8 CTRL 0xff+1\n"), ErrorAt(1, 13, HasSubstr("VALUE 0x100 does not fit in 8 bits")));
  EXPECT_THAT(OnlyError("write32 CTRL.EN 1+1\n"), ErrorAt(1, 17, HasSubstr("does not fit CTRL.EN")));
  EXPECT_THAT(OnlyError("write32 CTRL 1-2\n"), ErrorAt(1, 15, "bad VALUE: 0x1 - 0x2 is below 0"));
}

TEST(ScriptArithmetic, LetMistakesAreLocated) {
  EXPECT_THAT(OnlyError("let 9x = 1\n"), ErrorAt(1, 5, HasSubstr("'9x' is not a name")));
  EXPECT_THAT(OnlyError("let x=1\n"), ErrorAt(1, 5, HasSubstr("is not a name")));
  EXPECT_THAT(OnlyError("let x := 1\n"), ErrorAt(1, 7, HasSubstr("expected '='")));
  EXPECT_THAT(OnlyError("let x =\n"), ErrorAt(1, 8, HasSubstr("missing EXPR")));
  EXPECT_THAT(OnlyError("let x = 1 2\n"), ErrorAt(1, 11, HasSubstr("unexpected '2'")));
  EXPECT_THAT(OnlyError("let x = write32 CTRL 1\n"), ErrorAt(1, 9, HasSubstr("unknown name 'write32'")));
  EXPECT_THAT(OnlyError("let x = expect32 CTRL 1\n"), ErrorAt(1, 9, HasSubstr("unknown name 'expect32'")));
  EXPECT_THAT(OnlyError("let x = read32 NOPE\n"), ErrorAt(1, 16, HasSubstr("unknown register or space 'NOPE'")));
  EXPECT_THAT(OnlyError("let T = 40ns\nwrite32 CTRL U\n"), ErrorAt(2, 14, HasSubstr("unknown name 'U'")));
  EXPECT_THAT(OnlyError("let Tick = 40ns\nstep 2*Tack\n"), ErrorAt(2, 8, HasSubstr("did you mean 'Tick'")));
  EXPECT_THAT(OnlyError("write32 CTRL x\nlet x = 1\n"), ErrorAt(1, 14, HasSubstr("unknown name 'x'")));  // names come from above
}

TEST(ScriptArithmetic, ALaterLetReplacesTheName) {
  Script script = Parse("let v = 1\nwrite32 CTRL v\nlet v = v+1\nwrite32 CTRL v\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_EQ(script.commands[0].value, 1u);
  EXPECT_EQ(script.commands[1].value, 2u);
}

TEST(ScriptArithmetic, WhatMustBeKnownWhenParsedSaysSo) {
  EXPECT_THAT(OnlyError("let v = read32 CTRL\nwrite32 mmio v 1\n"),
              ErrorAt(2, 14, HasSubstr("OFFSET must be known when the script is parsed: 'v' is bound only when")));
  EXPECT_THAT(OnlyError("let v = read32 CTRL\npoll32 CTRL 1 timeout v*1ns\n"),
              ErrorAt(2, 23, HasSubstr("must be known when the script is parsed")));
  EXPECT_THAT(OnlyError("let v = read32 CTRL\npoll-step v*1ns\n"),
              ErrorAt(2, 11, HasSubstr("must be known when the script is parsed")));
}

// ------------------------------------------------------------------- running

TEST(ScriptArithmetic, ALetReadBindsTheValueItReads) {
  // COUNT adds 1 every 100ns: what QEMU's tests compute from a value read.
  Ran ran = RunText(
      "step 250ns\n"
      "let v = read32 COUNT\n"
      "expect32 COUNT v\n"
      "step 100ns\n"
      "expect32 COUNT v+1\n"
      "let w = v*2+1\n"
      "write32 CTRL.HI w\n"
      "expect32 CTRL.HI 5\n"
      "print v w (v<<4) 3*40ns\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.values,
              ElementsAre(Field(&ScriptValue::text, "read32 COUNT = 0x00000002"),
                          Field(&ScriptValue::text, "print v = 0x2 (2), w = 0x5 (5), (v<<4) = 0x20 (32), 3*40ns = 120ns")));
  ASSERT_THAT(ran.script.commands, SizeIs(9));
  EXPECT_EQ(ran.script.commands[5].op, ScriptOp::kLet);  // computed from a run-time value: runs
}

TEST(ScriptArithmetic, AFieldReadBindsTheFieldsValue) {
  Ran ran = RunText("write32 CTRL 0x1201\nlet hi = read32 CTRL.HI\nexpect32 CTRL (hi<<8)|1\nlet p = peek32 CTRL.EN\n"
                    "expect32 CTRL.EN p\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
}

TEST(ScriptArithmetic, ARunTimeValueThatDoesNotFitStopsTheRunAtItsLine) {
  Ran ran = RunText("write32 CTRL 0x100\nlet v = read32 CTRL\nwrite8 SMALL v\nwrite32 CTRL 0\n");
  EXPECT_FALSE(ran.result.passed());
  ASSERT_TRUE(ran.result.error);
  EXPECT_EQ(ran.result.error->loc.line, 3u);
  EXPECT_EQ(ran.result.error->loc.column, 14u);
  EXPECT_EQ(ran.result.error->message, "VALUE 0x100 does not fit in 8 bits");
  EXPECT_EQ(ran.result.commands_run, 3u);

  ran = RunText("let v = read32 STATUS\nexpect32 CTRL v-2\n");
  ASSERT_TRUE(ran.result.error);
  EXPECT_EQ(ran.result.error->loc.column, 16u);  // at the '-'
  EXPECT_EQ(ran.result.error->message, "VALUE: 0x1 - 0x2 is below 0");

  ran = RunText("let v = read32 STATUS\nexpect32 CTRL.EN v+1\n");
  ASSERT_TRUE(ran.result.error);
  EXPECT_EQ(ran.result.error->message, "VALUE 0x2 does not fit in 1 bits");

  ran = RunText("let v = read32 STATUS\nexpect32 CTRL v*2 mask 1\n");
  ASSERT_TRUE(ran.result.error);
  EXPECT_THAT(ran.result.error->message, HasSubstr("has bits outside mask 0x1"));
}

TEST(ScriptArithmetic, ARunTimeStepIsBoundedByTheRunsTimeLimit) {
  RunOptions options;
  options.max_virtual_ns = 1'000;
  Ran ran = RunText("let v = read32 STATUS\nstep v*999ns\nstep v*2ns\n", options);
  ASSERT_TRUE(ran.result.error);
  EXPECT_EQ(ran.result.error->loc.line, 3u);
  EXPECT_THAT(ran.result.error->message, HasSubstr("limit of 1000ns of virtual time"));
  EXPECT_EQ(ran.device->now_ns(), 999u);
}

TEST(ScriptArithmetic, ExpectMsiAndEdgesTakeRunTimeValues) {
  Script script = Parse("let v = read32 STATUS\nexpect-edges v-1\nexpect-msi v*0x1000 v+1\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_THAT(script.commands[1].deferred, SizeIs(1));
  EXPECT_THAT(script.commands[2].deferred, SizeIs(2));
  Ran ran = RunText("let v = read32 STATUS\nexpect-edges v-1\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
}

}  // namespace
}  // namespace regemu::emulator
