#pragma once
// `regemu convert svd FILE -o DIR`: a CMSIS-SVD file into a database folder.
// `regemu convert --to svd DB -o FILE`: a database out as CMSIS-SVD.

#include <iosfwd>
#include <string>
#include <vector>

namespace regemu::tools {

struct ConvertOptions {
  std::vector<std::string> inputs;  // "svd FILE", or DB with --to
  std::string to;                   // "" (into a database) or "svd"
  std::string output;
};

// Exit status: 0 written, 1 the input has errors (nothing written), 2 usage or I/O error.
int RunConvert(const ConvertOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
