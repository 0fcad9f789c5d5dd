#pragma once
// `regemu snapshot DB [SCRIPT] [--space NAME] [--size BYTES] -o FILE`: load
// and check a database, run a script against a fresh device (leniently: a
// driver's sequence that breaks a rule still gets its snapshot), then write
// one space as the binary image a driver reads (space_image.hpp), the file
// IGT's `intel_reg --mmio=FILE --devid=ID read|dump` decodes.

#include <iosfwd>
#include <string>

namespace regemu::tools {

struct SnapshotOptions {
  std::string database;
  std::string script;  // "" none; a file, or "-" for standard input
  std::string space;   // "" the database's first mmio space
  std::string size;    // "" the whole space; else the bytes from offset 0 (decimal, 0x hex)
  std::string output;  // a file, or "-" for standard output
};

// Exit status: 0 written, 1 written but an expectation of the script
// failed, 2 on a usage error, a database or script error, a space without
// an image (an MSR space, more than 256 MiB) or a file that could not be
// written (then no file is left).
int RunSnapshot(const SnapshotOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
