#pragma once
// `regemu doc DB -o DIR`: a device's register map as a static HTML site
// (tools/docgen/doc_site.hpp), optionally painted with a test run's coverage.

#include <iosfwd>
#include <string>
#include <vector>

namespace regemu::tools {

struct DocOptions {
  std::string database;
  std::string output;
  // Coverage files (`REGEMU_COVERAGE`, `regemu coverage merge`) or folders
  // of them (coverage_files.hpp), merged and painted onto the map; empty:
  // no coverage.
  std::vector<std::string> coverage;
};

// Exit status: 0 written, 1 the database has errors, a coverage file is
// unreadable or has no model of the device, or a page cannot be written;
// 2 a path (the database or a coverage file) does not exist.
int RunDoc(const DocOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
