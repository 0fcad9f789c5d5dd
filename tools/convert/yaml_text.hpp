#pragma once
// Pieces of database YAML text: names as the schema accepts them and
// strings quoted so that any description reads back unchanged.

#include <cstdint>
#include <string>
#include <string_view>

#include "regemu/regdb/numbers.hpp"

namespace regemu::convert {

using regdb::Hex;  // "0x1f", as every regemu message spells values

// A C identifier: other characters become '_', and a leading digit gets a
// '_' before it. Field names keep a leading digit (yaml/README.md "Names")
// when `field` is true and the name does not read as a number. A C macro or
// keyword (NULL, EOF, default...) gets a '_' after it.
std::string IdentifierFrom(std::string_view name, bool field = false);
// `IdentifierFrom`, quoted when YAML would read it as something other than
// a string (`null`, `true`, `on`, ...: RP2040 has an enumerated value NULL).
std::string YamlName(std::string_view name, bool field = false);
// A field's generated C macros are REGISTER_FIELD, beside the register's
// own REGISTER_RESET and REGISTER_WIDTH: a field of one of those names (the
// RP2040's USB buffer controls have a RESET bit) gets a '_' after it, and
// `note` says so (else it is left empty).
std::string FieldNameForHeaders(std::string_view name, std::string& note);
// An enumerated value's name as YamlName gives it, with `_` appended when a
// generated C header would already define FIELD_<name> (MASK, SHIFT,
// WIDTH, RESET: Microchip's SAMD21 SYSCTRL BOD33.ACTION has a value RESET);
// `note` says so.
std::string ValueNameForHeaders(std::string_view name, std::string& note);
// A YAML double-quoted scalar.
std::string Quoted(std::string_view text);

}  // namespace regemu::convert
