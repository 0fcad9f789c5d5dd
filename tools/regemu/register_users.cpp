#include "tools/regemu/register_users.hpp"

namespace regemu::tools {
namespace {

// How a behaviour's YAML may spell the register or field: by name, or for
// an array element by the array's template ("IA32_PMC{n}", as event
// counters name their slots).
class Spellings {
 public:
  Spellings(const regdb::Register& reg, const regdb::Field* field) : field_(field != nullptr) {
    names_.push_back(reg.name);
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

// Adds to `keys` the key of every scalar under `node` that `spellings`
// match; a sequence's items count as their sequence's key.
void CollectKeys(const regdb::YamlNode& node, const std::string& key, const Spellings& spellings,
                 std::set<std::string>& keys) {
  if (node.IsScalar()) {
    if (spellings.Match(node.text)) keys.insert(key);
  } else if (node.IsSequence()) {
    for (const regdb::YamlNode& item : node.children) CollectKeys(item, key, spellings, keys);
  } else if (node.IsMap()) {
    for (size_t i = 0; i < node.MapSize(); ++i) {
      CollectKeys(node.MapKey(i), key, spellings, keys);
      CollectKeys(node.MapValue(i), node.MapKey(i).text, spellings, keys);
    }
  }
}

}  // namespace

RegisterUsers UsersOf(const regdb::Database& db, const regdb::Register& reg, const regdb::Field* field) {
  RegisterUsers users;
  Spellings spellings(reg, field);
  for (const regdb::BehaviourSpec& spec : db.behaviours) {
    RegisterUsers::Behaviour use{&spec, {}};
    CollectKeys(spec.yaml, "", spellings, use.keys);
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
