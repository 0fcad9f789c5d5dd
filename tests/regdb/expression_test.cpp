// Integer expressions of the database (regdb/expression.hpp): C precedence,
// exact unsigned arithmetic that never traps the emulator, the number/time
// unit check, every parse-time error at its column, bounds, folding and
// hostile input.
#include <algorithm>
#include <cstdint>
#include <map>
#include <ostream>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/expression.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

// gtest prints errors readably when a matcher fails.
void PrintTo(const ExpressionError& error, std::ostream* os) { *os << error.column << ": " << error.message; }

namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;

constexpr uint64_t kAllOnes = ~uint64_t{0};

// Ids of the test scope's names.
enum : uint64_t { kCcEn = 1, kCcShn, kCapTo, kValue, kNow, kCstsRdy, kMode32 };

// A few registers' fields as a device database would offer them.
class TestScope : public ExpressionScope {
 public:
  std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
    auto it = names_.find(std::string(name));
    if (it == names_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> Candidates(std::string_view) const override {
    std::vector<std::string> out;
    for (const auto& [name, operand] : names_) out.push_back(name);
    return out;
  }

 private:
  std::map<std::string, ExpressionOperand> names_{
      {"CC.EN", {kCcEn, 1, ExpressionType::kNumber}},
      {"CC.SHN", {kCcShn, 2, ExpressionType::kNumber}},
      {"CAP.TO", {kCapTo, 8, ExpressionType::kNumber}},
      {"value", {kValue, 32, ExpressionType::kNumber}},
      {"now", {kNow, 64, ExpressionType::kTime}},
      {"CSTS.RDY", {kCstsRdy, 1, ExpressionType::kNumber}},
      {"alias_of_value", {kValue, 32, ExpressionType::kNumber}},  // another name of one register
      {"T0_CONF.32MODE_CNF", {kMode32, 1, ExpressionType::kNumber}},  // a field named with a leading digit
  };
};

// Values by id, counting loads so tests can see what short-circuiting skipped.
class TestEnv : public ExpressionEnv {
 public:
  explicit TestEnv(std::map<uint64_t, uint64_t> values = {}) : values_(std::move(values)) {}
  uint64_t Load(uint64_t id) const override {
    ++loads_[id];
    auto it = values_.find(id);
    return it == values_.end() ? 0 : it->second;
  }
  int loads(uint64_t id) const { return loads_.count(id) ? loads_.at(id) : 0; }

 private:
  std::map<uint64_t, uint64_t> values_;
  mutable std::map<uint64_t, int> loads_;
};

const TestScope kScope;

Expression Parse(std::string_view text, const ExpressionScope& scope = kScope) {
  auto result = ParseExpressionText(text, scope);
  if (auto* error = std::get_if<ExpressionError>(&result)) {
    ADD_FAILURE() << "'" << text << "' failed at column " << error->column << ": " << error->message;
    return Expression();
  }
  return std::get<Expression>(std::move(result));
}

uint64_t Eval(std::string_view text, const TestEnv& env = TestEnv(), bool* trapped = nullptr) {
  return Parse(text).Evaluate(env, trapped);
}

// The first error, or column npos and "" when `text` parsed.
ExpressionError ErrorOf(std::string_view text) {
  auto result = ParseExpressionText(text, kScope);
  if (auto* error = std::get_if<ExpressionError>(&result)) return *error;
  return {std::string_view::npos, ""};
}

MATCHER_P2(ErrorAt, column, message_matcher, "an error at column " + std::to_string(column)) {
  return arg.column == static_cast<size_t>(column) &&
         ::testing::ExplainMatchResult(message_matcher, arg.message, result_listener);
}

// --- Precedence and associativity ----------------------------------------------

// Resolves `n<digits>` to an operand whose id is its value, so that the same
// text runs through the stack machine instead of constant folding.
class DigitsScope : public ExpressionScope {
 public:
  std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
    return ExpressionOperand{std::stoull(std::string(name.substr(1))), 64, ExpressionType::kNumber};
  }
};
class IdEnv : public ExpressionEnv {
 public:
  uint64_t Load(uint64_t id) const override { return id; }
};

std::string LiteralsToNames(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    bool digit = text[i] >= '0' && text[i] <= '9';
    if (digit && (i == 0 || !(text[i - 1] >= '0' && text[i - 1] <= '9'))) out += 'n';
    out += text[i];
  }
  return out;
}

struct PrecedenceCase {
  const char* text;
  uint64_t c_value;
};

// C's own reading of the same text, unparenthesised on purpose.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#pragma GCC diagnostic ignored "-Wint-in-bool-context"
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wbool-compare"  // GCC's name; clang has no such group
#endif
#pragma GCC diagnostic ignored "-Wlogical-not-parentheses"
#define C_CASE(...) PrecedenceCase{#__VA_ARGS__, static_cast<uint64_t>(__VA_ARGS__)}
const PrecedenceCase kPrecedenceCases[] = {
    C_CASE(1 + 2 * 3),          C_CASE(7 - 2 * 3),         C_CASE(10 - 4 - 3),
    C_CASE(100 / 10 / 5),       C_CASE(2 * 3 % 4),         C_CASE(17 % 5 * 3),
    C_CASE(1 << 2 + 1),         C_CASE(2 + 3 << 1),        C_CASE(1 << 3 - 1),
    C_CASE(64 >> 1 >> 2),       C_CASE(1 < 2 == 1),        C_CASE(3 > 2 > 1),
    C_CASE(1 + 2 == 3),         C_CASE(2 <= 2 != 0),       C_CASE(6 & 3 ^ 5 | 8),
    C_CASE(1 | 2 == 2),         C_CASE(5 & 4 == 4),        C_CASE(12 ^ 10 & 6),
    C_CASE(1 || 0 && 0),        C_CASE(0 && 1 || 1),       C_CASE(0 ? 1 : 0 ? 2 : 3),
    C_CASE(1 ? 2 : 3 + 4),      C_CASE(0 ? 2 : 3 + 4),     C_CASE(1 ? 0 ? 5 : 6 : 7),
    C_CASE(!0 + 1),             C_CASE(!1 == 0),           C_CASE(~0 & 255),
    C_CASE(~~5),                C_CASE(!!7),               C_CASE((1 + 2) * 3),
    C_CASE(8 / (2 + 2)),        C_CASE(3 * (4 + 5) % 7),   C_CASE(2 < 3 && 3 < 4),
    C_CASE(1 + 2 * 3 << 1 < 20 == 1 & 3 ^ 2 | 4 && 5 || 0 ? 11 : 12),
    C_CASE(255 & 15 << 4),      C_CASE(!5 | 2),
};
#undef C_CASE
#pragma GCC diagnostic pop

TEST(ExpressionPrecedenceTest, FoldedConstantsMatchC) {
  for (const PrecedenceCase& c : kPrecedenceCases) {
    Expression e = Parse(c.text);
    EXPECT_TRUE(e.constant()) << c.text;
    EXPECT_EQ(e.Evaluate(TestEnv()), c.c_value) << c.text;
  }
}

TEST(ExpressionPrecedenceTest, EvaluatedOperandsMatchC) {
  DigitsScope scope;
  for (const PrecedenceCase& c : kPrecedenceCases) {
    std::string text = LiteralsToNames(c.text);
    Expression e = Parse(text, scope);
    EXPECT_FALSE(e.constant()) << text;
    EXPECT_EQ(e.Evaluate(IdEnv()), c.c_value) << text;
  }
}

// --- Evaluation ------------------------------------------------------------------

TEST(ExpressionEvalTest, AndAndOrShortCircuitAndGiveZeroOrOne) {
  TestEnv off({{kCcEn, 0}, {kCcShn, 0}, {kValue, 7}});
  bool trapped = false;
  EXPECT_EQ(Eval("CC.EN && value / CC.SHN", off, &trapped), 0u);
  EXPECT_FALSE(trapped);
  EXPECT_EQ(off.loads(kValue), 0);

  TestEnv on({{kCcEn, 1}, {kCcShn, 0}, {kValue, 7}});
  EXPECT_EQ(Eval("CC.EN || value / CC.SHN", on, &trapped), 1u);
  EXPECT_FALSE(trapped);
  EXPECT_EQ(on.loads(kValue), 0);

  EXPECT_EQ(Eval("value && 5", on), 1u);
  EXPECT_EQ(Eval("CC.SHN || value", on), 1u);
  EXPECT_EQ(Eval("CC.SHN || CC.SHN", on), 0u);
}

TEST(ExpressionEvalTest, ConditionalEvaluatesOnlyTheChosenResult) {
  TestEnv env({{kCcEn, 1}, {kValue, 5}, {kCapTo, 9}});
  EXPECT_EQ(Eval("CC.EN ? value : CAP.TO", env), 5u);
  EXPECT_EQ(env.loads(kCapTo), 0);
  EXPECT_EQ(Eval("!CC.EN ? value : CAP.TO + 1", env), 10u);
  EXPECT_EQ(Eval("CC.SHN ? 1 : CC.EN ? 2 : 3", env), 2u);  // right-associative
}

TEST(ExpressionEvalTest, ArithmeticWrapsAroundAt64Bits) {
  TestEnv env({{kValue, 0}, {kCcEn, 1}, {kNow, kAllOnes}});
  EXPECT_EQ(Eval("value - CC.EN", env), kAllOnes);
  EXPECT_EQ(Eval("-CC.EN", env), kAllOnes);
  EXPECT_EQ(Eval("~value", env), kAllOnes);
  EXPECT_EQ(Eval("now + 1ns", env), 0u);
  EXPECT_EQ(Eval("(value - CC.EN) * 3", env), kAllOnes - 2);
  EXPECT_EQ(Eval("(value - CC.EN) << 4", env), kAllOnes << 4);
}

TEST(ExpressionEvalTest, DivisionByZeroGivesZeroAndTraps) {
  TestEnv env({{kValue, 10}, {kCcShn, 0}});
  bool trapped = false;
  EXPECT_EQ(Eval("value / CC.SHN", env, &trapped), 0u);
  EXPECT_TRUE(trapped);
  trapped = false;
  EXPECT_EQ(Eval("value % CC.SHN + 1", env, &trapped), 1u);
  EXPECT_TRUE(trapped);
  EXPECT_EQ(Eval("value / CC.SHN", env), 0u);  // no flag to set is fine
}

TEST(ExpressionEvalTest, ShiftBy64OrMoreGivesZeroAndTraps) {
  TestEnv env({{kValue, 1}, {kCapTo, 64}});
  bool trapped = false;
  EXPECT_EQ(Eval("value << CAP.TO", env, &trapped), 0u);
  EXPECT_TRUE(trapped);
  trapped = false;
  EXPECT_EQ(Eval("value >> CAP.TO + 100", env, &trapped), 0u);
  EXPECT_TRUE(trapped);
  trapped = false;
  EXPECT_EQ(Eval("value << CAP.TO - 1", env, &trapped), uint64_t{1} << 63);
  EXPECT_FALSE(trapped);
}

TEST(ExpressionEvalTest, TrappedIsLeftAloneWithoutATrap) {
  bool trapped = true;
  EXPECT_EQ(Eval("value + 1", TestEnv({{kValue, 1}}), &trapped), 2u);
  EXPECT_TRUE(trapped);
  trapped = false;
  EXPECT_EQ(Eval("value / 2", TestEnv({{kValue, 9}}), &trapped), 4u);
  EXPECT_FALSE(trapped);
}

TEST(ExpressionEvalTest, DefaultExpressionIsTheConstantZero) {
  Expression e;
  EXPECT_EQ(e.Evaluate(TestEnv()), 0u);
  EXPECT_TRUE(e.constant());
  EXPECT_EQ(e.type(), ExpressionType::kNumber);
}

TEST(ExpressionEvalTest, DeepestAllowedNestingEvaluates) {
  std::string text = "value";
  for (size_t i = 1; i < kMaxExpressionNesting; ++i) text = "value + (" + text + ")";
  EXPECT_EQ(Eval(text, TestEnv({{kValue, 3}})), 3 * kMaxExpressionNesting);
}

// --- Literals ----------------------------------------------------------------------

TEST(ExpressionLiteralTest, NumbersUseTheDatabaseSyntax) {
  EXPECT_EQ(Eval("0x1F"), 31u);
  EXPECT_EQ(Eval("0XfF"), 255u);
  EXPECT_EQ(Eval("0b1010"), 10u);
  EXPECT_EQ(Eval("1_000_000"), 1'000'000u);
  EXPECT_EQ(Eval("0xFFFF_FFFF_FFFF_FFFF"), kAllOnes);
  EXPECT_EQ(Eval("18446744073709551615"), kAllOnes);
  EXPECT_EQ(Eval("010"), 10u);  // decimal, not octal
}

TEST(ExpressionLiteralTest, UnitSuffixesMakeTimesInNanoseconds) {
  Expression two_ms = Parse("2ms");
  EXPECT_EQ(two_ms.type(), ExpressionType::kTime);
  EXPECT_EQ(two_ms.Evaluate(TestEnv()), 2'000'000u);
  EXPECT_EQ(Eval("500ns"), 500u);
  EXPECT_EQ(Eval("3us"), 3'000u);
  EXPECT_EQ(Eval("1s"), 1'000'000'000u);
  EXPECT_EQ(Eval("1_500us"), 1'500'000u);
  EXPECT_EQ(Parse("7").type(), ExpressionType::kNumber);
}

TEST(ExpressionLiteralTest, BadLiteralsAreErrorsAtTheirColumn) {
  EXPECT_THAT(ErrorOf("value + 18446744073709551616"), ErrorAt(8, HasSubstr("does not fit in 64 bits")));
  EXPECT_THAT(ErrorOf("1 + 99999999999s"), ErrorAt(4, HasSubstr("too long")));
  EXPECT_THAT(ErrorOf("CC.EN * 5fs"), ErrorAt(9, "'5fs' has an unknown unit 'fs' (the units are ns, us, ms, s)"));
  EXPECT_THAT(ErrorOf("0x10ms"), ErrorAt(0, HasSubstr("'m' is not a hexadecimal digit")));
  EXPECT_THAT(ErrorOf("1__0"), ErrorAt(0, HasSubstr("'__'")));
  EXPECT_THAT(ErrorOf("0b102"), ErrorAt(0, HasSubstr("'2' is not a binary digit")));
  EXPECT_THAT(ErrorOf("0x"), ErrorAt(0, "'0x' is not a number: 'x' is not a decimal digit"));
  EXPECT_THAT(ErrorOf("0x_1"), ErrorAt(0, HasSubstr("'_' only between digits")));
  EXPECT_THAT(ErrorOf("12a3"), ErrorAt(0, HasSubstr("'a' is not a decimal digit")));
  EXPECT_THAT(ErrorOf("now < 1.5ms"),
              ErrorAt(6, "'1.5ms' has a fraction, but expressions are integers (use a smaller unit: 1500us, not "
                         "1.5ms)"));
}

// --- Syntax errors ----------------------------------------------------------------

TEST(ExpressionSyntaxTest, UnknownNameSuggestsTheClosest) {
  EXPECT_THAT(ErrorOf("CC.SHN != 0 && CC.EM == 1"),
              ErrorAt(15, "unknown name 'CC.EM' (did you mean 'CC.EN'?)"));
  EXPECT_THAT(ErrorOf("1 + zzzzzz"), ErrorAt(4, "unknown name 'zzzzzz'"));
}

// A field whose datasheet name starts with a digit is named after its
// register's dot (HPET's Tn_32MODE_CNF).
TEST(ExpressionSyntaxTest, AFieldNameAfterADotMayStartWithADigit) {
  auto parsed = ParseExpressionText("T0_CONF.32MODE_CNF ? 32 : 64", TestScope());
  ASSERT_TRUE(std::holds_alternative<Expression>(parsed));
  const Expression& expression = std::get<Expression>(parsed);
  EXPECT_EQ(expression.Evaluate(TestEnv({{kMode32, 1}})), 32u);
  EXPECT_EQ(expression.Evaluate(TestEnv({{kMode32, 0}})), 64u);
}

TEST(ExpressionSyntaxTest, BadCharactersAndTokens) {
  EXPECT_THAT(ErrorOf("value $ 1"), ErrorAt(6, "unexpected character '$'"));
  EXPECT_THAT(ErrorOf("value = 1"), ErrorAt(6, "'=' is not an operator (did you mean '=='?)"));
  EXPECT_THAT(ErrorOf("CC. == 1"), ErrorAt(2, "expected a name after '.' in 'CC.'"));
  // After a dot a digit may start a field's name (HPET's T0_CONF.32MODE_CNF).
  EXPECT_THAT(ErrorOf("CC.1"), ErrorAt(0, HasSubstr("unknown name 'CC.1'")));
  EXPECT_THAT(ErrorOf("CC.+1"), ErrorAt(2, "expected a name after '.' in 'CC.'"));
  EXPECT_THAT(ErrorOf("CC.EN."), ErrorAt(5, "expected a name after '.' in 'CC.EN.'"));
}

TEST(ExpressionSyntaxTest, UnbalancedParentheses) {
  EXPECT_THAT(ErrorOf("(value + 1"), ErrorAt(0, "'(' is never closed"));
  EXPECT_THAT(ErrorOf("((value) + 1"), ErrorAt(0, "'(' is never closed"));
  EXPECT_THAT(ErrorOf("value + 1)"), ErrorAt(9, "')' has no matching '('"));
  EXPECT_THAT(ErrorOf("(value 1)"), ErrorAt(7, "expected an operator or ')', got '1'"));
}

TEST(ExpressionSyntaxTest, MissingOperand) {
  EXPECT_THAT(ErrorOf("value +"), ErrorAt(6, "expected an operand after '+'"));
  EXPECT_THAT(ErrorOf("* 2"), ErrorAt(0, "expected an operand, got '*'"));
  EXPECT_THAT(ErrorOf("value + * 2"), ErrorAt(8, "expected an operand, got '*'"));
  EXPECT_THAT(ErrorOf("()"), ErrorAt(1, "expected an operand, got ')'"));
  EXPECT_THAT(ErrorOf("!"), ErrorAt(0, "expected an operand after '!'"));
}

TEST(ExpressionSyntaxTest, TrailingTokens) {
  EXPECT_THAT(ErrorOf("value 1"), ErrorAt(6, "expected an operator, got '1'"));
  EXPECT_THAT(ErrorOf("CC.EN : 1"), ErrorAt(6, "expected an operator, got ':'"));
}

TEST(ExpressionSyntaxTest, ConditionalNeedsItsColon) {
  EXPECT_THAT(ErrorOf("CC.EN ? 1"), ErrorAt(6, "'?' has no matching ':'"));
  EXPECT_THAT(ErrorOf("CC.EN ? 1 2"), ErrorAt(10, "expected an operator or ':', got '2'"));
}

TEST(ExpressionSyntaxTest, EmptyExpression) {
  EXPECT_THAT(ErrorOf(""), ErrorAt(0, "expression is empty"));
  EXPECT_THAT(ErrorOf(" \t\n "), ErrorAt(0, "expression is empty"));
}

TEST(ExpressionSyntaxTest, AllNameAndTypeErrorsAreReportedTogether) {
  auto result = ParseExpressionTextAll("CC.EM + (now + 1) + CAP.TQ", kScope);
  ASSERT_TRUE(std::holds_alternative<std::vector<ExpressionError>>(result));
  EXPECT_THAT(std::get<std::vector<ExpressionError>>(result),
              ElementsAre(ErrorAt(0, HasSubstr("unknown name 'CC.EM'")), ErrorAt(13, HasSubstr("cannot add")),
                          ErrorAt(20, HasSubstr("unknown name 'CAP.TQ' (did you mean 'CAP.TO'?)"))));
}

// --- Constants -----------------------------------------------------------------------

TEST(ExpressionConstantTest, ConstantSubexpressionsFoldToOneInstruction) {
  Expression all = Parse("(1 + 2) * 3 << 1");
  EXPECT_TRUE(all.constant());
  EXPECT_EQ(all.program_size(), 1u);
  EXPECT_EQ(all.Evaluate(TestEnv()), 18u);
  EXPECT_EQ(all.max_value(), 18u);

  Expression part = Parse("value + (1 + 2) * 3");
  EXPECT_FALSE(part.constant());
  EXPECT_EQ(part.program_size(), 3u);  // load, push 9, add
  EXPECT_EQ(part.Evaluate(TestEnv({{kValue, 1}})), 10u);
}

TEST(ExpressionConstantTest, OverflowingConstantsAreErrors) {
  EXPECT_THAT(ErrorOf("0xFFFF_FFFF_FFFF_FFFF + 1"),
              ErrorAt(22, "'0xFFFF_FFFF_FFFF_FFFF + 1' overflows 64 bits"));
  EXPECT_THAT(ErrorOf("0x1_0000_0000 * 0x1_0000_0000"), ErrorAt(14, HasSubstr("overflows 64 bits")));
  EXPECT_THAT(ErrorOf("3 << 63"), ErrorAt(2, "'3 << 63' overflows 64 bits"));
  EXPECT_THAT(ErrorOf("CAP.TO * 20000000000s"), ErrorAt(9, HasSubstr("too long")));
  EXPECT_THAT(ErrorOf("value + 1s * 20_000_000_000"), ErrorAt(11, HasSubstr("overflows 64 bits")));
}

TEST(ExpressionConstantTest, NegativeConstantsAreErrors) {
  EXPECT_THAT(ErrorOf("0 - 1"), ErrorAt(2, "'0 - 1' is negative (the arithmetic is unsigned)"));
  EXPECT_THAT(ErrorOf("value + (2ms - 3ms)"), ErrorAt(13, "'2ms - 3ms' is negative (the arithmetic is unsigned)"));
  EXPECT_THAT(ErrorOf("-1"), ErrorAt(0, "'-1' is negative (the arithmetic is unsigned: write ~0 for all ones)"));
  EXPECT_EQ(Eval("-0"), 0u);
  EXPECT_EQ(Eval("~0"), kAllOnes);
}

TEST(ExpressionConstantTest, DivisionByConstantZeroIsAnError) {
  EXPECT_THAT(ErrorOf("value / 0"), ErrorAt(6, "'value / 0' divides by zero"));
  EXPECT_THAT(ErrorOf("value % (1 - 1)"), ErrorAt(6, "'value % (1 - 1)' divides by zero"));
  EXPECT_THAT(ErrorOf("CC.EN ? 4 / 0 : 1"), ErrorAt(10, "'4 / 0' divides by zero"));
}

TEST(ExpressionConstantTest, ConstantShiftBy64OrMoreIsAnError) {
  EXPECT_THAT(ErrorOf("value >> 64"),
              ErrorAt(6, "'value >> 64' shifts by 64, which always gives 0 (shifts go up to 63)"));
  EXPECT_THAT(ErrorOf("1 << 100"), ErrorAt(2, HasSubstr("shifts by 100")));
  EXPECT_EQ(Eval("value >> 63"), 0u);
}

// --- Types -----------------------------------------------------------------------------

TEST(ExpressionTypeTest, TimesCombineAsDurations) {
  TestEnv env({{kCapTo, 4}, {kNow, 3'000'000}});
  Expression delay = Parse("CAP.TO * 500ms");
  EXPECT_EQ(delay.type(), ExpressionType::kTime);
  EXPECT_EQ(delay.Evaluate(env), 2'000'000'000u);
  EXPECT_EQ(Parse("500ms * CAP.TO").type(), ExpressionType::kTime);
  EXPECT_EQ(Parse("now + 2ms").type(), ExpressionType::kTime);
  EXPECT_EQ(Parse("now - 1us").type(), ExpressionType::kTime);
  EXPECT_EQ(Parse("now / 2").type(), ExpressionType::kTime);
  Expression ratio = Parse("now / 1ms");
  EXPECT_EQ(ratio.type(), ExpressionType::kNumber);
  EXPECT_EQ(ratio.Evaluate(env), 3u);
  EXPECT_EQ(Parse("now % 1ms").type(), ExpressionType::kTime);
  EXPECT_EQ(Parse("now % 7").type(), ExpressionType::kTime);
  EXPECT_EQ(Parse("now >= 2ms").type(), ExpressionType::kNumber);
  EXPECT_EQ(Parse("CC.EN ? 1ms : now").type(), ExpressionType::kTime);
}

TEST(ExpressionTypeTest, MixingNumbersAndTimesIsAnError) {
  EXPECT_THAT(ErrorOf("2ms + CC.EN"), ErrorAt(4, "cannot add a time (2ms) and a number (CC.EN)"));
  EXPECT_THAT(ErrorOf("now - 1"), ErrorAt(4, "cannot subtract a number (1) from a time (now)"));
  EXPECT_THAT(ErrorOf("now * (1ms + 1ms)"), ErrorAt(4, "cannot multiply a time (now) by a time (1ms + 1ms)"));
  EXPECT_THAT(ErrorOf("1 / now"), ErrorAt(2, "cannot divide a number (1) by a time (now)"));
  EXPECT_THAT(ErrorOf("1 % now"), ErrorAt(2, "cannot take the remainder of a number (1) by a time (now)"));
  EXPECT_THAT(ErrorOf("now == 5"), ErrorAt(4, "cannot compare a time (now) with a number (5)"));
}

TEST(ExpressionTypeTest, BitwiseAndLogicalOperatorsNeedNumbers) {
  EXPECT_THAT(ErrorOf("now & 1"), ErrorAt(4, "'&' needs numbers, but 'now' is a time"));
  EXPECT_THAT(ErrorOf("1 << 2ms"), ErrorAt(2, "'<<' needs numbers, but '2ms' is a time"));
  EXPECT_THAT(ErrorOf("CC.EN && now"), ErrorAt(6, "'&&' needs numbers, but 'now' is a time"));
  EXPECT_THAT(ErrorOf("-now"), ErrorAt(0, "'-' needs a number, but 'now' is a time"));
  EXPECT_THAT(ErrorOf("!(now)"), ErrorAt(0, "'!' needs a number, but 'now' is a time"));
  EXPECT_THAT(ErrorOf("~1s"), ErrorAt(0, "'~' needs a number, but '1s' is a time"));
}

TEST(ExpressionTypeTest, ConditionalNeedsANumberConditionAndOneResultType) {
  EXPECT_THAT(ErrorOf("now ? 1 : 2"), ErrorAt(4, "the condition of '?:' must be a number, but 'now' is a time"));
  EXPECT_THAT(ErrorOf("CC.EN ? 1ms : 2"),
              ErrorAt(6, "the two results of '?:' must have one type, but they are a time (1ms) and a number (2)"));
}

// --- Bounds -------------------------------------------------------------------------------

TEST(ExpressionBoundsTest, MaxValueFollowsWidthsAndOperators) {
  EXPECT_EQ(Parse("CC.SHN").max_value(), 3u);
  EXPECT_EQ(Parse("value").max_value(), 0xFFFF'FFFFu);
  EXPECT_EQ(Parse("now").max_value(), kAllOnes);
  EXPECT_EQ(Parse("value & 0xFF").max_value(), 0xFFu);
  EXPECT_EQ(Parse("CC.SHN | CC.EN").max_value(), 3u);
  EXPECT_EQ(Parse("CAP.TO ^ 0x100").max_value(), 0x1FFu);
  EXPECT_EQ(Parse("CAP.TO + CAP.TO").max_value(), 510u);
  EXPECT_EQ(Parse("CAP.TO * CC.SHN").max_value(), 765u);
  EXPECT_EQ(Parse("value >> 28").max_value(), 15u);
  EXPECT_EQ(Parse("CC.SHN << 4").max_value(), 48u);
  EXPECT_EQ(Parse("value % 10").max_value(), 9u);
  EXPECT_EQ(Parse("value / 0x100").max_value(), 0xFF'FFFFu);
  EXPECT_EQ(Parse("CC.EN == 1").max_value(), 1u);
  EXPECT_EQ(Parse("CC.EN ? CAP.TO : 1000").max_value(), 1000u);
  EXPECT_EQ(Parse("(value & 0xFFF) + 1").max_value(), 0x1000u);
  EXPECT_EQ(Parse("(value & 0xFFF) + 1").min_value(), 1u);
  EXPECT_EQ(Parse("value - 1").max_value(), kAllOnes);  // may wrap
  EXPECT_EQ(Parse("CAP.TO * 500ms").max_value(), uint64_t{255} * 500'000'000);
}

TEST(ExpressionBoundsTest, ComparisonDecidedByAWidthIsAnError) {
  EXPECT_THAT(ErrorOf("CC.SHN == 4"), ErrorAt(7, "CC.SHN is 2 bits wide (0..3): 'CC.SHN == 4' is never true"));
  EXPECT_THAT(ErrorOf("4 != CC.SHN"), ErrorAt(2, "CC.SHN is 2 bits wide (0..3): '4 != CC.SHN' is always true"));
  EXPECT_THAT(ErrorOf("CC.EN < 2"), ErrorAt(6, "CC.EN is 1 bit wide (0..1): 'CC.EN < 2' is always true"));
  EXPECT_THAT(ErrorOf("CC.EN <= 1"), ErrorAt(6, HasSubstr("is always true")));
  EXPECT_THAT(ErrorOf("value > 0xFFFF_FFFF"),
              ErrorAt(6, "value is 32 bits wide (0..0xffffffff): 'value > 0xFFFF_FFFF' is never true"));
  EXPECT_THAT(ErrorOf("0x1_0000_0000 <= value"), ErrorAt(14, HasSubstr("is never true")));
  EXPECT_THAT(ErrorOf("value < 0"), ErrorAt(6, HasSubstr("'value < 0' is never true")));
  EXPECT_THAT(ErrorOf("value >= 0"), ErrorAt(6, HasSubstr("'value >= 0' is always true")));
  EXPECT_THAT(ErrorOf("CAP.TO + 1 == 300"),
              ErrorAt(11, "'CAP.TO + 1' can only be 1..256: 'CAP.TO + 1 == 300' is never true"));
  EXPECT_THAT(ErrorOf("(CC.SHN | 1) == 0"), ErrorAt(13, HasSubstr("can only be 1..3")));
}

TEST(ExpressionBoundsTest, ComparisonsThatCanGoEitherWayAreFine) {
  for (const char* text : {"CC.SHN == 3", "CC.SHN < 3", "CC.EN == 0", "CC.EN != 1", "3 >= CC.SHN + 1",
                           "value > 0", "now < 2ms", "value - 1 == 0xFFFF_FFFF_FFFF"}) {
    EXPECT_THAT(ErrorOf(text), ErrorAt(std::string_view::npos, "")) << text;
  }
}

// --- Operands ---------------------------------------------------------------------------

TEST(ExpressionOperandsTest, ListsEachIdOnceInFirstUseOrder) {
  EXPECT_THAT(Parse("value + CC.EN * value + CAP.TO == CC.EN").operands(), ElementsAre(kValue, kCcEn, kCapTo));
  EXPECT_THAT(Parse("alias_of_value + value").operands(), ElementsAre(kValue));
  EXPECT_THAT(Parse("CC.EN ? CSTS.RDY : CC.SHN").operands(), ElementsAre(kCcEn, kCstsRdy, kCcShn));
  EXPECT_THAT(Parse("1 + 2").operands(), SizeIs(0));
}

TEST(ExpressionOperandsTest, TextIsKept) { EXPECT_EQ(Parse(" CC.EN  == 1 ").text(), " CC.EN  == 1 "); }

// --- Hostile input -----------------------------------------------------------------------

TEST(ExpressionHostileTest, NestingDeeperThanTheLimitIsAnError) {
  std::string text = std::string(kMaxExpressionNesting + 1, '(') + "1" + std::string(kMaxExpressionNesting + 1, ')');
  EXPECT_THAT(ErrorOf(text), ErrorAt(kMaxExpressionNesting, "expression is nested too deeply (more than 64 levels)"));
  EXPECT_THAT(ErrorOf(std::string(100, '-') + "1"), ErrorAt(kMaxExpressionNesting, HasSubstr("too deeply")));
}

TEST(ExpressionHostileTest, TooManyTokensIsAnError) {
  std::string text = "1";
  for (int i = 0; i < 200; ++i) text += " + 1";
  // Token 256 (0-based) is the 129th `1`, at column 4 * 128.
  EXPECT_THAT(ErrorOf(text), ErrorAt(512, "expression is too long (more than 256 tokens)"));
  EXPECT_THAT(ErrorOf(std::string(10'000, '(')), ErrorAt(256, HasSubstr("too long")));
  EXPECT_THAT(ErrorOf(std::string(10'000, ' ') + "1"), ErrorAt(std::string_view::npos, ""));
}

TEST(ExpressionHostileTest, HugeTokensGiveShortMessages) {
  std::string name(10'000, 'X');
  ExpressionError error = ErrorOf("1 + " + name);
  EXPECT_EQ(error.column, 4u);
  EXPECT_LT(error.message.size(), 100u);
  EXPECT_THAT(error.message, HasSubstr("unknown name 'XXXX"));
  error = ErrorOf(std::string(10'000, '9'));
  EXPECT_LT(error.message.size(), 100u);
  EXPECT_THAT(error.message, HasSubstr("does not fit in 64 bits"));
}

TEST(ExpressionHostileTest, BinaryBytesAreErrors) {
  EXPECT_THAT(ErrorOf(std::string_view("value \0 1", 9)), ErrorAt(6, "unexpected byte 0x00"));
  EXPECT_THAT(ErrorOf("\xC2\xB5s"), ErrorAt(0, "unexpected byte 0xc2"));
  EXPECT_THAT(ErrorOf("value\x7f"), ErrorAt(5, "unexpected byte 0x7f"));
}

// A random well-formed expression over the test scope, fully parenthesised.
std::string RandomExpression(std::mt19937_64& random, int depth) {
  static constexpr std::string_view kLeaves[] = {"value", "CC.EN", "CC.SHN", "CAP.TO", "now", "0", "1", "3",
                                                 "64", "0xFF", "2ms", "1us"};
  static constexpr std::string_view kBinary[] = {"+", "-", "*", "/", "%", "<<", ">>", "<", "<=", ">", ">=",
                                                 "==", "!=", "&", "^", "|", "&&", "||"};
  static constexpr std::string_view kUnary[] = {"-", "~", "!"};
  switch (depth <= 0 ? 0 : random() % 4) {
    case 0: return std::string(kLeaves[random() % std::size(kLeaves)]);
    case 1: return std::string(kUnary[random() % std::size(kUnary)]) + "(" + RandomExpression(random, depth - 1) + ")";
    case 2:
      return "(" + RandomExpression(random, depth - 1) + ") ? (" + RandomExpression(random, depth - 1) + ") : (" +
             RandomExpression(random, depth - 1) + ")";
    default:
      return "(" + RandomExpression(random, depth - 1) + ") " +
             std::string(kBinary[random() % std::size(kBinary)]) + " (" + RandomExpression(random, depth - 1) + ")";
  }
}

// The bounds the checker computes (and so its never-true errors) hold for
// every in-width value of the operands.
TEST(ExpressionBoundsTest, RandomExpressionsStayInTheirBounds) {
  std::mt19937_64 random(2024);
  size_t parsed = 0;
  for (int round = 0; round < 4'000; ++round) {
    std::string text = RandomExpression(random, 4);
    auto result = ParseExpressionText(text, kScope);
    auto* e = std::get_if<Expression>(&result);
    if (e == nullptr) continue;
    ++parsed;
    for (int sample = 0; sample < 8; ++sample) {
      // Small values and all-ones reach the edges of the bounds more often than uniform ones.
      auto pick = [&](uint64_t mask) {
        switch (random() % 3) {
          case 0: return random() % 4 & mask;
          case 1: return mask - std::min<uint64_t>(random() % 4, mask);
          default: return random() & mask;
        }
      };
      TestEnv env({{kValue, pick(0xFFFF'FFFF)}, {kCcEn, pick(1)}, {kCcShn, pick(3)}, {kCapTo, pick(0xFF)},
                   {kNow, pick(kAllOnes)}});
      uint64_t value = e->Evaluate(env);
      ASSERT_LE(e->min_value(), value) << text;
      ASSERT_LE(value, e->max_value()) << text;
    }
  }
  EXPECT_GT(parsed, 400u) << "the generator should mostly make valid expressions";
}

// Random token soup: no crash, errors inside the text, and every value
// evaluated from in-width operands inside the bounds the checker claimed.
TEST(ExpressionHostileTest, RandomTextNeverCrashesAndStaysInBounds) {
  static constexpr std::string_view kPieces[] = {
      "(", ")", "+", "-", "*", "/", "%", "<<", ">>", "<", "<=", "==", "!=", "&", "^", "|", "&&", "||", "?", ":",
      "!", "~", "0", "1", "7", "64", "0x", "0xFF", "2ms", "1s", "value", "CC.EN", "CC.SHN", "now", "CAP.TO", ".",
      " ", "=", "\xff", std::string_view("\0", 1), "18446744073709551615", "9_"};
  std::mt19937_64 random(12345);
  size_t parsed = 0;
  for (int round = 0; round < 20'000; ++round) {
    std::string text;
    size_t pieces = random() % 24;
    for (size_t i = 0; i < pieces; ++i) text += kPieces[random() % std::size(kPieces)];
    auto result = ParseExpressionTextAll(text, kScope);
    if (auto* e = std::get_if<Expression>(&result)) {
      ++parsed;
      uint64_t small = random() % 4;  // small values reach the edges of the bounds more often
      TestEnv env({{kValue, (round % 2 ? small : random()) & 0xFFFF'FFFF},
                   {kCcEn, random() & 1},
                   {kCcShn, random() & 3},
                   {kCapTo, (round % 2 ? small : random()) & 0xFF},
                   {kNow, round % 2 ? small : random()}});
      bool trapped = false;
      uint64_t value = e->Evaluate(env, &trapped);
      EXPECT_LE(e->min_value(), value) << text;
      EXPECT_LE(value, e->max_value()) << text;
    } else {
      for (const ExpressionError& error : std::get<std::vector<ExpressionError>>(result)) {
        EXPECT_LE(error.column, text.size()) << text;
        EXPECT_FALSE(error.message.empty()) << text;
      }
    }
  }
  EXPECT_GT(parsed, 100u);
}

// --- Through the YAML tree --------------------------------------------------------------

YamlNode Scalar(std::string text, SourceLoc loc, bool quoted = false) {
  YamlNode node;
  node.kind = YamlNode::Kind::kScalar;
  node.quoted = quoted;
  node.loc = loc;
  node.text = std::move(text);
  return node;
}

TEST(ExpressionYamlTest, ErrorsPointAtTheTokenInTheFile) {
  Diagnostics diagnostics;
  SchemaReader reader(diagnostics);
  // `    if: CC.SHN == 4` with the scalar at 3:9.
  EXPECT_FALSE(ParseExpression(Scalar("CC.SHN == 4", {1, 3, 9}), kScope, reader, "condition of reaction 'enable'"));
  ASSERT_THAT(diagnostics.all(), SizeIs(1));
  EXPECT_EQ(diagnostics.all()[0].loc, (SourceLoc{1, 3, 16}));
  EXPECT_EQ(diagnostics.all()[0].message,
            "condition of reaction 'enable': CC.SHN is 2 bits wide (0..3): 'CC.SHN == 4' is never true");
}

TEST(ExpressionYamlTest, QuotedScalarsCountTheirQuote) {
  Diagnostics diagnostics;
  SchemaReader reader(diagnostics);
  // `    if: "CC.EM"` : the name starts one column after the scalar's quote.
  EXPECT_FALSE(ParseExpression(Scalar("1 + CC.EM", {1, 3, 9}, true), kScope, reader, "condition"));
  ASSERT_THAT(diagnostics.all(), SizeIs(1));
  EXPECT_EQ(diagnostics.all()[0].loc, (SourceLoc{1, 3, 14}));
  EXPECT_THAT(diagnostics.all()[0].message, HasSubstr("condition: unknown name 'CC.EM' (did you mean 'CC.EN'?)"));
}

TEST(ExpressionYamlTest, EveryErrorIsReported) {
  Diagnostics diagnostics;
  SchemaReader reader(diagnostics);
  EXPECT_FALSE(ParseExpression(Scalar("CC.EM + now", {1, 2, 5}), kScope, reader, "value"));
  EXPECT_THAT(diagnostics.all(), SizeIs(1));  // the unknown name; `+` is not checked against it
  EXPECT_FALSE(ParseExpression(Scalar("CC.EM + CAP.TQ", {1, 2, 5}), kScope, reader, "value"));
  EXPECT_THAT(diagnostics.all(), SizeIs(3));
  EXPECT_EQ(diagnostics.all()[2].loc, (SourceLoc{1, 2, 13}));
}

TEST(ExpressionYamlTest, MultiLineScalarsReportAtTheirStart) {
  Diagnostics diagnostics;
  SchemaReader reader(diagnostics);
  EXPECT_FALSE(ParseExpression(Scalar("CC.EN &&\n  CC.EM\n", {1, 4, 7}), kScope, reader, "condition"));
  ASSERT_THAT(diagnostics.all(), SizeIs(1));
  EXPECT_EQ(diagnostics.all()[0].loc, (SourceLoc{1, 4, 7}));
}

TEST(ExpressionYamlTest, NumbersAndNonScalars) {
  Diagnostics diagnostics;
  SchemaReader reader(diagnostics);
  auto ten = ParseExpression(Scalar("0x10", {1, 1, 8}), kScope, reader, "value");
  ASSERT_TRUE(ten);
  EXPECT_EQ(ten->Evaluate(TestEnv()), 16u);
  auto delay = ParseExpression(Scalar("CAP.TO * 500ms", {1, 1, 8}), kScope, reader, "delay");
  ASSERT_TRUE(delay);
  EXPECT_EQ(delay->type(), ExpressionType::kTime);
  EXPECT_FALSE(diagnostics.has_errors());

  YamlNode map;
  map.kind = YamlNode::Kind::kMap;
  map.loc = {1, 5, 3};
  EXPECT_FALSE(ParseExpression(map, kScope, reader, "delay of reaction 'enable'"));
  ASSERT_THAT(diagnostics.all(), SizeIs(1));
  EXPECT_EQ(diagnostics.all()[0].loc, (SourceLoc{1, 5, 3}));
  EXPECT_EQ(diagnostics.all()[0].message, "delay of reaction 'enable': expected an expression, got a mapping");
}

}  // namespace
}  // namespace regemu::regdb
