// `kind: gate`: conditions that let frontdoor accesses to address ranges
// through. See yaml/README.md, "kind: gate", for the schema.
#include "regemu/regdb/behaviour_configs/gate.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/register_scope.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 7> kBehaviourKeys{"kind", "name", "doc", "ref", "space", "gates", "ranges"};
constexpr std::array<std::string_view, 9> kGateKeys{"name",        "when", "refuses", "reads_as", "writes_pass",
                                                    "violation",   "kind", "ref",     "doc"};
constexpr std::array<std::string_view, 6> kRangeKeys{"first", "last", "register", "name", "gates", "doc"};

constexpr std::array kViolationKinds = {
#define REGEMU_VIOLATION(id, name, doc) std::string_view(name),
#include "regemu/emulator/violation_kinds.def"
#undef REGEMU_VIOLATION
};

std::string OperandName(const Database& database, uint64_t id) {
  const Register& reg = database.registers[OperandRegister(id)];
  return IsFieldOperand(id) ? reg.name + "." + reg.fields[OperandField(id)].name : reg.name;
}

class GateReader {
 public:
  GateReader(const BehaviourSpec& spec, const Database& database, SchemaReader& reader, GateConfig& config)
      : spec_(spec), database_(database), reader_(reader), config_(config), what_("gate behaviour '" + spec.name + "'") {}

  bool ReadSpace() {
    const YamlNode* node = reader_.Required(spec_.yaml, "space", what_);
    if (node == nullptr) return false;
    auto name = reader_.Identifier(*node, "space");
    if (!name) return false;
    auto index = database_.FindSpace(*name);
    if (!index) {
      reader_.Error(*node, what_ + " names unknown space '" + *name + "'" + DidYouMean(*name, NamesOf(database_.spaces)));
      return false;
    }
    config_.space = *index;
    return true;
  }

  void ReadGates(const YamlNode& gates) {
    if (!reader_.ExpectSequence(gates, what_ + " gates")) return;
    if (gates.children.empty()) reader_.Error(gates, what_ + " needs a gate");
    for (const YamlNode& node : gates.children) ReadGate(node);
  }

  // Without `ranges:`, every gate guards the whole space.
  void ReadRanges(const YamlNode* ranges) {
    if (ranges == nullptr) {
      GateConfig::Range& whole = config_.ranges.emplace_back();
      whole.last = database_.spaces[config_.space].size - 1;
      for (uint32_t g = 0; g < config_.gates.size(); ++g) whole.gates.push_back(g);
      return;
    }
    if (!reader_.ExpectSequence(*ranges, what_ + " ranges")) return;
    if (ranges->children.empty()) reader_.Error(*ranges, what_ + " has `ranges: []`: leave the key out to gate the whole space");
    for (const YamlNode& node : ranges->children) {
      if (std::optional<GateConfig::Range> range = ReadRange(node)) config_.ranges.push_back(std::move(*range));
    }
  }

 private:
  void ReadGate(const YamlNode& node) {
    if (!reader_.ExpectMap(node, "a gate", kGateKeys)) return;
    GateConfig::Gate gate;
    if (const YamlNode* name = reader_.Required(node, "name", "gate of " + what_)) {
      if (auto text = reader_.Identifier(*name, "gate name")) {
        gate.name = *text;
        if (!names_.emplace(*text, static_cast<uint32_t>(config_.gates.size())).second) {
          reader_.Error(*name, what_ + " declares gate '" + *text + "' twice");
        }
      }
    }
    std::string what = "gate '" + gate.name + "' of " + what_;
    bool ok = true;
    if (const YamlNode* when = reader_.Required(node, "when", what)) {
      auto expression = ParseTypedExpression(*when, RegisterScope(database_), reader_, "`when` of " + what,
                                             ExpressionType::kNumber);
      if (expression) {
        gate.when = std::move(*expression);
        for (uint64_t id : gate.when.operands()) gate.operand_names.push_back(OperandName(database_, id));
      }
      ok = expression.has_value();
    }
    if (const YamlNode* refuses = node.Find("refuses")) {
      auto choice = reader_.Choice<GateConfig::Refuses>(*refuses, "refuses",
                                                        {{"accesses", GateConfig::Refuses::kAccesses},
                                                         {"reads", GateConfig::Refuses::kReads},
                                                         {"writes", GateConfig::Refuses::kWrites}});
      gate.refuses = choice.value_or(GateConfig::Refuses::kAccesses);
    }
    if (const YamlNode* reads_as = node.Find("reads_as")) gate.reads_as = reader_.Unsigned(*reads_as, "reads_as").value_or(0);
    if (const YamlNode* writes = node.Find("writes_pass")) ReadWritesPass(*writes, what, gate);
    if (const YamlNode* violation = reader_.Required(node, "violation", what)) {
      gate.violation = reader_.Text(*violation, "violation").value_or("");
    }
    if (const YamlNode* kind = node.Find("kind")) {
      auto text = reader_.Text(*kind, "violation kind");
      if (text && std::find(kViolationKinds.begin(), kViolationKinds.end(), *text) == kViolationKinds.end()) {
        reader_.ReportBadChoice(*kind, "violation kind", *text, kViolationKinds);
      } else if (text) {
        gate.kind = *text;
      }
    }
    const YamlNode* ref = node.Find("ref");
    if (ref == nullptr) ref = spec_.yaml.Find("ref");
    if (ref != nullptr) gate.ref = reader_.Text(*ref, "ref").value_or("");
    if (ok) config_.gates.push_back(std::move(gate));
  }

  // Registers of the gate's space whose writes a closed gate lets through
  // (Intel's shadowed registers: written while their power domain sleeps).
  void ReadWritesPass(const YamlNode& node, const std::string& what, GateConfig::Gate& gate) {
    if (!reader_.ExpectSequence(node, "writes_pass")) return;
    for (const YamlNode& item : node.children) {
      auto name = reader_.Identifier(item, "register");
      if (!name) continue;
      const Register* reg = RegisterNamedAt(item, *name, "`writes_pass` of " + what, database_, reader_);
      if (reg == nullptr) continue;
      if (reg->space != config_.space) {
        reader_.Error(item, "`writes_pass` of " + what + ": register '" + reg->name + "' is in space '" +
                                reg->space_name + "', not the gate's space '" + database_.spaces[config_.space].name + "'");
        continue;
      }
      gate.writes_pass.push_back(database_.IndexOf(*reg));
    }
  }

  std::optional<GateConfig::Range> ReadRange(const YamlNode& node) {
    if (!reader_.ExpectMap(node, "a gated range", kRangeKeys)) return std::nullopt;
    GateConfig::Range range;
    const YamlNode* reg_node = node.Find("register");
    if (reg_node != nullptr) {
      if (node.Find("first") || node.Find("last")) {
        reader_.Error(*reg_node, "a gated range is `register: NAME` or `first:`/`last:`, not both");
        return std::nullopt;
      }
      auto name = reader_.Identifier(*reg_node, "register");
      const Register* reg = name ? RegisterNamedAt(*reg_node, *name, "range of " + what_, database_, reader_) : nullptr;
      if (reg == nullptr) return std::nullopt;
      if (reg->space != config_.space) {
        reader_.Error(*reg_node, "range of " + what_ + ": register '" + reg->name + "' is in space '" + reg->space_name +
                                     "', not the gate's space '" + database_.spaces[config_.space].name + "'");
        return std::nullopt;
      }
      range.first = reg->offset;
      range.last = reg->offset + reg->size_bytes() - 1;
      range.name = reg->name;
    } else {
      const YamlNode* first = reader_.Required(node, "first", "gated range");
      const YamlNode* last = reader_.Required(node, "last", "gated range");
      auto first_value = first ? reader_.Unsigned(*first, "first") : std::nullopt;
      auto last_value = last ? reader_.Unsigned(*last, "last") : std::nullopt;
      if (!first_value || !last_value) return std::nullopt;
      if (*last_value < *first_value) {
        reader_.Error(*last, "gated range ends (" + Hex(*last_value) + ") before it starts (" + Hex(*first_value) + ")");
        return std::nullopt;
      }
      uint64_t size = database_.spaces[config_.space].size;
      if (*last_value >= size) {
        reader_.Error(*last, "gated range ends at " + Hex(*last_value) + ", past the end of space '" +
                                 database_.spaces[config_.space].name + "' (size " + Hex(size) + ")");
        return std::nullopt;
      }
      range.first = *first_value;
      range.last = *last_value;
    }
    if (const YamlNode* name = node.Find("name")) range.name = reader_.Text(*name, "range name").value_or(range.name);
    if (const YamlNode* gates = node.Find("gates")) {
      if (!reader_.ExpectSequence(*gates, "range gates")) return std::nullopt;
      std::vector<std::string_view> candidates;
      for (const auto& entry : names_) candidates.push_back(entry.first);
      for (const YamlNode& item : gates->children) {
        auto name = reader_.Identifier(item, "gate");
        if (!name) continue;
        if (auto it = names_.find(*name); it != names_.end()) {
          range.gates.push_back(it->second);
        } else {
          reader_.Error(item, "range of " + what_ + " names unknown gate '" + *name + "'" + DidYouMean(*name, candidates));
        }
      }
    } else {
      for (uint32_t g = 0; g < config_.gates.size(); ++g) range.gates.push_back(g);
    }
    return range;
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  GateConfig& config_;
  std::string what_;
  std::map<std::string, uint32_t, std::less<>> names_;  // gate name -> index into config_.gates
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckGateConfig(const BehaviourSpec& spec, const Database& database,
                                                 SchemaReader& reader) {
  if (!reader.ExpectMap(spec.yaml, "a gate behaviour", kBehaviourKeys)) return nullptr;
  auto config = std::make_unique<GateConfig>();
  GateReader gates(spec, database, reader, *config);
  if (!gates.ReadSpace()) return nullptr;
  if (const YamlNode* list = reader.Required(spec.yaml, "gates", "gate behaviour '" + spec.name + "'")) {
    gates.ReadGates(*list);
  }
  gates.ReadRanges(spec.yaml.Find("ranges"));
  return config;
}

std::vector<GatedSpan> GateConfig::GatedSpans(const Database&) const {
  std::vector<GatedSpan> spans;
  for (const Range& range : ranges) {
    if (!range.gates.empty()) spans.push_back({space, range.first, range.last});
  }
  return spans;
}

}  // namespace regemu::regdb
