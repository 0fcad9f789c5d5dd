#pragma once
// `regemu run [--lenient] [--quiet] [--json] [--trace-capacity N] [--access-cost DURATION]
// [--oa-recording FILE [--oa-metric-set NAME]] DB SCRIPT`: load and check a
// database, run a script (`-`: standard input) against a fresh device, print
// the trace (as script lines that replay it, polls collapsed), what the
// script read, failed expectations, violations and a summary (`--quiet`:
// only failures, unannounced violations and the summary); optionally export
// the OA unit's reports as an i915-perf recording (oa_recording.hpp).

#include <cstddef>
#include <iosfwd>
#include <string>

namespace regemu::tools {

struct RunCommandOptions {
  std::string database;
  std::string script;  // a file, or "-" for standard input (named <stdin> in messages)
  bool lenient = false;
  bool quiet = false;  // no trace, values or announced violations
  // Print the run as one JSON document instead (run_json.hpp,
  // docs/run-json.schema.json); stderr keeps its messages.
  bool json = false;
  // Big enough for typical scripts and a few long polls; older entries are
  // dropped (and the drop is announced) past it.
  size_t trace_capacity = 65536;
  std::string access_cost = "0ns";  // virtual time each frontdoor access takes
  std::string oa_recording;           // the recording to write; empty: none
  std::string oa_metric_set = "RenderBasic";
};

// Exit status: 0 when every expectation held (and, unless lenient, no
// violation went unannounced), 1 when one did not, 2 on a usage error, a
// database error, a script error or a recording that could not be written.
int RunRunCommand(const RunCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
