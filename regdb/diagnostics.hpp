#pragma once
// Diagnostics in the compiler style: `path:line:col: error: message`, the
// source line and a caret, then `note:` lines for related places. Library
// code only collects them; rendering and exit codes belong to the tools.

#include <cstddef>
#include <string>
#include <vector>

#include "regemu/regdb/source.hpp"

namespace regemu::regdb {

enum class Severity { kError, kWarning, kNote };

const char* SeverityName(Severity severity);

struct Note {
  SourceLoc loc;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  SourceLoc loc;
  std::string message;
  std::vector<Note> notes;
};

// Collects diagnostics up to a limit of errors; past it, errors are only
// counted, so a hopeless file cannot flood the terminal or memory.
class Diagnostics {
 public:
  static constexpr size_t kDefaultErrorLimit = 50;

  explicit Diagnostics(size_t error_limit = kDefaultErrorLimit) : error_limit_(error_limit) {}

  // Returns the stored diagnostic so the caller can attach notes; past the
  // limit it returns a scratch diagnostic that is thrown away.
  Diagnostic& Error(SourceLoc loc, std::string message);
  Diagnostic& Warning(SourceLoc loc, std::string message);

  const std::vector<Diagnostic>& all() const { return diagnostics_; }
  size_t error_count() const { return error_count_; }
  size_t warning_count() const { return warning_count_; }
  bool has_errors() const { return error_count_ != 0; }
  // True when errors past the limit were dropped.
  bool truncated() const { return error_count_ > error_limit_; }
  size_t error_limit() const { return error_limit_; }

 private:
  Diagnostic& Add(Severity severity, SourceLoc loc, std::string message);

  size_t error_limit_;
  size_t error_count_ = 0;
  size_t warning_count_ = 0;
  std::vector<Diagnostic> diagnostics_;
  Diagnostic discarded_;
};

// `path:line:col: severity: message` plus the source line and a caret.
std::string FormatDiagnostic(const SourceSet& sources, const Diagnostic& diagnostic);
// Every diagnostic, then a "N errors generated" style summary when truncated.
std::string FormatDiagnostics(const SourceSet& sources, const Diagnostics& diagnostics);

}  // namespace regemu::regdb
