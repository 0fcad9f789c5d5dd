#pragma once
// `regemu replay DB TRACE [--json] [--format F] [--map SPACE=BASE]...
// [--device VVVV:DDDD]`: replays a capture of a real driver (mmiotrace,
// i915_reg_rw, R/W log) against a database and reports the database's
// gaps, its mistakes against what hardware answered, and the driver's
// violations (tools/traces/capture_replay.hpp), as a table or JSON.

#include <iosfwd>
#include <string>

#include "tools/regemu/capture_options.hpp"

namespace regemu::tools {

struct ReplayCommandOptions {
  std::string database;
  std::string capture;  // a file, or "-" for standard input
  bool json = false;
  CaptureOptions capture_options;
};

// Exit status: 0 when the capture replays clean (no gap, mistake or
// violation), 1 when it has findings, 2 on a usage, database or file error.
int RunReplayCommand(const ReplayCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
