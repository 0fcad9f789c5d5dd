#include "regemu/emulator/script/script_expression.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <variant>

#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::emulator {
namespace {

using Op = ScriptExpression::Op;
using Lookup = std::function<std::optional<ScriptBinding>(std::string_view)>;

// Nesting deeper than this is not a test anyone writes: refuse it before
// the recursion costs stack (the fuzzer writes such lines).
constexpr unsigned kMaxDepth = 64;

bool IsNameStart(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool IsNameByte(char c) { return IsNameStart(c) || (c >= '0' && c <= '9'); }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }

struct BinaryOperator {
  std::string_view text;
  Op op;
  int precedence;  // higher binds tighter
};

constexpr BinaryOperator kBinaryOperators[] = {
    {"<<", Op::kShl, 3}, {">>", Op::kShr, 3}, {"*", Op::kMul, 5}, {"/", Op::kDiv, 5}, {"%", Op::kMod, 5},
    {"+", Op::kAdd, 4},  {"-", Op::kSub, 4},  {"&", Op::kAnd, 2}, {"^", Op::kXor, 1}, {"|", Op::kOr, 0},
};

std::string_view OperatorText(Op op) {
  if (op == Op::kNot) return "~";
  for (const BinaryOperator& b : kBinaryOperators) {
    if (b.op == op) return b.text;
  }
  return "?";
}

// The type of `left OP right`, or none when the units do not combine.
std::optional<ScriptValueType> ResultType(Op op, ScriptValueType left, ScriptValueType right) {
  constexpr auto kN = ScriptValueType::kNumber;
  constexpr auto kD = ScriptValueType::kDuration;
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
      if (left == right) return left;
      return std::nullopt;
    case Op::kMul:
      if (left == kD && right == kD) return std::nullopt;
      return left == kD || right == kD ? kD : kN;
    case Op::kDiv:
      if (left == kN && right == kD) return std::nullopt;
      return left == kD && right == kN ? kD : kN;
    case Op::kMod:
      if (left != right) return std::nullopt;
      return left;
    default:
      if (left == kN && right == kN) return kN;
      return std::nullopt;
  }
}

class ExpressionParser {
 public:
  ExpressionParser(std::string_view text, uint32_t column, const Lookup& lookup,
                   std::span<const std::string_view> names, ScriptExpressionError& error)
      : text_(text), column_(column), lookup_(lookup), names_(names), error_(error) {}

  std::optional<ScriptExpression> Parse() {
    ScriptExpression expression;
    auto type = ParseBinary(expression, 0, 0);
    if (!type) return std::nullopt;
    SkipSpaces();
    if (pos_ < text_.size()) {
      if (text_[pos_] == ')') return Fail(pos_, "')' without its '('");
      return Fail(pos_, "unexpected '" + std::string(1, text_[pos_]) + "' in the expression");
    }
    expression.type = *type;
    return expression;
  }

 private:
  // operand (OP operand)* with operators binding at least `min_precedence`.
  std::optional<ScriptValueType> ParseBinary(ScriptExpression& out, int min_precedence, unsigned depth) {
    auto left = ParseUnary(out, depth);
    if (!left) return std::nullopt;
    for (;;) {
      SkipSpaces();
      const BinaryOperator* found = PeekOperator();
      if (found == nullptr || found->precedence < min_precedence) return left;
      size_t at = pos_;
      pos_ += found->text.size();
      auto right = ParseBinary(out, found->precedence + 1, depth + 1);
      if (!right) return std::nullopt;
      auto type = ResultType(found->op, *left, *right);
      if (!type) {
        return FailType(at, "'" + std::string(found->text) + "' cannot combine a " +
                                std::string(ScriptValueTypeName(*left)) + " and a " +
                                std::string(ScriptValueTypeName(*right)) + Hint(found->op, *left, *right));
      }
      out.steps.push_back({found->op, 0, Column(at)});
      left = type;
    }
  }

  std::optional<ScriptValueType> ParseUnary(ScriptExpression& out, unsigned depth) {
    if (depth > kMaxDepth) {
      Fail(pos_, "the expression nests deeper than " + std::to_string(kMaxDepth) + " levels");
      return std::nullopt;
    }
    SkipSpaces();
    if (pos_ >= text_.size()) {
      Fail(pos_, "missing a value at the end of the expression");
      return std::nullopt;
    }
    char c = text_[pos_];
    if (c == '~') {
      size_t at = pos_++;
      auto type = ParseUnary(out, depth + 1);
      if (!type) return std::nullopt;
      if (*type != ScriptValueType::kNumber) return FailType(at, "'~' takes a number, not a duration");
      out.steps.push_back({Op::kNot, 0, Column(at)});
      return type;
    }
    if (c == '-') {
      Fail(pos_, "values are unsigned: there is no negative number (subtract from a value instead)");
      return std::nullopt;
    }
    if (c == '(') {
      size_t open = pos_++;
      auto type = ParseBinary(out, 0, depth + 1);
      if (!type) return std::nullopt;
      SkipSpaces();
      if (pos_ >= text_.size() || text_[pos_] != ')') {
        Fail(open, "this '(' is not closed");
        return std::nullopt;
      }
      ++pos_;
      return type;
    }
    if (IsDigit(c)) return ParseLiteral(out);
    if (IsNameStart(c)) return ParseName(out);
    Fail(pos_, "expected a number, a duration, a name or '(', got '" + std::string(1, c) + "'");
    return std::nullopt;
  }

  std::optional<ScriptValueType> ParseLiteral(ScriptExpression& out) {
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameByte(text_[pos_])) ++pos_;
    std::string_view word = text_.substr(start, pos_ - start);
    auto number = regdb::ParseUnsigned(word);
    if (auto* value = std::get_if<uint64_t>(&number)) {
      out.steps.push_back({Op::kConstant, *value, Column(start)});
      return ScriptValueType::kNumber;
    }
    bool prefixed = word.size() > 1 && word[0] == '0' && (word[1] == 'x' || word[1] == 'X' || word[1] == 'b' ||
                                                          word[1] == 'B');
    bool has_letter = std::any_of(word.begin(), word.end(), [](char ch) { return IsNameStart(ch) && ch != '_'; });
    if (!prefixed && has_letter) {
      auto duration = regdb::ParseDurationNs(word);
      if (auto* ns = std::get_if<uint64_t>(&duration)) {
        out.steps.push_back({Op::kConstant, *ns, Column(start)});
        return ScriptValueType::kDuration;
      }
      Fail(start, std::get<regdb::NumberError>(duration).message);
      return std::nullopt;
    }
    Fail(start, std::get<regdb::NumberError>(number).message);
    return std::nullopt;
  }

  std::optional<ScriptValueType> ParseName(ScriptExpression& out) {
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameByte(text_[pos_])) ++pos_;
    std::string_view name = text_.substr(start, pos_ - start);
    std::optional<ScriptBinding> binding = lookup_(name);
    if (!binding) {
      std::string hint = name.size() <= 128 ? regdb::DidYouMean(name, names_) : "";
      Fail(start, "unknown name '" + std::string(name) + "'" +
                      (hint.empty() ? " (names come from `let NAME = ...` lines above; a register's value from "
                                      "`let v = readN REG`)"
                                    : hint));
      return std::nullopt;
    }
    if (binding->value) {
      out.steps.push_back({Op::kConstant, *binding->value, Column(start)});
    } else {
      out.steps.push_back({Op::kVariable, binding->slot, Column(start)});
    }
    return binding->type;
  }

  const BinaryOperator* PeekOperator() const {
    if (pos_ >= text_.size()) return nullptr;
    for (const BinaryOperator& b : kBinaryOperators) {
      if (text_.substr(pos_, b.text.size()) == b.text) return &b;
    }
    return nullptr;
  }

  static std::string Hint(Op op, ScriptValueType left, ScriptValueType right) {
    if ((op == Op::kAdd || op == Op::kSub) && left != right) {
      return " (give the number a unit: 500ns, or N * 1ns)";
    }
    if (op == Op::kMul) return " (a duration times a number is a duration)";
    if (op == Op::kDiv) return " (a duration divides by a number or by a duration)";
    return "";
  }

  void SkipSpaces() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t')) ++pos_;
  }

  uint32_t Column(size_t at) const { return column_ + static_cast<uint32_t>(at); }

  std::nullopt_t Fail(size_t at, std::string message) {
    if (error_.message.empty()) error_ = ScriptExpressionError{Column(at), std::move(message)};
    return std::nullopt;
  }
  std::optional<ScriptValueType> FailType(size_t at, std::string message) { return Fail(at, std::move(message)); }

  std::string_view text_;
  uint32_t column_;
  const Lookup& lookup_;
  std::span<const std::string_view> names_;
  ScriptExpressionError& error_;
  size_t pos_ = 0;
};

// One operation on two values, exact; none after setting `why`.
std::optional<uint64_t> Apply(Op op, uint64_t a, uint64_t b, std::string& why) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  switch (op) {
    case Op::kAdd:
      if (a > kMax - b) break;
      return a + b;
    case Op::kSub:
      if (b > a) {
        why = regdb::Hex(a) + " - " + regdb::Hex(b) + " is below 0";
        return std::nullopt;
      }
      return a - b;
    case Op::kMul:
      if (a != 0 && b > kMax / a) break;
      return a * b;
    case Op::kDiv:
    case Op::kMod:
      if (b == 0) {
        why = "division by 0";
        return std::nullopt;
      }
      return op == Op::kDiv ? a / b : a % b;
    case Op::kShl:
      if (b >= 64 || (b != 0 && (a >> (64 - b)) != 0)) {
        why = regdb::Hex(a) + " << " + std::to_string(b) + " loses set bits past bit 63";
        return std::nullopt;
      }
      return a << b;
    case Op::kShr:
      if (b >= 64) {
        why = "a shift by " + std::to_string(b) + " (at most 63)";
        return std::nullopt;
      }
      return a >> b;
    case Op::kAnd: return a & b;
    case Op::kXor: return a ^ b;
    case Op::kOr: return a | b;
    default: break;
  }
  why = regdb::Hex(a) + " " + std::string(OperatorText(op)) + " " + regdb::Hex(b) + " is past 2^64 - 1";
  return std::nullopt;
}

}  // namespace

std::string_view ScriptValueTypeName(ScriptValueType type) {
  return type == ScriptValueType::kDuration ? "duration" : "number";
}

bool ScriptExpression::constant() const {
  return std::none_of(steps.begin(), steps.end(), [](const Step& s) { return s.op == Op::kVariable; });
}

std::optional<ScriptExpression> ParseScriptExpression(std::string_view word, uint32_t column, const Lookup& lookup,
                                                      std::span<const std::string_view> names,
                                                      ScriptExpressionError& error) {
  error = {};
  return ExpressionParser(word, column, lookup, names, error).Parse();
}

std::optional<uint64_t> EvaluateScriptExpression(const ScriptExpression& expression, std::span<const uint64_t> slots,
                                                 ScriptExpressionError& error) {
  std::vector<uint64_t> stack;
  stack.reserve(expression.steps.size());
  for (const ScriptExpression::Step& step : expression.steps) {
    switch (step.op) {
      case Op::kConstant: stack.push_back(step.operand); break;
      case Op::kVariable:
        stack.push_back(step.operand < slots.size() ? slots[step.operand] : 0);
        break;
      case Op::kNot: stack.back() = ~stack.back(); break;
      default: {
        uint64_t right = stack.back();
        stack.pop_back();
        std::string why;
        std::optional<uint64_t> value = Apply(step.op, stack.back(), right, why);
        if (!value) {
          error = ScriptExpressionError{step.column, std::move(why)};
          return std::nullopt;
        }
        stack.back() = *value;
      }
    }
  }
  return stack.empty() ? 0 : stack.back();
}

std::string FormatScriptValue(uint64_t value, ScriptValueType type) {
  if (type == ScriptValueType::kDuration) return std::to_string(value) + "ns";
  return regdb::Hex(value) + " (" + std::to_string(value) + ")";
}

bool IsScriptName(std::string_view text) {
  return !text.empty() && IsNameStart(text[0]) && std::all_of(text.begin(), text.end(), IsNameByte);
}

}  // namespace regemu::emulator
