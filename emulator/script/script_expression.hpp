#pragma once
// Arithmetic in scripts: the operands of commands are expressions over
// numbers, durations and `let` names, so that a test computes what a C test
// computes (`step 500*T`, `expect32 VALUE (v - 1)`, `let n = LOAD / 16`).
//
//   operands   123  0x7f  0b101  1_000   40ns 2us 1ms 1s   NAME   ( EXPR )
//   unary      ~                        (bitwise not, 64 bits)
//   binary     *  /  %                  (tightest)
//              +  -
//              <<  >>
//              &
//              ^
//              |                        (loosest)
//
// An expression is one word: spaces may appear only inside parentheses
// (`v+1` and `(v + 1)`, not `v + 1`), so a command's operands stay
// separated by spaces as before.
//
// Values are unsigned 64-bit integers or durations (whole nanoseconds).
// Arithmetic is exact: a result past 2^64 - 1 or below 0, a division by 0
// and a shift that loses set bits are errors, never a silent wrap (write
// `~v & 0xffff` for a 16-bit complement). Types follow the units: duration
// ± duration, duration × number, duration ÷ number and duration % duration
// are durations, duration ÷ duration is a number; bitwise operators take
// numbers. A register value is a number and a `step` a duration, and the
// parser says so when one is given for the other.
//
// Expressions over constants are evaluated when the script is parsed; one
// that reads a name bound at run time (`let v = read32 REG`) is evaluated
// when its command runs, and its errors then stop the run at its line.

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace regemu::emulator {

enum class ScriptValueType : uint8_t { kNumber, kDuration };

// "number" or "duration", for messages.
std::string_view ScriptValueTypeName(ScriptValueType type);

// A parsed expression in postfix order.
struct ScriptExpression {
  enum class Op : uint8_t { kConstant, kVariable, kNot, kMul, kDiv, kMod, kAdd, kSub, kShl, kShr, kAnd, kXor, kOr };
  struct Step {
    Op op = Op::kConstant;
    uint64_t operand = 0;  // kConstant: the value; kVariable: the slot
    uint32_t column = 0;   // 1-based column of the operand or operator, for errors at run time
  };
  std::vector<Step> steps;
  ScriptValueType type = ScriptValueType::kNumber;

  // Whether no step reads a slot: the parser then evaluates it.
  bool constant() const;
};

// What a name in an expression stands for.
struct ScriptBinding {
  ScriptValueType type = ScriptValueType::kNumber;
  std::optional<uint64_t> value;  // a constant; none: bound at run time, in `slot`
  uint32_t slot = 0;
};

struct ScriptExpressionError {
  uint32_t column = 0;  // 1-based, in the line
  std::string message;
};

// Parses `word`, which starts at `column` of its line. `lookup` resolves a
// name, or returns none; `names` lists the names known, for suggestions.
std::optional<ScriptExpression> ParseScriptExpression(
    std::string_view word, uint32_t column, const std::function<std::optional<ScriptBinding>(std::string_view)>& lookup,
    std::span<const std::string_view> names, ScriptExpressionError& error);

// Evaluates `expression` with the run-time slots' values; none after
// setting `error` (overflow, below 0, division by 0, a shift losing bits).
std::optional<uint64_t> EvaluateScriptExpression(const ScriptExpression& expression, std::span<const uint64_t> slots,
                                                 ScriptExpressionError& error);

// A value as `print` shows it: "0x2a (42)" or "40ns".
std::string FormatScriptValue(uint64_t value, ScriptValueType type);

// Whether `text` is a name an expression reads (C's identifiers): what
// `let` may bind.
bool IsScriptName(std::string_view text);

}  // namespace regemu::emulator
