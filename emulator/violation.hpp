#pragma once
// Violations: driver mistakes recorded with everything needed to find them
// (kind, where, what value, which register and field, which rule, and the
// accesses just before), and the per-kind policy deciding whether one fails.

#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/trace.hpp"

namespace regemu::emulator {

enum class ViolationKind : uint8_t {
#define REGEMU_VIOLATION(id, name, meaning) id,
#include "regemu/emulator/violation_kinds.def"
#undef REGEMU_VIOLATION
};

inline constexpr size_t kViolationKindCount = 0
#define REGEMU_VIOLATION(id, name, meaning) +1
#include "regemu/emulator/violation_kinds.def"
#undef REGEMU_VIOLATION
    ;

std::string_view ViolationKindName(ViolationKind kind);
std::string_view ViolationKindMeaning(ViolationKind kind);
std::optional<ViolationKind> ViolationKindFromName(std::string_view name);

struct Violation {
  ViolationKind kind = ViolationKind::kUnmodelled;
  TraceOp op = TraceOp::kWrite;  // the access that broke the rule
  uint64_t sequence = 0;
  uint64_t time_ns = 0;
  std::string space;
  uint64_t offset = 0;
  unsigned width = 0;
  uint64_t value = 0;  // written value, or the value read
  std::string register_name;  // "" when no register decodes there
  std::string field_name;     // the first offending field, "" when none
  std::string rule;           // the rule broken, in words
  std::vector<TraceEntry> recent;  // the accesses before this one, oldest first
  bool fails = true;               // the kind's policy was kFail when it was recorded

  // One line: "read-only: write32 mmio 0x2364 (OASTATUS1.FIELD) value 0x1: rule".
  std::string Summary() const;
  // The summary, then the accesses before it as script lines.
  std::string Describe(const Model& model) const;
};

// gtest prints a violation as its summary line (not 208 bytes of hex).
void PrintTo(const Violation& violation, std::ostream* os);

// What a violation of one kind does: fail the run (strict), be recorded only
// (lenient), or be ignored entirely.
enum class ViolationAction : uint8_t { kFail, kRecord, kIgnore };

class ViolationPolicy {
 public:
  static ViolationPolicy Strict();   // every kind fails, except `unmodelled`: recorded, never blamed
  static ViolationPolicy Lenient();  // every kind is recorded only

  ViolationAction action(ViolationKind kind) const { return actions_[static_cast<size_t>(kind)]; }
  ViolationPolicy& Set(ViolationKind kind, ViolationAction action) {
    actions_[static_cast<size_t>(kind)] = action;
    return *this;
  }

 private:
  std::array<ViolationAction, kViolationKindCount> actions_{};
};

}  // namespace regemu::emulator
