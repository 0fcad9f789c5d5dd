#include "regdb/behaviour_kinds.hpp"

#include <array>
#include <vector>

#include "regdb/names.hpp"
#include "regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array kNames = {
#define REGDB_BEHAVIOUR(id, name, check, runtime) std::string_view(name),
#include "regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
};

}  // namespace

std::optional<BehaviourKind> BehaviourKindFromName(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<BehaviourKind>(i);
  }
  return std::nullopt;
}

std::span<const std::string_view> BehaviourKindNames() { return kNames; }

void CheckBehaviourConfig(const BehaviourSpec& spec, const Database& database, SchemaReader& reader) {
  auto kind = BehaviourKindFromName(spec.kind);
  if (!kind) return;  // the loader already reported it
  switch (*kind) {
#define REGDB_BEHAVIOUR(id, name, check, runtime) \
  case BehaviourKind::id: check(spec, database, reader); break;
#include "regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
  }
}

const Register* ResolveRegisterKey(const BehaviourSpec& spec, std::string_view key, bool required,
                                   const Database& database, SchemaReader& reader) {
  const YamlNode* node = required ? reader.Required(spec.config, key, "behaviour '" + spec.name + "'")
                                  : spec.config.Find(key);
  if (!node) return nullptr;
  auto name = reader.Identifier(*node, std::string(key));
  if (!name) return nullptr;
  if (const Register* reg = database.RegisterNamed(*name)) return reg;
  reader.Error(*node, "behaviour '" + spec.name + "' names unknown register '" + *name + "'" +
                          DidYouMean(*name, NamesOf(database.registers)));
  return nullptr;
}

const Field* ResolveFieldKey(const BehaviourSpec& spec, std::string_view key, const Register& reg,
                             SchemaReader& reader) {
  const YamlNode* node = spec.config.Find(key);
  if (!node) return nullptr;
  auto name = reader.Identifier(*node, std::string(key));
  if (!name) return nullptr;
  if (const Field* field = reg.FindField(*name)) return field;
  reader.Error(*node, "register '" + reg.name + "' has no field '" + *name + "'" + DidYouMean(*name, NamesOf(reg.fields)));
  return nullptr;
}

}  // namespace regemu::regdb
