#pragma once
// `regemu show DB [NAME] [--json]`: what a database holds, read from the
// command line. Without NAME: its spaces and one line per register (like
// IGT's `intel_reg list`); NAME a register: that register in full; REG.FIELD:
// one field; a glob (`GEN11_*`, case-insensitive): the registers it matches.
// With --injects: the inject verbs its device takes (show_injects.hpp).

#include <iosfwd>
#include <string>

namespace regemu::tools {

struct ShowOptions {
  std::string database;
  std::string name;  // "" for everything
  bool json = false;
  bool injects = false;  // the device's inject verbs instead (show_injects.hpp)
};

// Exit status: 0 shown, 1 the database has errors or NAME names nothing
// (with the nearest name), 2 the path does not exist.
int RunShow(const ShowOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
