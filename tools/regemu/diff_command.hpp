#pragma once
// `regemu diff A B [--db DB] [--context N] [--format F] [--map SPACE=BASE]...
// [--device VVVV:DDDD]`: compares two driver runs, captures (mmiotrace,
// i915_reg_rw, R/W logs) or regemu scripts, as access sequences
// (tools/traces/access_sequence.hpp): register names with --db, polls
// collapsed, volatile bits left out; prints a unified diff of the steps.

#include <iosfwd>
#include <string>

#include "tools/regemu/capture_options.hpp"

namespace regemu::tools {

struct DiffCommandOptions {
  std::string a;
  std::string b;
  std::string database;  // "" for none: raw addresses, scripts refused
  int context = 3;
  CaptureOptions capture_options;
};

// Exit status: 0 when the two runs make the same steps, 1 when they differ,
// 2 on a usage, database or file error.
int RunDiffCommand(const DiffCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
