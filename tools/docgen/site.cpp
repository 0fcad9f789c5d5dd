#include "tools/docgen/site.hpp"

#include <algorithm>
#include <unordered_map>

namespace regemu::docgen {
namespace {

// Every scalar under `node` with the key it sits under (a sequence's items
// count as their sequence's key), as tools/regemu/register_users.cpp reads
// a behaviour: once per behaviour here, not once per register.
void CollectScalars(const regdb::YamlNode& node, const std::string& key,
                    std::vector<std::pair<std::string, std::string>>& out) {
  if (node.IsScalar()) {
    out.emplace_back(node.text, key);
  } else if (node.IsSequence()) {
    for (const regdb::YamlNode& item : node.children) CollectScalars(item, key, out);
  } else if (node.IsMap()) {
    for (size_t i = 0; i < node.MapSize(); ++i) {
      CollectScalars(node.MapKey(i), key, out);
      CollectScalars(node.MapValue(i), node.MapKey(i).text, out);
    }
  }
}

}  // namespace

Site::Site(const regdb::LoadedDatabase& loaded)
    : loaded_(loaded),
      windows_(loaded.database.registers.size()),
      by_space_(loaded.database.spaces.size()),
      named_by_(loaded.database.registers.size()),
      named_(loaded.database.behaviours.size()) {
  const regdb::Database& db = loaded.database;
  for (const regdb::Register& reg : db.registers) {
    if (reg.space < by_space_.size()) by_space_[reg.space].push_back(&reg);
  }
  for (std::vector<const regdb::Register*>& regs : by_space_) {
    std::stable_sort(regs.begin(), regs.end(),
                     [](const regdb::Register* a, const regdb::Register* b) { return a->offset < b->offset; });
  }
  // A window maps [target_offset, target_offset + size) of its target space
  // into its own: every register of the target there is visible through it.
  for (const regdb::Range& range : db.ranges) {
    if (range.kind != regdb::RangeKind::kAlias || range.target_space >= by_space_.size()) continue;
    for (const regdb::Register* reg : by_space_[range.target_space]) {
      if (reg->offset < range.target_offset || reg->offset - range.target_offset >= range.size) continue;
      windows_[db.IndexOf(*reg)].push_back({&range, range.base + (reg->offset - range.target_offset)});
    }
  }
  // Behaviours name a register by itself, by one of its fields ("PCICMD.MSE")
  // or by its array's template ("IA32_PMC{n}").
  std::unordered_map<std::string, std::vector<regdb::RegisterIndex>> by_template;
  for (const regdb::Register& reg : db.registers) {
    if (reg.array) by_template[reg.array->name_template].push_back(db.IndexOf(reg));
  }
  for (size_t b = 0; b < db.behaviours.size(); ++b) {
    std::vector<std::pair<std::string, std::string>> scalars;
    CollectScalars(db.behaviours[b].yaml, "", scalars);
    std::map<regdb::RegisterIndex, std::set<std::string>> keys;
    for (const auto& [text, key] : scalars) {
      std::string name = text.substr(0, text.find('.'));
      if (std::optional<regdb::RegisterIndex> index = db.FindRegister(name)) keys[*index].insert(key);
      if (auto found = by_template.find(name); found != by_template.end()) {
        for (regdb::RegisterIndex index : found->second) keys[index].insert(key);
      }
    }
    for (auto& [index, key_set] : keys) {
      named_by_[index].push_back({&db.behaviours[b], std::move(key_set)});
      named_[b].push_back(&db.registers[index]);
    }
  }
}

std::string Site::SourceOf(regdb::SourceLoc loc) const {
  if (!loc.known()) return "";
  return loaded_.sources.file(loc.file).path + ":" + std::to_string(loc.line);
}

}  // namespace regemu::docgen
