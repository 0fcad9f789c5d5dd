// RenderRunTrace (script_runner.hpp): a run's trace with its polls collapsed.

#include <string>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/emulator/trace.hpp"

namespace regemu::emulator {
namespace {

// "370ns", "37us", "50ms", "2s": the largest unit that says it exactly.
std::string Duration(uint64_t ns) {
  if (ns != 0 && ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns != 0 && ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  if (ns != 0 && ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
  return std::to_string(ns) + "ns";
}

bool SameRead(const TraceEntry& a, const TraceEntry& b) {
  return a.op == TraceOp::kRead && b.op == TraceOp::kRead && a.space == b.space && a.offset == b.offset &&
         a.width == b.width && a.value == b.value && a.reg == b.reg && a.outcome == b.outcome &&
         a.violation_kinds == b.violation_kinds;
}

}  // namespace

std::string RenderRunTrace(const Model& model, const std::vector<TraceEntry>& trace,
                           const std::vector<ScriptPoll>& polls, const std::vector<ScriptInject>& injects) {
  std::string text;
  size_t poll = 0;  // polls and trace are both in sequence order
  size_t inject = 0;  // so are injects
  for (size_t i = 0; i < trace.size();) {
    const TraceEntry& first = trace[i];
    // An inject replays with what it did itself (a command processor's
    // accesses): its line stands for those entries.
    bool replaced = false;
    while (inject < injects.size() && injects[inject].after_sequence < first.sequence) {
      text += injects[inject].text + "\n";
      replaced = replaced || first.sequence <= injects[inject].end_sequence;
      if (first.sequence <= injects[inject].end_sequence) break;
      ++inject;
    }
    if (replaced) {
      while (i < trace.size() && trace[i].sequence <= injects[inject].end_sequence) ++i;
      ++inject;
      continue;
    }
    while (poll < polls.size() && polls[poll].last_sequence < first.sequence) ++poll;
    bool in_poll = poll < polls.size() && polls[poll].first_sequence <= first.sequence;
    // The reads identical to `first`, with only the poll's steps between them.
    size_t last_read = i;
    uint64_t reads = 1;
    if (in_poll && first.op == TraceOp::kRead) {
      for (size_t j = i + 1; j < trace.size() && trace[j].sequence <= polls[poll].last_sequence; ++j) {
        if (trace[j].op == TraceOp::kStep) continue;
        if (!SameRead(trace[j], first)) break;
        last_read = j;
        ++reads;
      }
    }
    text += RenderTraceEntry(model, first);
    if (reads == 1) {
      text += "\n";
      ++i;
      continue;
    }
    // One step for the time the value held: up to the poll's next read (or its end).
    size_t end = last_read + 1;
    uint64_t waited = trace[last_read].time_ns - first.time_ns;
    while (end < trace.size() && trace[end].sequence <= polls[poll].last_sequence && trace[end].op == TraceOp::kStep) {
      waited += trace[end++].value;
    }
    text += ": polled " + std::to_string(reads) + " times, the last at t=" + std::to_string(trace[last_read].time_ns) +
            "ns\n";
    if (waited != 0) {
      text += "step " + Duration(waited) + "  # the poll's waits, seq=" + std::to_string(first.sequence + 1) + ".." +
              std::to_string(trace[end - 1].sequence) + "\n";
    }
    i = end;
  }
  for (; inject < injects.size(); ++inject) text += injects[inject].text + "\n";
  return text;
}

}  // namespace regemu::emulator
