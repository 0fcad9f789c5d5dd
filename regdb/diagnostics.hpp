#pragma once
// Diagnostics in the compiler style: `path:line:col: error: message`, the
// source line and a caret, then `note:` lines for related places. Library
// code only collects them; rendering and exit codes belong to the tools.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/regdb/source.hpp"

namespace regemu::regdb {

enum class Severity { kError, kWarning, kNote };

const char* SeverityName(Severity severity);

// Every warning has a code (regdb/warning_codes.def), so that a database can
// acknowledge one on the item it is about.
enum class WarningCode {
#define REGDB_WARNING(id, code, doc) id,
#include "regemu/regdb/warning_codes.def"
#undef REGDB_WARNING
};

std::string_view WarningCodeName(WarningCode code);  // "counter-not-volatile"
std::optional<WarningCode> FindWarningCode(std::string_view name);
std::vector<std::string_view> WarningCodeNames();

struct Note {
  SourceLoc loc;
  std::string message;
};

struct Diagnostic {
  Severity severity = Severity::kError;
  SourceLoc loc;
  std::string message;
  std::vector<Note> notes;
  std::optional<WarningCode> code = std::nullopt;  // warnings only
};

// `acknowledge: [{warning: CODE, reason: TEXT}]` on a mapping of the
// database: the warnings of that code located inside the mapping (from
// `first` to `last`, the last node in it) are expected.
struct Acknowledgement {
  WarningCode code;
  std::string reason;
  SourceLoc loc;  // the entry
  SourceLoc first;
  SourceLoc last;
};

// A warning a database expects, with the reason it gives.
struct AcknowledgedWarning {
  Diagnostic warning;
  std::string reason;
  SourceLoc acknowledged_at;
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
  Diagnostic& Warning(WarningCode code, SourceLoc loc, std::string message);

  // Records an acknowledgement (once per entry, however often its mapping
  // is read); SettleAcknowledgements, once every warning is in, moves the
  // warnings acknowledged out of all() into acknowledged() and warns about
  // each acknowledgement that matched none.
  void Acknowledge(Acknowledgement acknowledgement);
  void SettleAcknowledgements();
  const std::vector<AcknowledgedWarning>& acknowledged() const { return acknowledged_; }

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
  std::vector<Acknowledgement> acknowledgements_;
  std::vector<AcknowledgedWarning> acknowledged_;
  Diagnostic discarded_;
};

// `path:line:col: severity: message` plus the source line and a caret.
std::string FormatDiagnostic(const SourceSet& sources, const Diagnostic& diagnostic);
// Every diagnostic, then a "N errors generated" style summary when truncated.
std::string FormatDiagnostics(const SourceSet& sources, const Diagnostics& diagnostics);
// One line per acknowledged warning:
// `path:line:col: acknowledged warning [code]: message (reason: ...)`.
std::string FormatAcknowledged(const SourceSet& sources, const Diagnostics& diagnostics);

}  // namespace regemu::regdb
