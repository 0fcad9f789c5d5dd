// `kind: pm4`: the check of a command processor's section.
#include "regemu/regdb/behaviour_configs/pm4.hpp"

#include <array>
#include <string>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {

std::unique_ptr<BehaviourConfig> CheckPm4Config(const BehaviourSpec& spec, const Database& database,
                                                SchemaReader& reader) {
  static constexpr std::array<std::string_view, 7> kKeys{"kind", "name", "registers", "uconfig_base", "sh_base",
                                                         "xcc", "sample"};
  if (!reader.ExpectMap(spec.yaml, "a pm4 behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<Pm4Config>();
  std::string what = "pm4 behaviour '" + spec.name + "'";
  if (const YamlNode* node = reader.Required(spec.yaml, "registers", what)) {
    if (auto name = reader.Identifier(*node, "registers")) {
      if (auto space = database.FindSpace(*name)) {
        config->registers = *space;
      } else {
        reader.Error(*node, what + " names unknown space '" + *name + "'" + DidYouMean(*name, NamesOf(database.spaces)));
      }
    }
  }
  constexpr uint64_t kMaxDword = (uint64_t{1} << 62) - 1;
  if (const YamlNode* node = spec.yaml.Find("uconfig_base")) {
    config->uconfig_base = reader.Unsigned(*node, "uconfig_base", 0, kMaxDword).value_or(0xC000);
  }
  if (const YamlNode* node = spec.yaml.Find("sh_base")) {
    config->sh_base = reader.Unsigned(*node, "sh_base", 0, kMaxDword).value_or(0x2C00);
  }
  if (const YamlNode* node = spec.yaml.Find("xcc")) {
    config->xcc = static_cast<uint32_t>(reader.Unsigned(*node, "xcc", 0, 7).value_or(0));
  }
  if (const YamlNode* node = spec.yaml.Find("sample")) {
    // REGISTER.FIELD
    if (auto text = reader.Text(*node, "sample")) {
      size_t dot = text->find('.');
      if (dot == std::string::npos) {
        reader.Error(*node, what + ": `sample` is REGISTER.FIELD");
      } else if (const Register* reg = RegisterNamedAt(*node, text->substr(0, dot), what, database, reader)) {
        if (const Field* field = FieldNamedAt(*node, *reg, text->substr(dot + 1), reader)) {
          config->sample_register = database.IndexOf(*reg);
          config->sample = FieldBits::Of(field->mask());
        }
      }
    }
  }
  return config;
}

}  // namespace regemu::regdb
