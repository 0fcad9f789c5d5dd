#include "examples/demo/phase_printer.hpp"

#include <algorithm>

#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::demo {
namespace {

std::string Pad(std::string text, size_t width) {
  if (text.size() < width) text.append(width - text.size(), ' ');
  return text;
}

std::string PadLeft(std::string text, size_t width) {
  if (text.size() < width) text.insert(0, width - text.size(), ' ');
  return text;
}

std::string HexDigits(uint64_t value, unsigned digits) {
  std::string hex = regdb::Hex(value).substr(2);
  if (hex.size() < digits) hex.insert(0, digits - hex.size(), '0');
  return "0x" + hex;
}

}  // namespace

PhasePrinter::PhasePrinter(const emulator::Device& device, std::ostream& out, size_t max_lines)
    : device_(device), out_(out), max_lines_(max_lines), annotator_(device.model()) {}

std::string PhasePrinter::Line(const emulator::TraceEntry& entry) {
  std::string time = PadLeft("t=" + std::to_string(entry.time_ns) + "ns", 11);
  if (entry.op == emulator::TraceOp::kStep) return "  " + time + "  (delay " + std::to_string(entry.value) + "ns)";
  if (entry.op != emulator::TraceOp::kRead && entry.op != emulator::TraceOp::kWrite) {
    return "  " + time + "  " + emulator::RenderTraceEntry(device_.model(), entry);
  }
  std::string op = (entry.op == emulator::TraceOp::kRead ? "read" : "write") + std::to_string(entry.width);
  std::string line = "  " + time + "  " + Pad(op, 7) + " " + Pad(device_.model().spaces()[entry.space].name, 6) + " " +
                     PadLeft(regdb::Hex(entry.offset), 8) + "  " + Pad(HexDigits(entry.value, entry.width / 4), 18) +
                     "  " + Pad(annotator_.Where(entry), 26);
  std::string note = annotator_.Note(entry);
  if (!note.empty()) line += "  " + note;
  if (entry.outcome == emulator::TraceOutcome::kViolation) {
    line += "  !! " +
            std::string(emulator::ViolationKindName(static_cast<emulator::ViolationKind>(entry.violation))) +
            " violation";
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line;
}

void PhasePrinter::Flush() {
  std::vector<emulator::TraceEntry> fresh;
  for (const emulator::TraceEntry& entry : device_.Trace()) {
    if (entry.sequence > printed_through_) fresh.push_back(entry);
  }
  if (fresh.empty()) return;
  printed_through_ = fresh.back().sequence;
  // Every entry is annotated (the annotator follows walks across them);
  // only the head and tail of a long phase are printed.
  std::vector<std::string> lines;
  lines.reserve(fresh.size());
  for (const emulator::TraceEntry& entry : fresh) lines.push_back(Line(entry));
  // Eliding fewer than a handful of lines would hide more than it saves.
  if (max_lines_ == 0 || lines.size() <= max_lines_ + 4) {
    for (const std::string& line : lines) out_ << line << "\n";
    return;
  }
  size_t head = max_lines_ / 2;
  size_t tail = max_lines_ - head;
  for (size_t i = 0; i < head; ++i) out_ << lines[i] << "\n";
  out_ << "  " << PadLeft("", 11) << "  ... " << (lines.size() - head - tail) << " more accesses (--full shows them)\n";
  for (size_t i = lines.size() - tail; i < lines.size(); ++i) out_ << lines[i] << "\n";
}

void PhasePrinter::Begin(std::string_view title) {
  Flush();
  out_ << "\n== " << title << "\n";
}

void PhasePrinter::Say(std::string_view text) {
  Flush();
  out_ << "  " << text << "\n";
}

void PrintViolations(const std::vector<emulator::Violation>& violations, const emulator::Model& model,
                     std::ostream& out) {
  for (const emulator::Violation& violation : violations) {
    std::string text = violation.Describe(model);
    for (size_t at = 0, next; at < text.size(); at = next + 1) {
      next = text.find('\n', at);
      if (next == std::string::npos) next = text.size();
      out << "   " << text.substr(at, next - at) << "\n";
    }
  }
}

bool PrintOneProtocolViolation(const emulator::Device& device, const emulator::Model& model, std::ostream& out) {
  std::vector<emulator::Violation> violations = device.violations();
  PrintViolations(violations, model, out);
  bool caught = violations.size() == 1 && violations[0].kind == emulator::ViolationKind::kProtocol;
  out << "   => " << violations.size() << " violation(s), "
      << (caught ? "one protocol, as expected" : "NOT what this bug should cause") << "\n";
  return caught;
}

}  // namespace regemu::demo
