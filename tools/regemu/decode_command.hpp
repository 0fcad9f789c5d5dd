#pragma once
// `regemu decode DB REG VALUE [--json]`: a register value split into its
// fields, with the names of enumerated values, as IGT's `intel_reg decode`
// does; set bits that belong to no field, and non-zero reserved or
// must-be-zero fields, are flagged.

#include <iosfwd>
#include <string>

namespace regemu::tools {

struct DecodeOptions {
  std::string database;
  std::string reg;
  std::string value;  // as typed: 0x hex, 0b binary or decimal (regdb number syntax)
  bool json = false;
};

// Exit status: 0 decoded, 1 the database has errors or has no such register
// (with the nearest name), 2 the path does not exist or VALUE is not a
// number that fits the register.
int RunDecode(const DecodeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
