// `kind: oa-unit`: the OA performance-counter unit. The check resolves the
// register roles of the generation, the memory space, the counters and the
// signals they count, and the report formats with their layouts.
#include "regemu/regdb/behaviour_configs/oa_unit.hpp"

#include <array>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/oa_timestamp.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

using Kind = OaLayoutItem::Kind;

struct Role {
  std::string_view key;
  RegisterIndex OaUnitConfig::Registers::*slot;
  bool haswell;  // the role exists on Haswell
  bool gen8;     // ... and on Gen8+
  bool optional;
};

constexpr std::array<Role, 10> kRoles{{
    {"control", &OaUnitConfig::Registers::control, true, true, false},
    {"context_control", &OaUnitConfig::Registers::context_control, false, true, false},
    {"context_id", &OaUnitConfig::Registers::context_id, false, true, false},
    {"debug", &OaUnitConfig::Registers::debug, false, true, true},
    {"status", &OaUnitConfig::Registers::status, true, true, false},
    {"head", &OaUnitConfig::Registers::head, true, true, false},
    {"tail", &OaUnitConfig::Registers::tail, false, true, false},
    {"buffer", &OaUnitConfig::Registers::buffer, true, true, false},
    {"buffer_upper", &OaUnitConfig::Registers::buffer_upper, false, true, true},
    {"interrupt_mask", &OaUnitConfig::Registers::interrupt_mask, false, true, true},
}};

// "A7" -> (A, 7); "B0" -> (B, 0).
std::optional<std::pair<OaCounterBank, unsigned>> ParseCounterName(std::string_view text) {
  if (text.size() < 2) return std::nullopt;
  OaCounterBank bank;
  switch (text[0]) {
    case 'A': bank = OaCounterBank::kA; break;
    case 'B': bank = OaCounterBank::kB; break;
    case 'C': bank = OaCounterBank::kC; break;
    default: return std::nullopt;
  }
  unsigned index = 0;
  auto [end, ec] = std::from_chars(text.data() + 1, text.data() + text.size(), index);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return std::pair{bank, index};
}

class OaUnitCheck {
 public:
  OaUnitCheck(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader) {}

  std::unique_ptr<OaUnitConfig> Run() {
    static constexpr std::array<std::string_view, 15> kKeys{
        "kind",      "name",          "generation", "memory",   "timestamp_frequency",
        "gpu_mhz",   "topology",      "pci_device_id", "report_write_time", "registers",
        "counters",  "signals",       "sources",    "formats",  "interrupt_parent"};
    if (!reader_.ExpectMap(spec_.yaml, "an oa-unit behaviour", kKeys)) return nullptr;
    if (const YamlNode* node = reader_.Required(spec_.yaml, "generation", What())) {
      if (auto generation = reader_.Choice<OaGeneration>(
              *node, "generation",
              {{"hsw", OaGeneration::kHaswell}, {"gen8", OaGeneration::kGen8}, {"gen9", OaGeneration::kGen9}})) {
        config_->generation = *generation;
      }
    }
    CheckMemory();
    if (const YamlNode* node = reader_.Required(spec_.yaml, "timestamp_frequency", What())) {
      config_->timestamp_hz = reader_.Unsigned(*node, "timestamp_frequency (Hz)", 1'000, kMaxTimestampHz).value_or(1);
    }
    if (const YamlNode* node = reader_.Required(spec_.yaml, "gpu_mhz", What())) {
      config_->gpu_mhz = reader_.Unsigned(*node, "gpu_mhz", 1, 10'000).value_or(1);
    }
    if (const YamlNode* node = reader_.Required(spec_.yaml, "topology", What())) CheckTopology(*node);
    if (const YamlNode* node = spec_.yaml.Find("pci_device_id")) {
      config_->pci_device_id = static_cast<uint32_t>(reader_.Unsigned(*node, "pci_device_id", 0, 0xFFFF).value_or(0));
    }
    if (const YamlNode* node = spec_.yaml.Find("report_write_time")) {
      config_->report_write_ns = reader_.DurationNs(*node, "report_write_time").value_or(0);
    }
    if (const YamlNode* node = reader_.Required(spec_.yaml, "registers", What())) CheckRegisters(*node);
    if (const YamlNode* node = reader_.Required(spec_.yaml, "counters", What())) CheckCounters(*node);
    if (const YamlNode* node = reader_.Required(spec_.yaml, "signals", What())) CheckSignals(*node);
    if (const YamlNode* node = spec_.yaml.Find("sources")) CheckSources(*node);
    if (const YamlNode* node = reader_.Required(spec_.yaml, "formats", What())) CheckFormats(*node);
    if (const YamlNode* node = spec_.yaml.Find("interrupt_parent")) CheckParent(*node);
    return std::move(config_);
  }

 private:
  std::string What() const { return "oa-unit behaviour '" + spec_.name + "'"; }
  bool haswell() const { return config_->generation == OaGeneration::kHaswell; }

  void CheckMemory() {
    const YamlNode* node = reader_.Required(spec_.yaml, "memory", What());
    if (!node) return;
    auto name = reader_.Identifier(*node, "memory");
    if (!name) return;
    std::optional<SpaceIndex> space = database_.FindSpace(*name);
    if (!space) {
      reader_.Error(*node, What() + " names unknown space '" + *name + "'" + DidYouMean(*name, NamesOf(database_.spaces)));
    } else if (database_.spaces[*space].kind != SpaceKind::kMemory) {
      reader_.Error(*node, "space '" + *name + "' is not a memory space: the OA buffer needs `kind: memory`");
    } else {
      config_->memory = *space;
    }
  }

  void CheckTopology(const YamlNode& node) {
    static constexpr std::array<std::string_view, 3> kKeys{"slices", "subslices_per_slice", "eus_per_subslice"};
    if (!reader_.ExpectMap(node, "an oa-unit topology", kKeys)) return;
    for (auto [key, slot] : {std::pair{"slices", &OaUnitConfig::slices},
                             std::pair{"subslices_per_slice", &OaUnitConfig::subslices_per_slice},
                             std::pair{"eus_per_subslice", &OaUnitConfig::eus_per_subslice}}) {
      if (const YamlNode* value = reader_.Required(node, key, "oa-unit topology")) {
        (*config_).*slot = static_cast<unsigned>(reader_.Unsigned(*value, key, 1, 16).value_or(1));
      }
    }
  }

  void CheckRegisters(const YamlNode& node) {
    std::array<std::string_view, kRoles.size()> keys;
    for (size_t i = 0; i < kRoles.size(); ++i) keys[i] = kRoles[i].key;
    if (!reader_.ExpectMap(node, "oa-unit registers", keys)) return;
    std::map<RegisterIndex, std::string_view> used;
    for (const Role& role : kRoles) {
      bool exists = haswell() ? role.haswell : role.gen8;
      const YamlNode* value = node.Find(role.key);
      if (!exists) {
        if (value) reader_.Error(*value, "register role '" + std::string(role.key) + "' does not exist on generation " + Generation());
        continue;
      }
      if (!value) {
        if (!role.optional) reader_.Error(node, What() + " needs the register role '" + std::string(role.key) + "'");
        continue;
      }
      auto name = reader_.Identifier(*value, role.key);
      if (!name) continue;
      const Register* reg = RegisterNamedAt(*value, *name, What(), database_, reader_);
      if (!reg) continue;
      if (reg->width != 32) reader_.Error(*value, "register '" + reg->name + "' must be 32 bits wide for an OA role");
      RegisterIndex index = database_.IndexOf(*reg);
      if (auto [it, fresh] = used.emplace(index, role.key); !fresh) {
        reader_.Error(*value, "register '" + reg->name + "' is both '" + std::string(it->second) + "' and '" +
                                  std::string(role.key) + "'");
      }
      config_->registers.*role.slot = index;
    }
  }

  std::string Generation() const {
    switch (config_->generation) {
      case OaGeneration::kHaswell: return "hsw";
      case OaGeneration::kGen8: return "gen8";
      case OaGeneration::kGen9: return "gen9";
    }
    return "?";
  }

  void CheckCounters(const YamlNode& node) {
    static constexpr std::array<std::string_view, 4> kKeys{"a", "a_width", "b", "c"};
    if (!reader_.ExpectMap(node, "oa-unit counters", kKeys)) return;
    if (const YamlNode* a = reader_.Required(node, "a", "oa-unit counters")) {
      config_->a_count = static_cast<unsigned>(reader_.Unsigned(*a, "a", 0, 64).value_or(0));
    }
    if (const YamlNode* width = reader_.Required(node, "a_width", "oa-unit counters")) {
      auto value = reader_.Unsigned(*width, "a_width", 32, 40);
      if (value && *value != 32 && *value != 40) reader_.Error(*width, "a_width must be 32 (Haswell) or 40 (Gen8+)");
      config_->a_width = static_cast<unsigned>(value.value_or(32));
    }
    for (auto [key, slot] : {std::pair{"b", &OaUnitConfig::b_count}, std::pair{"c", &OaUnitConfig::c_count}}) {
      if (const YamlNode* value = reader_.Required(node, key, "oa-unit counters")) {
        (*config_).*slot = static_cast<unsigned>(reader_.Unsigned(*value, key, 0, 16).value_or(0));
      }
    }
  }

  void CheckSignals(const YamlNode& node) {
    config_->signals.push_back(OaSignal{kOaClockSignal, false});
    if (!node.IsMap()) {
      reader_.Error(node, "oa-unit signals must be a map of NAME: fraction|rate");
      return;
    }
    for (size_t i = 0; i < node.MapSize(); ++i) {
      const YamlNode& key = node.MapKey(i);
      std::string name = key.text;
      if (name == kOaClockSignal) {
        reader_.Error(key, "signal 'clock' is built in (one event per GPU clock); do not declare it");
        continue;
      }
      auto fraction = reader_.Choice<bool>(node.MapValue(i), "signal kind", {{"fraction", true}, {"rate", false}});
      config_->signals.push_back(OaSignal{name, fraction.value_or(false)});
    }
  }

  std::optional<unsigned> SignalIndex(const YamlNode& node) {
    auto name = reader_.Text(node, "signal");
    if (!name) return std::nullopt;
    std::vector<std::string_view> names;
    for (size_t i = 0; i < config_->signals.size(); ++i) {
      if (config_->signals[i].name == *name) return static_cast<unsigned>(i);
      names.push_back(config_->signals[i].name);
    }
    reader_.Error(node, What() + " has no signal '" + *name + "'" + DidYouMean(*name, names));
    return std::nullopt;
  }

  // A counter name that exists in this unit's banks.
  std::optional<std::pair<OaCounterBank, unsigned>> Counter(const YamlNode& node, std::string_view text) {
    auto counter = ParseCounterName(text);
    if (!counter) {
      reader_.Error(node, "'" + std::string(text) + "' is not a counter name such as A7, B0 or C2");
      return std::nullopt;
    }
    unsigned count = counter->first == OaCounterBank::kA   ? config_->a_count
                     : counter->first == OaCounterBank::kB ? config_->b_count
                                                           : config_->c_count;
    if (counter->second >= count) {
      reader_.Error(node, "counter " + std::string(text) + " does not exist: the unit has " + std::to_string(count) +
                              " " + text[0] + " counters");
      return std::nullopt;
    }
    return counter;
  }

  void CheckSources(const YamlNode& node) {
    static constexpr std::array<std::string_view, 4> kKeys{"counter", "signal", "scale", "per_eu"};
    if (!reader_.ExpectSequence(node, "oa-unit sources")) return;
    std::set<std::pair<OaCounterBank, unsigned>> seen;
    for (const YamlNode& item : node.children) {
      if (!reader_.ExpectMap(item, "an oa-unit source", kKeys)) continue;
      OaCounterSource source;
      const YamlNode* counter_node = reader_.Required(item, "counter", "oa-unit source");
      std::optional<std::pair<OaCounterBank, unsigned>> counter;
      if (counter_node) {
        if (auto text = reader_.Text(*counter_node, "counter")) counter = Counter(*counter_node, *text);
      }
      if (counter && !seen.insert(*counter).second) {
        reader_.Error(*counter_node, "counter " + counter_node->text + " has two sources");
      }
      std::optional<unsigned> signal;
      if (const YamlNode* signal_node = reader_.Required(item, "signal", "oa-unit source")) signal = SignalIndex(*signal_node);
      if (const YamlNode* scale = item.Find("scale")) {
        auto text = reader_.Text(*scale, "scale");
        if (text) {
          auto micros = ParseDecimalMicros(*text);
          if (auto* error = std::get_if<NumberError>(&micros)) {
            reader_.Error(*scale, "scale: " + error->message);
          } else if (std::get<uint64_t>(micros) == 0 || std::get<uint64_t>(micros) > 1'000'000'000) {
            reader_.Error(*scale, "scale must be more than 0 and at most 1000");
          } else {
            source.scale_micros = std::get<uint64_t>(micros);
          }
        }
      }
      if (const YamlNode* per_eu = item.Find("per_eu")) source.per_eu = reader_.Bool(*per_eu, "per_eu").value_or(false);
      if (!counter || !signal) continue;
      source.bank = counter->first;
      source.index = counter->second;
      source.signal = *signal;
      config_->sources.push_back(source);
    }
  }

  void CheckFormats(const YamlNode& node) {
    static constexpr std::array<std::string_view, 4> kKeys{"name", "code", "size", "layout"};
    if (!reader_.ExpectSequence(node, "oa-unit formats")) return;
    if (node.children.empty()) reader_.Error(node, What() + " needs at least one report format");
    std::set<uint64_t> codes;
    for (const YamlNode& item : node.children) {
      if (!reader_.ExpectMap(item, "an oa-unit format", kKeys)) continue;
      OaFormat format;
      if (const YamlNode* name = reader_.Required(item, "name", "oa-unit format")) format.name = name->text;
      if (const YamlNode* code = reader_.Required(item, "code", "oa-unit format")) {
        auto value = reader_.Unsigned(*code, "code (Counter Select)", 0, 7);
        if (value && !codes.insert(*value).second) reader_.Error(*code, "two formats have code " + std::to_string(*value));
        format.code = static_cast<unsigned>(value.value_or(0));
      }
      if (const YamlNode* size = reader_.Required(item, "size", "oa-unit format")) {
        auto value = reader_.Unsigned(*size, "size", 64, 256);
        if (value && *value != 64 && *value != 128 && *value != 256) {
          reader_.Error(*size, "a report is 64, 128 or 256 bytes (it must divide the buffer)");
        }
        format.size = static_cast<unsigned>(value.value_or(64));
      }
      const YamlNode* layout = reader_.Required(item, "layout", "oa-unit format");
      if (layout && CheckLayout(*layout, format)) {
        unsigned bytes = 0;
        for (const OaLayoutItem& piece : format.layout) bytes += piece.Bytes();
        if (bytes != format.size) {
          reader_.Error(*layout, "the layout of format '" + format.name + "' fills " + std::to_string(bytes) +
                                     " bytes, not its size " + std::to_string(format.size));
        }
      }
      config_->formats.push_back(std::move(format));
    }
  }

  // Pieces: report-id, timestamp, context-id, gpu-ticks, reserved,
  // reserved*N, A7, A7-A18, A0-A31.high, B0-B7, C0-C7.
  bool CheckLayout(const YamlNode& layout, OaFormat& format) {
    if (!reader_.ExpectSequence(layout, "an oa-unit layout")) return false;
    bool ok = true;
    for (const YamlNode& piece : layout.children) {
      auto text = reader_.Text(piece, "layout piece");
      if (!text) {
        ok = false;
        continue;
      }
      std::optional<OaLayoutItem> item = ParsePiece(piece, *text);
      if (!item) {
        ok = false;
        continue;
      }
      if ((item->kind == Kind::kGpuTicks || item->kind == Kind::kContextId) && haswell()) {
        reader_.Error(piece, "Haswell reports have no '" + *text + "' dword");
        ok = false;
      }
      if (item->kind == Kind::kAHigh && config_->a_width != 40) {
        reader_.Error(piece, "'" + *text + "' needs 40-bit A counters (a_width: 40)");
        ok = false;
      }
      format.layout.push_back(*item);
    }
    return ok;
  }

  std::optional<OaLayoutItem> ParsePiece(const YamlNode& node, std::string_view text) {
    static const std::map<std::string_view, Kind> kFixed{{"report-id", Kind::kReportId},
                                                          {"timestamp", Kind::kTimestamp},
                                                          {"context-id", Kind::kContextId},
                                                          {"gpu-ticks", Kind::kGpuTicks},
                                                          {"reserved", Kind::kReserved}};
    if (auto it = kFixed.find(text); it != kFixed.end()) return OaLayoutItem{it->second, 0, 1};
    if (text.starts_with("reserved*")) {
      auto count = ParseUnsigned(text.substr(9));
      if (auto* value = std::get_if<uint64_t>(&count); value && *value >= 1 && *value <= 64) {
        return OaLayoutItem{Kind::kReserved, 0, static_cast<unsigned>(*value)};
      }
      reader_.Error(node, "'" + std::string(text) + "': reserved*N takes N from 1 to 64 dwords");
      return std::nullopt;
    }
    bool high = text.ends_with(".high");
    std::string_view range = high ? text.substr(0, text.size() - 5) : text;
    size_t dash = range.find('-');
    std::string_view first_text = range.substr(0, dash);
    std::string_view last_text = dash == std::string_view::npos ? first_text : range.substr(dash + 1);
    auto first = ParseCounterName(first_text);
    auto last = ParseCounterName(last_text);
    if (!first || !last) {
      reader_.Error(node, "unknown layout piece '" + std::string(text) +
                              "'; expected report-id, timestamp, context-id, gpu-ticks, reserved, reserved*N, "
                              "a counter or range (A7, A0-A31, B0-B7), or A0-A31.high");
      return std::nullopt;
    }
    if (first->first != last->first || last->second < first->second) {
      reader_.Error(node, "'" + std::string(text) + "' is not a range of one bank, low to high");
      return std::nullopt;
    }
    if (!Counter(node, last_text)) return std::nullopt;
    if (high && first->first != OaCounterBank::kA) {
      reader_.Error(node, "only A counters have high bytes ('" + std::string(text) + "')");
      return std::nullopt;
    }
    Kind kind = high                                     ? Kind::kAHigh
                : first->first == OaCounterBank::kA ? Kind::kA
                : first->first == OaCounterBank::kB ? Kind::kB
                                                    : Kind::kC;
    return OaLayoutItem{kind, first->second, last->second - first->second + 1};
  }

  void CheckParent(const YamlNode& node) {
    if (auto parent = ResolveInterruptParent(spec_, node, What(), database_, reader_)) {
      config_->interrupt_parent = *parent;
    }
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::unique_ptr<OaUnitConfig> config_ = std::make_unique<OaUnitConfig>();
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckOaUnitConfig(const BehaviourSpec& spec, const Database& database,
                                                   SchemaReader& reader) {
  return OaUnitCheck(spec, database, reader).Run();
}

}  // namespace regemu::regdb
