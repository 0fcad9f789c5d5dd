#pragma once
// What `regemu show` and `regemu decode` share: a checked database loaded
// for reading (`regemu events` loads its database the same way), a register
// name as a user typed it (an unknown one answered with the nearest name),
// and a register's fields as both list them.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "regemu/regdb/loader.hpp"

namespace regemu::tools {

// The checked database at `path`, or the exit status after `err` said why
// not: 2 the path does not exist, 1 the database has errors.
std::variant<regdb::LoadedDatabase, int> LoadForReading(const std::string& path, std::string_view command,
                                                        std::ostream& err);

// The register named `name`, or nullptr after `err` said
// "COMMAND: DB has no register 'X' (did you mean 'Y'?)".
const regdb::Register* RegisterOrSuggest(const regdb::Database& db, std::string_view name, std::string_view command,
                                         std::string_view path, std::ostream& err);

// "[15:11]", "[0:0]": high bit first, as datasheets write them.
std::string BitsText(const regdb::Field& field);

// The field's value in `register_value`, shifted down to bit 0.
uint64_t FieldValue(const regdb::Field& field, uint64_t register_value);

// The register's fields, high bit first as datasheets and `intel_reg decode` list them.
std::vector<const regdb::Field*> HighBitFirst(const regdb::Register& reg);

// The register's bits that no field covers.
uint64_t UnfieldedBits(const regdb::Register& reg);

// "file:line" of a database object, or "" when its place is unknown.
std::string SourceText(const regdb::SourceSet& sources, regdb::SourceLoc loc);

// The first line of a doc string: what a one-line listing shows.
std::string_view FirstLine(std::string_view doc);

// A computed field's expression as written (`value:`), or "" for a stored one.
std::string ComputedText(const regdb::Field& field);

// A `write_gate:` in words, or "" without one: "writable while WDOGLOCK.LOCKED
// == 0; a blocked write is a protocol violation (WDOGLOAD written while ...)".
std::string WriteGateText(const regdb::YamlNode& gate_text, const std::optional<regdb::WriteGate>& gate);

}  // namespace regemu::tools
