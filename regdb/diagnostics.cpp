#include "regemu/regdb/diagnostics.hpp"

#include <string_view>

namespace regemu::regdb {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kError: return "error";
    case Severity::kWarning: return "warning";
    case Severity::kNote: return "note";
  }
  return "error";
}

Diagnostic& Diagnostics::Error(SourceLoc loc, std::string message) {
  ++error_count_;
  if (error_count_ > error_limit_) {
    discarded_ = Diagnostic{};
    return discarded_;
  }
  return Add(Severity::kError, loc, std::move(message));
}

Diagnostic& Diagnostics::Warning(SourceLoc loc, std::string message) {
  ++warning_count_;
  return Add(Severity::kWarning, loc, std::move(message));
}

Diagnostic& Diagnostics::Add(Severity severity, SourceLoc loc, std::string message) {
  diagnostics_.push_back(Diagnostic{severity, loc, std::move(message), {}});
  return diagnostics_.back();
}

namespace {

void AppendLocated(std::string& out, const SourceSet& sources, SourceLoc loc, Severity severity,
                   const std::string& message) {
  if (loc.file != 0 && loc.file < sources.size()) {
    out += sources.file(loc.file).path;
    if (loc.known()) out += ":" + std::to_string(loc.line) + ":" + std::to_string(loc.column);
    out += ": ";
  }
  out += SeverityName(severity);
  out += ": ";
  out += message;
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
  AppendLocated(out, sources, diagnostic.loc, diagnostic.severity, diagnostic.message);
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

}  // namespace regemu::regdb
