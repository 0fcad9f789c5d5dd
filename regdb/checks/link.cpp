// Name resolution: every name a database refers to must exist, and names
// must be unique in their scope.
#include <array>
#include <unordered_map>
#include <vector>

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/checks/report_once.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

// The register as the user wrote it, for errors reported once per YAML line
// of an array or a block: "register 'PERF{n}'", "register 'TAIL' of block 'ring'".
std::string WrittenName(const Register& reg) {
  const std::string& name = reg.array ? reg.array->name_template : reg.block ? reg.block->local_name : reg.name;
  std::string text = "register '" + name + "'";
  if (reg.block) text += " of block '" + reg.block->block + "'";
  return text;
}

template <typename T>
void ReportDuplicates(const std::vector<T>& items, std::string_view what, Diagnostics& diagnostics) {
  std::unordered_map<std::string_view, const T*> seen;
  // Two arrays (or block templates) that clash clash in every element: one
  // error per pair of YAML lines, not one per element or instance.
  ReportOnce reported;
  for (const T& item : items) {
    auto [it, inserted] = seen.emplace(item.name, &item);
    if (!inserted && reported.First(item.loc, it->second->loc)) {
      diagnostics.Error(item.loc, std::string(what) + " '" + item.name + "' is defined twice")
          .notes.push_back({it->second->loc, "first defined here"});
    }
  }
}

SpaceIndex ResolveSpace(const Database& db, const std::string& name, SourceLoc loc, std::string_view user,
                        Diagnostics& diagnostics) {
  if (auto index = db.FindSpace(name)) return *index;
  diagnostics.Error(loc, std::string(user) + " names unknown space '" + name + "'" +
                             DidYouMean(name, NamesOf(db.spaces)));
  return kUnresolved;
}

void ResolveFieldRef(const Database& db, FieldRef& ref, std::string_view user, Diagnostics& diagnostics) {
  auto reg = db.FindRegister(ref.register_name);
  if (!reg) {
    diagnostics.Error(ref.loc, std::string(user) + " names unknown register '" + ref.register_name + "'" +
                                   DidYouMean(ref.register_name, NamesOf(db.registers)));
    return;
  }
  const Register& r = db.registers[*reg];
  for (size_t i = 0; i < r.fields.size(); ++i) {
    if (r.fields[i].name == ref.field_name) {
      ref.reg = *reg;
      ref.field = static_cast<uint32_t>(i);
      return;
    }
  }
  diagnostics.Error(ref.loc, std::string(user) + " names unknown field '" + ref.field_name + "' of register '" +
                                 r.name + "'" + DidYouMean(ref.field_name, NamesOf(r.fields)))
      .notes.push_back({r.loc, "'" + r.name + "' is defined here"});
}

// A capture's bus address must map to one space: two spaces cannot be the same BAR.
void ReportSharedBars(const Database& db, Diagnostics& diagnostics) {
  std::array<const Space*, 6> owner{};
  for (const Space& space : db.spaces) {
    if (!space.pci_bar) continue;
    const Space*& first = owner[*space.pci_bar];
    if (!first) {
      first = &space;
      continue;
    }
    diagnostics.Error(space.pci_bar_loc, "spaces '" + first->name + "' and '" + space.name + "' are both pci_bar " +
                                             std::to_string(*space.pci_bar))
        .notes.push_back({first->pci_bar_loc, "'" + first->name + "' is defined here"});
  }
}

}  // namespace

void LinkNames(Database& db, Diagnostics& diagnostics) {
  db.IndexNames();
  ReportDuplicates(db.spaces, "space", diagnostics);
  ReportDuplicates(db.registers, "register", diagnostics);
  ReportDuplicates(db.ranges, "range", diagnostics);
  ReportDuplicates(db.blocks, "block", diagnostics);
  ReportDuplicates(db.behaviours, "behaviour", diagnostics);
  ReportSharedBars(db, diagnostics);

  // An array or block yields many registers from one YAML line: report an
  // unknown space once per line, and a block's once, even with no registers.
  ReportOnce reported;
  for (const Block& block : db.blocks) {
    if (!db.FindSpace(block.space_name) && reported.First(block.space_loc)) {
      ResolveSpace(db, block.space_name, block.space_loc, "block '" + block.name + "'", diagnostics);
    }
  }
  for (Register& reg : db.registers) {
    if (auto index = db.FindSpace(reg.space_name)) {
      reg.space = *index;
    } else if (reported.First(reg.space_loc)) {
      ResolveSpace(db, reg.space_name, reg.space_loc, WrittenName(reg), diagnostics);
    }
  }
  ReportOnce reported_alias;
  for (Register& reg : db.registers) {
    if (reg.alias_of.empty()) continue;
    if (!db.FindRegister(reg.alias_of)) {
      if (!reported_alias.First(reg.alias_of_loc)) continue;
      diagnostics.Error(reg.alias_of_loc, WrittenName(reg) + " is an alias_of unknown register '" + reg.alias_of +
                                              "'" + DidYouMean(reg.alias_of, NamesOf(db.registers)));
    } else if (reg.alias_of == reg.name) {
      diagnostics.Error(reg.alias_of_loc, "register '" + reg.name + "' cannot be an alias of itself");
    }
  }
  for (Register& reg : db.registers) {
    if (reg.view_of.empty()) continue;
    const Register* storage = db.RegisterNamed(reg.view_of);
    if (storage == nullptr) {
      diagnostics.Error(reg.view_of_loc, WrittenName(reg) + " is a view_of unknown register '" + reg.view_of + "'" +
                                             DidYouMean(reg.view_of, NamesOf(db.registers)));
    } else if (storage == &reg) {
      diagnostics.Error(reg.view_of_loc, "register '" + reg.name + "' cannot be a view of itself");
    } else if (!storage->view_of.empty()) {
      diagnostics.Error(reg.view_of_loc, "register '" + reg.name + "' is a view of '" + storage->name +
                                             "', itself a view of '" + storage->view_of + "': name the storage, '" +
                                             storage->view_of + "'");
    } else if (storage->width != reg.width) {
      diagnostics.Error(reg.view_of_loc, "register '" + reg.name + "' (" + std::to_string(reg.width) +
                                             " bits) is a view of '" + storage->name + "' (" +
                                             std::to_string(storage->width) + " bits): a view has its storage's width")
          .notes.push_back({storage->loc, "'" + storage->name + "' is defined here"});
    } else if (reg.reset_given && storage->reset != reg.reset) {
      diagnostics.Error(reg.reset_loc, "register '" + reg.name + "' is a view of '" + storage->name +
                                           "' and shows its value: its reset must be the storage's (" +
                                           Hex(storage->reset) + ") or left out");
    } else if (!reg.alias_of.empty()) {
      diagnostics.Error(reg.view_of_loc, "register '" + reg.name + "' cannot be both an alias_of and a view_of");
    }
  }
  for (Range& range : db.ranges) {
    range.space = ResolveSpace(db, range.space_name, range.space_loc, "range '" + range.name + "'", diagnostics);
    if (range.kind == RangeKind::kAlias) {
      range.target_space = ResolveSpace(db, range.target_space_name, range.target_loc,
                                        "alias range '" + range.name + "'", diagnostics);
      if (range.enabled_by) ResolveFieldRef(db, *range.enabled_by, "enabled_by of range '" + range.name + "'", diagnostics);
    }
  }
}

}  // namespace regemu::regdb
