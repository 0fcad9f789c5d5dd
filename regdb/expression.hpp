#pragma once
// Integer expressions in the database: conditions (`CC.SHN != 0 &&
// CSTS.RDY == 1`), values (`(value & 0xFFF) + 1`) and delays (`CAP.TO *
// 500ms`) said as data. Exact unsigned 64-bit arithmetic only, so the same
// database always behaves the same; every node is a number or a time
// (nanoseconds), and mixing them wrongly is a located error, found when the
// database loads, as are names that do not exist, constants that overflow
// and comparisons that can never be true. What is left to run is a flat
// stack-machine program that allocates nothing and cannot fail.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

enum class ExpressionType : uint8_t { kNumber, kTime };  // kTime: nanoseconds (a duration)

// "number" or "time", for messages.
const char* ExpressionTypeName(ExpressionType type);

// What a name stands for, as the caller's scope says.
class Expression;

struct ExpressionOperand {
  uint64_t id = 0;      // the caller's handle, handed back to ExpressionEnv::Load
  unsigned width = 64;  // 1..64 (others are taken as 64): the largest value it can hold is 2^width-1
  ExpressionType type = ExpressionType::kNumber;
  // A named expression (`let:`): compiled in place of the name, as if its
  // text stood there in parentheses; `id` and `width` are then unused.
  const Expression* inline_expression = nullptr;
};

// Resolves identifiers: C identifiers optionally joined by dots (`value`,
// `CC.EN`, `entry.OPC`).
class ExpressionScope {
 public:
  virtual ~ExpressionScope() = default;
  virtual std::optional<ExpressionOperand> Resolve(std::string_view name) const = 0;
  // Names offered as "did you mean" when Resolve failed (may be empty).
  virtual std::vector<std::string> Candidates(std::string_view /*name*/) const { return {}; }
  // Why Resolve failed, when the scope knows better than "unknown name"
  // (a register outside the block a behaviour is written in); empty: unknown.
  virtual std::string WhyUnresolved(std::string_view /*name*/) const { return {}; }
};

// Evaluation-time values. Load is called once for each use of an operand
// that the evaluation reaches (a short-circuited side is not loaded), so it
// should read without side effects (a backdoor read).
class ExpressionEnv {
 public:
  virtual ~ExpressionEnv() = default;
  virtual uint64_t Load(uint64_t id) const = 0;
};

// Bounds that keep hostile text cheap to reject and the evaluation stack small.
inline constexpr size_t kMaxExpressionTokens = 256;
inline constexpr size_t kMaxExpressionNesting = 64;

class Expression {
 public:
  // The constant 0.
  Expression() = default;

  // Never throws, never undefined behaviour: unsigned 64-bit wrap-around
  // arithmetic; x / 0 and x % 0 give 0; a shift by >= 64 gives 0.
  // `trapped` (optional) is set true when a division by zero or an
  // over-wide shift happened (callers report it); it is left alone otherwise.
  uint64_t Evaluate(const ExpressionEnv& env, bool* trapped = nullptr) const {
    // Most delays and values in a database are constants (`after: 2ms`,
    // `set: {RDY: 1}`), folded to one push: inline, they cost a compare.
    if (code_.size() == 1 && code_.front().op == Op::kPush) return code_.front().arg;
    return Run(env, trapped);
  }

  ExpressionType type() const { return type_; }
  bool constant() const { return operands_.empty(); }  // no operands: every evaluation gives the same value
  // Conservative bounds of the result, from operand widths and constants.
  uint64_t min_value() const { return min_value_; }
  uint64_t max_value() const { return max_value_; }
  const std::string& text() const { return text_; }
  // The operand ids it loads, each once, in first-use (left-to-right) order.
  const std::vector<uint64_t>& operands() const { return operands_; }

  // The instruction count, for tests of constant folding.
  size_t program_size() const { return code_.size(); }

 private:
  friend class ExpressionCompiler;

  uint64_t Run(const ExpressionEnv& env, bool* trapped) const;  // the stack machine

  enum class Op : uint8_t {
    kPush,        // push arg
    kLoad,        // push env.Load(arg)
    kNegate,      // -x (wraps)
    kComplement,  // ~x
    kNot,         // !x
    kMultiply,
    kDivide,
    kModulo,
    kAdd,
    kSubtract,
    kShiftLeft,
    kShiftRight,
    kLess,
    kLessEqual,
    kGreater,
    kGreaterEqual,
    kEqual,
    kNotEqual,
    kBitAnd,
    kBitXor,
    kBitOr,
    kAndJump,      // pop; if 0: push 0, jump to arg (the left side of &&)
    kOrJump,       // pop; if not 0: push 1, jump to arg (the left side of ||)
    kToBool,       // x != 0 (the right side of && and ||)
    kJumpIfZero,   // pop; if 0: jump to arg (the condition of ?:)
    kJump,         // jump to arg (the end of ?:'s first arm)
  };
  struct Instruction {
    Op op = Op::kPush;
    uint64_t arg = 0;
  };
  // The stack a program may use; the compiler refuses programs that need
  // more (the token limit already keeps them well under it).
  static constexpr size_t kStackSize = kMaxExpressionTokens;

  // The one definition of each operator's arithmetic, for constant folding
  // and evaluation alike.
  static uint64_t ApplyUnary(Op op, uint64_t x);
  static uint64_t ApplyBinary(Op op, uint64_t a, uint64_t b, bool& trapped);

  std::vector<Instruction> code_;
  std::vector<uint64_t> operands_;
  std::string text_;
  ExpressionType type_ = ExpressionType::kNumber;
  uint64_t min_value_ = 0;
  uint64_t max_value_ = 0;
};

// Parses `node` (a scalar: `1`, `0x10`, `2ms` and `CC.EN == 1` alike) in
// `scope`. Reports every mistake through `reader` at the offending token
// (the column counted from node.loc, +1 for a quoted scalar; at node.loc
// itself when the scalar spans lines) as "<what>: <message>", and returns
// nothing when there was one. `what` names the key ("condition of reaction
// 'enable'").
std::optional<Expression> ParseExpression(const YamlNode& node, const ExpressionScope& scope, SchemaReader& reader,
                                          std::string_view what);

// ParseExpression, and an error at `node` unless the result is a `type`:
// "<what> is a number, expected a time (give it a unit: <units_example>)".
// Behaviour keys that take a duration or a count read through it.
std::optional<Expression> ParseTypedExpression(const YamlNode& node, const ExpressionScope& scope,
                                               SchemaReader& reader, const std::string& what, ExpressionType type,
                                               std::string_view units_example = "2ms, 500us");

// The same from plain text (tests, script lines): the first mistake, at its
// 0-based byte column.
struct ExpressionError {
  size_t column = 0;
  std::string message;
};
std::variant<Expression, ExpressionError> ParseExpressionText(std::string_view text, const ExpressionScope& scope);

// Every mistake, in the order found (a syntax error stops the parse; name
// and type errors do not).
std::variant<Expression, std::vector<ExpressionError>> ParseExpressionTextAll(std::string_view text,
                                                                              const ExpressionScope& scope);

}  // namespace regemu::regdb
