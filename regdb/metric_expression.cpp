#include "regemu/regdb/metric_expression.hpp"

#include <muParser.h>

#include <charconv>
#include <cstdint>
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
  while (std::regex_search(rest, match, kReduction)) {
    MetricAggregate aggregate;
    aggregate.reduction = *ReductionNamed(match[1].str());
    aggregate.event = match[2].str();
    aggregate.count = CountOf(match[3].str());
    aggregate.variable = "_" + match[1].str() + "_" + aggregate.event + "_" + std::to_string(aggregate.count);
    out.text += match.prefix().str() + aggregate.variable;
    bool seen = false;
    for (const MetricAggregate& other : out.aggregates) seen |= other.variable == aggregate.variable;
    if (!seen) out.aggregates.push_back(std::move(aggregate));
    rest = match.suffix().str();
  }
  out.text += rest;
  return out;
}

std::optional<std::string> CheckExpression(const std::string& text, const std::vector<std::string>& known) {
  std::vector<double> storage(known.size(), 1.0);
  try {
    mu::Parser parser;
    for (size_t i = 0; i < known.size(); ++i) parser.DefineVar(known[i], &storage[i]);
    parser.SetExpr(text);
    parser.Eval();
  } catch (const mu::Parser::exception_type& error) {
    return error.GetMsg();  // muParser's: "Unexpected token "X" found at position 4."
  }
  return std::nullopt;
}

std::optional<double> EvaluateExpression(const std::string& text,
                                         const std::vector<std::pair<std::string, double>>& values, std::string& error) {
  std::vector<double> storage;
  storage.reserve(values.size());
  try {
    mu::Parser parser;
    for (const auto& [name, value] : values) {
      storage.push_back(value);
      parser.DefineVar(name, &storage.back());
    }
    parser.SetExpr(text);
    return parser.Eval();
  } catch (const mu::Parser::exception_type& parse_error) {
    error = parse_error.GetMsg();
    return std::nullopt;
  }
}

}  // namespace regemu::regdb
