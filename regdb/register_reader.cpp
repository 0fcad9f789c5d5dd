#include "regemu/regdb/register_reader.hpp"

#include <array>
#include <limits>

#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 17> kRegisterKeys{
    "name",    "space",       "offset", "width",  "reset", "access", "masked", "volatile",     "alias_of",
    "view_of", "decode", "decode_when", "array", "fields", "doc",    "ref",    "write_gate"};
constexpr std::array<std::string_view, 10> kFieldKeys{"name",   "bits", "access",   "reset",      "volatile",
                                                       "values", "doc",  "on_write", "value", "write_gate"};
constexpr std::array<std::string_view, 3> kValueKeys{"name", "value", "doc"};
constexpr std::array<std::string_view, 3> kArrayKeys{"count", "stride", "start"};
constexpr std::string_view kIndexPlaceholder = "{n}";
constexpr uint32_t kMaxArrayCount = 1u << 20;

}  // namespace

std::optional<Access> ReadAccess(const YamlNode& node, SchemaReader& reader) {
  auto text = reader.Text(node, "access policy");
  if (!text) return std::nullopt;
  if (auto access = AccessFromName(*text)) return access;
  reader.ReportBadChoice(node, "access policy", *text, NamesOf(AllAccessPolicies()));
  return std::nullopt;
}

static std::optional<EnumValue> ReadEnumValue(const YamlNode& node, SchemaReader& reader) {
  if (!reader.ExpectMap(node, "an enumerated value", kValueKeys)) return std::nullopt;
  EnumValue value;
  const YamlNode* name = reader.Required(node, "name", "enumerated value");
  const YamlNode* number = reader.Required(node, "value", "enumerated value");
  if (!name || !number) return std::nullopt;
  auto id = reader.Identifier(*name, "value name");
  auto v = reader.Unsigned(*number, "value");
  if (!id || !v) return std::nullopt;
  value.name = *id;
  value.value = *v;
  value.loc = number->loc;
  value.name_loc = name->loc;
  if (const YamlNode* doc = node.Find("doc")) value.doc = reader.Text(*doc, "doc").value_or("");
  return value;
}

std::optional<Field> ReadField(const YamlNode& node, SchemaReader& reader) {
  if (!reader.ExpectMap(node, "a field", kFieldKeys)) return std::nullopt;
  const YamlNode* name = reader.Required(node, "name", "field");
  const YamlNode* bits = reader.Required(node, "bits", "field");
  if (!name || !bits) return std::nullopt;
  Field field;
  bool ok = true;
  if (auto id = reader.FieldName(*name, "field name")) field.name = *id; else ok = false;
  field.loc = name->loc;
  if (auto range = reader.Bits(*bits, "bits")) field.bits = *range; else ok = false;
  field.bits_loc = bits->loc;
  if (const YamlNode* access = node.Find("access")) {
    if (auto a = ReadAccess(*access, reader)) field.access = *a; else ok = false;
  }
  if (const YamlNode* reset = node.Find("reset")) {
    field.reset = reader.Unsigned(*reset, "field reset");
    field.reset_loc = reset->loc;
    ok = ok && field.reset.has_value();
  }
  if (const YamlNode* v = node.Find("volatile")) field.is_volatile = reader.Bool(*v, "volatile").value_or(false);
  // A computed field is the device's: read-only, `hw` unless said `ro`.
  // Its expression is compiled by the checker, once every name is known.
  if (const YamlNode* value = node.Find("value")) {
    const YamlNode* access = node.Find("access");
    if (access && field.access != Access::kHw && field.access != Access::kRo) {
      reader.Error(*access, "field '" + field.name + "' has a 'value' (it is computed): its access is 'hw' or 'ro', "
                            "not '" + std::string(AccessName(field.access)) + "'");
      ok = false;
    }
    if (!access) field.access = Access::kHw;
    if (node.Find("reset")) {
      reader.Error(*node.Find("reset"), "field '" + field.name + "' has a 'value' (it is computed): it has no reset "
                                        "of its own");
      ok = false;
    }
    if (reader.Text(*value, "value")) field.value_text = *value; else ok = false;
  }
  if (field.access == Access::kHw) field.is_volatile = true;
  if (const YamlNode* gate = node.Find("write_gate")) field.write_gate_text = *gate;
  if (const YamlNode* on_write = node.Find("on_write")) {
    field.on_write_loc = on_write->loc;
    auto violation = reader.Choice<bool>(*on_write, "on_write", {{"ignore", false}, {"violation", true}});
    field.write_is_violation = violation.value_or(false);
  }
  if (const YamlNode* doc = node.Find("doc")) field.doc = reader.Text(*doc, "doc").value_or("");
  if (const YamlNode* values = node.Find("values"); values && reader.ExpectSequence(*values, "values")) {
    for (const YamlNode& entry : values->children) {
      auto value = ReadEnumValue(entry, reader);
      if (!value) continue;
      for (const EnumValue& previous : field.values) {
        if (previous.name == value->name) {
          reader.diagnostics()
              .Error(value->name_loc, "enumerated value '" + value->name + "' defined twice in field '" + field.name + "'")
              .notes.push_back({previous.name_loc, "first defined here"});
        }
      }
      field.values.push_back(*value);
    }
  }
  if (!ok) return std::nullopt;
  return field;
}

namespace {

std::optional<ArraySpec> ReadArraySpec(const YamlNode& node, SchemaReader& reader) {
  if (!reader.ExpectMap(node, "an array", kArrayKeys)) return std::nullopt;
  const YamlNode* count = reader.Required(node, "count", "array");
  const YamlNode* stride = reader.Required(node, "stride", "array");
  if (!count || !stride) return std::nullopt;
  ArraySpec spec;
  spec.loc = node.loc;
  auto c = reader.Unsigned(*count, "array count", 1, kMaxArrayCount);
  auto s = reader.Unsigned(*stride, "array stride", 1, std::numeric_limits<uint32_t>::max());
  std::optional<uint64_t> start = 0;
  if (const YamlNode* st = node.Find("start")) start = reader.Unsigned(*st, "array start", 0, kMaxArrayCount);
  if (!c || !s || !start) return std::nullopt;
  spec.count = static_cast<uint32_t>(*c);
  spec.stride = *s;
  spec.stride_loc = stride->loc;
  spec.start = static_cast<uint32_t>(*start);
  return spec;
}

// Checks the name against the array-ness of the register: `{n}` exactly once
// in an array, never outside one.
bool CheckNameTemplate(const YamlNode& name_node, const std::string& name, bool is_array, SchemaReader& reader) {
  size_t first = name.find(kIndexPlaceholder);
  if (!is_array) {
    if (first != std::string::npos) {
      reader.Error(name_node, "register name '" + name + "' has '{n}' but the register has no 'array'");
      return false;
    }
    if (!IsIdentifier(name)) {
      reader.Error(name_node, "register name '" + name +
                                  "' is not a C identifier (letters, digits and '_', not starting with a digit)");
      return false;
    }
    return true;
  }
  if (first == std::string::npos || name.find(kIndexPlaceholder, first + 1) != std::string::npos) {
    reader.Error(name_node, "array register name '" + name + "' must contain '{n}' exactly once (e.g. 'OAPERF_A{n}')");
    return false;
  }
  std::string sample = name;
  sample.replace(first, kIndexPlaceholder.size(), "0");
  if (!IsIdentifier(sample)) {
    reader.Error(name_node, "array register name '" + name + "' does not make C identifiers (e.g. '" + sample + "')");
    return false;
  }
  return true;
}

}  // namespace

std::optional<RegisterTemplate> ReadRegisterTemplate(const YamlNode& node, bool in_block,
                                                     const std::string& default_ref, SchemaReader& reader) {
  if (!reader.ExpectMap(node, in_block ? "a block register" : "a register", kRegisterKeys)) return std::nullopt;

  const YamlNode* name = reader.Required(node, "name", "register");
  const YamlNode* space = nullptr;
  if (in_block) {
    if (const YamlNode* own_space = node.Find("space")) {
      reader.Error(*own_space, "a block register has no 'space' of its own: every register of a block lives in "
                               "the block's space");
    }
  } else {
    space = reader.Required(node, "space", "register");
  }
  const YamlNode* offset = reader.Required(node, "offset", "register");
  if (!name || (!in_block && !space) || !offset) return std::nullopt;

  RegisterTemplate templ;
  Register& reg = templ.reg;
  // `ok` tracks what places and names the register. A bad field, reset or
  // access policy is reported but does not drop the register, so names that
  // refer to it (behaviours, enabled_by, alias_of) do not fail in cascade.
  bool ok = true;
  if (auto text = reader.Text(*name, "register name")) reg.name = *text; else ok = false;
  reg.loc = name->loc;
  if (space) {
    if (auto id = reader.Identifier(*space, "space name")) reg.space_name = *id; else ok = false;
    reg.space_loc = space->loc;
  }
  if (auto value = reader.Unsigned(*offset, "offset")) reg.offset = *value; else ok = false;
  reg.offset_loc = offset->loc;
  if (const YamlNode* width = node.Find("width")) {
    // A bad width is reported once and the register kept at the next
    // width up (24 -> 32), so behaviours and scripts naming it, and fields
    // inside what the author meant, do not fail in cascade.
    if (auto w = reader.Width(*width, "width")) {
      reg.width = *w;
    } else if (auto parsed_width = ParseUnsigned(width->text); auto* given = std::get_if<uint64_t>(&parsed_width)) {
      reg.width = *given <= 8 ? 8u : *given <= 16 ? 16u : *given <= 32 ? 32u : 64u;
    }
    reg.width_loc = width->loc;
  } else {
    reg.width_loc = reg.loc;
  }
  if (const YamlNode* reset = node.Find("reset")) {
    auto value = reader.Unsigned(*reset, "reset");
    reg.reset = value.value_or(0);
    reg.reset_given = value.has_value();
    reg.reset_loc = reset->loc;
  }
  if (const YamlNode* masked = node.Find("masked")) reg.masked = reader.Bool(*masked, "masked").value_or(false);
  if (const YamlNode* v = node.Find("volatile")) reg.is_volatile = reader.Bool(*v, "volatile").value_or(false);
  if (const YamlNode* alias = node.Find("alias_of")) {
    if (auto id = reader.Identifier(*alias, "alias_of")) reg.alias_of = *id; else ok = false;
    reg.alias_of_loc = alias->loc;
  }
  if (const YamlNode* view = node.Find("view_of")) {
    if (auto id = reader.Identifier(*view, "view_of")) reg.view_of = *id; else ok = false;
    reg.view_of_loc = view->loc;
  }
  if (const YamlNode* decode = node.Find("decode")) {
    reg.decode = reader
                     .Choice<DecodeDirection>(*decode, "decode",
                                              {{"read", DecodeDirection::kRead},
                                               {"write", DecodeDirection::kWrite},
                                               {"read-write", DecodeDirection::kReadWrite}})
                     .value_or(DecodeDirection::kReadWrite);
    reg.decode_loc = decode->loc;
  }
  // Compiled by the checker, once every register it may name is known.
  if (const YamlNode* when = node.Find("decode_when")) {
    if (reader.Text(*when, "decode_when")) reg.decode_when = *when;
    if (!reg.decode_loc.known()) reg.decode_loc = when->loc;
  }
  if (const YamlNode* gate = node.Find("write_gate")) reg.write_gate_text = *gate;
  if (const YamlNode* doc = node.Find("doc")) reg.doc = reader.Text(*doc, "doc").value_or("");
  reg.ref = default_ref;
  if (const YamlNode* ref = node.Find("ref")) reg.ref = reader.Text(*ref, "ref").value_or("");

  if (const YamlNode* fields = node.Find("fields"); fields && reader.ExpectSequence(*fields, "fields")) {
    for (const YamlNode& entry : fields->children) {
      auto field = ReadField(entry, reader);
      if (!field) continue;
      if (const Field* previous = reg.FindField(field->name)) {
        reader.Error(entry, "field '" + field->name + "' defined twice in register '" + reg.name + "'")
            .notes.push_back({previous->loc, "first defined here"});
        continue;
      }
      reg.fields.push_back(std::move(*field));
    }
  }
  reg.default_access = reg.fields.empty() ? Access::kRw : Access::kRsvd;
  if (const YamlNode* access = node.Find("access")) {
    if (auto a = ReadAccess(*access, reader)) reg.default_access = *a;
  }
  if (reg.default_access == Access::kHw) reg.is_volatile = true;

  if (!reg.reset_given) {
    for (const Field& f : reg.fields) {
      if (f.reset) reg.reset |= (*f.reset << f.bits.lsb) & f.mask();
    }
  }

  const YamlNode* array = node.Find("array");
  if (array) {
    templ.array = ReadArraySpec(*array, reader);
    if (!templ.array) ok = false;
  }
  // Judge the name by whether `array` is written, not by whether it was
  // valid: a bad count must not also call 'A{n}' a non-array name.
  if (!reg.name.empty() && !CheckNameTemplate(*name, reg.name, array != nullptr, reader)) ok = false;
  if (!ok) return std::nullopt;
  return templ;
}

bool ExpandRegister(const RegisterTemplate& templ, uint64_t base, const std::optional<BlockOrigin>& block,
                    size_t max_registers, std::vector<Register>& out, SchemaReader& reader) {
  const Register& proto = templ.reg;
  uint32_t count = templ.array ? templ.array->count : 1;
  if (out.size() + count > max_registers) {
    reader.diagnostics().Error(templ.array ? templ.array->loc : proto.loc,
                               "database expands to more than " + std::to_string(max_registers) + " registers");
    return false;
  }
  uint64_t max = std::numeric_limits<uint64_t>::max();
  if (proto.offset > max - base) {
    reader.diagnostics().Error(proto.offset_loc, "offset " + Hex(proto.offset) + " + base " + Hex(base) +
                                                     " overflows 64 bits");
    return false;
  }
  uint64_t first = base + proto.offset;
  if (templ.array && (count - 1) > 0 && templ.array->stride > (max - first) / (count - 1)) {
    reader.diagnostics().Error(templ.array->loc, "array of " + std::to_string(count) + " elements at stride " +
                                                     Hex(templ.array->stride) + " overflows 64-bit offsets");
    return false;
  }
  for (uint32_t i = 0; i < count; ++i) {
    Register reg = proto;
    reg.offset = first + (templ.array ? i * templ.array->stride : 0);
    if (templ.array) {
      size_t at = reg.name.find(kIndexPlaceholder);
      reg.name.replace(at, kIndexPlaceholder.size(), std::to_string(templ.array->start + i));
      reg.array = ArrayOrigin{proto.name, i, templ.array->start, count, templ.array->stride, first,
                              templ.array->stride_loc};
    }
    if (block) {
      reg.block = *block;
      reg.block->local_name = reg.name;
      reg.name = block->instance + "_" + reg.name;
      // Inside a block, alias_of names a sibling: the same instance's copy.
      if (templ.alias_of_block_local) reg.alias_of = block->instance + "_" + reg.alias_of;
    }
    out.push_back(std::move(reg));
  }
  return true;
}

}  // namespace regemu::regdb
