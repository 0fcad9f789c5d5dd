// Where registers sit in their spaces: inside the space, aligned for their
// width, and not overlapping one another unless one is declared an alias of
// the other.
#include <algorithm>
#include <map>
#include <unordered_set>
#include <vector>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/checks/decode_exclusion.hpp"
#include "regemu/regdb/checks/report_once.hpp"

namespace regemu::regdb {
namespace {

// A register's extent in its space's offset units: bytes, or one MSR index.
uint64_t Extent(const Register& reg, const Space& space) { return space.indexed() ? 1 : reg.size_bytes(); }

std::string Span(uint64_t first, uint64_t extent) { return "[" + Hex(first) + ", " + Hex(first + extent - 1) + "]"; }

// One error per array and per block instance, not per element.
std::string GroupKey(const Register& reg) {
  std::string key = reg.array ? reg.array->name_template : reg.name;
  if (reg.block) key = reg.block->block + "." + reg.block->instance + "." + key;
  return key;
}

// A block instance that does not fit its space is one mistake (its base, or
// the block's extent) however many of its registers fall outside, so bounds
// are reported once per instance, not once per register of it.
std::string BoundsKey(const Register& reg) {
  if (reg.block) return reg.block->block + "." + reg.block->instance;
  return GroupKey(reg);
}

const BlockInstance* FindInstance(const Database& db, const BlockOrigin& origin) {
  for (const Block& block : db.blocks) {
    if (block.name != origin.block) continue;
    for (const BlockInstance& instance : block.instances) {
      if (instance.name == origin.instance) return &instance;
    }
  }
  return nullptr;
}

std::string Describe(const Register& reg) {
  std::string text;
  if (reg.array) {
    text = "element " + std::to_string(reg.array->index) + " ('" + reg.name + "') of array '" +
           reg.array->name_template + "'";
  } else {
    text = "register '" + reg.name + "'";
  }
  if (reg.block) text += " in instance '" + reg.block->instance + "' of block '" + reg.block->block + "'";
  return text;
}

// Two second views of one register's place are views of one place too (a
// SAM SERCOM's USART and SPI DATA, both over its I2C master's DATA).
bool DeclaredAliases(const Register& a, const Register& b) {
  return a.alias_of == b.name || b.alias_of == a.name || (!a.alias_of.empty() && a.alias_of == b.alias_of);
}

bool SamePlace(const Register& a, const Register& b) { return a.space == b.space && a.offset == b.offset; }

// Why an overlap with a banked register is still an overlap.
std::string BankHint(const Register& a, const Register& b) {
  if (a.banked() == b.banked()) {
    return a.banked() ? " (registers that share a place must start at the same offset)" : "";
  }
  const Register& plain = a.banked() ? b : a;
  return " ('" + plain.name + "' has no 'decode' or 'decode_when', so it decodes every access there)";
}

bool StrideTooSmall(const Register& reg, const Space& space) {
  return reg.array && !space.indexed() && reg.array->stride < reg.size_bytes();
}

// Elements of one array instance whose stride is too small overlap each
// other; that is reported once, at the stride, not once per element pair.
bool SameCrampedArray(const Register& a, const Register& b, const Space& space) {
  return StrideTooSmall(a, space) && b.array && a.array->name_template == b.array->name_template &&
         a.array->stride_loc == b.array->stride_loc &&
         (a.block ? a.block->instance : "") == (b.block ? b.block->instance : "");
}

void CheckPlacement(const Database& db, Diagnostics& diagnostics) {
  std::unordered_set<std::string> reported_bounds;
  std::unordered_set<std::string> reported_alignment;
  for (const Register& reg : db.registers) {
    if (reg.space == kUnresolved) continue;
    const Space& space = db.spaces[reg.space];
    uint64_t extent = Extent(reg, space);
    bool outside = reg.offset >= space.size || extent > space.size - reg.offset;
    if (outside && reported_bounds.insert(BoundsKey(reg)).second) {
      Diagnostic& error = diagnostics.Error(reg.offset_loc, Describe(reg) + " at " + Span(reg.offset, extent) +
                                                                " runs past the end of space '" + space.name +
                                                                "' (size " + Hex(space.size) + ")");
      // The offset line is shared by every instance; the base says which one.
      if (const BlockInstance* instance = reg.block ? FindInstance(db, *reg.block) : nullptr) {
        error.notes.push_back({instance->loc, "instance '" + instance->name + "' of block '" + reg.block->block +
                                                  "' is based at " + Hex(instance->base) + " here"});
      }
      error.notes.push_back({space.size_loc, "the size of '" + space.name + "' is set here"});
    }
    if (reg.array && reg.array->index == 0 && StrideTooSmall(reg, space)) {
      diagnostics.Error(reg.array->stride_loc, "array '" + reg.array->name_template + "' has stride " +
                                                   Hex(reg.array->stride) + ", smaller than its " +
                                                   std::to_string(reg.width) + "-bit registers (" +
                                                   std::to_string(reg.size_bytes()) + " bytes): its elements overlap");
    }
    if (!space.indexed() && space.natural_alignment && reg.offset % reg.size_bytes() != 0 &&
        reported_alignment.insert(GroupKey(reg)).second) {
      diagnostics.Error(reg.offset_loc, Describe(reg) + " at offset " + Hex(reg.offset) + " is misaligned for its " +
                                            std::to_string(reg.width) + "-bit width (must be a multiple of " +
                                            std::to_string(reg.size_bytes()) + ")");
    }
  }
}

void CheckOverlaps(const Database& db, Diagnostics& diagnostics) {
  std::vector<RegisterIndex> order;
  order.reserve(db.registers.size());
  for (RegisterIndex i = 0; i < db.registers.size(); ++i) {
    if (db.registers[i].space != kUnresolved) order.push_back(i);
  }
  std::sort(order.begin(), order.end(), [&](RegisterIndex a, RegisterIndex b) {
    const Register& ra = db.registers[a];
    const Register& rb = db.registers[b];
    if (ra.space != rb.space) return ra.space < rb.space;
    if (ra.offset != rb.offset) return ra.offset < rb.offset;
    return a < b;
  });

  // Sweep each space in offset order, remembering the register that reaches
  // furthest: any register starting before that end overlaps it.
  std::optional<RegisterIndex> reach;
  uint64_t reach_end = 0;
  for (RegisterIndex index : order) {
    const Register& reg = db.registers[index];
    const Space& space = db.spaces[reg.space];
    uint64_t end = reg.offset + Extent(reg, space);  // may wrap only past 2^64: placement reports that
    if (reach && db.registers[*reach].space == reg.space && reg.offset < reach_end) {
      const Register& other = db.registers[*reach];
      // Banked registers at one place are CheckBanks' to prove apart.
      bool banked_together = reg.banked() && other.banked() && SamePlace(reg, other);
      if (!banked_together && !DeclaredAliases(reg, other) && !SameCrampedArray(reg, other, space)) {
        // Blame whichever was written later, pointing back at the earlier one.
        const Register& later = index > *reach ? reg : other;
        const Register& earlier = index > *reach ? other : reg;
        Diagnostic& error =
            diagnostics.Error(later.offset_loc, Describe(later) + " at " + space.name + " " +
                                                    Span(later.offset, Extent(later, space)) + " overlaps " +
                                                    Describe(earlier) + " at " +
                                                    Span(earlier.offset, Extent(earlier, space)) + BankHint(reg, other));
        error.notes.push_back({earlier.offset_loc, "'" + earlier.name + "' is placed here"});
      }
    }
    if (!reach || db.registers[*reach].space != reg.space || end > reach_end) {
      reach = index;
      reach_end = end;
    }
  }

  // An array's elements share one alias_of line: report it once.
  std::unordered_set<std::string> reported_alias;
  for (const Register& reg : db.registers) {
    if (reg.alias_of.empty() || reg.space == kUnresolved) continue;
    const Register* target = db.RegisterNamed(reg.alias_of);
    if (!target || target == &reg || target->space == kUnresolved) continue;
    const Space& space = db.spaces[reg.space];
    bool overlap = target->space == reg.space && reg.offset < target->offset + Extent(*target, space) &&
                   target->offset < reg.offset + Extent(reg, space);
    if (!overlap && reported_alias.insert(GroupKey(reg)).second) {
      diagnostics.Error(reg.alias_of_loc, "register '" + reg.name + "' is declared an alias of '" + target->name +
                                              "' but does not overlap it")
          .notes.push_back({target->offset_loc, "'" + target->name + "' is placed here"});
    }
  }
}

// Registers sharing one place, each decoding only some accesses (RBR for
// reads and THR for writes at 0; DLL there while LCR.DLAB = 1): every pair
// is proven never to decode the same access.
void CheckBanks(const Database& db, Diagnostics& diagnostics) {
  std::map<std::pair<SpaceIndex, uint64_t>, std::vector<const Register*>> places;
  for (const Register& reg : db.registers) {
    if (reg.banked() && reg.space != kUnresolved) places[{reg.space, reg.offset}].push_back(&reg);
  }
  ReportOnce reported;
  for (const auto& [place, regs] : places) {
    for (size_t i = 0; i < regs.size(); ++i) {
      for (size_t j = 0; j < i; ++j) {
        const Register& later = *regs[i];
        const Register& earlier = *regs[j];
        if (DeclaredAliases(later, earlier)) continue;
        SourceLoc loc = later.decode_loc.known() ? later.decode_loc : later.offset_loc;
        SourceLoc other = earlier.decode_loc.known() ? earlier.decode_loc : earlier.offset_loc;
        if (later.width != earlier.width) {
          if (reported.First(loc, other)) {
            diagnostics.Error(later.width_loc, "register '" + later.name + "' shares its place with '" +
                                                   earlier.name + "' but is " + std::to_string(later.width) +
                                                   " bits wide, not " + std::to_string(earlier.width) +
                                                   ": registers at one place have one width")
                .notes.push_back({earlier.width_loc, "'" + earlier.name + "' is declared here"});
          }
          continue;
        }
        std::optional<DecodeClash> clash = BothDecode(db, earlier, later);
        if (!clash || !reported.First(loc, other)) continue;
        std::string where = db.spaces[later.space].name + " " + Hex(later.offset);
        std::string message = clash->unproven
                                  ? "registers '" + earlier.name + "' and '" + later.name + "' at " + where +
                                        " cannot be proven never to decode the same access: " + clash->witness
                                  : "registers '" + earlier.name + "' and '" + later.name + "' at " + where +
                                        " both decode " + clash->access + " " + clash->witness +
                                        ": give them different 'decode' directions or 'decode_when' conditions "
                                        "that exclude each other";
        diagnostics.Error(loc, message).notes.push_back({other, "'" + earlier.name + "' decodes here"});
      }
    }
  }
}

}  // namespace

void CheckLayout(const Database& database, Diagnostics& diagnostics) {
  CheckPlacement(database, diagnostics);
  CheckOverlaps(database, diagnostics);
  CheckBanks(database, diagnostics);
}

}  // namespace regemu::regdb
