#pragma once
// Helpers for database tests: load inline YAML (one file or several) and
// match diagnostics by line, column and message.

#include <map>
#include <ostream>
#include <string>

#include <gmock/gmock.h>

#include "regemu/regdb/loader.hpp"

namespace regemu::regdb {

// gtest prints diagnostics readably when a matcher fails.
inline void PrintTo(const Diagnostic& d, std::ostream* os) {
  *os << d.loc.line << ":" << d.loc.column << ": " << SeverityName(d.severity) << ": " << d.message;
  for (const Note& n : d.notes) *os << " [note " << n.loc.line << ":" << n.loc.column << ": " << n.message << "]";
}

namespace testing_support {

// Loads and checks `files` (path → text) starting at `root`.
inline LoadedDatabase CheckFiles(std::map<std::string, std::string> files, const std::string& root,
                                 LoadOptions options = {}) {
  options.read_file = InMemoryFileReader(std::move(files));
  return LoadAndCheck(root, options);
}

// Loads and checks one inline file named "test.yaml".
inline LoadedDatabase CheckYaml(const std::string& yaml, LoadOptions options = {}) {
  return CheckFiles({{"test.yaml", yaml}}, "test.yaml", std::move(options));
}

// The typed config the kind's check kept with `spec`: null when there is
// none (the section has an error) or it is another kind's.
template <typename Config>
const Config* ConfigAs(const BehaviourSpec& spec) {
  return dynamic_cast<const Config*>(spec.config.get());
}

// The rendered diagnostics, for failure messages.
inline std::string Rendered(const LoadedDatabase& loaded) {
  return FormatDiagnostics(loaded.sources, loaded.diagnostics);
}

MATCHER_P3(ErrorAt, line, column, message_matcher,
           "an error at " + std::to_string(line) + ":" + std::to_string(column)) {
  return arg.severity == Severity::kError && arg.loc.line == static_cast<uint32_t>(line) &&
         arg.loc.column == static_cast<uint32_t>(column) &&
         ::testing::ExplainMatchResult(message_matcher, arg.message, result_listener);
}

MATCHER_P3(WarningAt, line, column, message_matcher,
           "a warning at " + std::to_string(line) + ":" + std::to_string(column)) {
  return arg.severity == Severity::kWarning && arg.loc.line == static_cast<uint32_t>(line) &&
         arg.loc.column == static_cast<uint32_t>(column) &&
         ::testing::ExplainMatchResult(message_matcher, arg.message, result_listener);
}

MATCHER_P3(NoteAt, line, column, message_matcher,
           "a note at " + std::to_string(line) + ":" + std::to_string(column)) {
  return arg.loc.line == static_cast<uint32_t>(line) && arg.loc.column == static_cast<uint32_t>(column) &&
         ::testing::ExplainMatchResult(message_matcher, arg.message, result_listener);
}

}  // namespace testing_support
}  // namespace regemu::regdb
