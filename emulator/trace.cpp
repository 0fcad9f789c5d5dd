#include "regemu/emulator/trace.hpp"

#include <algorithm>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {

std::vector<TraceEntry> TraceRing::Last(size_t count) const {
  size_t n = std::min(count, size());
  std::vector<TraceEntry> out;
  out.reserve(n);
  for (uint64_t i = next_ - n; i < next_; ++i) out.push_back(entries_[i % entries_.size()]);
  return out;
}

std::string RenderTraceEntry(const Model& model, const TraceEntry& entry) {
  std::string comment = "  # t=" + std::to_string(entry.time_ns) + "ns seq=" + std::to_string(entry.sequence);
  if (entry.op == TraceOp::kStep) return "step " + std::to_string(entry.value) + "ns" + comment;
  if (entry.op == TraceOp::kReset) return "reset" + comment;

  std::string space = entry.space < model.spaces().size() ? model.spaces()[entry.space].name : "?";
  std::string where = space + " " + regdb::Hex(entry.offset);
  std::string width = std::to_string(entry.width);
  // A read is rendered as the expectation it met, so replaying checks it.
  std::string line;
  switch (entry.op) {
    case TraceOp::kRead: line = "expect" + width + " " + where + " " + regdb::HexPadded(entry.value, entry.width); break;
    case TraceOp::kWrite: line = "write" + width + " " + where + " " + regdb::HexPadded(entry.value, entry.width); break;
    case TraceOp::kPeek: line = "peek" + width + " " + where; break;
    case TraceOp::kPoke: line = "poke" + width + " " + where + " " + regdb::HexPadded(entry.value, entry.width); break;
    case TraceOp::kStep:
    case TraceOp::kReset: break;
  }
  if (entry.reg != kNoRegister && entry.reg < model.registers().size()) {
    comment += " " + model.registers()[entry.reg].name;
  }
  switch (entry.outcome) {
    case TraceOutcome::kOk: break;
    case TraceOutcome::kReserved: comment += " (reserved)"; break;
    case TraceOutcome::kAlias: comment += " (alias window)"; break;
    case TraceOutcome::kUnclaimed: comment += " (unclaimed)"; break;
    case TraceOutcome::kDropped: comment += " (dropped)"; break;
    case TraceOutcome::kViolation: {
      // Announce every kind it recorded, so that replaying the trace in
      // strict mode passes.
      std::string announced;
      for (size_t kind = 0; kind < kViolationKindCount; ++kind) {
        if ((entry.violation_kinds >> kind) & 1) {
          announced += "expect-violation " + std::string(ViolationKindName(static_cast<ViolationKind>(kind))) + "\n";
        }
      }
      return announced + line + comment;
    }
  }
  return line + comment;
}

std::string RenderTrace(const Model& model, const std::vector<TraceEntry>& entries) {
  std::string text;
  for (const TraceEntry& entry : entries) text += RenderTraceEntry(model, entry) + "\n";
  return text;
}

}  // namespace regemu::emulator
