#include "regemu/regdb/behaviour_kinds.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <deque>
#include <vector>

#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array kNames = {
#define REGDB_BEHAVIOUR(id, name, runtime) std::string_view(name),
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
};

struct AddedKind {
  std::string name;
  BehaviourCheck check;
};

// Kinds added from outside (AddBehaviourKind). A deque: names handed out as
// string_views stay valid as more are added.
std::deque<AddedKind>& AddedKinds() {
  static std::deque<AddedKind> kinds;
  return kinds;
}

const AddedKind* FindAddedKind(std::string_view name) {
  for (const AddedKind& kind : AddedKinds()) {
    if (kind.name == name) return &kind;
  }
  return nullptr;
}

bool IsKindName(std::string_view name) {
  if (name.empty() || name.size() > 64 || name.front() < 'a' || name.front() > 'z') return false;
  return std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

}  // namespace

std::optional<BehaviourKind> BehaviourKindFromName(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<BehaviourKind>(i);
  }
  return std::nullopt;
}

std::vector<std::string_view> BehaviourKindNames() {
  std::vector<std::string_view> names(kNames.begin(), kNames.end());
  for (const AddedKind& kind : AddedKinds()) names.push_back(kind.name);
  return names;
}

bool IsBehaviourKind(std::string_view name) {
  return BehaviourKindFromName(name).has_value() || FindAddedKind(name) != nullptr;
}

std::string AddBehaviourKind(std::string name, BehaviourCheck check) {
  if (!IsKindName(name)) {
    return "'" + name + "' is not a behaviour kind name (lower-case letters, digits and '-', starting with a letter)";
  }
  if (IsBehaviourKind(name)) return "behaviour kind '" + name + "' exists already";
  if (!check) return "behaviour kind '" + name + "' has no check";
  AddedKinds().push_back(AddedKind{std::move(name), std::move(check)});
  return "";
}

std::shared_ptr<const BehaviourConfig> CheckBehaviourConfig(const BehaviourSpec& spec, const Database& database,
                                                            SchemaReader& reader) {
  auto kind = BehaviourKindFromName(spec.kind);
  size_t errors_before = reader.diagnostics().error_count();
  std::unique_ptr<BehaviourConfig> config;
  if (!kind) {
    const AddedKind* added = FindAddedKind(spec.kind);
    if (!added) return nullptr;  // the loader already reported it
    config = added->check(spec, database, reader);
    if (reader.diagnostics().error_count() != errors_before) return nullptr;
    if (!config) reader.Error(spec.yaml, "behaviour kind '" + spec.kind + "' refused its configuration without saying why");
    return config;
  }
  switch (*kind) {
#define REGDB_BEHAVIOUR(id, name, runtime) \
  case BehaviourKind::id: config = Check##runtime##Config(spec, database, reader); break;
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
  }
  // A section with a mistake has no configuration, even where the check
  // could build one: nothing runs a behaviour the checker refused.
  if (reader.diagnostics().error_count() != errors_before) return nullptr;
  return config;
}

const Register* RegisterNamedAt(const YamlNode& node, std::string_view name, std::string_view what,
                                const Database& database, SchemaReader& reader) {
  if (const Register* reg = database.RegisterNamed(name)) return reg;
  if (const auto& scope = database.instance_scope(); scope && database.DeviceRegisterNamed(name)) {
    reader.Error(node, std::string(what) + " names register '" + std::string(name) + "', which is outside block '" +
                           scope->block + "': a block's behaviours name only the registers of their own "
                           "instance (say it in a behaviour outside the block)");
    return nullptr;
  }
  std::vector<std::string> visible = database.VisibleRegisterNames();
  std::vector<std::string_view> candidates(visible.begin(), visible.end());
  reader.Error(node, std::string(what) + " names unknown register '" + std::string(name) + "'" +
                         DidYouMean(name, candidates));
  return nullptr;
}

const Field* FieldNamedAt(const YamlNode& node, const Register& reg, std::string_view name, SchemaReader& reader) {
  if (const Field* field = reg.FindField(name)) return field;
  reader.Error(node, "register '" + reg.name + "' has no field '" + std::string(name) + "'" +
                         DidYouMean(name, NamesOf(reg.fields)));
  return nullptr;
}

std::optional<RegisterBits> ResolveRegisterBits(const YamlNode& node, std::string_view what, const Database& database,
                                                SchemaReader& reader) {
  auto text = reader.Text(node, what);
  if (!text) return std::nullopt;
  return ResolveRegisterBitsNamed(node, *text, what, database, reader);
}

std::optional<RegisterBits> ResolveRegisterBitsNamed(const YamlNode& node, const std::string& text,
                                                     std::string_view what, const Database& database,
                                                     SchemaReader& reader) {
  size_t dot = text.find('.');
  const Register* reg = RegisterNamedAt(node, text.substr(0, dot), what, database, reader);
  if (!reg) return std::nullopt;
  RegisterBits target{database.IndexOf(*reg), FieldBits::Of(reg->width_mask()), text};
  if (dot != std::string::npos) {
    const Field* field = FieldNamedAt(node, *reg, text.substr(dot + 1), reader);
    if (!field) return std::nullopt;
    target.bits = FieldBits::Of(field->mask());
  }
  return target;
}

const Register* ResolveRegisterKey(const BehaviourSpec& spec, std::string_view key, bool required,
                                   const Database& database, SchemaReader& reader) {
  const YamlNode* node = required ? reader.Required(spec.yaml, key, "behaviour '" + spec.name + "'")
                                  : spec.yaml.Find(key);
  if (!node) return nullptr;
  auto name = reader.Identifier(*node, std::string(key));
  if (!name) return nullptr;
  return RegisterNamedAt(*node, *name, "behaviour '" + spec.name + "'", database, reader);
}

const Field* ResolveFieldKey(const BehaviourSpec& spec, std::string_view key, const Register& reg,
                             SchemaReader& reader) {
  const YamlNode* node = spec.yaml.Find(key);
  if (!node) return nullptr;
  auto name = reader.Identifier(*node, std::string(key));
  if (!name) return nullptr;
  return FieldNamedAt(*node, reg, *name, reader);
}

namespace {

std::vector<std::string_view> BehaviourNames(const Database& database) {
  std::vector<std::string_view> names;
  for (const BehaviourSpec& b : database.behaviours) names.push_back(b.name);
  return names;
}

// Inside a block, a behaviour's own name for a sibling is the instance's
// copy; elsewhere names are the device's.
const BehaviourSpec* BehaviourNamed(const Database& database, std::string_view name) {
  for (const std::string& each : {database.ScopedName(name), std::string(name)}) {
    for (const BehaviourSpec& b : database.behaviours) {
      if (b.name == each) return &b;
    }
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> ResolveInterruptParent(const BehaviourSpec& spec, const YamlNode& node,
                                                  std::string_view what, const Database& database,
                                                  SchemaReader& reader) {
  // A status field: the output's level is stored there, where a roll-up or
  // a reaction reads it as any other status bit (a GT interrupt status bit
  // that is a performance unit's buffer-half-full output).
  if (node.IsScalar() && node.text.find('.') != std::string::npos) {
    auto bits = ResolveRegisterBits(node, what, database, reader);
    if (!bits) return std::nullopt;
    if (std::popcount(bits->bits.mask) != 1) {
      reader.Error(node, std::string(what) + ": interrupt_parent '" + node.text +
                             "' is a field of several bits; an interrupt output's level is one bit");
      return std::nullopt;
    }
    const Register& reg = database.registers[bits->reg];
    return reg.name + node.text.substr(node.text.find('.'));
  }
  auto name = reader.Identifier(node, "interrupt_parent");
  if (!name) return std::nullopt;
  if (*name == spec.name) {
    reader.Error(node, std::string(what) + " names itself as its interrupt parent");
    return std::nullopt;
  }
  const BehaviourSpec* parent = BehaviourNamed(database, *name);
  if (!parent) {
    reader.Error(node, std::string(what) + " names unknown interrupt parent '" + *name + "'" +
                           DidYouMean(*name, BehaviourNames(database)));
    return std::nullopt;
  }
  return parent->name;
}

void CheckChildNamesParent(const BehaviourSpec& spec, const YamlNode& node, const std::string& child,
                           std::string_view what, const Database& database, SchemaReader& reader) {
  const BehaviourSpec* found = BehaviourNamed(database, child);
  if (!found) {
    reader.Error(node, std::string(what) + " names unknown child behaviour '" + child + "'" +
                           DidYouMean(child, BehaviourNames(database)));
    return;
  }
  const YamlNode* parent = found->yaml.Find("interrupt_parent");
  if (!parent || parent->text != spec.name) {
    reader.Error(node, "child behaviour '" + child + "' of " + std::string(what) +
                           " must name it as its parent: `interrupt_parent: " + spec.name + "`");
  }
}

}  // namespace regemu::regdb
