// `kind: classic-iir`: an Intel ISR/IMR/IIR/IER quadruplet and, optionally,
// the behaviour its interrupt output feeds. See yaml/README.md "behaviours".
#include "regemu/regdb/behaviour_configs/classic_iir.hpp"

#include <array>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_kinds.hpp"

namespace regemu::regdb {

namespace {

std::string What(const BehaviourSpec& spec) { return "classic-iir behaviour '" + spec.name + "'"; }

// `children: [{behaviour: NAME, bit: N}]`: NAME's interrupt output is the
// live source of ISR bit N (NAME must name this behaviour as its parent).
void CheckChildren(const BehaviourSpec& spec, const YamlNode& children, const Database& database,
                   SchemaReader& reader, ClassicIirConfig& config) {
  static constexpr std::array<std::string_view, 2> kKeys{"behaviour", "bit"};
  if (!reader.ExpectSequence(children, "classic-iir children")) return;
  for (const YamlNode& child : children.children) {
    if (!reader.ExpectMap(child, "a classic-iir child", kKeys)) continue;
    ClassicIirConfig::Child out;
    if (const YamlNode* node = reader.Required(child, "behaviour", "classic-iir child")) {
      if (auto name = reader.Identifier(*node, "behaviour")) {
        CheckChildNamesParent(spec, *node, *name, What(spec), database, reader);
        out.name = *name;
      }
    }
    if (const YamlNode* node = reader.Required(child, "bit", "classic-iir child")) {
      out.bit = static_cast<unsigned>(reader.Unsigned(*node, "bit", 0, config.width - 1).value_or(0));
    }
    config.children.push_back(std::move(out));
  }
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckClassicIirConfig(const BehaviourSpec& spec, const Database& database,
                                                       SchemaReader& reader) {
  static constexpr std::array<std::string_view, 8> kKeys{"kind", "name", "isr", "imr", "iir", "ier",
                                                         "interrupt_parent", "children"};
  if (!reader.ExpectMap(spec.yaml, "a classic-iir behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<ClassicIirConfig>();
  static constexpr std::array<std::string_view, 4> kRoles{"isr", "imr", "iir", "ier"};
  std::array<RegisterIndex*, 4> outs{&config->isr, &config->imr, &config->iir, &config->ier};
  std::array<const Register*, 4> regs{};
  for (size_t i = 0; i < kRoles.size(); ++i) {
    regs[i] = ResolveRegisterKey(spec, kRoles[i], true, database, reader);
    if (!regs[i]) continue;
    *outs[i] = database.IndexOf(*regs[i]);
    config->width = regs[i]->width;  // all alike, or an error below
    for (size_t j = 0; j < i; ++j) {
      if (regs[j] == regs[i]) {
        reader.Error(*spec.yaml.Find(kRoles[i]), "classic-iir behaviour '" + spec.name + "' uses register '" +
                                                     regs[i]->name + "' as both " + std::string(kRoles[j]) + " and " +
                                                     std::string(kRoles[i]));
      } else if (regs[j] && regs[j]->width != regs[i]->width) {
        reader.Error(*spec.yaml.Find(kRoles[i]),
                     "classic-iir behaviour '" + spec.name + "': " + std::string(kRoles[i]) + " '" + regs[i]->name +
                         "' is " + std::to_string(regs[i]->width) + " bits wide but " + std::string(kRoles[j]) + " '" +
                         regs[j]->name + "' is " + std::to_string(regs[j]->width));
      }
    }
  }
  if (const YamlNode* parent = spec.yaml.Find("interrupt_parent")) {
    if (auto name = ResolveInterruptParent(spec, *parent, What(spec), database, reader)) config->parent = *name;
  }
  if (const YamlNode* children = spec.yaml.Find("children")) CheckChildren(spec, *children, database, reader, *config);
  return config;
}

}  // namespace regemu::regdb
