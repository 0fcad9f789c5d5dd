#pragma once
// `regemu import DB TRACE [-o SCRIPT] [--no-values] [--no-time] [--format F]
// [--map SPACE=BASE]... [--device VVVV:DDDD]`: writes a capture of a real
// driver (mmiotrace, i915_reg_rw, R/W log) as a regemu script
// (tools/traces/capture_import.hpp), streaming, with a summary and every
// malformed line (by line number) on stderr.

#include <iosfwd>
#include <string>

#include "tools/regemu/capture_options.hpp"

namespace regemu::tools {

struct ImportCommandOptions {
  std::string database;
  std::string capture;        // a file, or "-" for standard input
  std::string output = "-";   // the script; "-": standard output
  bool no_values = false;     // reads become plain reads
  bool no_time = false;       // no step lines
  CaptureOptions capture_options;
};

// Exit status: 0 when the script was written (malformed lines are skipped
// and reported, not fatal), 2 on a usage, database or file error.
int RunImportCommand(const ImportCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
