#include "regemu/emulator/violation.hpp"

#include <array>

#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

struct KindInfo {
  std::string_view name;
  std::string_view meaning;
};

constexpr std::array<KindInfo, kViolationKindCount> kKinds{{
#define REGEMU_VIOLATION(id, name, meaning) {name, meaning},
#include "regemu/emulator/violation_kinds.def"
#undef REGEMU_VIOLATION
}};

}  // namespace

std::string_view ViolationKindName(ViolationKind kind) { return kKinds[static_cast<size_t>(kind)].name; }
std::string_view ViolationKindMeaning(ViolationKind kind) { return kKinds[static_cast<size_t>(kind)].meaning; }

std::optional<ViolationKind> ViolationKindFromName(std::string_view name) {
  for (size_t i = 0; i < kKinds.size(); ++i) {
    if (kKinds[i].name == name) return static_cast<ViolationKind>(i);
  }
  return std::nullopt;
}

ViolationPolicy ViolationPolicy::Strict() {
  ViolationPolicy policy;
  policy.actions_.fill(ViolationAction::kFail);
  // An emulator gap is reported, never blamed on the driver.
  policy.Set(ViolationKind::kUnmodelled, ViolationAction::kRecord);
  return policy;
}

ViolationPolicy ViolationPolicy::Lenient() {
  ViolationPolicy policy;
  policy.actions_.fill(ViolationAction::kRecord);
  return policy;
}

std::string Violation::Summary() const {
  std::string access = std::string(op == TraceOp::kRead ? "read" : "write") + std::to_string(width) + " " + space +
                       " " + regdb::Hex(offset);
  if (!register_name.empty()) access += " (" + register_name + (field_name.empty() ? "" : "." + field_name) + ")";
  return std::string(ViolationKindName(kind)) + ": " + access + " value " + regdb::HexPadded(value, width) + ": " + rule;
}

void PrintTo(const Violation& violation, std::ostream* os) { *os << violation.Summary(); }

std::string Violation::Describe(const Model& model) const {
  std::string text = Summary() + "\n";
  if (!recent.empty()) {
    text += "  the accesses before it:\n";
    for (const TraceEntry& entry : recent) {
      std::string lines = RenderTraceEntry(model, entry);
      for (size_t at = 0, next; at < lines.size(); at = next + 1) {
        next = lines.find('\n', at);
        if (next == std::string::npos) next = lines.size();
        text += "    " + lines.substr(at, next - at) + "\n";
      }
    }
  }
  return text;
}

}  // namespace regemu::emulator
