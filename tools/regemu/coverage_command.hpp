#pragma once
// `regemu coverage merge -o OUT FILE...` and `regemu coverage report
// FILE... [--json]`: the coverage files test processes wrote
// (REGEMU_COVERAGE, docs/coverage.md), combined. A FILE may be a
// folder: every *.json file directly in it.

#include <iosfwd>
#include <string>
#include <vector>

namespace regemu::tools {

struct CoverageMergeOptions {
  std::vector<std::string> files;
  std::string output;  // - for stdout
};

struct CoverageReportOptions {
  std::vector<std::string> files;
  bool json = false;
};

// Exit status: 0 done, 1 a file is not a readable coverage file (each is
// named) or OUT cannot be written, 2 a path does not exist.
int RunCoverageMerge(const CoverageMergeOptions& options, std::ostream& out, std::ostream& err);
int RunCoverageReport(const CoverageReportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
