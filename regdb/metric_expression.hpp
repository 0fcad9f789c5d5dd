#pragma once
// Derived-metric expressions (`metrics:` of an event-counters behaviour):
// the arithmetic is muParser's (Debian libmuparser); what is regemu's is
// the profilers' instance reductions, `sum(X,N)`, `avr(X,N)`, `max(X,N)`
// and `min(X,N)` over the first N instances of event X (ROCm rocprofiler's
// metrics.xml syntax), which become plain variables before muParser sees
// the text.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace regemu::regdb {

enum class MetricReduction : uint8_t { kSum, kAvr, kMax, kMin };

struct MetricAggregate {
  MetricReduction reduction = MetricReduction::kSum;
  std::string event;
  uint32_t count = 0;
  std::string variable;  // the name it has in the rewritten text
};

struct RewrittenExpression {
  std::string text;
  std::vector<MetricAggregate> aggregates;
};

// `100*sum(TCC_HIT,16)/...` -> `100*_sum_TCC_HIT_16/...`.
RewrittenExpression RewriteAggregates(std::string_view expression);

// Parses `text` (rewritten) with every name in `known` defined; the
// message when it does not parse (muParser's, with the position), else
// nothing.
std::optional<std::string> CheckExpression(const std::string& text, const std::vector<std::string>& known);

// Evaluates `text` with `values` as its variables; nothing and `error` set
// when it does not parse.
std::optional<double> EvaluateExpression(const std::string& text,
                                         const std::vector<std::pair<std::string, double>>& values, std::string& error);

}  // namespace regemu::regdb
