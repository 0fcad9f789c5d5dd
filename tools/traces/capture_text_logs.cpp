// The two offset-only capture formats: i915's `i915_reg_rw` ftrace event
// and plain register logs.
#include <string>

#include "tools/traces/capture.hpp"
#include "tools/traces/capture_tokens.hpp"

namespace regemu::traces {
namespace {

bool Fail(std::string& error, std::string message) {
  error = std::move(message);
  return false;
}

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// Consumes `prefix` from the front of `text`.
bool Eat(std::string_view& text, std::string_view prefix) {
  if (text.substr(0, prefix.size()) != prefix) return false;
  text.remove_prefix(prefix.size());
  return true;
}

// Reads hex up to `stop` (exclusive) from `text` and consumes both.
std::optional<uint64_t> HexUntil(std::string_view& text, char stop) {
  size_t end = text.find(stop);
  if (end == std::string_view::npos) return std::nullopt;
  auto value = ParsePrefixedHex(Trim(text.substr(0, end)));
  text.remove_prefix(end + 1);
  return value;
}

// Any ftrace event's line: a `[CPU]` column, then a `SECONDS.FRACTION:`
// timestamp (`TASK-PID [CPU] FLAGS TIME: EVENT: ...`, or `perf script`'s
// `TASK PID [CPU] TIME: SYSTEM:EVENT: ...`). The task's name may be anything.
bool IsFtraceEventLine(std::string_view text) {
  bool cpu = false;
  for (std::string_view token : SplitTokens(text, 64)) {
    if (!cpu) {
      cpu = token.size() > 2 && token.front() == '[' && token.back() == ']' &&
            ParseDecimalToken(token.substr(1, token.size() - 2));
    } else if (token.size() > 1 && token.back() == ':' && ParseTimestampNs(token.substr(0, token.size() - 1))) {
      return true;
    }
  }
  return false;
}

}  // namespace

// `TASK-PID [CPU] FLAGS SECONDS.FRACTION: i915_reg_rw: read reg=0x2358, len=4, val=(0x1, 0x0)`
// (i915_trace.h: "%s reg=0x%x, len=%d, val=(0x%x, 0x%x)", the low half
// first). `perf script` prints the event as `i915:i915_reg_rw:`.
bool ParseI915RegRwLine(std::string_view line, CaptureRecord& record, std::string& error) {
  error.clear();
  std::string_view text = Trim(line);
  if (text.empty() || text.front() == '#') return false;  // ftrace's header
  size_t event = text.find("i915_reg_rw:");
  if (event == std::string_view::npos) {
    // Another event of the same trace, or a line no tracer writes.
    if (text.find("]") != std::string_view::npos && text.find(": ") != std::string_view::npos) return false;
    return Fail(error, "not an ftrace event line");
  }
  std::string_view before = text.substr(0, event);
  if (before.size() >= 5 && before.substr(before.size() - 5) == "i915:") before.remove_suffix(5);
  std::vector<std::string_view> tokens = SplitTokens(before, 64);
  if (!tokens.empty() && tokens.back().size() > 1 && tokens.back().back() == ':') {
    if (auto ns = ParseTimestampNs(tokens.back().substr(0, tokens.back().size() - 1))) {
      record.time_ns = *ns;
      record.has_time = true;
    }
  }
  std::string_view body = Trim(text.substr(event + 12));
  if (Eat(body, "read ")) {
    record.kind = CaptureKind::kRead;
  } else if (Eat(body, "write ")) {
    record.kind = CaptureKind::kWrite;
  } else {
    return Fail(error, "i915_reg_rw without 'read' or 'write'");
  }
  body = Trim(body);
  if (!Eat(body, "reg=")) return Fail(error, "i915_reg_rw without reg=");
  auto reg = HexUntil(body, ',');
  body = Trim(body);
  if (!reg || !Eat(body, "len=")) return Fail(error, "bad reg= or no len= in i915_reg_rw");
  size_t comma = body.find(',');
  auto len = ParseDecimalToken(Trim(body.substr(0, comma)));
  if (comma == std::string_view::npos || !len || !IsAccessWidth(*len)) return Fail(error, "bad len= (1, 2, 4 or 8)");
  body = Trim(body.substr(comma + 1));
  if (!Eat(body, "val=(")) return Fail(error, "i915_reg_rw without val=(LOW, HIGH)");
  auto low = HexUntil(body, ',');
  auto high = HexUntil(body, ')');
  if (!low || !high || *low > 0xffffffffu || *high > 0xffffffffu) return Fail(error, "bad val=(LOW, HIGH)");
  record.address = *reg;
  record.width = static_cast<unsigned>(*len);
  record.value = *high << 32 | *low;
  if (record.width < 8 && (record.value >> (record.width * 8)) != 0) {
    return Fail(error, "val does not fit in len=" + std::to_string(record.width));
  }
  return true;
}

// `R 0x2358: 0x00000001` or `W 0x2358: 0x1`, optionally with the width in
// bits (`R8`, `W16`, `R32`, `W64`; default 32). `#` starts a comment.
bool ParseRegisterLogLine(std::string_view line, CaptureRecord& record, std::string& error) {
  error.clear();
  size_t hash = line.find('#');
  std::string_view text = Trim(line.substr(0, hash));
  if (text.empty()) return false;
  std::vector<std::string_view> t = SplitTokens(text, 4);
  if (t.size() != 3) return Fail(error, "want R|W[8|16|32|64] 0xOFFSET: 0xVALUE");
  std::string_view op = t[0];
  if (op.front() == 'R' || op.front() == 'r') record.kind = CaptureKind::kRead;
  else if (op.front() == 'W' || op.front() == 'w') record.kind = CaptureKind::kWrite;
  else return Fail(error, "want R or W, not '" + std::string(op.substr(0, 20)) + "'");
  uint64_t bits = 32;
  if (op.size() > 1) {
    auto parsed = ParseDecimalToken(op.substr(1));
    if (!parsed || (*parsed != 8 && *parsed != 16 && *parsed != 32 && *parsed != 64)) {
      return Fail(error, "bad width in '" + std::string(op.substr(0, 20)) + "' (R8, R16, R32 or R64)");
    }
    bits = *parsed;
  }
  std::string_view address = t[1];
  if (address.empty() || address.back() != ':') return Fail(error, "want ':' after the offset");
  auto offset = ParsePrefixedHex(address.substr(0, address.size() - 1));
  auto value = ParsePrefixedHex(t[2]);
  if (!offset) return Fail(error, "bad offset '" + std::string(address.substr(0, 24)) + "' (want 0x hex)");
  if (!value) return Fail(error, "bad value '" + std::string(t[2].substr(0, 24)) + "' (want 0x hex)");
  if (bits < 64 && (*value >> bits) != 0) return Fail(error, "value does not fit in " + std::to_string(bits) + " bits");
  record.width = static_cast<unsigned>(bits / 8);
  record.address = *offset;
  record.value = *value;
  return true;
}

std::string_view CaptureFormatName(CaptureFormat format) {
  switch (format) {
    case CaptureFormat::kMmiotrace: return "mmiotrace";
    case CaptureFormat::kI915RegRw: return "i915_reg_rw";
    case CaptureFormat::kRegisterLog: return "register log";
  }
  return "?";
}

bool DetectCaptureFormat(std::string_view line, CaptureFormat& format) {
  std::string_view text = Trim(line);
  if (text.empty()) return false;
  // Another event of an ftrace capture (trace_pipe has no header) is
  // ftrace too, even from a task whose name starts with R or W.
  if (text.find("i915_reg_rw:") != std::string_view::npos || Eat(text, "# tracer:") || IsFtraceEventLine(text)) {
    format = CaptureFormat::kI915RegRw;
    return true;
  }
  if (text.front() == '#') return false;
  std::vector<std::string_view> t = SplitTokens(text, 3);
  std::string_view word = t.empty() ? std::string_view{} : t[0];
  if (word == "VERSION" || word == "PCIDEV" || word == "MAP" || word == "UNMAP" || word == "MARK" ||
      word == "LSPCI" || word == "UNKNOWN" || ((word == "R" || word == "W") && t.size() > 1 && ParseDecimalToken(t[1]))) {
    format = CaptureFormat::kMmiotrace;
    return true;
  }
  if (!word.empty() && (word.front() == 'R' || word.front() == 'W' || word.front() == 'r' || word.front() == 'w')) {
    format = CaptureFormat::kRegisterLog;
    return true;
  }
  return false;
}

}  // namespace regemu::traces
