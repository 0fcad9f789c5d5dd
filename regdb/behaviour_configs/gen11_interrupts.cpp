// `kind: gen11-interrupts`: the Gen11 hierarchical GT interrupt logic (ICL PRM
// Vol 13, "Interrupts"): master control, GT INT DW banks with their selector and
// identity (Shared IIR), child behaviours feeding master bits, and the
// engine table. See yaml/README.md "behaviours".
#include "regemu/regdb/behaviour_configs/gen11_interrupts.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regemu/regdb/behaviour_kinds.hpp"

namespace regemu::regdb {
namespace {

constexpr unsigned kOtherClass = 4;

class Gen11Check {
 public:
  Gen11Check(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader) {}

  std::unique_ptr<Gen11InterruptsConfig> Run() {
    static constexpr std::array<std::string_view, 7> kKeys{"kind",  "name",     "master", "master_enable_bit",
                                                           "banks", "children", "engines"};
    if (!reader_.ExpectMap(spec_.yaml, "a gen11-interrupts behaviour", kKeys)) return nullptr;
    const Register* master = ResolveRegisterKey(spec_, "master", true, database_, reader_);
    master_width_ = master ? master->width : 64;
    if (master) config_->master = database_.IndexOf(*master);
    if (const YamlNode* bit = reader_.Required(spec_.yaml, "master_enable_bit", What())) {
      if (auto value = reader_.Unsigned(*bit, "master_enable_bit", 0, master_width_ - 1)) {
        UseMasterBit(*bit, *value, "the master enable");
        config_->master_enable_bit = static_cast<unsigned>(*value);
      }
    }
    if (const YamlNode* banks = reader_.Required(spec_.yaml, "banks", What())) CheckBanks(*banks);
    if (const YamlNode* children = spec_.yaml.Find("children")) CheckChildren(*children);
    if (const YamlNode* engines = reader_.Required(spec_.yaml, "engines", What())) CheckEngines(*engines);
    return std::move(config_);
  }

 private:
  std::string What() const { return "gen11-interrupts behaviour '" + spec_.name + "'"; }

  void UseMasterBit(const YamlNode& node, uint64_t bit, std::string user) {
    auto [it, fresh] = master_bits_.emplace(bit, user);
    if (!fresh) {
      reader_.Error(node, "master bit " + std::to_string(bit) + " of " + What() + " is used by both " + it->second +
                              " and " + user);
    }
  }

  const Register* Resolve(const YamlNode& node, std::string_view what) {
    auto name = reader_.Identifier(node, what);
    if (!name) return nullptr;
    return RegisterNamedAt(node, *name, What(), database_, reader_);
  }

  // `REGISTER.FIELD` of a 16-bit field, into `out`; returns "REGISTER.FIELD" or nothing.
  std::optional<std::string> ResolveHalf(const YamlNode& node, std::string_view what,
                                         Gen11InterruptsConfig::Half& out) {
    auto text = reader_.Text(node, what);
    if (!text) return std::nullopt;
    size_t dot = text->find('.');
    if (dot == std::string::npos) {
      reader_.Error(node, std::string(what) + " '" + *text + "' must be REGISTER.FIELD (a 16-bit half)");
      return std::nullopt;
    }
    std::string reg_name = text->substr(0, dot);
    std::string field_name = text->substr(dot + 1);
    const Register* reg = RegisterNamedAt(node, reg_name, What(), database_, reader_);
    if (!reg) return std::nullopt;
    const Field* field = FieldNamedAt(node, *reg, field_name, reader_);
    if (!field) return std::nullopt;
    if (field->bits.width() != 16) {
      reader_.Error(node, std::string(what) + " '" + *text + "' is " + std::to_string(field->bits.width()) +
                              " bits wide; an enable or mask half is 16 bits");
      return std::nullopt;
    }
    out = {database_.IndexOf(*reg), FieldBits::Of(field->mask()).shift};
    return *text;
  }

  void CheckBanks(const YamlNode& banks) {
    static constexpr std::array<std::string_view, 4> kKeys{"dw", "selector", "identity", "master_bit"};
    if (!reader_.ExpectSequence(banks, "gen11-interrupts banks")) return;
    if (banks.children.empty()) reader_.Error(banks, What() + " needs at least one bank");
    bank_count_ = banks.children.size();
    for (size_t b = 0; b < banks.children.size(); ++b) {
      const YamlNode& bank = banks.children[b];
      // One entry per YAML bank, which engines' `bank` numbers.
      Gen11InterruptsConfig::Bank& out = config_->banks.emplace_back();
      if (!reader_.ExpectMap(bank, "a gen11-interrupts bank", kKeys)) continue;
      for (auto [key, reg_out] :
           {std::pair{"dw", &out.dw}, std::pair{"selector", &out.selector}, std::pair{"identity", &out.identity}}) {
        if (const YamlNode* node = reader_.Required(bank, key, "gen11-interrupts bank")) {
          const Register* reg = Resolve(*node, key);
          if (reg) *reg_out = database_.IndexOf(*reg);
          if (reg && !used_registers_.emplace(reg->name, std::string(key)).second) {
            reader_.Error(*node, "register '" + reg->name + "' is used twice by " + What());
          }
        }
      }
      if (const YamlNode* bit = reader_.Required(bank, "master_bit", "gen11-interrupts bank")) {
        if (auto value = reader_.Unsigned(*bit, "master_bit", 0, master_width_ - 1)) {
          UseMasterBit(*bit, *value, "bank " + std::to_string(b));
          out.master_bit = static_cast<unsigned>(*value);
        }
      }
    }
  }

  void CheckChildren(const YamlNode& children) {
    static constexpr std::array<std::string_view, 2> kKeys{"behaviour", "master_bit"};
    if (!reader_.ExpectSequence(children, "gen11-interrupts children")) return;
    for (const YamlNode& child : children.children) {
      if (!reader_.ExpectMap(child, "a gen11-interrupts child", kKeys)) continue;
      Gen11InterruptsConfig::Child& out = config_->children.emplace_back();
      std::string label = "a child";
      if (const YamlNode* node = reader_.Required(child, "behaviour", "gen11-interrupts child")) {
        if (auto name = reader_.Identifier(*node, "behaviour")) {
          label = "child '" + *name + "'";
          out.name = *name;
          CheckChildNamesParent(spec_, *node, *name, What(), database_, reader_);
        }
      }
      if (const YamlNode* bit = reader_.Required(child, "master_bit", "gen11-interrupts child")) {
        if (auto value = reader_.Unsigned(*bit, "master_bit", 0, master_width_ - 1)) {
          UseMasterBit(*bit, *value, label);
          out.master_bit = static_cast<unsigned>(*value);
        }
      }
    }
  }

  void CheckEngines(const YamlNode& engines) {
    static constexpr std::array<std::string_view, 7> kKeys{"name", "class", "instance", "bank",
                                                           "bit",  "enable", "mask"};
    if (!reader_.ExpectSequence(engines, "gen11-interrupts engines")) return;
    if (engines.children.empty()) reader_.Error(engines, What() + " needs at least one engine");
    std::map<std::string, std::string> names;                      // engine -> itself (duplicates)
    std::map<std::pair<uint64_t, uint64_t>, std::string> ids;       // (class, instance) -> engine
    std::map<std::pair<uint64_t, uint64_t>, std::string> bits;      // (bank, bit) -> engine
    std::map<uint64_t, std::pair<std::string, std::string>> class_enable;  // class -> (enable, engine)
    std::map<std::string, std::string> other_enables;              // enable of an Other engine -> engine
    std::map<std::string, std::string> masks;                      // mask half -> engine
    for (const YamlNode& engine : engines.children) {
      if (!reader_.ExpectMap(engine, "a gen11-interrupts engine", kKeys)) continue;
      Gen11InterruptsConfig::Engine& out = config_->engines.emplace_back();
      std::string name = "?";
      if (const YamlNode* node = reader_.Required(engine, "name", "gen11-interrupts engine")) {
        if (auto text = reader_.Identifier(*node, "engine name")) {
          name = *text;
          out.name = *text;
          if (!names.emplace(name, name).second) reader_.Error(*node, "engine '" + name + "' is declared twice");
        }
      }
      std::optional<uint64_t> cls;
      if (const YamlNode* node = reader_.Required(engine, "class", "gen11-interrupts engine")) {
        cls = reader_.Unsigned(*node, "class", 0, 7);
        if (cls && *cls >= 6) {
          reader_.Error(*node, "engine class " + std::to_string(*cls) + " is reserved (ICL PRM Vol 13: classes 6-7)");
        }
      }
      const YamlNode* instance_node = reader_.Required(engine, "instance", "gen11-interrupts engine");
      std::optional<uint64_t> instance = instance_node ? reader_.Unsigned(*instance_node, "instance", 0, 63) : std::nullopt;
      if (cls && instance) {
        auto [it, fresh] = ids.emplace(std::pair{*cls, *instance}, name);
        if (!fresh) {
          reader_.Error(*instance_node, "engine '" + name + "' has the class " + std::to_string(*cls) +
                                            " and instance " + std::to_string(*instance) + " of engine '" +
                                            it->second + "'");
        }
      }
      const YamlNode* bank_node = reader_.Required(engine, "bank", "gen11-interrupts engine");
      std::optional<uint64_t> bank =
          bank_node ? reader_.Unsigned(*bank_node, "bank", 0, bank_count_ == 0 ? 0 : bank_count_ - 1) : std::nullopt;
      const YamlNode* bit_node = reader_.Required(engine, "bit", "gen11-interrupts engine");
      std::optional<uint64_t> bit = bit_node ? reader_.Unsigned(*bit_node, "bit", 0, 31) : std::nullopt;
      if (bank && bit) {
        auto [it, fresh] = bits.emplace(std::pair{*bank, *bit}, name);
        if (!fresh) {
          reader_.Error(*bit_node, "engine '" + name + "' uses bit " + std::to_string(*bit) + " of bank " +
                                       std::to_string(*bank) + ", already used by engine '" + it->second + "'");
        }
      }
      out.cls = static_cast<unsigned>(cls.value_or(0));
      out.instance = static_cast<unsigned>(instance.value_or(0));
      out.bank = static_cast<unsigned>(bank.value_or(0));
      out.bit = static_cast<unsigned>(bit.value_or(0));
      if (const YamlNode* node = reader_.Required(engine, "enable", "gen11-interrupts engine")) {
        if (auto half = ResolveHalf(*node, "enable", out.enable); half && cls) {
          if (*cls == kOtherClass) {
            auto [it, fresh] = other_enables.emplace(*half, name);
            if (!fresh) {
              reader_.Error(*node, "engines '" + it->second + "' and '" + name + "' of the Other class share enable '" +
                                       *half + "' (ICL PRM Vol 13: each instance in the Other class has its own Enable)");
            }
          } else {
            auto [it, fresh] = class_enable.emplace(*cls, std::pair{*half, name});
            if (!fresh && it->second.first != *half) {
              reader_.Error(*node, "engine '" + name + "' has enable '" + *half + "' but engine '" + it->second.second +
                                       "' of the same class has '" + it->second.first +
                                       "' (ICL PRM Vol 13: instances of a class share one Enable register)");
            }
          }
        }
      }
      if (const YamlNode* node = engine.Find("mask")) {
        if (auto half = ResolveHalf(*node, "mask", out.mask.emplace(Gen11InterruptsConfig::Half{}))) {
          auto [it, fresh] = masks.emplace(*half, name);
          if (!fresh) {
            reader_.Error(*node, "engines '" + it->second + "' and '" + name + "' share mask '" + *half +
                                     "' (ICL PRM Vol 13: every instance has its own Mask register)");
          }
        }
      }
    }
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::unique_ptr<Gen11InterruptsConfig> config_ = std::make_unique<Gen11InterruptsConfig>();
  unsigned master_width_ = 64;
  size_t bank_count_ = 0;
  std::map<uint64_t, std::string> master_bits_;
  std::map<std::string, std::string> used_registers_;
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckGen11InterruptsConfig(const BehaviourSpec& spec, const Database& database,
                                                            SchemaReader& reader) {
  return Gen11Check(spec, database, reader).Run();
}

}  // namespace regemu::regdb
