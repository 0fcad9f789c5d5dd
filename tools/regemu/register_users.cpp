#include "tools/regemu/register_users.hpp"

namespace regemu::tools {
namespace {

// How a behaviour's YAML may spell the register or field: by name, or for
// an array element by the array's template ("IA32_PMC{n}", as event
// counters name their slots).
class Spellings {
 public:
  // `local`: as a behaviour of the register's own block instance spells it
  // (its name in the block: `VALUE` for TIMER1_VALUE).
  Spellings(const regdb::Register& reg, const regdb::Field* field, bool local = false) : field_(field != nullptr) {
    names_.push_back(local && reg.block ? reg.block->local_name : reg.name);
    if (reg.array) names_.push_back(reg.array->name_template);
    if (field != nullptr) {
      for (std::string& name : names_) name += "." + field->name;
    }
  }

  // A register is named by itself or by any of its fields ("PCICMD.MSE").
  bool Match(const std::string& text) const {
    for (const std::string& name : names_) {
      if (text == name) return true;
      if (!field_ && text.size() > name.size() && text.starts_with(name) && text[name.size()] == '.') return true;
    }
    return false;
  }

 private:
  bool field_;
  std::vector<std::string> names_;
};

void WalkScalars(const regdb::YamlNode& node, const std::string& key,
                 const std::function<void(const std::string&, const std::string&)>& visit) {
  if (node.IsScalar()) {
    visit(node.text, key);
  } else if (node.IsSequence()) {
    for (const regdb::YamlNode& item : node.children) WalkScalars(item, key, visit);
  } else if (node.IsMap()) {
    for (size_t i = 0; i < node.MapSize(); ++i) {
      WalkScalars(node.MapKey(i), key, visit);
      WalkScalars(node.MapValue(i), node.MapKey(i).text, visit);
    }
  }
}

}  // namespace

void ForEachScalar(const regdb::YamlNode& node,
                   const std::function<void(const std::string& text, const std::string& key)>& visit) {
  WalkScalars(node, "", visit);
}

RegisterUsers UsersOf(const regdb::Database& db, const regdb::Register& reg, const regdb::Field* field) {
  RegisterUsers users;
  Spellings spellings(reg, field);
  Spellings local_spellings(reg, field, true);
  for (const regdb::BehaviourSpec& spec : db.behaviours) {
    RegisterUsers::Behaviour use{&spec, {}};
    // A block's behaviour names its own instance's registers by their local names.
    bool own_instance = spec.instance && reg.block && spec.instance->block == reg.block->block &&
                        spec.instance->instance == reg.block->instance;
    ForEachScalar(spec.yaml, [&](const std::string& text, const std::string& key) {
      if (spellings.Match(text) || (own_instance && local_spellings.Match(text))) use.keys.insert(key);
    });
    if (!use.keys.empty()) users.behaviours.push_back(std::move(use));
  }
  regdb::RegisterIndex index = db.IndexOf(reg);
  for (const regdb::Range& range : db.ranges) {
    if (!range.enabled_by || range.enabled_by->reg != index) continue;
    if (field != nullptr && range.enabled_by->field != static_cast<uint32_t>(field - reg.fields.data())) continue;
    users.enabled_ranges.push_back(&range);
  }
  return users;
}

}  // namespace regemu::tools
