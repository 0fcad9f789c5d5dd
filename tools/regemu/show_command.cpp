// `regemu show`: a device's registers listed one a line, or one register or
// field in full, as text or JSON. The text is for reading in a terminal
// (aligned columns, first doc line only); the JSON carries the same facts
// with every doc line, for scripts.
#include "tools/regemu/show_command.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <tuple>
#include <vector>

#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"
#include "tools/regemu/register_lookup.hpp"
#include "regemu/regdb/behaviour_configs/reactions_text.hpp"
#include "tools/regemu/register_users.hpp"
#include "tools/regemu/show_injects.hpp"

namespace regemu::tools {
namespace {

using nlohmann::json;

// Register names are C identifiers, so these characters can only mean a glob.
bool IsGlob(const std::string& name) { return name.find_first_of("*?[") != std::string::npos; }

bool GlobMatches(const std::string& pattern, const std::string& name) {
  return fnmatch(pattern.c_str(), name.c_str(), FNM_CASEFOLD) == 0;
}

// Registers in address order: by space (as the database declares them), then offset.
std::vector<const regdb::Register*> InAddressOrder(const regdb::Database& db, const std::string& pattern) {
  std::vector<const regdb::Register*> regs;
  for (const regdb::Register& reg : db.registers) {
    if (pattern.empty() || GlobMatches(pattern, reg.name)) regs.push_back(&reg);
  }
  std::stable_sort(regs.begin(), regs.end(), [](const regdb::Register* a, const regdb::Register* b) {
    return std::tie(a->space, a->offset) < std::tie(b->space, b->offset);
  });
  return regs;
}

json UsersJson(const RegisterUsers& users) {
  json behaviours = json::array();
  for (const RegisterUsers::Behaviour& use : users.behaviours) {
    behaviours.push_back({{"name", use.spec->name}, {"kind", use.spec->kind}, {"keys", use.keys}});
  }
  json ranges = json::array();
  for (const regdb::Range* range : users.enabled_ranges) ranges.push_back(range->name);
  return {{"behaviours", std::move(behaviours)}, {"enables_ranges", std::move(ranges)}};
}

// The reactions and rules that a register (or field) triggers, is read by
// or is set by, each in words.
void PrintReactions(const regdb::Database& db, const regdb::Register& reg, const regdb::Field* field,
                    std::ostream& out) {
  for (const regdb::ReactionUse& use : regdb::ReactionUsesOf(db, reg, field)) {
    const auto& config = static_cast<const regdb::ReactionsConfig&>(*use.behaviour->config);
    std::string how;
    for (auto [yes, word] : {std::pair{use.triggers, "triggers it"}, std::pair{use.reads, "reads it"},
                             std::pair{use.sets, "sets it"}}) {
      if (yes) how += (how.empty() ? "" : ", ") + std::string(word);
    }
    out << "  " << (use.reaction->rule ? "rule" : "reaction") << " '" << use.reaction->name << "' of '"
        << use.behaviour->name << "' (" << how << "): " << regdb::ReactionText(*use.reaction, config) << "\n";
  }
}

json ReactionsJson(const regdb::Database& db, const regdb::Register& reg, const regdb::Field* field) {
  json list = json::array();
  for (const regdb::ReactionUse& use : regdb::ReactionUsesOf(db, reg, field)) {
    const auto& config = static_cast<const regdb::ReactionsConfig&>(*use.behaviour->config);
    list.push_back({{"behaviour", use.behaviour->name}, {"name", use.reaction->name}, {"rule", use.reaction->rule},
                    {"triggers", use.triggers}, {"reads", use.reads}, {"sets", use.sets},
                    {"text", regdb::ReactionText(*use.reaction, config)}});
  }
  return list;
}

void PrintUsers(const RegisterUsers& users, std::ostream& out) {
  for (const RegisterUsers::Behaviour& use : users.behaviours) {
    out << "  behaviour '" << use.spec->name << "' (" << use.spec->kind << ") names it as:";
    for (const std::string& key : use.keys) out << " " << key;
    out << "\n";
  }
  for (const regdb::Range* range : users.enabled_ranges) out << "  enables range " << range->name << "\n";
}

// ------------------------------------------------------------------ lists

json ListJson(const regdb::Database& db, const std::vector<const regdb::Register*>& regs) {
  json spaces = json::array();
  for (const regdb::Space& space : db.spaces) {
    spaces.push_back({{"name", space.name}, {"kind", regdb::SpaceKindName(space.kind)}, {"size", space.size}});
  }
  json registers = json::array();
  for (const regdb::Register* reg : regs) {
    registers.push_back({{"name", reg->name},
                         {"space", reg->space_name},
                         {"offset", reg->offset},
                         {"width", reg->width},
                         {"doc", reg->doc}});
  }
  return {{"device", db.device}, {"spaces", std::move(spaces)}, {"registers", std::move(registers)}};
}

void PrintRegisterLines(const std::vector<const regdb::Register*>& regs, std::ostream& out) {
  size_t space_width = 5;
  size_t offset_width = 6;
  size_t name_width = 4;
  for (const regdb::Register* reg : regs) {
    space_width = std::max(space_width, reg->space_name.size());
    offset_width = std::max(offset_width, regdb::Hex(reg->offset).size());
    name_width = std::max(name_width, reg->name.size());
  }
  auto column = [&out](size_t width) -> std::ostream& { return out << std::setw(static_cast<int>(width)); };
  out << std::left;
  column(space_width) << "space"
                      << "  ";
  column(offset_width) << "offset"
                       << "  width  ";
  column(name_width) << "name"
                     << "  doc\n";
  for (const regdb::Register* reg : regs) {
    column(space_width) << reg->space_name << "  ";
    column(offset_width) << regdb::Hex(reg->offset) << "  ";
    column(5) << reg->width << "  ";
    column(name_width) << reg->name << "  " << FirstLine(reg->doc) << "\n";
  }
}

void PrintList(const std::string& path, const regdb::Database& db, const std::vector<const regdb::Register*>& regs,
               std::ostream& out) {
  out << path << ": device '" << db.device << "', " << db.spaces.size() << " space(s), " << db.registers.size()
      << " register(s)\n";
  size_t name_width = 5;
  for (const regdb::Space& space : db.spaces) name_width = std::max(name_width, space.name.size());
  out << std::left << std::setw(static_cast<int>(name_width)) << "space"
      << "  " << std::setw(10) << "kind"
      << "  size\n";
  for (const regdb::Space& space : db.spaces) {
    out << std::setw(static_cast<int>(name_width)) << space.name << "  " << std::setw(10)
        << regdb::SpaceKindName(space.kind) << "  " << regdb::Hex(space.size) << "\n";
  }
  out << "\n";
  PrintRegisterLines(regs, out);
}

// --------------------------------------------------------- one register

json FieldJson(const regdb::Register& reg, const regdb::Field& field) {
  json values = json::array();
  for (const regdb::EnumValue& value : field.values) {
    values.push_back({{"name", value.name}, {"value", value.value}, {"doc", value.doc}});
  }
  return {{"name", field.name},
          {"msb", field.bits.msb},
          {"lsb", field.bits.lsb},
          {"access", regdb::AccessName(field.access)},
          {"reset", FieldValue(field, reg.reset)},
          {"volatile", field.is_volatile},
          {"write_is_violation", field.write_is_violation},
          {"value", field.value_text.IsNull() ? json(nullptr) : json(ComputedText(field))},
          {"write_gate", field.write_gate_text.IsNull() ? json(nullptr)
                                                        : json(WriteGateText(field.write_gate_text, field.write_gate))},
          {"values", std::move(values)},
          {"doc", field.doc}};
}

const char* DecodeName(regdb::DecodeDirection decode) {
  switch (decode) {
    case regdb::DecodeDirection::kRead: return "read";
    case regdb::DecodeDirection::kWrite: return "write";
    case regdb::DecodeDirection::kReadWrite: break;
  }
  return "read-write";
}

json RegisterJson(const regdb::LoadedDatabase& loaded, const regdb::Register& reg) {
  json fields = json::array();
  for (const regdb::Field* field : HighBitFirst(reg)) fields.push_back(FieldJson(reg, *field));
  json entry{{"name", reg.name},
             {"space", reg.space_name},
             {"offset", reg.offset},
             {"width", reg.width},
             {"reset", reg.reset},
             {"policy", regdb::AccessName(reg.default_access)},
             {"unfielded_bits", UnfieldedBits(reg)},
             {"masked", reg.masked},
             {"volatile", reg.is_volatile},
             {"alias_of", reg.alias_of},
             {"doc", reg.doc},
             {"ref", reg.ref},
             {"source", SourceText(loaded.sources, reg.loc)},
             {"used_by", UsersJson(UsersOf(loaded.database, reg))},
             {"reactions", ReactionsJson(loaded.database, reg, nullptr)},
             {"view_of", reg.view_of},
             {"decode", DecodeName(reg.decode)},
             {"decode_when", reg.decode_when.IsNull() ? "" : reg.decode_when.text},
             {"write_gate", reg.write_gate_text.IsNull() ? json(nullptr)
                                                         : json(WriteGateText(reg.write_gate_text, reg.write_gate))},
             {"fields", std::move(fields)}};
  if (reg.array) {
    entry["array"] = {{"template", reg.array->name_template},
                      {"index", reg.array->index},
                      {"start", reg.array->start},
                      {"count", reg.array->count},
                      {"stride", reg.array->stride}};
  }
  if (reg.block) {
    entry["block"] = {{"block", reg.block->block},
                      {"instance", reg.block->instance},
                      {"base", reg.block->base},
                      {"local_name", reg.block->local_name}};
  }
  return entry;
}

void PrintFieldLine(const regdb::Register& reg, const regdb::Field& field, size_t name_width, std::ostream& out) {
  out << "    " << std::left << std::setw(9) << BitsText(field) << std::setw(static_cast<int>(name_width)) << field.name
      << "  " << std::setw(5) << regdb::AccessName(field.access) << "  reset "
      << regdb::Hex(FieldValue(field, reg.reset));
  if (field.is_volatile) out << ", volatile";
  if (!field.value_text.IsNull()) out << ", computed: " << ComputedText(field);
  if (!field.write_gate_text.IsNull()) out << ", gated";
  if (!field.doc.empty()) out << "  " << FirstLine(field.doc);
  out << "\n";
  for (const regdb::EnumValue& value : field.values) {
    out << "        = " << regdb::Hex(value.value) << " " << value.name;
    if (!value.doc.empty()) out << ": " << FirstLine(value.doc);
    out << "\n";
  }
}

void PrintRegister(const regdb::LoadedDatabase& loaded, const regdb::Register& reg, std::ostream& out) {
  out << reg.name << ": " << reg.space_name << " " << regdb::Hex(reg.offset) << ", " << reg.width << " bits, reset "
      << regdb::HexPadded(reg.reset, reg.width) << "\n";
  if (!reg.doc.empty()) out << "  " << reg.doc << "\n";
  if (!reg.ref.empty()) out << "  ref: " << reg.ref << "\n";
  const regdb::AccessInfo& policy = regdb::Info(reg.default_access);
  uint64_t unfielded = UnfieldedBits(reg);
  if (reg.fields.empty()) {
    out << "  policy: " << policy.name << " (" << policy.summary << ")\n";
  } else if (unfielded != 0) {
    out << "  bits in no field: " << regdb::Hex(unfielded) << ", policy " << policy.name << " (" << policy.summary
        << ")\n";
  }
  if (reg.masked) out << "  masked: bits 31:16 of a write select which of bits 15:0 change\n";
  if (reg.is_volatile) out << "  volatile: hardware changes it\n";
  if (!reg.alias_of.empty()) out << "  alias of " << reg.alias_of << "\n";
  if (!reg.write_gate_text.IsNull()) out << "  write gate: " << WriteGateText(reg.write_gate_text, reg.write_gate) << "\n";
  for (const regdb::Field& field : reg.fields) {
    if (field.write_gate_text.IsNull()) continue;
    out << "  write gate of " << field.name << ": " << WriteGateText(field.write_gate_text, field.write_gate) << "\n";
  }
  if (!reg.view_of.empty()) out << "  a view of " << reg.view_of << " (shows its storage, with its own policies)\n";
  if (reg.banked()) {
    out << "  decodes " << (reg.decode == regdb::DecodeDirection::kRead    ? "reads"
                            : reg.decode == regdb::DecodeDirection::kWrite ? "writes"
                                                                             : "reads and writes");
    if (!reg.decode_when.IsNull()) out << " while " << reg.decode_when.text;
    out << " (shares its place with other registers)\n";
  }
  if (reg.array) {
    out << "  element " << reg.array->start + reg.array->index << " of " << reg.array->name_template << ": "
        << reg.array->count << " from " << reg.array->start << ", stride " << regdb::Hex(reg.array->stride) << "\n";
  }
  if (reg.block) {
    out << "  block " << reg.block->block << ", instance " << reg.block->instance << " at "
        << regdb::Hex(reg.block->base) << ", local name " << reg.block->local_name << "\n";
  }
  if (reg.loc.known()) out << "  defined at " << SourceText(loaded.sources, reg.loc) << "\n";
  PrintUsers(UsersOf(loaded.database, reg), out);
  PrintReactions(loaded.database, reg, nullptr, out);
  if (reg.fields.empty()) return;
  size_t name_width = 4;
  for (const regdb::Field& field : reg.fields) name_width = std::max(name_width, field.name.size());
  out << "  fields:\n";
  for (const regdb::Field* field : HighBitFirst(reg)) PrintFieldLine(reg, *field, name_width, out);
}

void PrintField(const regdb::LoadedDatabase& loaded, const regdb::Register& reg, const regdb::Field& field,
                std::ostream& out) {
  const regdb::AccessInfo& info = regdb::Info(field.access);
  out << reg.name << "." << field.name << " " << BitsText(field) << ": " << reg.space_name << " "
      << regdb::Hex(reg.offset) << ", " << info.name << " (" << info.summary << "), reset "
      << regdb::Hex(FieldValue(field, reg.reset)) << "\n";
  if (!field.doc.empty()) out << "  " << field.doc << "\n";
  out << "  mask " << regdb::Hex(field.mask()) << ", shift " << field.bits.lsb << ", width " << field.bits.width()
      << "\n";
  if (field.is_volatile) out << "  volatile: hardware changes it\n";
  if (!field.value_text.IsNull()) {
    out << "  computed: " << ComputedText(field) << " (kept up to date as what it reads changes; read-only)\n";
  }
  if (!field.write_gate_text.IsNull()) {
    out << "  write gate: " << WriteGateText(field.write_gate_text, field.write_gate) << "\n";
  }
  if (reg.write_gate_text.IsNull() == false) {
    out << "  write gate of " << reg.name << ": " << WriteGateText(reg.write_gate_text, reg.write_gate) << "\n";
  }
  if (field.write_is_violation) out << "  on write: changing it is a read-only violation\n";
  for (const regdb::EnumValue& value : field.values) {
    out << "  = " << regdb::Hex(value.value) << " " << value.name;
    if (!value.doc.empty()) out << ": " << value.doc;
    out << "\n";
  }
  if (field.loc.known()) out << "  defined at " << SourceText(loaded.sources, field.loc) << "\n";
  PrintUsers(UsersOf(loaded.database, reg, &field), out);
  PrintReactions(loaded.database, reg, &field, out);
}

// `REG.FIELD`: exit status as RunShow's.
int ShowField(const ShowOptions& options, const regdb::LoadedDatabase& loaded, std::ostream& out, std::ostream& err) {
  size_t dot = options.name.find('.');
  std::string reg_name = options.name.substr(0, dot);
  std::string field_name = options.name.substr(dot + 1);
  const regdb::Register* reg = RegisterOrSuggest(loaded.database, reg_name, "show", options.database, err);
  if (reg == nullptr) return 1;
  const regdb::Field* field = reg->FindField(field_name);
  if (field == nullptr) {
    err << "regemu show: register " << reg->name << " has no field '" << field_name << "'"
        << regdb::DidYouMean(field_name, regdb::NamesOf(reg->fields)) << "\n";
    return 1;
  }
  if (options.json) {
    json entry = FieldJson(*reg, *field);
    entry["source"] = SourceText(loaded.sources, field->loc);
    entry["used_by"] = UsersJson(UsersOf(loaded.database, *reg, field));
    entry["reactions"] = ReactionsJson(loaded.database, *reg, field);
    out << json{{"device", loaded.database.device},
                {"register", {{"name", reg->name}, {"space", reg->space_name}, {"offset", reg->offset}}},
                {"field", std::move(entry)}}
               .dump(2)
        << "\n";
    return 0;
  }
  PrintField(loaded, *reg, *field, out);
  return 0;
}

}  // namespace

int RunShow(const ShowOptions& options, std::ostream& out, std::ostream& err) {
  if (options.injects) {
    if (!options.name.empty()) {
      err << "regemu show: --injects lists the device's inject verbs; it takes no NAME ('" << options.name << "')\n";
      return 1;
    }
    return ShowInjects(options.database, options.json, out, err);
  }
  auto loaded_or_status = LoadForReading(options.database, "show", err);
  if (const int* status = std::get_if<int>(&loaded_or_status)) return *status;
  const regdb::LoadedDatabase& loaded = std::get<regdb::LoadedDatabase>(loaded_or_status);
  const regdb::Database& db = loaded.database;

  if (options.name.empty() || IsGlob(options.name)) {
    std::vector<const regdb::Register*> regs = InAddressOrder(db, options.name);
    if (regs.empty()) {
      err << "regemu show: no register of " << options.database << " matches '" << options.name << "'\n";
      return 1;
    }
    if (options.json) {
      out << ListJson(db, regs).dump(2) << "\n";
    } else if (options.name.empty()) {
      PrintList(options.database, db, regs, out);
    } else {
      out << regs.size() << " of " << db.registers.size() << " register(s) match '" << options.name << "'\n";
      PrintRegisterLines(regs, out);
    }
    return 0;
  }
  if (options.name.find('.') != std::string::npos) return ShowField(options, loaded, out, err);

  const regdb::Register* reg = RegisterOrSuggest(db, options.name, "show", options.database, err);
  if (reg == nullptr) {
    err << "regemu show: a name with * or ? lists the registers it matches (GEN11_*)\n";
    return 1;
  }
  if (options.json) {
    out << json{{"device", db.device}, {"register", RegisterJson(loaded, *reg)}}.dump(2) << "\n";
  } else {
    PrintRegister(loaded, *reg, out);
  }
  return 0;
}

}  // namespace regemu::tools
