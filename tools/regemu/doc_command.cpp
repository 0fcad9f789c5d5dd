#include "tools/regemu/doc_command.hpp"

#include <chrono>
#include <filesystem>
#include <ostream>

#include "regemu/emulator/coverage.hpp"
#include "tools/docgen/doc_site.hpp"
#include "tools/regemu/register_lookup.hpp"

namespace regemu::tools {

int RunDoc(const DocOptions& options, std::ostream& out, std::ostream& err) {
  auto start = std::chrono::steady_clock::now();
  auto loaded = LoadForReading(options.database, "doc", err);
  if (const int* status = std::get_if<int>(&loaded)) return *status;
  const regdb::LoadedDatabase& db = std::get<regdb::LoadedDatabase>(loaded);

  docgen::CoverageMarks coverage;
  if (!options.coverage.empty()) {
    emulator::CoverageData merged;
    std::string sources;
    for (const std::string& file : options.coverage) {
      emulator::CoverageData data;
      std::string error;
      if (!emulator::ReadCoverageFile(file, data, error)) {
        err << "regemu doc: " << error << "\n";
        return 1;
      }
      emulator::MergeInto(merged, data);
      sources += (sources.empty() ? "" : ", ") + std::filesystem::path(file).filename().string();
    }
    std::string error;
    const emulator::ModelCoverage* model = docgen::ModelFor(merged, db.database, error);
    if (model == nullptr) {
      err << "regemu doc: " << error << "\n";
      return 1;
    }
    if (options.coverage.size() > 1) sources = std::to_string(options.coverage.size()) + " files";
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
