// `kind: classic-iir`: an Intel ISR/IMR/IIR/IER quadruplet and, optionally,
// the behaviour its interrupt output feeds. See yaml/README.md "behaviours".
#include "regdb/behaviour_configs/classic_iir.hpp"

#include <array>
#include <string>
#include <vector>

#include "regdb/behaviour_kinds.hpp"
#include "regdb/names.hpp"
#include "regdb/spelling.hpp"

namespace regemu::regdb {

namespace {

std::vector<std::string_view> BehaviourNames(const Database& database) {
  std::vector<std::string_view> names;
  for (const BehaviourSpec& b : database.behaviours) names.push_back(b.name);
  return names;
}

bool HasBehaviour(const Database& database, std::string_view name) {
  for (const BehaviourSpec& b : database.behaviours) {
    if (b.name == name) return true;
  }
  return false;
}

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
      auto name = reader.Identifier(*node, "behaviour");
      if (name && !HasBehaviour(database, *name)) {
        reader.Error(*node, "classic-iir behaviour '" + spec.name + "' names unknown child behaviour '" + *name + "'" +
                                DidYouMean(*name, BehaviourNames(database)));
      } else if (name) {
        const YamlNode* parent = nullptr;
        for (const BehaviourSpec& b : database.behaviours) {
          if (b.name == *name) parent = b.yaml.Find("interrupt_parent");
        }
        if (!parent || parent->text != spec.name) {
          reader.Error(*node, "child behaviour '" + *name + "' of classic-iir behaviour '" + spec.name +
                                  "' must name it as its parent: `interrupt_parent: " + spec.name + "`");
        }
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
    auto name = reader.Identifier(*parent, "interrupt_parent");
    if (!name) return nullptr;
    config->parent = *name;
    if (*name == spec.name) {
      reader.Error(*parent, "classic-iir behaviour '" + spec.name + "' names itself as its interrupt parent");
    } else if (!HasBehaviour(database, *name)) {
      reader.Error(*parent, "classic-iir behaviour '" + spec.name + "' names unknown interrupt parent '" + *name +
                                "'" + DidYouMean(*name, BehaviourNames(database)));
    }
  }
  if (const YamlNode* children = spec.yaml.Find("children")) CheckChildren(spec, *children, database, reader, *config);
  return config;
}

}  // namespace regemu::regdb
