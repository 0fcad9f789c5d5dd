#include "tools/regemu/doc_command.hpp"

#include <chrono>
#include <filesystem>
#include <optional>
#include <ostream>

#include "regemu/emulator/coverage/coverage.hpp"
#include "tools/docgen/doc_site.hpp"
#include "tools/regemu/coverage_files.hpp"
#include "tools/regemu/register_lookup.hpp"

namespace regemu::tools {

int RunDoc(const DocOptions& options, std::ostream& out, std::ostream& err) {
  auto start = std::chrono::steady_clock::now();
  auto loaded = LoadForReading(options.database, "doc", err);
  if (const int* status = std::get_if<int>(&loaded)) return *status;
  const regdb::LoadedDatabase& db = std::get<regdb::LoadedDatabase>(loaded);

  docgen::CoverageMarks coverage;
  if (!options.coverage.empty()) {
    int status = 0;
    size_t count = 0;
    std::optional<emulator::CoverageData> merged = LoadCoverageFiles(options.coverage, "regemu doc", err, status, count);
    if (!merged) return status;
    std::string error;
    const emulator::ModelCoverage* model = docgen::ModelFor(*merged, db.database, error);
    if (model == nullptr) {
      err << "regemu doc: " << error << "\n";
      return 1;
    }
    std::string sources = options.coverage.size() == 1 && count == 1
                              ? std::filesystem::path(options.coverage.front()).filename().string()
                              : std::to_string(count) + " files";
    coverage = docgen::MarksFrom(*model, db.database, sources);
  }
  docgen::DocSiteStats stats;
  std::string error;
  if (!docgen::WriteDocSite(db, coverage, options.output, stats, error)) {
    err << "regemu doc: " << error << "\n";
    return 1;
  }
  // Wall time, for the user: how long a map of this size takes.
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out << "regemu doc: wrote " << stats.pages << " files (" << (stats.bytes + 512 * 1024) / (1024 * 1024) << " MiB) for "
      << db.database.registers.size() << " registers to " << options.output << " in " << static_cast<int>(seconds * 1000)
      << " ms; open " << options.output << "/index.html\n";
  return 0;
}

}  // namespace regemu::tools
