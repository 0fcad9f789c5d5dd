// Ranges: inside their space, not overlapping each other, alias windows that
// fit their target, and no register defined inside a reserved range or under
// an alias window.
#include <algorithm>
#include <vector>

#include "regdb/checker.hpp"

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
    return a->space != b->space ? a->space < b->space : a->base < b->base;
  });
  for (size_t i = 1; i < placed.size(); ++i) {
    const Range& a = *placed[i - 1];
    const Range& b = *placed[i];
    if (a.space == b.space && b.base <= a.base + (a.size - 1)) {
      diagnostics.Error(b.base_loc, std::string(KindWord(b.kind)) + " '" + b.name + "' " + Span(b.base, b.size) +
                                        " overlaps " + KindWord(a.kind) + " '" + a.name + "' " + Span(a.base, a.size))
          .notes.push_back({a.base_loc, "'" + a.name + "' is placed here"});
    }
  }

  // Registers inside ranges: binary search the sorted ranges of the space.
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
