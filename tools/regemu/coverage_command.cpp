#include "tools/regemu/coverage_command.hpp"

#include <optional>
#include <ostream>

#include "regemu/emulator/coverage/coverage.hpp"
#include "tools/regemu/coverage_files.hpp"
#include "tools/regemu/coverage_report.hpp"

namespace regemu::tools {

int RunCoverageMerge(const CoverageMergeOptions& options, std::ostream& out, std::ostream& err) {
  int status = 0;
  size_t count = 0;
  std::optional<emulator::CoverageData> merged =
      LoadCoverageFiles(options.files, "regemu coverage merge", err, status, count);
  if (!merged) return status;
  if (options.output == "-") {
    out << emulator::CoverageJson(*merged);
    return 0;
  }
  std::string error;
  if (!emulator::WriteCoverageFile(options.output, *merged, error)) {
    err << "regemu coverage merge: " << error << "\n";
    return 1;
  }
  err << "regemu coverage merge: " << count << " file(s), " << merged->processes << " process(es), "
      << merged->models.size() << " model(s) into " << options.output << "\n";
  return 0;
}

int RunCoverageReport(const CoverageReportOptions& options, std::ostream& out, std::ostream& err) {
  int status = 0;
  size_t count = 0;
  std::optional<emulator::CoverageData> merged =
      LoadCoverageFiles(options.files, "regemu coverage report", err, status, count);
  if (!merged) return status;
  if (options.json) {
    PrintCoverageJson(*merged, out);
  } else {
    PrintCoverageTable(*merged, out);
  }
  return 0;
}

}  // namespace regemu::tools
