#pragma once
// Derived-metric expressions (`metrics:` of an event-counters behaviour):
// the arithmetic is muParser's (Debian libmuparser); what is regemu's is
// the profilers' instance reductions, `sum(X,N)`, `avr(X,N)`, `max(X,N)`
// and `min(X,N)` over the first N instances of event X (ROCm rocprofiler's
// metrics.xml syntax), which become plain variables before muParser sees
// the text.

#include <cstdint>
#include <memory>
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
  // Each reduction replaced, in order: where it was in the expression as
  // written and where its variable is in `text`, so that a position in
  // `text` maps back to the user's column (OriginalPosition).
  struct Replacement {
    size_t original_at = 0;
    size_t original_length = 0;
    size_t text_at = 0;
    size_t text_length = 0;
  };
  std::vector<Replacement> replacements;

  // The position in the expression as written of position `at` of `text`.
  size_t OriginalPosition(size_t at) const;
};

// `100*sum(TCC_HIT,16)/...` -> `100*_sum_TCC_HIT_16/...`.
RewrittenExpression RewriteAggregates(std::string_view expression);

// Parses `text` (rewritten) with every name in `known` defined; why and
// where (a position in `text`) when it does not parse, else nothing.
struct MetricSyntaxError {
  std::string message;  // muParser's, without its "at position N"
  size_t position = 0;
};
std::optional<MetricSyntaxError> CheckExpression(const std::string& text, const std::vector<std::string>& known);

// The names muParser defines itself: its functions (`sqrt(`, `max(`) and
// constants (`_pi`, `_e`), which a metric may use besides its own names.
bool IsBuiltinFunction(std::string_view name);
bool IsBuiltinConstant(std::string_view name);

// A metric's expression parsed once, when first evaluated: its variables
// are bound to slots in the order `names` lists them, so later evaluations
// cost no parse (muParser keeps its bytecode). A copy starts unparsed (a
// device snapshot copies its behaviours); not for two threads at once.
class ParsedMetric {
 public:
  ParsedMetric(std::string text, std::vector<std::string> names);
  ParsedMetric(const ParsedMetric& other);
  ParsedMetric& operator=(const ParsedMetric& other);
  ParsedMetric(ParsedMetric&&) noexcept;
  ParsedMetric& operator=(ParsedMetric&&) noexcept;
  ~ParsedMetric();

  // The value with `values[i]` for `names[i]`; nothing and `error` set when
  // the expression does not parse (the checker made sure it does).
  std::optional<double> Evaluate(const std::vector<double>& values, std::string& error);

 private:
  struct Parser;
  std::string text_;
  std::vector<std::string> names_;
  std::unique_ptr<Parser> parser_;
};


}  // namespace regemu::regdb
