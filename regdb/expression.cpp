// Parsing, checking and compiling expressions (expression.hpp). One pass of
// recursive descent builds a tree bottom-up; each node is typed, bounded
// and, when it has no operands, folded as soon as it is built, so every
// check sees its children's facts. The tree then becomes a postfix program.
#include "regemu/regdb/expression.hpp"

#include <algorithm>
#include <bit>
#include <cctype>
#include <limits>
#include <utility>

#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {

namespace {

// What a constant named expression is evaluated against: it loads nothing.
struct NoEnv : ExpressionEnv {
  uint64_t Load(uint64_t) const override { return 0; }
};
const NoEnv kNoEnv{};

constexpr uint64_t kAll = std::numeric_limits<uint64_t>::max();
// Quoted source is cut to this many bytes, so a hostile expression cannot
// make a message as long as itself.
constexpr size_t kMaxQuote = 48;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsLetter(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsNameStart(char c) { return IsLetter(c) || c == '_'; }
bool IsNameRest(char c) { return IsNameStart(c) || IsDigit(c); }

// All ones up to the highest set bit of `x`: the bound of x | y and x ^ y.
uint64_t Mask(uint64_t x) { return x == 0 ? 0 : kAll >> std::countl_zero(x); }
bool AddOverflows(uint64_t a, uint64_t b) { return a > kAll - b; }
bool MulOverflows(uint64_t a, uint64_t b) { return a != 0 && b > kAll / a; }
bool ShiftLoses(uint64_t a, uint64_t shift) {
  if (shift == 0) return false;
  if (shift >= 64) return a != 0;
  return (a >> (64 - shift)) != 0;
}

// Without one pair of parentheses that encloses all of `text`.
std::string_view StripParentheses(std::string_view text) {
  while (text.size() >= 2 && text.front() == '(' && text.back() == ')') {
    int depth = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '(') ++depth;
      if (text[i] == ')' && --depth == 0 && i + 1 != text.size()) return text;  // `(a) + (b)`
    }
    text = text.substr(1, text.size() - 2);
  }
  return text;
}

std::string Quote(std::string_view text) {
  text = StripParentheses(text);
  if (text.size() > kMaxQuote) return "'" + std::string(text.substr(0, kMaxQuote - 3)) + "...'";
  return "'" + std::string(text) + "'";
}

std::string FormatValue(uint64_t value, ExpressionType type) {
  if (type == ExpressionType::kTime) return std::to_string(value) + "ns";
  return value <= 0xFFFF ? std::to_string(value) : Hex(value);
}

}  // namespace

class ExpressionCompiler {
 public:
  ExpressionCompiler(std::string_view text, const ExpressionScope& scope) : text_(text), scope_(scope) {}

  std::variant<Expression, std::vector<ExpressionError>> Run();

 private:
  using Op = Expression::Op;

  enum class TokenKind : uint8_t { kNumber, kName, kPunct, kEnd };
  struct Token {
    TokenKind kind = TokenKind::kEnd;
    size_t begin = 0;
    size_t end = 0;
    uint64_t value = 0;  // numbers
    ExpressionType type = ExpressionType::kNumber;
  };

  enum class NodeKind : uint8_t { kConstant, kOperand, kInline, kUnary, kBinary, kConditional };
  struct Node {
    NodeKind kind = NodeKind::kConstant;
    Op op = Op::kPush;  // kUnary, kBinary (kAndJump and kOrJump stand for && and ||)
    int a = -1, b = -1, c = -1;
    size_t begin = 0, end = 0;  // the source it spans, parentheses included
    ExpressionType type = ExpressionType::kNumber;
    uint64_t lo = 0, hi = kAll;  // bounds of its value
    bool folded = false;         // no operands: `value` is its value
    bool bad = false;            // an error was reported in it: checks above it would only echo it
    uint64_t value = 0;
    uint64_t id = 0;  // kOperand
    unsigned width = 64;
    const Expression* inlined = nullptr;  // kInline: a named expression's program
  };

  struct BinaryOperator {
    std::string_view text;
    int level;  // C precedence, 1 the loosest
    Op op;
  };
  static constexpr int kTightestLevel = 10;
  static constexpr BinaryOperator kBinaryOperators[] = {
      {"||", 1, Op::kOrJump},
      {"&&", 2, Op::kAndJump},
      {"|", 3, Op::kBitOr},
      {"^", 4, Op::kBitXor},
      {"&", 5, Op::kBitAnd},
      {"==", 6, Op::kEqual},   {"!=", 6, Op::kNotEqual},
      {"<", 7, Op::kLess},     {"<=", 7, Op::kLessEqual}, {">", 7, Op::kGreater}, {">=", 7, Op::kGreaterEqual},
      {"<<", 8, Op::kShiftLeft}, {">>", 8, Op::kShiftRight},
      {"+", 9, Op::kAdd},      {"-", 9, Op::kSubtract},
      {"*", 10, Op::kMultiply}, {"/", 10, Op::kDivide},  {"%", 10, Op::kModulo},
  };

  // Counts one level of nesting while alive; the first level too many is an error.
  class Nesting {
   public:
    Nesting(ExpressionCompiler& compiler, size_t column) : compiler_(compiler) {
      ok_ = ++compiler_.nesting_ <= kMaxExpressionNesting;
      if (!ok_) {
        compiler_.Error(column, "expression is nested too deeply (more than " +
                                    std::to_string(kMaxExpressionNesting) + " levels)");
      }
    }
    ~Nesting() { --compiler_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    bool ok() const { return ok_; }

   private:
    ExpressionCompiler& compiler_;
    bool ok_;
  };

  void Error(size_t column, std::string message) { errors_.push_back({column, std::move(message)}); }

  bool Lex();
  bool LexNumber(size_t& i);
  bool LexName(size_t& i);
  bool LexPunct(size_t& i);

  std::string_view Source(size_t begin, size_t end) const { return text_.substr(begin, end - begin); }
  std::string Describe(const Token& token) const {
    return token.kind == TokenKind::kEnd ? "the end of the expression" : Quote(Source(token.begin, token.end));
  }
  std::string QuoteNode(int i) const { return Quote(Source(At(i).begin, At(i).end)); }
  // "a time ('now')": the type and the text of a node, for type errors.
  std::string Typed(int i) const {
    return std::string(At(i).type == ExpressionType::kTime ? "a time (" : "a number (") +
           std::string(StripParentheses(Source(At(i).begin, At(i).end))).substr(0, kMaxQuote) + ")";
  }
  const Token& Peek() const { return tokens_[position_]; }
  bool PeekPunct(std::string_view punct) const {
    return Peek().kind == TokenKind::kPunct && Source(Peek().begin, Peek().end) == punct;
  }

  Node& At(int i) { return nodes_[static_cast<size_t>(i)]; }
  const Node& At(int i) const { return nodes_[static_cast<size_t>(i)]; }
  int AddNode(Node node) {
    nodes_.push_back(node);
    return static_cast<int>(nodes_.size() - 1);
  }

  int ParseConditional();
  int ParseBinary(int level);
  int ParseUnary();
  int ParsePrimary();

  int MakeUnary(Op op, size_t at, int x);
  int MakeBinary(const BinaryOperator& op, size_t at, int a, int b);
  int MakeConditional(size_t at, int c, int a, int b);
  std::optional<ExpressionType> BinaryType(const BinaryOperator& op, size_t at, int a, int b);
  void Bound(Node& node, const Node& a, const Node& b) const;
  bool CheckConstantOperands(const BinaryOperator& op, size_t at, int self);
  void CheckDecidable(size_t at, int self);

  void Emit(int i, Expression& out);
  void Push(Expression& out, Op op, uint64_t arg, int stack_effect);

  std::string_view text_;
  const ExpressionScope& scope_;
  std::vector<Token> tokens_;
  std::vector<Node> nodes_;
  std::vector<ExpressionError> errors_;
  size_t position_ = 0;
  size_t nesting_ = 0;
  size_t depth_ = 0;      // of the evaluation stack, while emitting
  size_t max_depth_ = 0;
};

// --- Tokens -----------------------------------------------------------------

bool ExpressionCompiler::Lex() {
  size_t i = 0;
  while (true) {
    while (i < text_.size() && IsSpace(text_[i])) ++i;
    if (i == text_.size()) {
      tokens_.push_back({TokenKind::kEnd, i, i});
      return true;
    }
    if (tokens_.size() == kMaxExpressionTokens) {
      Error(i, "expression is too long (more than " + std::to_string(kMaxExpressionTokens) + " tokens)");
      return false;
    }
    char c = text_[i];
    bool ok = IsDigit(c) ? LexNumber(i) : IsNameStart(c) ? LexName(i) : LexPunct(i);
    if (!ok) return false;
  }
}

bool ExpressionCompiler::LexNumber(size_t& i) {
  size_t end = i;
  while (end < text_.size() && IsNameRest(text_[end])) ++end;
  std::string_view word = Source(i, end);
  if (end + 1 < text_.size() && text_[end] == '.' && IsDigit(text_[end + 1])) {
    size_t fraction_end = end + 1;
    while (fraction_end < text_.size() && IsNameRest(text_[fraction_end])) ++fraction_end;
    Error(i, Quote(Source(i, fraction_end)) +
                 " has a fraction, but expressions are integers (use a smaller unit: 1500us, not 1.5ms)");
    return false;
  }
  Token token{TokenKind::kNumber, i, end};
  // Units go on decimal numbers only: in `0x1Bs` the `B` could be a digit.
  bool prefixed = word.size() > 1 && word[0] == '0' && std::string_view("xXbB").find(word[1]) != std::string_view::npos;
  size_t unit = prefixed ? std::string_view::npos : word.find_first_not_of("0123456789_");
  std::variant<uint64_t, NumberError> parsed;
  if (unit != std::string_view::npos &&
      std::all_of(word.begin() + static_cast<std::ptrdiff_t>(unit), word.end(), IsLetter)) {
    std::string_view suffix = word.substr(unit);
    if (suffix != "ns" && suffix != "us" && suffix != "ms" && suffix != "s") {
      Error(i + unit, Quote(word) + " has an unknown unit '" + std::string(suffix) + "' (the units are ns, us, ms, s)");
      return false;
    }
    parsed = ParseDurationNs(word);
    token.type = ExpressionType::kTime;
  } else {
    parsed = ParseUnsigned(word);
  }
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    // numbers.hpp quotes the whole word; a hostile one is cut short.
    std::string message = error->message;
    std::string whole = "'" + std::string(word) + "'";
    if (size_t at = message.find(whole); at != std::string::npos) message.replace(at, whole.size(), Quote(word));
    Error(i, std::move(message));
    return false;
  }
  token.value = std::get<uint64_t>(parsed);
  tokens_.push_back(token);
  i = end;
  return true;
}

bool ExpressionCompiler::LexName(size_t& i) {
  size_t end = i;
  while (true) {
    while (end < text_.size() && IsNameRest(text_[end])) ++end;
    if (end == text_.size() || text_[end] != '.') break;
    // After a dot, a field name may start with a digit (HPET's 32MODE_CNF).
    if (end + 1 == text_.size() || !IsNameRest(text_[end + 1])) {
      Error(end, "expected a name after '.' in " + Quote(Source(i, end + 1)));
      return false;
    }
    ++end;
  }
  tokens_.push_back({TokenKind::kName, i, end});
  i = end;
  return true;
}

bool ExpressionCompiler::LexPunct(size_t& i) {
  static constexpr std::string_view kTwo[] = {"<<", ">>", "<=", ">=", "==", "!=", "&&", "||"};
  static constexpr std::string_view kOne = "+-*/%<>&^|~!()?:";
  std::string_view rest = text_.substr(i);
  for (std::string_view punct : kTwo) {
    if (rest.starts_with(punct)) {
      tokens_.push_back({TokenKind::kPunct, i, i + 2});
      i += 2;
      return true;
    }
  }
  char c = rest.front();
  if (kOne.find(c) != std::string_view::npos) {
    tokens_.push_back({TokenKind::kPunct, i, i + 1});
    i += 1;
    return true;
  }
  if (c == '=') {
    Error(i, "'=' is not an operator (did you mean '=='?)");
  } else if (c > ' ' && c < 0x7F) {
    Error(i, "unexpected character '" + std::string(1, c) + "'");
  } else {
    Error(i, "unexpected byte " + HexPadded(static_cast<unsigned char>(c), 8));
  }
  return false;
}

// --- Syntax -----------------------------------------------------------------
// Each Parse* returns the index of the node it built, or -1 after a syntax
// error, which ends the parse (there is no good place to resume).

int ExpressionCompiler::ParseConditional() {
  int condition = ParseBinary(1);
  if (condition < 0 || !PeekPunct("?")) return condition;
  size_t question = Peek().begin;
  ++position_;
  Nesting nesting(*this, question);
  if (!nesting.ok()) return -1;
  int first = ParseConditional();
  if (first < 0) return -1;
  if (!PeekPunct(":")) {
    if (Peek().kind == TokenKind::kEnd) {
      Error(question, "'?' has no matching ':'");
    } else {
      Error(Peek().begin, "expected an operator or ':', got " + Describe(Peek()));
    }
    return -1;
  }
  ++position_;
  int second = ParseConditional();
  if (second < 0) return -1;
  return MakeConditional(question, condition, first, second);
}

int ExpressionCompiler::ParseBinary(int level) {
  if (level > kTightestLevel) return ParseUnary();
  int lhs = ParseBinary(level + 1);
  while (lhs >= 0 && Peek().kind == TokenKind::kPunct) {
    std::string_view punct = Source(Peek().begin, Peek().end);
    const BinaryOperator* found = nullptr;
    for (const BinaryOperator& op : kBinaryOperators) {
      if (op.level == level && op.text == punct) found = &op;
    }
    if (found == nullptr) break;
    size_t at = Peek().begin;
    ++position_;
    int rhs = ParseBinary(level + 1);
    if (rhs < 0) return -1;
    lhs = MakeBinary(*found, at, lhs, rhs);
  }
  return lhs;
}

int ExpressionCompiler::ParseUnary() {
  Op op;
  if (PeekPunct("-")) {
    op = Op::kNegate;
  } else if (PeekPunct("~")) {
    op = Op::kComplement;
  } else if (PeekPunct("!")) {
    op = Op::kNot;
  } else {
    return ParsePrimary();
  }
  size_t at = Peek().begin;
  ++position_;
  Nesting nesting(*this, at);
  if (!nesting.ok()) return -1;
  int operand = ParseUnary();
  if (operand < 0) return -1;
  return MakeUnary(op, at, operand);
}

int ExpressionCompiler::ParsePrimary() {
  const Token& token = Peek();
  switch (token.kind) {
    case TokenKind::kNumber: {
      ++position_;
      Node node{.kind = NodeKind::kConstant, .begin = token.begin, .end = token.end, .type = token.type};
      node.lo = node.hi = node.value = token.value;
      node.folded = true;
      return AddNode(node);
    }
    case TokenKind::kName: {
      ++position_;
      Node node{.kind = NodeKind::kOperand, .begin = token.begin, .end = token.end};
      std::string name(Source(token.begin, token.end));
      if (auto operand = scope_.Resolve(name); operand && operand->inline_expression) {
        const Expression& named = *operand->inline_expression;
        node.kind = NodeKind::kInline;
        node.inlined = &named;
        node.type = named.type();
        node.lo = named.min_value();
        node.hi = named.max_value();
        if (named.constant()) {
          node.folded = true;
          node.value = named.Evaluate(kNoEnv);
        }
      } else if (operand) {
        node.id = operand->id;
        node.width = operand->width >= 1 && operand->width <= 64 ? operand->width : 64;
        node.type = operand->type;
        node.lo = 0;
        node.hi = kAll >> (64 - node.width);
      } else {
        std::string why = scope_.WhyUnresolved(name);
        std::vector<std::string> candidates = scope_.Candidates(name);
        std::vector<std::string_view> views(candidates.begin(), candidates.end());
        Error(token.begin, why.empty() ? "unknown name " + Quote(name) + DidYouMean(name, views) : why);
        node.bad = true;
      }
      return AddNode(node);
    }
    case TokenKind::kPunct:
      if (PeekPunct("(")) {
        size_t open = token.begin;
        ++position_;
        Nesting nesting(*this, open);
        if (!nesting.ok()) return -1;
        int inner = ParseConditional();
        if (inner < 0) return -1;
        if (!PeekPunct(")")) {
          if (Peek().kind == TokenKind::kEnd) {
            Error(open, "'(' is never closed");
          } else {
            Error(Peek().begin, "expected an operator or ')', got " + Describe(Peek()));
          }
          return -1;
        }
        At(inner).begin = open;
        At(inner).end = Peek().end;
        ++position_;
        return inner;
      }
      Error(token.begin, "expected an operand, got " + Describe(token));
      return -1;
    case TokenKind::kEnd: break;
  }
  const Token& previous = tokens_[position_ - 1];  // position_ > 0: an empty text is caught before parsing
  Error(previous.begin, "expected an operand after " + Describe(previous));
  return -1;
}

// --- Types, bounds and constants ---------------------------------------------

int ExpressionCompiler::MakeUnary(Op op, size_t at, int x) {
  const Node operand = At(x);
  Node node{.kind = NodeKind::kUnary, .op = op, .a = x, .begin = at, .end = operand.end};
  int self = AddNode(node);
  Node& n = nodes_.back();
  if (operand.bad) {
    n.bad = true;
    return self;
  }
  if (operand.type == ExpressionType::kTime) {
    Error(at, "'" + std::string(Source(at, at + 1)) + "' needs a number, but " + QuoteNode(x) + " is a time");
    nodes_.back().bad = true;
    return self;
  }
  switch (op) {
    case Op::kComplement: n.lo = ~operand.hi, n.hi = ~operand.lo; break;
    case Op::kNot: n.lo = operand.hi == 0 ? 1 : 0, n.hi = operand.lo == 0 ? 1 : 0; break;
    default: n.lo = 0, n.hi = operand.hi == 0 ? 0 : kAll; break;
  }
  if (!operand.folded) return self;
  if (op == Op::kNegate && operand.value != 0) {
    Error(at, QuoteNode(self) + " is negative (the arithmetic is unsigned: write ~0 for all ones)");
    nodes_.back().bad = true;
    return self;
  }
  n.folded = true;
  n.value = n.lo = n.hi = Expression::ApplyUnary(op, operand.value);
  return self;
}

int ExpressionCompiler::MakeBinary(const BinaryOperator& op, size_t at, int a, int b) {
  const Node& left = At(a);
  const Node& right = At(b);
  Node node{.kind = NodeKind::kBinary, .op = op.op, .a = a, .b = b, .begin = left.begin, .end = right.end};
  node.bad = left.bad || right.bad;
  int self = AddNode(node);
  if (nodes_.back().bad) return self;
  std::optional<ExpressionType> type = BinaryType(op, at, a, b);
  if (!type) {
    nodes_.back().bad = true;
    return self;
  }
  nodes_.back().type = *type;
  Bound(nodes_.back(), At(a), At(b));
  if (!CheckConstantOperands(op, at, self)) {
    nodes_.back().bad = true;
    return self;
  }
  CheckDecidable(at, self);
  return self;
}

std::optional<ExpressionType> ExpressionCompiler::BinaryType(const BinaryOperator& op, size_t at, int a, int b) {
  constexpr ExpressionType kNumber = ExpressionType::kNumber, kTime = ExpressionType::kTime;
  ExpressionType left = At(a).type, right = At(b).type;
  std::string error;
  std::optional<ExpressionType> type;
  switch (op.op) {
    case Op::kAdd:
      if (left != right) error = "cannot add " + Typed(a) + " and " + Typed(b);
      type = left;
      break;
    case Op::kSubtract:
      if (left != right) error = "cannot subtract " + Typed(b) + " from " + Typed(a);
      type = left;
      break;
    case Op::kMultiply:
      if (left == kTime && right == kTime) error = "cannot multiply " + Typed(a) + " by " + Typed(b);
      type = left == kTime || right == kTime ? kTime : kNumber;
      break;
    case Op::kDivide:
    case Op::kModulo:
      if (left == kNumber && right == kTime) {
        error = std::string(op.op == Op::kDivide ? "cannot divide " : "cannot take the remainder of ") + Typed(a) +
                " by " + Typed(b);
      }
      // time / time is a ratio; time % time is what is left of a time.
      type = op.op == Op::kDivide && right == kTime ? kNumber : left;
      break;
    case Op::kLess:
    case Op::kLessEqual:
    case Op::kGreater:
    case Op::kGreaterEqual:
    case Op::kEqual:
    case Op::kNotEqual:
      if (left != right) error = "cannot compare " + Typed(a) + " with " + Typed(b);
      type = kNumber;
      break;
    default:  // bitwise, shifts, && and ||
      if (left == kTime || right == kTime) {
        error = "'" + std::string(op.text) + "' needs numbers, but " + QuoteNode(left == kTime ? a : b) + " is a time";
      }
      type = kNumber;
      break;
  }
  if (error.empty()) return type;
  Error(at, std::move(error));
  return std::nullopt;
}

// Conservative bounds: the arithmetic wraps at run time, so an operation
// whose bound overflows can give any value.
void ExpressionCompiler::Bound(Node& n, const Node& a, const Node& b) const {
  switch (n.op) {
    case Op::kAdd:
      if (AddOverflows(a.hi, b.hi)) return;
      n.lo = a.lo + b.lo, n.hi = a.hi + b.hi;
      return;
    case Op::kSubtract:
      if (a.lo < b.hi) return;
      n.lo = a.lo - b.hi, n.hi = a.hi - b.lo;
      return;
    case Op::kMultiply:
      if (MulOverflows(a.hi, b.hi)) return;
      n.lo = a.lo * b.lo, n.hi = a.hi * b.hi;
      return;
    case Op::kDivide:  // a divisor of 0 gives 0
      n.lo = b.lo == 0 ? 0 : a.lo / b.hi, n.hi = a.hi / std::max<uint64_t>(b.lo, 1);
      return;
    case Op::kModulo: n.lo = 0, n.hi = std::min(a.hi, b.hi == 0 ? 0 : b.hi - 1); return;
    case Op::kShiftLeft: {
      uint64_t most = std::min<uint64_t>(b.hi, 63);
      if (ShiftLoses(a.hi, most)) return;
      n.hi = a.hi << most;
      n.lo = b.lo == b.hi && b.hi < 64 ? a.lo << b.lo : 0;
      return;
    }
    case Op::kShiftRight:  // a shift by 64 or more gives 0
      n.lo = b.hi >= 64 ? 0 : a.lo >> b.hi, n.hi = b.lo >= 64 ? 0 : a.hi >> b.lo;
      return;
    case Op::kBitAnd: n.lo = 0, n.hi = std::min(a.hi, b.hi); return;
    case Op::kBitOr: n.lo = std::max(a.lo, b.lo), n.hi = Mask(std::max(a.hi, b.hi)); return;
    case Op::kBitXor: n.lo = 0, n.hi = Mask(std::max(a.hi, b.hi)); return;
    default: n.lo = 0, n.hi = 1; return;  // comparisons, && and ||
  }
}

// Division by a constant 0 and shifts by a constant 64 or more are errors
// whatever the other side is; an operation on two constants is folded, and
// overflowing or going below zero there is an error, as it is surely a
// mistake in the database rather than a value the guest chose.
bool ExpressionCompiler::CheckConstantOperands(const BinaryOperator& op, size_t at, int self) {
  Node& n = At(self);
  const Node& a = At(n.a);
  const Node& b = At(n.b);
  if ((op.op == Op::kDivide || op.op == Op::kModulo) && b.folded && b.value == 0) {
    Error(at, QuoteNode(self) + " divides by zero");
    return false;
  }
  if ((op.op == Op::kShiftLeft || op.op == Op::kShiftRight) && b.folded && b.value >= 64) {
    Error(at,
          QuoteNode(self) + " shifts by " + std::to_string(b.value) + ", which always gives 0 (shifts go up to 63)");
    return false;
  }
  if (!a.folded || !b.folded) return true;
  bool overflows = (op.op == Op::kAdd && AddOverflows(a.value, b.value)) ||
                   (op.op == Op::kMultiply && MulOverflows(a.value, b.value)) ||
                   (op.op == Op::kShiftLeft && ShiftLoses(a.value, b.value));
  if (overflows) {
    Error(at, QuoteNode(self) + " overflows 64 bits");
    return false;
  }
  if (op.op == Op::kSubtract && a.value < b.value) {
    Error(at, QuoteNode(self) + " is negative (the arithmetic is unsigned)");
    return false;
  }
  bool trapped = false;
  if (op.op == Op::kAndJump) {
    n.value = a.value != 0 && b.value != 0 ? 1 : 0;
  } else if (op.op == Op::kOrJump) {
    n.value = a.value != 0 || b.value != 0 ? 1 : 0;
  } else {
    n.value = Expression::ApplyBinary(op.op, a.value, b.value, trapped);
  }
  n.folded = true;
  n.lo = n.hi = n.value;
  return true;
}

// A comparison of a constant with something whose bounds already decide it
// is a mistake: `CC.SHN == 4` with a 2-bit CC.SHN never holds.
void ExpressionCompiler::CheckDecidable(size_t at, int self) {
  const Node& n = At(self);
  if (n.op < Op::kLess || n.op > Op::kNotEqual || n.folded) return;
  const Node& a = At(n.a);
  const Node& b = At(n.b);
  if (a.folded == b.folded) return;
  int x_index = a.folded ? n.b : n.a;
  const Node& x = a.folded ? b : a;
  uint64_t c = a.folded ? a.value : b.value;
  Op op = n.op;
  if (a.folded) {  // c < x is x > c
    if (op == Op::kLess) op = Op::kGreater;
    else if (op == Op::kGreater) op = Op::kLess;
    else if (op == Op::kLessEqual) op = Op::kGreaterEqual;
    else if (op == Op::kGreaterEqual) op = Op::kLessEqual;
  }
  std::optional<bool> verdict;
  switch (op) {
    case Op::kEqual:
      if (c < x.lo || c > x.hi) verdict = false;
      break;
    case Op::kNotEqual:
      if (c < x.lo || c > x.hi) verdict = true;
      break;
    case Op::kLess:
      if (x.hi < c) verdict = true;
      if (x.lo >= c) verdict = false;
      break;
    case Op::kLessEqual:
      if (x.hi <= c) verdict = true;
      if (x.lo > c) verdict = false;
      break;
    case Op::kGreater:
      if (x.lo > c) verdict = true;
      if (x.hi <= c) verdict = false;
      break;
    default:  // kGreaterEqual
      if (x.lo >= c) verdict = true;
      if (x.hi < c) verdict = false;
      break;
  }
  if (!verdict) return;
  std::string range = FormatValue(x.lo, x.type) + ".." + FormatValue(x.hi, x.type);
  std::string why = x.kind == NodeKind::kOperand
                        ? std::string(Source(x.begin, x.end)) + " is " + std::to_string(x.width) + " bit" +
                              (x.width == 1 ? "" : "s") + " wide (" + range + ")"
                        : QuoteNode(x_index) + " can only be " + range;
  Error(at, why + ": " + QuoteNode(self) + " is " + (*verdict ? "always true" : "never true"));
}

int ExpressionCompiler::MakeConditional(size_t at, int c, int a, int b) {
  const Node& condition = At(c);
  const Node& first = At(a);
  const Node& second = At(b);
  Node node{.kind = NodeKind::kConditional, .a = a, .b = b, .c = c, .begin = condition.begin, .end = second.end};
  node.bad = condition.bad || first.bad || second.bad;
  if (!node.bad && condition.type != ExpressionType::kNumber) {
    Error(at, "the condition of '?:' must be a number, but " + QuoteNode(c) + " is a time");
    node.bad = true;
  } else if (!node.bad && first.type != second.type) {
    Error(at, "the two results of '?:' must have one type, but they are " + Typed(a) + " and " + Typed(b));
    node.bad = true;
  }
  node.type = first.type;
  node.lo = std::min(first.lo, second.lo);
  node.hi = std::max(first.hi, second.hi);
  if (!node.bad && condition.folded && first.folded && second.folded) {
    node.folded = true;
    node.value = node.lo = node.hi = condition.value != 0 ? first.value : second.value;
  }
  return AddNode(node);
}

// --- Program ----------------------------------------------------------------

void ExpressionCompiler::Push(Expression& out, Op op, uint64_t arg, int stack_effect) {
  out.code_.push_back({op, arg});
  depth_ = stack_effect < 0 ? depth_ - 1 : depth_ + static_cast<size_t>(stack_effect);
  max_depth_ = std::max(max_depth_, depth_);
}

void ExpressionCompiler::Emit(int i, Expression& out) {
  const Node& n = At(i);
  if (n.folded) {
    Push(out, Op::kPush, n.value, 1);
    return;
  }
  switch (n.kind) {
    case NodeKind::kConstant: break;  // always folded
    case NodeKind::kOperand:
      if (std::find(out.operands_.begin(), out.operands_.end(), n.id) == out.operands_.end()) {
        out.operands_.push_back(n.id);
      }
      Push(out, Op::kLoad, n.id, 1);
      break;
    case NodeKind::kInline: {
      // The named expression's program, its jumps moved to where it lands.
      // Its stack use is at most its length above what is there now.
      const Expression& named = *n.inlined;
      size_t base = out.code_.size();
      for (Expression::Instruction instruction : named.code_) {
        if (instruction.op == Op::kAndJump || instruction.op == Op::kOrJump || instruction.op == Op::kJumpIfZero ||
            instruction.op == Op::kJump) {
          instruction.arg += base;
        }
        if (instruction.op == Op::kLoad &&
            std::find(out.operands_.begin(), out.operands_.end(), instruction.arg) == out.operands_.end()) {
          out.operands_.push_back(instruction.arg);
        }
        out.code_.push_back(instruction);
      }
      max_depth_ = std::max(max_depth_, depth_ + named.code_.size());
      ++depth_;
      break;
    }
    case NodeKind::kUnary:
      Emit(n.a, out);
      Push(out, n.op, 0, 0);
      break;
    case NodeKind::kBinary:
      Emit(n.a, out);
      if (n.op == Op::kAndJump || n.op == Op::kOrJump) {
        size_t jump = out.code_.size();
        Push(out, n.op, 0, -1);
        Emit(n.b, out);
        Push(out, Op::kToBool, 0, 0);
        out.code_[jump].arg = out.code_.size();
      } else {
        Emit(n.b, out);
        Push(out, n.op, 0, -1);
      }
      break;
    case NodeKind::kConditional: {
      Emit(n.c, out);
      size_t to_second = out.code_.size();
      Push(out, Op::kJumpIfZero, 0, -1);
      Emit(n.a, out);
      size_t to_end = out.code_.size();
      Push(out, Op::kJump, 0, 0);
      --depth_;  // the second result starts where the first did
      out.code_[to_second].arg = out.code_.size();
      Emit(n.b, out);
      out.code_[to_end].arg = out.code_.size();
      break;
    }
  }
}

std::variant<Expression, std::vector<ExpressionError>> ExpressionCompiler::Run() {
  if (!Lex()) return std::move(errors_);
  if (tokens_.size() == 1) {
    Error(0, "expression is empty");
    return std::move(errors_);
  }
  int root = ParseConditional();
  if (root >= 0 && Peek().kind != TokenKind::kEnd) {
    if (PeekPunct(")")) {
      Error(Peek().begin, "')' has no matching '('");
    } else {
      Error(Peek().begin, "expected an operator, got " + Describe(Peek()));
    }
  }
  if (!errors_.empty()) return std::move(errors_);
  Expression out;
  Emit(root, out);
  if (max_depth_ > Expression::kStackSize) {  // unreachable within the token limit; kept as the evaluator's guard
    Error(0, "expression is too long");
    return std::move(errors_);
  }
  const Node& n = At(root);
  out.text_ = std::string(text_);
  out.type_ = n.type;
  out.min_value_ = n.lo;
  out.max_value_ = n.hi;
  return out;
}

// --- Entry points -------------------------------------------------------------

std::variant<Expression, std::vector<ExpressionError>> ParseExpressionTextAll(std::string_view text,
                                                                              const ExpressionScope& scope) {
  return ExpressionCompiler(text, scope).Run();
}

std::variant<Expression, ExpressionError> ParseExpressionText(std::string_view text, const ExpressionScope& scope) {
  auto result = ParseExpressionTextAll(text, scope);
  if (auto* expression = std::get_if<Expression>(&result)) return std::move(*expression);
  return std::get<std::vector<ExpressionError>>(result).front();
}

std::optional<Expression> ParseExpression(const YamlNode& node, const ExpressionScope& scope, SchemaReader& reader,
                                          std::string_view what) {
  if (!node.IsScalar()) {
    reader.Error(node, std::string(what) + ": expected an expression, got " + DescribeKind(node.kind));
    return std::nullopt;
  }
  auto result = ParseExpressionTextAll(node.text, scope);
  if (auto* expression = std::get_if<Expression>(&result)) return std::move(*expression);
  // A scalar over several lines has lost its line breaks and indentation:
  // its columns no longer map to the file, so errors point at its start.
  bool one_line = node.loc.known() && node.text.find('\n') == std::string::npos;
  for (const ExpressionError& error : std::get<std::vector<ExpressionError>>(result)) {
    SourceLoc loc = node.loc;
    if (one_line) loc.column += static_cast<uint32_t>(error.column + (node.quoted ? 1 : 0));
    reader.diagnostics().Error(loc, what.empty() ? error.message : std::string(what) + ": " + error.message);
  }
  return std::nullopt;
}

std::optional<Expression> ParseTypedExpression(const YamlNode& node, const ExpressionScope& scope,
                                               SchemaReader& reader, const std::string& what, ExpressionType type,
                                               std::string_view units_example) {
  auto expression = ParseExpression(node, scope, reader, what);
  if (!expression || expression->type() == type) return expression;
  std::string hint = type == ExpressionType::kTime ? " (give it a unit: " + std::string(units_example) + ")"
                                                   : " (a count or a truth value)";
  reader.Error(node, what + " is a " + ExpressionTypeName(expression->type()) + ", expected a " +
                         ExpressionTypeName(type) + hint);
  return std::nullopt;
}

}  // namespace regemu::regdb
