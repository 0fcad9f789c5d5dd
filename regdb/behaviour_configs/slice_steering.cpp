// `kind: slice-steering`: reads of slice-located registers go to the slice
// the steering selector names; a fused-off slice answers 0.
// See yaml/README.md "behaviours" for the schema.
#include "regemu/regdb/behaviour_configs/slice_steering.hpp"

#include <array>
#include <optional>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

// Sorted and disjoint (the PRM lists GWL three times at one range: once is enough).
void CheckSliceRanges(const BehaviourSpec& spec, const YamlNode& ranges, SchemaReader& reader,
                      std::vector<SliceSteeringConfig::Range>& out) {
  static constexpr std::array<std::string_view, 3> kKeys{"first", "last", "unit"};
  if (!reader.ExpectSequence(ranges, "slice-steering ranges")) return;
  if (ranges.children.empty()) reader.Error(ranges, "slice-steering behaviour '" + spec.name + "' needs a range");
  bool have_previous = false;
  uint64_t previous_last = 0;
  for (const YamlNode& range : ranges.children) {
    if (!reader.ExpectMap(range, "a slice-located range", kKeys)) {
      have_previous = false;
      continue;
    }
    const YamlNode* first_node = reader.Required(range, "first", "slice-located range");
    const YamlNode* last_node = reader.Required(range, "last", "slice-located range");
    const YamlNode* unit_node = reader.Required(range, "unit", "slice-located range");
    auto first = first_node ? reader.Unsigned(*first_node, "first") : std::nullopt;
    auto last = last_node ? reader.Unsigned(*last_node, "last") : std::nullopt;
    if (first && last && *last < *first) {
      reader.Error(*last_node, "slice-located range ends (" + Hex(*last) + ") before it starts (" + Hex(*first) + ")");
      last.reset();
    }
    if (first && have_previous && *first <= previous_last) {
      reader.Error(*first_node, "slice-located range at " + Hex(*first) + " overlaps or is out of order: the one "
                                "before ends at " + Hex(previous_last) + " (ranges must be sorted and disjoint)");
    }
    have_previous = first.has_value() && last.has_value();
    previous_last = last.value_or(0);
    out.push_back({first.value_or(0), last.value_or(0), unit_node ? unit_node->text : std::string()});
  }
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckSliceSteeringConfig(const BehaviourSpec& spec, const Database& database,
                                                          SchemaReader& reader) {
  static constexpr std::array<std::string_view, 10> kKeys{"kind",     "name",           "doc",    "ref",
                                                          "space",    "fuse",           "fuse_field",
                                                          "selector", "selector_field", "ranges"};
  if (!reader.ExpectMap(spec.yaml, "a slice-steering behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<SliceSteeringConfig>();
  if (const YamlNode* space = reader.Required(spec.yaml, "space", "slice-steering behaviour '" + spec.name + "'")) {
    auto name = reader.Identifier(*space, "space");
    auto index = name ? database.FindSpace(*name) : std::nullopt;
    config->space = index.value_or(0);
    if (name && !index) {
      reader.Error(*space, "slice-steering behaviour '" + spec.name + "' names unknown space '" + *name + "'" +
                               DidYouMean(*name, NamesOf(database.spaces)));
    }
  }
  // Both fields are required: a whole-register default would hide a typo.
  struct FieldKey {
    std::string_view reg_key;
    std::string_view field_key;
    std::string_view holds;
    RegisterIndex SliceSteeringConfig::*reg;
    FieldBits SliceSteeringConfig::*bits;
  };
  static constexpr std::array<FieldKey, 2> kFieldKeys{{
      {"fuse", "fuse_field", "the slice enables (bit n = slice n present)", &SliceSteeringConfig::fuse,
       &SliceSteeringConfig::fuse_bits},
      {"selector", "selector_field", "the number of the slice reads go to", &SliceSteeringConfig::selector,
       &SliceSteeringConfig::selector_bits},
  }};
  for (const FieldKey& key : kFieldKeys) {
    const Register* reg = ResolveRegisterKey(spec, key.reg_key, /*required=*/true, database, reader);
    if (reg == nullptr) continue;
    if (!spec.yaml.Find(key.field_key)) {
      reader.Error(spec.yaml, "slice-steering behaviour '" + spec.name + "' needs '" + std::string(key.field_key) +
                                  "': the field of " + reg->name + " holding " + std::string(key.holds));
      continue;
    }
    (*config).*key.reg = database.IndexOf(*reg);
    if (const Field* field = ResolveFieldKey(spec, key.field_key, *reg, reader)) {
      (*config).*key.bits = FieldBits::Of(field->mask());
    }
  }
  if (const YamlNode* ranges = reader.Required(spec.yaml, "ranges", "slice-steering behaviour '" + spec.name + "'")) {
    CheckSliceRanges(spec, *ranges, reader, config->ranges);
  }
  return config;
}

}  // namespace regemu::regdb
