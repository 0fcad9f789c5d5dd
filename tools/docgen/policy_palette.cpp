#include "tools/docgen/policy_palette.hpp"

#include <algorithm>
#include <array>

#include "tools/docgen/html.hpp"

namespace regemu::docgen {
namespace {

using regdb::ReadEffect;
using regdb::WriteEffect;

enum Family { kReadWrite, kReadOnly, kStatus, kReadEffect, kOnce, kAnyWrite, kWriteOnly, kReserved, kFamilies };

constexpr std::array<PolicyFamily, kFamilies> kFamilyTable = {{
    {"pf-rw", "read/write", "stores what is written and reads it back"},
    {"pf-ro", "read-only", "writes do not change it (hardware may)"},
    {"pf-status", "write to act", "status bits: writing 1 (or 0) clears, sets or toggles them; a read-modify-write acks them by accident"},
    {"pf-readfx", "read has a side effect", "reading clears or sets the bits: read them only when you mean to"},
    {"pf-once", "write once", "the first write after reset sticks, later ones are ignored"},
    {"pf-anywrite", "any write acts", "any write clears or sets the bits, whatever value is written"},
    {"pf-wo", "write-only", "reads return 0"},
    {"pf-rsvd", "reserved", "reads 0; must be written as 0 (mbz) or is ignored (rsvd)"},
}};

Family FamilyIndex(regdb::Access access) {
  const regdb::AccessInfo& info = regdb::Info(access);
  if (info.read == ReadEffect::kZero) return kReserved;
  if (info.read_has_side_effect()) return kReadEffect;
  switch (info.write) {
    case WriteEffect::kOneClears:
    case WriteEffect::kOneSets:
    case WriteEffect::kOneToggles:
    case WriteEffect::kZeroClears:
    case WriteEffect::kZeroSets:
    case WriteEffect::kZeroToggles:
      return kStatus;
    case WriteEffect::kStoreOnce:
      return kOnce;
    case WriteEffect::kClearAll:
    case WriteEffect::kSetAll:
      return info.readable() ? kAnyWrite : kWriteOnly;
    case WriteEffect::kStore:
      return info.readable() ? kReadWrite : kWriteOnly;
    case WriteEffect::kIgnore:
    case WriteEffect::kDiscard:
    case WriteEffect::kMustBeZero:
      return kReadOnly;
  }
  return kReadOnly;
}

}  // namespace

const PolicyFamily& FamilyOf(regdb::Access access) { return kFamilyTable[FamilyIndex(access)]; }

std::string PolicyInWords(regdb::Access access) {
  const regdb::AccessInfo& info = regdb::Info(access);
  return std::string(info.name) + " \xE2\x80\x94 " + std::string(info.summary);
}

std::string PolicyLegend(const std::vector<regdb::Access>& present) {
  std::array<std::vector<std::string_view>, kFamilies> names;
  for (regdb::Access access : present) {
    std::vector<std::string_view>& list = names[FamilyIndex(access)];
    std::string_view name = regdb::Info(access).name;
    if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
  }
  std::string out = "<ul class=\"legend\">\n";
  for (size_t i = 0; i < kFamilies; ++i) {
    if (names[i].empty()) continue;
    const PolicyFamily& family = kFamilyTable[i];
    out += "<li><svg width=\"18\" height=\"14\" aria-hidden=\"true\"><rect class=\"" + std::string(family.css_class) +
           "\" x=\"0.5\" y=\"0.5\" width=\"17\" height=\"13\"/></svg> <b>" + Escape(family.title) + "</b> (";
    for (size_t n = 0; n < names[i].size(); ++n) out += (n == 0 ? "" : ", ") + Escape(names[i][n]);
    out += "): " + Escape(family.meaning) + "</li>\n";
  }
  out += "</ul>\n";
  return out;
}

}  // namespace regemu::docgen
