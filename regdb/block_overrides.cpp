#include "regemu/regdb/block_overrides.hpp"

#include <algorithm>
#include <array>
#include <string_view>

#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 2> kInstanceKeys{"base", "reset"};

const RegisterTemplate* FindTemplate(const std::vector<RegisterTemplate>& templates, const std::string& name) {
  for (const RegisterTemplate& templ : templates) {
    if (!templ.array && templ.reg.name == name) return &templ;
  }
  return nullptr;
}

}  // namespace

std::optional<uint64_t> ReadBlockInstance(const YamlNode& value, std::vector<ResetOverride>& overrides,
                                          SchemaReader& reader) {
  if (!value.IsMap()) return reader.Unsigned(value, "block instance base");
  if (!reader.ExpectMap(value, "a block instance", kInstanceKeys)) return std::nullopt;
  const YamlNode* base = reader.Required(value, "base", "a block instance");
  std::optional<uint64_t> result = base ? reader.Unsigned(*base, "block instance base") : std::nullopt;
  const YamlNode* resets = value.Find("reset");
  if (!resets) return result;
  if (!resets->IsMap()) {
    reader.Error(*resets, std::string("expected the instance's resets as a mapping REGISTER[.FIELD]: value, got ") +
                              DescribeKind(resets->kind));
    return result;
  }
  for (size_t i = 0; i < resets->MapSize(); ++i) {
    const YamlNode& key = resets->MapKey(i);
    auto name = reader.Text(key, "register or REGISTER.FIELD");
    auto reset = reader.Unsigned(resets->MapValue(i), "reset");
    if (!name || !reset) continue;
    ResetOverride entry;
    size_t dot = name->find('.');
    entry.reg = name->substr(0, dot);
    if (dot != std::string::npos) entry.field = name->substr(dot + 1);
    entry.value = *reset;
    entry.loc = resets->MapValue(i).loc;
    entry.name_loc = key.loc;
    overrides.push_back(std::move(entry));
  }
  return result;
}

void KeepKnownOverrides(std::vector<ResetOverride>& overrides, const std::vector<RegisterTemplate>& templates,
                        const std::string& block, SchemaReader& reader) {
  std::vector<std::string_view> register_names;
  for (const RegisterTemplate& templ : templates) {
    if (!templ.array) register_names.push_back(templ.reg.name);
  }
  std::erase_if(overrides, [&](const ResetOverride& entry) {
    const RegisterTemplate* templ = FindTemplate(templates, entry.reg);
    if (!templ) {
      reader.diagnostics().Error(entry.name_loc, "block '" + block + "' has no register '" + entry.reg + "'" +
                                                     DidYouMean(entry.reg, register_names));
      return true;
    }
    if (entry.field.empty()) return false;
    std::vector<std::string_view> field_names;
    for (const Field& field : templ->reg.fields) {
      if (field.name == entry.field) return false;
      field_names.push_back(field.name);
    }
    reader.diagnostics().Error(entry.name_loc, "register '" + entry.reg + "' of block '" + block +
                                                   "' has no field '" + entry.field + "'" +
                                                   DidYouMean(entry.field, field_names));
    return true;
  });
}

RegisterTemplate WithOverrides(const RegisterTemplate& templ, const std::vector<ResetOverride>& overrides) {
  RegisterTemplate result = templ;
  Register& reg = result.reg;
  // The whole register first, so that a field's own override refines it.
  for (const ResetOverride& entry : overrides) {
    if (entry.reg != reg.name || !entry.field.empty()) continue;
    reg.reset = entry.value;
    reg.reset_given = true;
    reg.reset_loc = entry.loc;
    for (Field& field : reg.fields) {
      if (field.reset) field.reset = (entry.value & field.mask()) >> field.bits.lsb;
    }
  }
  for (const ResetOverride& entry : overrides) {
    if (entry.reg != reg.name || entry.field.empty()) continue;
    for (Field& field : reg.fields) {
      if (field.name != entry.field) continue;
      field.reset = entry.value;
      field.reset_loc = entry.loc;
      reg.reset = (reg.reset & ~field.mask()) | ((entry.value << field.bits.lsb) & field.mask());
    }
  }
  return result;
}

}  // namespace regemu::regdb
