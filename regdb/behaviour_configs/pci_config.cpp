// `kind: pci-config`: the PCI function's configuration-space machinery
// (memory decode, power states, MSI, the aperture size, the capability
// chains). See yaml/README.md "behaviours" for the schema.
#include "regemu/regdb/behaviour_configs/pci_config.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <set>
#include <string>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

// A register the behaviour names: it must exist, lie in the configuration
// space and have the width the PCI spec gives it.
const Register* ResolvePciRegister(const BehaviourSpec& spec, const YamlNode& map, std::string_view key,
                                   unsigned width, bool required, const Database& database, SchemaReader& reader,
                                   std::optional<SpaceIndex>& config_space) {
  const YamlNode* node = required ? reader.Required(map, key, "pci-config behaviour '" + spec.name + "'")
                                  : map.Find(key);
  if (!node) return nullptr;
  auto name = reader.Identifier(*node, std::string(key));
  if (!name) return nullptr;
  const Register* reg = RegisterNamedAt(*node, *name, "pci-config behaviour '" + spec.name + "'", database, reader);
  if (!reg) return nullptr;
  if (reg->space >= database.spaces.size()) return nullptr;  // reported by the link step
  if (database.spaces[reg->space].kind != SpaceKind::kPciConfig) {
    reader.Error(*node, "'" + std::string(key) + "' register '" + *name + "' is in space '" + reg->space_name +
                            "', which is not a pci-config space");
    return nullptr;
  }
  if (config_space && *config_space != reg->space) {
    reader.Error(*node, "'" + std::string(key) + "' register '" + *name + "' is in space '" + reg->space_name +
                            "', not in the configuration space of the behaviour's other registers ('" +
                            database.spaces[*config_space].name + "')");
    return nullptr;
  }
  config_space = reg->space;
  if (reg->width != width) {
    reader.Error(*node, "'" + std::string(key) + "' register '" + *name + "' is " + std::to_string(reg->width) +
                            " bits wide; the PCI spec makes it " + std::to_string(width));
    return nullptr;
  }
  return reg;
}

void CheckMemorySpaces(const BehaviourSpec& spec, const YamlNode& list, const Database& database, SchemaReader& reader,
                       std::vector<SpaceIndex>& out) {
  if (!reader.ExpectSequence(list, "pci-config memory_spaces")) return;
  std::set<std::string> seen;
  for (const YamlNode& item : list.children) {
    auto name = reader.Identifier(item, "memory space");
    if (!name) continue;
    auto space = database.FindSpace(*name);
    if (!space) {
      reader.Error(item, "pci-config behaviour '" + spec.name + "' names unknown space '" + *name + "'" +
                             DidYouMean(*name, NamesOf(database.spaces)));
      continue;
    }
    out.push_back(*space);
    if (database.spaces[*space].kind == SpaceKind::kPciConfig) {
      reader.Error(item, "space '" + *name + "' is a pci-config space: configuration space stays accessible "
                                             "whatever the command register and the power state say");
    }
    if (database.spaces[*space].kind == SpaceKind::kState) {
      reader.Error(item, "space '" + *name + "' is a state space: no bus access reaches it, so no BAR decodes it");
    }
    if (!seen.insert(*name).second) reader.Error(item, "space '" + *name + "' is listed twice");
  }
}

// The byte at `offset` of `space` as the register resets leave it, or none
// where no register holds it.
// The register (not an alias) of `space` that holds the byte at `offset`, or null.
const Register* RegisterHolding(const Database& database, SpaceIndex space, uint64_t offset) {
  for (const Register& reg : database.registers) {
    if (reg.space == space && reg.alias_of.empty() && offset >= reg.offset && offset < reg.offset + reg.size_bytes()) {
      return &reg;
    }
  }
  return nullptr;
}

std::optional<uint8_t> ResetByte(const Database& database, SpaceIndex space, uint64_t offset) {
  const Register* reg = RegisterHolding(database, space, offset);
  if (!reg) return std::nullopt;
  return static_cast<uint8_t>(reg->reset >> (8 * (offset - reg->offset)));
}

std::optional<uint32_t> ResetBytes(const Database& database, SpaceIndex space, uint64_t offset, unsigned count) {
  uint32_t value = 0;
  for (unsigned i = 0; i < count; ++i) {
    auto byte = ResetByte(database, space, offset + i);
    if (!byte) return std::nullopt;
    value |= uint32_t{*byte} << (8 * i);
  }
  return value;
}

// Walks both capability chains through the register resets, as Linux's
// pci_find_capability (TTL 48) and pci_find_ext_capability (TTL 480) do.
void CheckCapabilityChains(const BehaviourSpec& spec, const YamlNode& at, SpaceIndex config, const Database& database,
                           SchemaReader& reader) {
  const Space& space = database.spaces[config];
  std::string who = "pci-config behaviour '" + spec.name + "': ";
  if (auto pointer = ResetByte(database, config, 0x34)) {
    std::set<uint64_t> visited;
    uint64_t pos = *pointer;
    for (int ttl = 48; pos != 0; --ttl) {
      if (ttl == 0) {
        reader.Error(at, who + "the capability chain is longer than 48 entries");
        break;
      }
      if (pos < 0x40 || pos + 2 > space.size || pos % 4 != 0) {
        reader.Error(at, who + "capability pointer " + Hex(pos) + " is not a dword offset in 0x40.." +
                             Hex(std::min<uint64_t>(space.size, 0x100) - 4));
        break;
      }
      if (!visited.insert(pos).second) {
        reader.Error(at, who + "the capability chain loops back to " + Hex(pos));
        break;
      }
      auto header = ResetBytes(database, config, pos, 2);
      if (!header) {
        reader.Error(at, who + "no register holds the capability header at " + Hex(pos));
        break;
      }
      if ((*header & 0xFF) == 0xFF) break;
      pos = *header >> 8;
    }
  }
  if (space.size <= 0x100) return;
  auto first = ResetBytes(database, config, 0x100, 4);
  if (!first) return;  // no extended capability header modelled
  std::set<uint64_t> visited;
  uint64_t pos = 0x100;
  for (int ttl = (4096 - 256) / 8; pos != 0; --ttl) {
    if (ttl == 0) {
      reader.Error(at, who + "the extended capability chain is longer than 480 entries");
      break;
    }
    if (pos < 0x100 || pos + 4 > space.size) {
      reader.Error(at, who + "extended capability pointer " + Hex(pos) + " is outside 0x100.." + Hex(space.size - 4));
      break;
    }
    if (!visited.insert(pos).second) {
      reader.Error(at, who + "the extended capability chain loops back to " + Hex(pos));
      break;
    }
    auto header = ResetBytes(database, config, pos, 4);
    if (!header) {
      reader.Error(at, who + "no register holds the extended capability header at " + Hex(pos));
      break;
    }
    if (*header == 0) break;
    pos = (*header >> 20) & 0xFFC;
  }
}

// The register of `space` that starts at `offset` and is `width` bits wide, or null.
const Register* RegisterStartingAt(const Database& database, SpaceIndex space, uint64_t offset, unsigned width) {
  for (const Register& reg : database.registers) {
    if (reg.space == space && reg.alias_of.empty() && reg.offset == offset && reg.width == width) return &reg;
  }
  return nullptr;
}

// The memory space BAR `bir` decodes (`pci_bar: bir`), or none.
std::optional<SpaceIndex> SpaceOfBar(const Database& database, uint64_t bir) {
  for (SpaceIndex i = 0; i < database.spaces.size(); ++i) {
    if (database.spaces[i].pci_bar && *database.spaces[i].pci_bar == bir) return i;
  }
  return std::nullopt;
}

// MSI-X: `control` (Message Control, 16 bits), `table` and `pba` (the
// Table and PBA Offset/BIR registers, 32 bits, read-only: their reset
// values say where the entries and pending bits are); `vectors` (optional)
// the register whose bit n is vector n's request.
void CheckMsix(const BehaviourSpec& spec, const YamlNode& msix, const Database& database, SchemaReader& reader,
               PciConfigConfig& config, const std::function<RegisterIndex(const YamlNode&, std::string_view, unsigned,
                                                                          bool)>& resolve) {
  static constexpr std::array<std::string_view, 4> kMsixKeys{"control", "table", "pba", "vectors"};
  config.has_msix = true;
  if (!reader.ExpectMap(msix, "the MSI-X capability's registers", kMsixKeys)) return;
  config.msix_control = resolve(msix, "control", 16, true);
  RegisterIndex table = resolve(msix, "table", 32, true);
  RegisterIndex pba = resolve(msix, "pba", 32, true);
  std::string who = "pci-config behaviour '" + spec.name + "': ";
  // Table Size (Message Control 10:0) is N - 1.
  uint64_t count = 1;
  if (const YamlNode* vectors = msix.Find("vectors")) {
    if (auto name = reader.Identifier(*vectors, "vectors")) {
      if (const Register* reg = RegisterNamedAt(*vectors, *name, who + "`vectors`", database, reader)) {
        config.msix_requests = database.IndexOf(*reg);
        if (config.msix_control != PciConfigConfig::kNone) {
          count = (database.registers[config.msix_control].reset & 0x7FF) + 1;
          if (count > reg->width) {
            reader.Error(*vectors, who + "the MSI-X table has " + std::to_string(count) + " vectors (" +
                                       database.registers[config.msix_control].name + " Table Size), but '" + *name +
                                       "' has " + std::to_string(reg->width) + " bits, one per vector's request");
            count = reg->width;
          }
        }
      }
    }
  }
  config.msix_vectors.assign(count, PciConfigConfig::MsixVector{});
  // Where an Offset/BIR register points: the space of its BAR and the byte offset.
  auto locate = [&](RegisterIndex reg, std::string_view key, std::string_view what) -> std::optional<std::pair<SpaceIndex, uint64_t>> {
    if (reg == PciConfigConfig::kNone) return std::nullopt;
    const YamlNode& at = *msix.Find(key);
    uint64_t value = database.registers[reg].reset;
    uint64_t bir = value & 0x7;
    auto space = SpaceOfBar(database, bir);
    if (!space) {
      reader.Error(at, who + "the MSI-X " + std::string(what) + " is in BAR " + std::to_string(bir) + " (" +
                           database.registers[reg].name + " resets to " + Hex(value) +
                           "), but no space has `pci_bar: " + std::to_string(bir) + "`");
      return std::nullopt;
    }
    return std::make_pair(*space, value & ~uint64_t{0x7});
  };
  if (auto where = locate(table, "table", "table")) {
    auto [space, offset] = *where;
    const YamlNode& at = *msix.Find("table");
    static constexpr const char* kNames[4] = {"Message Address", "Message Upper Address", "Message Data",
                                              "Vector Control"};
    for (uint64_t n = 0; n < count; ++n) {
      PciConfigConfig::MsixVector& vector = config.msix_vectors[n];
      RegisterIndex* dwords[4] = {&vector.address, &vector.upper_address, &vector.data, &vector.control};
      for (unsigned i = 0; i < 4; ++i) {
        uint64_t entry = offset + 16 * n + 4 * i;
        const Register* reg = RegisterStartingAt(database, space, entry, 32);
        if (!reg) {
          reader.Error(at, who + "no 32-bit register of space '" + database.spaces[space].name + "' starts at " +
                               Hex(entry) + ", vector " + std::to_string(n) + "'s " + kNames[i] +
                               " in the MSI-X table");
          return;
        }
        *dwords[i] = database.IndexOf(*reg);
      }
    }
  }
  if (auto where = locate(pba, "pba", "pending bit array")) {
    auto [space, offset] = *where;
    for (uint64_t n = 0; n < count; ++n) {
      uint64_t byte = offset + n / 8;
      const Register* reg = RegisterHolding(database, space, byte);
      if (!reg) {
        reader.Error(*msix.Find("pba"), who + "no register of space '" + database.spaces[space].name +
                                            "' holds the MSI-X pending bit of vector " + std::to_string(n) + " at " +
                                            Hex(byte));
        return;
      }
      config.msix_vectors[n].pending = database.IndexOf(*reg);
      config.msix_vectors[n].pending_bit = static_cast<unsigned>(8 * (byte - reg->offset) + n % 8);
    }
  }
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckPciConfigConfig(const BehaviourSpec& spec, const Database& database,
                                                      SchemaReader& reader) {
  static constexpr std::array<std::string_view, 11> kKeys{"kind",   "name",  "doc",           "ref", "command", "status",
                                                          "power", "memory_spaces", "msi", "msix", "aperture"};
  if (!reader.ExpectMap(spec.yaml, "a pci-config behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<PciConfigConfig>();
  std::optional<SpaceIndex> config_space;
  // Each register named under `key` of `map`, as its index (or kNone).
  auto resolve = [&](const YamlNode& map, std::string_view key, unsigned width, bool required) {
    const Register* reg = ResolvePciRegister(spec, map, key, width, required, database, reader, config_space);
    return reg ? database.IndexOf(*reg) : PciConfigConfig::kNone;
  };
  config->command = resolve(spec.yaml, "command", 16, true);
  config->status = resolve(spec.yaml, "status", 16, false);
  config->power = resolve(spec.yaml, "power", 16, false);
  if (const YamlNode* spaces = spec.yaml.Find("memory_spaces")) {
    CheckMemorySpaces(spec, *spaces, database, reader, config->memory_spaces);
  }
  if (const YamlNode* msi = spec.yaml.Find("msi")) {
    static constexpr std::array<std::string_view, 5> kMsiKeys{"control", "address", "data", "mask", "pending"};
    config->has_msi = true;
    if (reader.ExpectMap(*msi, "the MSI capability's registers", kMsiKeys)) {
      config->msi_control = resolve(*msi, "control", 16, true);
      config->msi_address = resolve(*msi, "address", 32, true);
      config->msi_data = resolve(*msi, "data", 16, true);
      config->msi_mask = resolve(*msi, "mask", 32, false);
      config->msi_pending = resolve(*msi, "pending", 32, false);
      if ((msi->Find("mask") == nullptr) != (msi->Find("pending") == nullptr)) {
        reader.Error(*msi, "per-vector masking needs both 'mask' and 'pending'");
      }
    }
  }
  if (const YamlNode* msix = spec.yaml.Find("msix")) CheckMsix(spec, *msix, database, reader, *config, resolve);
  if (const YamlNode* aperture = spec.yaml.Find("aperture")) {
    static constexpr std::array<std::string_view, 3> kApertureKeys{"bar", "size", "size_field"};
    if (reader.ExpectMap(*aperture, "the aperture BAR and its size control", kApertureKeys)) {
      config->aperture = resolve(*aperture, "bar", 64, true);
      const YamlNode* size_node = reader.Required(*aperture, "size", "pci-config aperture");
      const YamlNode* field_node = reader.Required(*aperture, "size_field", "pci-config aperture");
      auto size_name = size_node ? reader.Identifier(*size_node, "size") : std::nullopt;
      auto field_name = field_node ? reader.Identifier(*field_node, "size_field") : std::nullopt;
      const Register* size =
          size_name ? RegisterNamedAt(*size_node, *size_name, "pci-config behaviour '" + spec.name + "'", database, reader)
                    : nullptr;
      const Field* field = size && field_name ? FieldNamedAt(*field_node, *size, *field_name, reader) : nullptr;
      if (size) config->aperture_size = database.IndexOf(*size);
      if (field) config->aperture_size_bits = FieldBits::Of(field->mask());
    }
  }
  if (config_space && *config_space < database.spaces.size()) {
    const YamlNode* at = spec.yaml.Find("command");
    CheckCapabilityChains(spec, at ? *at : spec.yaml, *config_space, database, reader);
  }
  return config;
}

}  // namespace regemu::regdb
