#include "regemu/regdb/diagnostics.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace regemu::regdb {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

namespace {

struct WarningCodeRow {
  WarningCode code;
  std::string_view name;
};

constexpr std::array kWarningCodes{
#define REGDB_WARNING(id, code, doc) WarningCodeRow{WarningCode::id, code},
#include "regemu/regdb/warning_codes.def"
#undef REGDB_WARNING
};

}  // namespace

std::string_view WarningCodeName(WarningCode code) { return kWarningCodes[static_cast<size_t>(code)].name; }

std::optional<WarningCode> FindWarningCode(std::string_view name) {
  for (const WarningCodeRow& row : kWarningCodes) {
    if (row.name == name) return row.code;
  }
  return std::nullopt;
}

std::vector<std::string_view> WarningCodeNames() {
  std::vector<std::string_view> names;
  for (const WarningCodeRow& row : kWarningCodes) names.push_back(row.name);
  return names;
}

Diagnostic& Diagnostics::Error(SourceLoc loc, std::string message) {
  ++error_count_;
  if (error_count_ > error_limit_) {
    discarded_ = Diagnostic{};
    return discarded_;
  }
  return Add(Severity::kError, loc, std::move(message));
}

Diagnostic& Diagnostics::Warning(WarningCode code, SourceLoc loc, std::string message) {
  ++warning_count_;
  Diagnostic& d = Add(Severity::kWarning, loc, std::move(message));
  d.code = code;
  return d;
}

void Diagnostics::Acknowledge(Acknowledgement acknowledgement) {
  for (const Acknowledgement& known : acknowledgements_) {
    if (known.loc == acknowledgement.loc) return;
  }
  acknowledgements_.push_back(std::move(acknowledgement));
}

namespace {

bool Before(SourceLoc a, SourceLoc b) { return a.line < b.line || (a.line == b.line && a.column < b.column); }

bool Covers(const Acknowledgement& ack, const Diagnostic& d) {
  return d.severity == Severity::kWarning && d.code == ack.code && d.loc.file == ack.first.file &&
         !Before(d.loc, ack.first) && !Before(ack.last, d.loc);
}

}  // namespace

void Diagnostics::SettleAcknowledgements() {
  std::vector<bool> used(acknowledgements_.size(), false);
  std::vector<Diagnostic> kept;
  for (Diagnostic& d : diagnostics_) {
    // The innermost acknowledgement wins, so one on a field is used before
    // one of the same code on its register.
    size_t best = acknowledgements_.size();
    for (size_t i = 0; i < acknowledgements_.size(); ++i) {
      if (!Covers(acknowledgements_[i], d)) continue;
      if (best == acknowledgements_.size() || Before(acknowledgements_[best].first, acknowledgements_[i].first)) {
        best = i;
      }
    }
    if (best == acknowledgements_.size()) {
      kept.push_back(std::move(d));
      continue;
    }
    used[best] = true;
    --warning_count_;
    const Acknowledgement& ack = acknowledgements_[best];
    acknowledged_.push_back(AcknowledgedWarning{std::move(d), ack.reason, ack.loc});
  }
  diagnostics_ = std::move(kept);
  std::vector<Acknowledgement> stale;
  for (size_t i = 0; i < acknowledgements_.size(); ++i) {
    if (!used[i]) stale.push_back(acknowledgements_[i]);
  }
  // Settled once: a second call finds nothing left to match or to call stale.
  acknowledgements_.clear();
  for (const Acknowledgement& ack : stale) {
    Warning(WarningCode::kStaleAcknowledgement, ack.loc,
            "acknowledgement of warning '" + std::string(WarningCodeName(ack.code)) +
                "' matches no warning here: remove it (reason given: \"" + ack.reason + "\")");
  }
}

Diagnostic& Diagnostics::Add(Severity severity, SourceLoc loc, std::string message) {
  diagnostics_.push_back(Diagnostic{severity, loc, std::move(message), {}});
  return diagnostics_.back();
}

namespace {

void AppendPosition(std::string& out, const SourceSet& sources, SourceLoc loc) {
  if (loc.file != 0 && loc.file < sources.size()) {
    out += sources.file(loc.file).path;
    if (loc.known()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
    out += ": ";
  }
}

void AppendLocated(std::string& out, const SourceSet& sources, SourceLoc loc, Severity severity,
                   const std::string& message, std::optional<WarningCode> code = std::nullopt) {
  AppendPosition(out, sources, loc);
  out += SeverityName(severity);
  out += ": ";
  out += message;
  // The code, as a compiler prints the flag of a warning, for `acknowledge:`.
  if (code) out += " [" + std::string(WarningCodeName(*code)) + "]";
  out += '\n';

  std::string_view line = sources.LineText(loc);
  if (line.empty()) return;
  // Show at most kExcerpt bytes around the caret so a minified or binary
  // line cannot flood the terminal.
  constexpr size_t kExcerpt = 120;
  size_t caret = loc.column == 0 ? 0 : loc.column - 1;
  size_t begin = caret > kExcerpt / 2 ? caret - kExcerpt / 2 : 0;
  if (begin > line.size()) begin = line.size();
  std::string_view shown = line.substr(begin, kExcerpt);
  std::string number = std::to_string(loc.line);
  out += " " + number + " | ";
  if (begin > 0) out += "...";
  for (char c : shown) {
    bool printable = c == '\t' || static_cast<unsigned char>(c) >= 0x20;
    out += printable && c != 0x7f ? c : '?';
  }
  if (begin + shown.size() < line.size()) out += "...";
  out += '\n';
  out += " " + std::string(number.size(), ' ') + " | ";
  if (begin > 0) out += "   ";
  // Keep tabs so the caret lines up with the source however tabs render;
  // columns count bytes, so a multi-byte UTF-8 character ("µs") takes one
  // space, not one per byte.
  for (size_t i = begin; i < caret && i < line.size(); ++i) {
    bool continuation_byte = (static_cast<unsigned char>(line[i]) & 0xC0) == 0x80;
    if (!continuation_byte) out += line[i] == '\t' ? '\t' : ' ';
  }
  out += "^\n";
}

}  // namespace

std::string FormatDiagnostic(const SourceSet& sources, const Diagnostic& diagnostic) {
  std::string out;
  AppendLocated(out, sources, diagnostic.loc, diagnostic.severity, diagnostic.message, diagnostic.code);
  for (const Note& note : diagnostic.notes) AppendLocated(out, sources, note.loc, Severity::kNote, note.message);
  return out;
}

std::string FormatDiagnostics(const SourceSet& sources, const Diagnostics& diagnostics) {
  std::string out;
  for (const Diagnostic& d : diagnostics.all()) out += FormatDiagnostic(sources, d);
  if (diagnostics.truncated()) {
    out += "note: " + std::to_string(diagnostics.error_count() - diagnostics.error_limit()) +
           " more error(s) not shown (limit " + std::to_string(diagnostics.error_limit()) + ")\n";
  }
  return out;
}

std::string FormatAcknowledged(const SourceSet& sources, const Diagnostics& diagnostics) {
  std::string out;
  for (const AcknowledgedWarning& a : diagnostics.acknowledged()) {
    AppendPosition(out, sources, a.warning.loc);
    out += "acknowledged warning [";
    out += a.warning.code ? WarningCodeName(*a.warning.code) : "";
    out += "]: " + a.warning.message + " (reason: " + a.reason + ")\n";
  }
  return out;
}

}  // namespace regemu::regdb
