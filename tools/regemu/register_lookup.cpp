#include "tools/regemu/register_lookup.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>

#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::tools {

std::variant<regdb::LoadedDatabase, int> LoadForReading(const std::string& path, std::string_view command,
                                                        std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    err << "regemu " << command << ": no such file or folder: " << path << "\n";
    return 2;
  }
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(path);
  if (loaded.diagnostics.has_errors()) {
    err << regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
    err << "regemu " << command << ": " << path << " has errors (regemu check " << path << ")\n";
    return 1;
  }
  return loaded;
}

const regdb::Register* RegisterOrSuggest(const regdb::Database& db, std::string_view name, std::string_view command,
                                         std::string_view path, std::ostream& err) {
  if (const regdb::Register* reg = db.RegisterNamed(name)) return reg;
  err << "regemu " << command << ": " << path << " has no register '" << name << "'"
      << regdb::DidYouMean(name, regdb::NamesOf(db.registers)) << "\n";
  return nullptr;
}

std::string BitsText(const regdb::Field& field) {
  return "[" + std::to_string(field.bits.msb) + ":" + std::to_string(field.bits.lsb) + "]";
}

uint64_t FieldValue(const regdb::Field& field, uint64_t register_value) {
  return (register_value & field.mask()) >> field.bits.lsb;
}

std::vector<const regdb::Field*> HighBitFirst(const regdb::Register& reg) {
  std::vector<const regdb::Field*> fields;
  for (const regdb::Field& field : reg.fields) fields.push_back(&field);
  std::stable_sort(fields.begin(), fields.end(),
                   [](const regdb::Field* a, const regdb::Field* b) { return a->bits.msb > b->bits.msb; });
  return fields;
}

uint64_t UnfieldedBits(const regdb::Register& reg) {
  uint64_t covered = 0;
  for (const regdb::Field& field : reg.fields) covered |= field.mask();
  return reg.width_mask() & ~covered;
}

std::string SourceText(const regdb::SourceSet& sources, regdb::SourceLoc loc) {
  if (!loc.known()) return "";
  return sources.file(loc.file).path + ":" + std::to_string(loc.line);
}

std::string_view FirstLine(std::string_view doc) { return doc.substr(0, doc.find('\n')); }

std::string ComputedText(const regdb::Field& field) { return field.value_text.IsNull() ? "" : field.value_text.text; }

std::string WriteGateText(const regdb::YamlNode& gate_text, const std::optional<regdb::WriteGate>& gate) {
  if (gate_text.IsNull()) return "";
  // `write_gate: EXPR`, or `write_gate: {when: EXPR, violation: ...}`.
  const regdb::YamlNode* when = gate_text.IsMap() ? gate_text.Find("when") : &gate_text;
  std::string text = "writable while " + (when != nullptr ? when->text : std::string("?"));
  if (gate && !gate->violation.empty()) {
    text += "; a blocked write is a " + gate->kind + " violation (" + gate->violation + ")";
  } else {
    text += "; a blocked write is ignored";
  }
  return text;
}

}  // namespace regemu::tools
