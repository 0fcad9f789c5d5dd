#pragma once
// `regemu check PATH...`: load and check databases, print diagnostics.

#include <iosfwd>
#include <string>
#include <vector>

namespace regemu::tools {

struct CheckOptions {
  std::vector<std::string> paths;
  bool json = false;
  size_t max_errors = 50;
};

// Exit status: 0 when every database is clean, 1 when any has errors,
// 2 when a path does not exist (a usage error).
int RunCheck(const CheckOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
