// The check of `kind: nvme-admin`: reads its section, reports every mistake
// at its line and column through SchemaReader, and returns the typed config.
#include "nvme_admin_config.hpp"

#include <array>
#include <optional>
#include <string_view>
#include <vector>

#include "regemu/regdb/spelling.hpp"

namespace nvme_plugin {
namespace {

using regemu::regdb::BehaviourSpec;
using regemu::regdb::Database;
using regemu::regdb::FieldBits;
using regemu::regdb::RegisterBits;
using regemu::regdb::SchemaReader;
using regemu::regdb::YamlNode;

constexpr std::array<std::string_view, 16> kKeys{
    "kind",          "name",  "doc",      "ref",  "ring",         "memory",       "completion_tail", "vendor_id",
    "subsystem_vendor_id", "max_io_queues", "namespace_blocks", "serial", "model", "firmware", "mdts",
    "controller_id"};

class Checker {
 public:
  Checker(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader), what_("nvme-admin behaviour '" + spec.name + "'") {}

  std::unique_ptr<NvmeAdminConfig> Check() {
    if (!reader_.ExpectMap(spec_.yaml, "an nvme-admin behaviour", kKeys)) return nullptr;
    auto config = std::make_unique<NvmeAdminConfig>();
    CheckRing();
    ReadMemory(*config);
    if (const YamlNode* node = reader_.Required(spec_.yaml, "completion_tail", what_)) {
      if (auto name = reader_.Identifier(*node, "completion_tail")) {
        if (const auto* reg = regemu::regdb::RegisterNamedAt(*node, *name, what_, database_, reader_)) {
          config->completion_tail = database_.IndexOf(*reg);
        } else {
          ok_ = false;
        }
      } else {
        ok_ = false;
      }
    }
    config->vendor_id = Bits("vendor_id");
    config->subsystem_vendor_id = Bits("subsystem_vendor_id");
    if (const YamlNode* node = reader_.Required(spec_.yaml, "max_io_queues", what_)) {
      // Queue identifiers are 16 bits and the count is granted 0's based.
      config->max_io_queues = static_cast<uint32_t>(Number(*node, "max_io_queues", 1, 0xFFFF));
    }
    if (const YamlNode* node = reader_.Required(spec_.yaml, "namespace_blocks", what_)) {
      config->namespace_blocks = Number(*node, "namespace_blocks", 1, ~uint64_t{0});
    }
    config->serial = Ascii("serial", 20);
    config->model = Ascii("model", 40);
    config->firmware = Ascii("firmware", 8);
    if (const YamlNode* node = spec_.yaml.Find("mdts")) config->mdts = static_cast<uint8_t>(Number(*node, "mdts", 0, 0xFF));
    if (const YamlNode* node = spec_.yaml.Find("controller_id")) {
      config->controller_id = static_cast<uint16_t>(Number(*node, "controller_id", 0, 0xFFEF));
    }
    // The controller properties, by the names NVMe gives them.
    config->cap_mqes = Property("CAP", "MQES");
    config->version = Property("VS", "");
    config->cc_en = Property("CC", "EN");
    config->cc_mps = Property("CC", "MPS");
    config->asq_size = Property("AQA", "ASQS");
    config->acq_size = Property("AQA", "ACQS");
    config->asq = Property("ASQ", "");
    config->acq = Property("ACQ", "");
    if (!ok_) return nullptr;
    return config;
  }

 private:
  // `ring: NAME` names the `kind: ring` behaviour whose completions this
  // one rewrites: without it the completion tail never moves.
  void CheckRing() {
    const YamlNode* node = reader_.Required(spec_.yaml, "ring", what_);
    if (node == nullptr) {
      ok_ = false;
      return;
    }
    auto name = reader_.Identifier(*node, "ring");
    if (!name) {
      ok_ = false;
      return;
    }
    std::vector<std::string_view> rings;
    for (const BehaviourSpec& other : database_.behaviours) {
      if (other.kind != "ring") continue;
      if (other.name == *name) return;
      rings.push_back(other.name);
    }
    reader_.Error(*node, what_ + ": '" + *name + "' is not a ring behaviour of the database (the admin queue "
                                 "this kind answers for)" + regemu::regdb::DidYouMean(*name, rings));
    ok_ = false;
  }

  void ReadMemory(NvmeAdminConfig& config) {
    const YamlNode* node = reader_.Required(spec_.yaml, "memory", what_);
    auto name = node ? reader_.Identifier(*node, "memory") : std::nullopt;
    if (!name) {
      ok_ = false;
      return;
    }
    auto index = database_.FindSpace(*name);
    if (!index || database_.spaces[*index].kind != regemu::regdb::SpaceKind::kMemory) {
      std::vector<std::string_view> memories;
      for (const auto& space : database_.spaces) {
        if (space.kind == regemu::regdb::SpaceKind::kMemory) memories.push_back(space.name);
      }
      reader_.Error(*node, what_ + ": '" + *name + "' is not a memory space (host memory the queues live in)" +
                               regemu::regdb::DidYouMean(*name, memories));
      ok_ = false;
      return;
    }
    config.memory = *index;
  }

  RegisterBits Bits(std::string_view key) {
    const YamlNode* node = reader_.Required(spec_.yaml, key, what_);
    auto bits = node ? regemu::regdb::ResolveRegisterBits(*node, std::string(key), database_, reader_) : std::nullopt;
    if (!bits) {
      ok_ = false;
      return {};
    }
    return *bits;
  }

  uint64_t Number(const YamlNode& node, std::string_view what, uint64_t min, uint64_t max) {
    auto value = reader_.Unsigned(node, what, min, max);
    if (!value) ok_ = false;
    return value.value_or(min);
  }

  // An ASCII identification string of at most `size` characters.
  std::string Ascii(std::string_view key, size_t size) {
    const YamlNode* node = reader_.Required(spec_.yaml, key, what_);
    auto text = node ? reader_.Text(*node, key) : std::nullopt;
    if (!text) {
      ok_ = false;
      return {};
    }
    bool printable = true;
    for (char c : *text) printable = printable && c >= 0x20 && c <= 0x7E;
    if (!printable || text->size() > size) {
      reader_.Error(*node, what_ + ": " + std::string(key) + " must be printable ASCII of at most " +
                               std::to_string(size) + " characters (it is space padded to " + std::to_string(size) +
                               ")");
      ok_ = false;
    }
    return *text;
  }

  // A controller property the kind reads, by its NVMe name: a missing one
  // is reported at the behaviour, since no key of it names the register.
  RegisterBits Property(std::string_view reg_name, std::string_view field_name) {
    std::string text = std::string(reg_name) + (field_name.empty() ? "" : "." + std::string(field_name));
    auto index = database_.FindRegister(reg_name);
    if (!index) {
      reader_.Error(spec_.yaml, what_ + " needs the NVMe controller register '" + text +
                                    "' (yaml/nvme/controller.yaml), which the database does not have");
      ok_ = false;
      return {};
    }
    const auto& reg = database_.registers[*index];
    RegisterBits bits{*index, FieldBits::Of(reg.width_mask()), text};
    if (!field_name.empty()) {
      const auto* field = reg.FindField(field_name);
      if (field == nullptr) {
        reader_.Error(spec_.yaml, what_ + " needs the NVMe controller field '" + text +
                                      "', which register '" + std::string(reg_name) + "' does not have");
        ok_ = false;
        return {};
      }
      bits.bits = FieldBits::Of(field->mask());
    }
    return bits;
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::string what_;
  bool ok_ = true;
};

}  // namespace

std::unique_ptr<regemu::regdb::BehaviourConfig> CheckNvmeAdminConfig(const BehaviourSpec& spec,
                                                                     const Database& database, SchemaReader& reader) {
  return Checker(spec, database, reader).Check();
}

}  // namespace nvme_plugin
