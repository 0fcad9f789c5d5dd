// Ranges: inside their space, not overlapping each other, alias windows that
// fit their target, and no register defined inside a reserved range or under
// an alias window.
#include <algorithm>
#include <string>
#include <vector>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/checks/report_once.hpp"

namespace regemu::regdb {
namespace {

std::string Span(uint64_t base, uint64_t size) { return "[" + Hex(base) + ", " + Hex(base + size - 1) + "]"; }

const char* KindWord(RangeKind kind) { return kind == RangeKind::kReserved ? "reserved range" : "alias window"; }

bool Fits(uint64_t base, uint64_t size, uint64_t space_size) { return base < space_size && size <= space_size - base; }

}  // namespace

void CheckRanges(const Database& db, Diagnostics& diagnostics) {
  std::vector<const Range*> placed;
  for (const Range& range : db.ranges) {
    if (range.space == kUnresolved) continue;
    const Space& space = db.spaces[range.space];
    if (!Fits(range.base, range.size, space.size)) {
      diagnostics.Error(range.base_loc, std::string(KindWord(range.kind)) + " '" + range.name + "' " +
                                            Span(range.base, range.size) + " runs past the end of space '" +
                                            space.name + "' (size " + Hex(space.size) + ")");
    }
    if (range.kind == RangeKind::kAlias && range.target_space != kUnresolved) {
      const Space& target = db.spaces[range.target_space];
      if (!Fits(range.target_offset, range.size, target.size)) {
        diagnostics.Error(range.target_loc, "alias window '" + range.name + "' maps " + Span(range.target_offset, range.size) +
                                                " of space '" + target.name + "', past its end (size " +
                                                Hex(target.size) + ")");
      }
      if (range.target_space == range.space) {
        diagnostics.Error(range.target_loc, "alias window '" + range.name + "' targets its own space '" + space.name + "'");
      }
    }
    placed.push_back(&range);
  }

  std::sort(placed.begin(), placed.end(), [](const Range* a, const Range* b) {
    if (a->space != b->space) return a->space < b->space;
    if (a->base != b->base) return a->base < b->base;
    return a < b;  // equal bases: YAML order, so the later-written range is blamed
  });
  // Sweep each space in base order, remembering the range that reaches
  // furthest: comparing neighbours only would let a small range nested in a
  // large one hide a third range that overlaps the large one.
  const Range* reach = nullptr;
  for (const Range* current : placed) {
    const Range& b = *current;
    if (reach && reach->space == b.space && b.base <= reach->base + (reach->size - 1)) {
      const Range& a = *reach;
      diagnostics.Error(b.base_loc, std::string(KindWord(b.kind)) + " '" + b.name + "' " + Span(b.base, b.size) +
                                        " overlaps " + KindWord(a.kind) + " '" + a.name + "' " + Span(a.base, a.size))
          .notes.push_back({a.base_loc, "'" + a.name + "' is placed here"});
    }
    if (!reach || reach->space != b.space || b.base + (b.size - 1) > reach->base + (reach->size - 1)) reach = current;
  }

  // Registers inside ranges: binary search the sorted ranges of the space.
  // An array's elements share one offset line: one error per line and range.
  ReportOnce reported;
  for (const Register& reg : db.registers) {
    if (reg.space == kUnresolved) continue;
    uint64_t last = reg.offset + (db.spaces[reg.space].indexed() ? 0 : reg.size_bytes() - 1);
    auto it = std::upper_bound(placed.begin(), placed.end(), std::make_pair(reg.space, last),
                               [](const std::pair<SpaceIndex, uint64_t>& key, const Range* r) {
                                 return key.first != r->space ? key.first < r->space : key.second < r->base;
                               });
    // Ranges do not overlap (or were reported), so only the nearest one below `last` can hold the register.
    if (it == placed.begin()) continue;
    const Range& range = **std::prev(it);
    if (range.space != reg.space || reg.offset > range.base + (range.size - 1)) continue;
    if (!reported.First(reg.offset_loc, range.name)) continue;
    std::string where = range.kind == RangeKind::kReserved ? "inside reserved range" : "under alias window";
    diagnostics.Error(reg.offset_loc, "register '" + reg.name + "' at " + Hex(reg.offset) + " is defined " + where +
                                          " '" + range.name + "' " + Span(range.base, range.size) +
                                          (range.kind == RangeKind::kReserved
                                               ? " (no register may be defined in a reserved range)"
                                               : " (the window shows another space; define the register there)"))
        .notes.push_back({range.base_loc, "'" + range.name + "' is placed here"});
  }
}

}  // namespace regemu::regdb
