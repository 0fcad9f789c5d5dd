#include "tools/docgen/site.hpp"

#include <algorithm>
#include <unordered_map>

#include "tools/regemu/register_lookup.hpp"
#include "tools/regemu/register_users.hpp"

namespace regemu::docgen {

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
    // As tools::UsersOf reads a behaviour, once per behaviour here rather
    // than once per register.
    std::map<regdb::RegisterIndex, std::set<std::string>> keys;
    tools::ForEachScalar(db.behaviours[b].yaml, [&](const std::string& text, const std::string& key) {
      std::string name = text.substr(0, text.find('.'));
      if (std::optional<regdb::RegisterIndex> index = db.FindRegister(name)) keys[*index].insert(key);
      if (auto found = by_template.find(name); found != by_template.end()) {
        for (regdb::RegisterIndex index : found->second) keys[index].insert(key);
      }
    });
    for (auto& [index, key_set] : keys) {
      named_by_[index].push_back({&db.behaviours[b], std::move(key_set)});
      named_[b].push_back(&db.registers[index]);
    }
  }
}

std::string Site::SourceOf(regdb::SourceLoc loc) const { return tools::SourceText(loaded_.sources, loc); }

}  // namespace regemu::docgen
