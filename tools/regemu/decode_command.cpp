// `regemu decode`: one register value, field by field. The flags say what a
// driver developer would otherwise check by hand: a value that no enum
// names, a reserved or must-be-zero field that is not 0, and set bits that
// belong to no field.
#include "tools/regemu/decode_command.hpp"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>
#include <variant>

#include "tools/regemu/register_lookup.hpp"

namespace regemu::tools {
namespace {

using nlohmann::json;

struct DecodedField {
  const regdb::Field* field = nullptr;
  uint64_t value = 0;
  std::string enum_name;  // "" when no enumerated value has this value
  std::string flag;       // "" when nothing is odd about the value
};

DecodedField Decode(const regdb::Field& field, uint64_t register_value) {
  DecodedField decoded{&field, FieldValue(field, register_value), "", ""};
  for (const regdb::EnumValue& value : field.values) {
    if (value.value == decoded.value) decoded.enum_name = value.name;
  }
  const regdb::AccessInfo& info = regdb::Info(field.access);
  if (decoded.value != 0 && info.write == regdb::WriteEffect::kMustBeZero) {
    decoded.flag = "must be zero";
  } else if (decoded.value != 0 && info.read == regdb::ReadEffect::kZero) {
    decoded.flag = "reserved: reads 0";
  } else if (!field.values.empty() && decoded.enum_name.empty()) {
    decoded.flag = "no enumerated value";
  }
  return decoded;
}

void PrintText(const regdb::Register& reg, uint64_t value, const std::vector<DecodedField>& fields, std::ostream& out) {
  out << reg.name << " (" << reg.space_name << " " << regdb::Hex(reg.offset) << ", " << reg.width
      << " bits) = " << regdb::HexPadded(value, reg.width) << "\n";
  if (reg.fields.empty()) {
    out << "  (no fields)\n";
    return;
  }
  size_t name_width = 4;
  for (const DecodedField& d : fields) name_width = std::max(name_width, d.field->name.size());
  for (const DecodedField& d : fields) {
    out << "  " << std::left << std::setw(9) << BitsText(*d.field) << std::setw(static_cast<int>(name_width))
        << d.field->name << "  " << regdb::Hex(d.value);
    if (!d.enum_name.empty()) out << " " << d.enum_name;
    if (!d.flag.empty()) out << "  ! " << d.flag;
    out << "\n";
  }
  uint64_t stray = value & UnfieldedBits(reg);
  if (stray != 0) {
    out << "  ! bits " << regdb::Hex(stray)
        << " are set in no field (their policy: " << regdb::AccessName(reg.default_access) << ")\n";
  }
}

json Json(const regdb::Database& db, const regdb::Register& reg, uint64_t value,
          const std::vector<DecodedField>& fields) {
  json list = json::array();
  for (const DecodedField& d : fields) {
    list.push_back({{"name", d.field->name},
                    {"msb", d.field->bits.msb},
                    {"lsb", d.field->bits.lsb},
                    {"value", d.value},
                    {"enum", d.enum_name},
                    {"flag", d.flag}});
  }
  return {{"device", db.device},       {"register", reg.name},
          {"space", reg.space_name},   {"offset", reg.offset},
          {"width", reg.width},        {"value", value},
          {"fields", std::move(list)}, {"unfielded_set", reg.fields.empty() ? 0 : value & UnfieldedBits(reg)}};
}

}  // namespace

int RunDecode(const DecodeOptions& options, std::ostream& out, std::ostream& err) {
  // The value first: a typo in it is found without loading the database.
  auto parsed = regdb::ParseUnsigned(options.value);
  if (const auto* error = std::get_if<regdb::NumberError>(&parsed)) {
    err << "regemu decode: '" << options.value << "' is not a value: " << error->message << "\n";
    return 2;
  }
  uint64_t value = std::get<uint64_t>(parsed);

  auto loaded_or_status = LoadForReading(options.database, "decode", err);
  if (const int* status = std::get_if<int>(&loaded_or_status)) return *status;
  const regdb::Database& db = std::get<regdb::LoadedDatabase>(loaded_or_status).database;
  const regdb::Register* reg = RegisterOrSuggest(db, options.reg, "decode", options.database, err);
  if (reg == nullptr) return 1;
  if ((value & ~reg->width_mask()) != 0) {
    err << "regemu decode: " << regdb::Hex(value) << " does not fit " << reg->name << ", a " << reg->width
        << "-bit register\n";
    return 2;
  }

  std::vector<DecodedField> fields;
  for (const regdb::Field* field : HighBitFirst(*reg)) fields.push_back(Decode(*field, value));
  if (options.json) {
    out << Json(db, *reg, value, fields).dump(2) << "\n";
  } else {
    PrintText(*reg, value, fields, out);
  }
  return 0;
}

}  // namespace regemu::tools
