#include "tools/regemu/check_command.hpp"

#include <filesystem>
#include <ostream>

#include "regemu/regdb/loader.hpp"
#include "tools/regemu/diagnostics_json.hpp"

namespace regemu::tools {

int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err) {
  for (const std::string& path : options.paths) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      err << "regemu check: no such file or folder: " << path << "\n";
      return 2;
    }
  }

  regdb::LoadOptions load_options;
  load_options.error_limit = options.max_errors;
  bool all_clean = true;
  nlohmann::json reports = nlohmann::json::array();
  for (const std::string& path : options.paths) {
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck(path, load_options);
    all_clean = all_clean && !loaded.diagnostics.has_errors();
    if (options.json) {
      reports.push_back(DatabaseReportJson(path, loaded));
      continue;
    }
    err << regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
    // The diagnostics go out before the summary on the other stream, whatever
    // either is attached to (terminal, pipe, file): flushing both here keeps
    // the order of a run's lines when they are read together (2>&1).
    err.flush();
    out << regdb::FormatAcknowledged(loaded.sources, loaded.diagnostics);
    const regdb::Database& db = loaded.database;
    if (loaded.diagnostics.has_errors()) {
      out << path << ": " << loaded.diagnostics.error_count() << " error(s)\n";
    } else {
      out << path << ": ok: device '" << db.device << "': " << db.spaces.size() << " space(s), "
          << db.registers.size() << " register(s), " << db.ranges.size() << " range(s), " << db.behaviours.size()
          << " behaviour(s)\n";
    }
    out.flush();
  }
  if (options.json) out << nlohmann::json{{"databases", reports}}.dump(2) << "\n";
  return all_clean ? 0 : 1;
}

}  // namespace regemu::tools
