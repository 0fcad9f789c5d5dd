#include "tools/regemu/import_command.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>

#include "tools/regemu/device_inputs.hpp"
#include "tools/traces/capture_import.hpp"

namespace regemu::tools {

int RunImportCommand(const ImportCommandOptions& options, std::ostream& out, std::ostream& err) {
  auto parsed = ParseCaptureOptions(options.capture_options, "import", err);
  if (!parsed) return 2;
  auto input = OpenInput(options.capture, "import", err);
  if (!input) return 2;
  if (!DatabaseExists("regemu import", options.database, err)) return 2;
  CompiledDatabase loaded = CompileDatabase(options.database, err);
  if (!loaded.model) return 2;

  std::ofstream file;
  std::ostream* script = &out;
  if (options.output != "-") {
    file.open(options.output, std::ios::binary | std::ios::trunc);
    if (!file) {
      err << "regemu import: cannot write " << options.output << "\n";
      return 2;
    }
    script = &file;
  }
  traces::ImportOptions import;
  import.format = parsed->format;
  import.mappings = parsed->mappings;
  import.device = parsed->device;
  import.values = !options.no_values;
  import.time = !options.no_time;
  std::string error;
  // Wall time, for the user's information only: how long a big capture took.
  auto start = std::chrono::steady_clock::now();
  traces::ImportStats stats = traces::ImportCapture(input->stream(), input->name(), loaded.loaded.database,
                                                    *loaded.model, import, *script, error);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!error.empty()) {
    err << "regemu import: " << error << "\n";
    std::error_code ec;
    if (file.is_open()) std::filesystem::remove(options.output, ec);
    return 2;
  }
  script->flush();
  if (!*script) {
    err << "regemu import: writing " << options.output << " failed\n";
    return 2;
  }
  for (const auto& problem : stats.problems) {
    err << input->name() << ":" << problem.line << ": error: " << problem.message << " (skipped)\n";
  }
  if (stats.problem_count > stats.problems.size()) {
    err << input->name() << ": " << stats.problem_count - stats.problems.size() << " more malformed line(s) skipped\n";
  }
  if (stats.read_failed) {
    err << "regemu import: reading " << input->name() << " failed\n";
    return 2;
  }
  for (const std::string& note : stats.notes) err << "regemu import: " << note << "\n";
  if (stats.unknown_records) {
    err << "regemu import: warning: " << stats.unknown_records
        << " UNKNOWN record(s) (accesses mmiotrace could not decode), first at line " << stats.unknown_lines.front()
        << "\n";
  }
  if (stats.lost_events) {
    err << "regemu import: warning: the tracer lost " << stats.lost_events << " event(s): the capture is incomplete\n";
  }
  if (stats.missing_bars) {
    err << "regemu import: warning: no PCIDEV line places the accesses; give --map SPACE=BASE (bus address)\n";
  }
  char timing[64];
  std::snprintf(timing, sizeof timing, "%.2f s", seconds);
  err << "regemu import: " << input->name() << " (" << (stats.format.empty() ? "no records" : stats.format) << "): "
      << stats.lines << " lines, " << stats.reads << " reads, " << stats.writes << " writes, " << stats.outside
      << " outside the database, " << stats.marks << " markers, " << stats.problem_count << " malformed; " << timing
      << (options.output == "-" ? "" : " -> " + options.output) << "\n";
  return 0;
}

}  // namespace regemu::tools
