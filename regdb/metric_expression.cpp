#include "regemu/regdb/metric_expression.hpp"

#include <muParser.h>

#include <charconv>
#include <cstdint>
#include <algorithm>
#include <regex>

namespace regemu::regdb {
namespace {

std::optional<MetricReduction> ReductionNamed(const std::string& name) {
  if (name == "sum") return MetricReduction::kSum;
  if (name == "avr") return MetricReduction::kAvr;
  if (name == "max") return MetricReduction::kMax;
  if (name == "min") return MetricReduction::kMin;
  return std::nullopt;
}

// The instance count of a reduction, saturated: a count too large for 32
// bits is reported by the check as more instances than the block has.
uint32_t CountOf(const std::string& digits) {
  uint64_t count = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), count);
  return error == std::errc{} && count <= UINT32_MAX ? static_cast<uint32_t>(count) : UINT32_MAX;
}

}  // namespace

RewrittenExpression RewriteAggregates(std::string_view expression) {
  // A reduction's second argument is a literal instance count; max(A,B)
  // of two values stays muParser's.
  static const std::regex kReduction(R"(\b(sum|avr|max|min)\s*\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*([0-9]+)\s*\))");
  RewrittenExpression out;
  std::smatch match;
  std::string rest(expression);
  size_t consumed = 0;  // of `expression`, before `rest`
  while (std::regex_search(rest, match, kReduction)) {
    MetricAggregate aggregate;
    aggregate.reduction = *ReductionNamed(match[1].str());
    aggregate.event = match[2].str();
    aggregate.count = CountOf(match[3].str());
    aggregate.variable = "_" + match[1].str() + "_" + aggregate.event + "_" + std::to_string(aggregate.count);
    size_t original_at = consumed + static_cast<size_t>(match.position(0));
    out.text += match.prefix().str();
    out.replacements.push_back({original_at, static_cast<size_t>(match.length(0)), out.text.size(),
                                aggregate.variable.size()});
    out.text += aggregate.variable;
    consumed = original_at + static_cast<size_t>(match.length(0));
    bool seen = false;
    for (const MetricAggregate& other : out.aggregates) seen |= other.variable == aggregate.variable;
    if (!seen) out.aggregates.push_back(std::move(aggregate));
    rest = match.suffix().str();
  }
  out.text += rest;
  return out;
}

size_t RewrittenExpression::OriginalPosition(size_t at) const {
  // Before, inside or after each replacement: shift by the lengths replaced so far.
  size_t shift_from = 0;  // original position of text position 0 after the last replacement passed
  size_t text_from = 0;
  for (const Replacement& r : replacements) {
    if (at < r.text_at) break;
    if (at < r.text_at + r.text_length) return r.original_at;
    shift_from = r.original_at + r.original_length;
    text_from = r.text_at + r.text_length;
  }
  return shift_from + (at - text_from);
}

std::optional<MetricSyntaxError> CheckExpression(const std::string& text, const std::vector<std::string>& known) {
  std::vector<double> storage(known.size(), 1.0);
  try {
    mu::Parser parser;
    for (size_t i = 0; i < known.size(); ++i) parser.DefineVar(known[i], &storage[i]);
    parser.SetExpr(text);
    parser.Eval();
  } catch (const mu::Parser::exception_type& error) {
    // muParser's message ends "... found at position 4." or "... at position 4.": the column says where.
    std::string message = error.GetMsg();
    static const std::regex kPosition(R"( (found )?at position [0-9]+\.?$)");
    message = std::regex_replace(message, kPosition, "");
    int position = error.GetPos();
    return MetricSyntaxError{message, position < 0 ? text.size() : std::min(static_cast<size_t>(position), text.size())};
  }
  return std::nullopt;
}

bool IsBuiltinFunction(std::string_view name) {
  static constexpr std::string_view kFunctions[] = {"sin",  "cos",   "tan",   "asin", "acos", "atan", "sinh",
                                                    "cosh", "tanh",  "asinh", "acosh", "atanh", "log2", "log10",
                                                    "log",  "ln",    "exp",   "sqrt", "sign", "rint", "abs",
                                                    "sum",  "avg",   "min",   "max"};
  for (std::string_view f : kFunctions) {
    if (f == name) return true;
  }
  return false;
}

bool IsBuiltinConstant(std::string_view name) { return name == "_pi" || name == "_e"; }

struct ParsedMetric::Parser {
  mu::Parser parser;
  std::vector<double> storage;  // what the variables point at
  std::string error;            // when the text did not parse
};

ParsedMetric::ParsedMetric(std::string text, std::vector<std::string> names)
    : text_(std::move(text)), names_(std::move(names)) {}

// A copy starts unparsed: snapshots copy behaviours often, metrics are read rarely.
ParsedMetric::ParsedMetric(const ParsedMetric& other) : ParsedMetric(other.text_, other.names_) {}

ParsedMetric& ParsedMetric::operator=(const ParsedMetric& other) {
  if (this != &other) *this = ParsedMetric(other);
  return *this;
}

ParsedMetric::ParsedMetric(ParsedMetric&&) noexcept = default;
ParsedMetric& ParsedMetric::operator=(ParsedMetric&&) noexcept = default;
ParsedMetric::~ParsedMetric() = default;

std::optional<double> ParsedMetric::Evaluate(const std::vector<double>& values, std::string& error) {
  if (!parser_) {  // the first evaluation parses
    parser_ = std::make_unique<Parser>();
    parser_->storage.assign(names_.size(), 0.0);
    try {
      for (size_t i = 0; i < names_.size(); ++i) parser_->parser.DefineVar(names_[i], &parser_->storage[i]);
      parser_->parser.SetExpr(text_);
    } catch (const mu::Parser::exception_type& parse_error) {
      parser_->error = parse_error.GetMsg();
    }
  }
  if (!parser_->error.empty()) {
    error = parser_->error;
    return std::nullopt;
  }
  std::copy_n(values.begin(), std::min(values.size(), parser_->storage.size()), parser_->storage.begin());
  try {
    return parser_->parser.Eval();
  } catch (const mu::Parser::exception_type& eval_error) {
    error = eval_error.GetMsg();
    return std::nullopt;
  }
}

}  // namespace regemu::regdb
