#pragma once
// A register's bitfield picture, as datasheets and the RISC-V specs' WaveDrom
// drawings show one: a row of 32 bit cells (a 64-bit register gets two, high
// word first), bit numbers above, one box per field coloured by its policy's
// family (policy_palette.hpp), its reset bits in the cells, and its name in
// the box or, where the box is too narrow, on a slanted label below it.

#include <map>
#include <string>

#include "regemu/regdb/database.hpp"

namespace regemu::docgen {

// What an overlay (coverage) adds to a field's box: a CSS class and a line
// of hover text, by field name.
struct FieldMark {
  std::string css_class;
  std::string hover;
};
using FieldMarks = std::map<std::string, FieldMark, std::less<>>;

// `<svg class="bitfield">` with exactly one `<g class="field" data-field=NAME>`
// per field and one `<g class="gap">` per run of bits no field covers.
std::string BitfieldSvg(const regdb::Register& reg, const FieldMarks& marks = {});

}  // namespace regemu::docgen
