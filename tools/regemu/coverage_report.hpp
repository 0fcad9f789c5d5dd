#pragma once
// What `regemu coverage report` prints: per model, registers read and
// written, fields changed, policy effects, each behaviour's points by
// group, and violations; as a table for people or as JSON for scripts
// (the schema is in docs/coverage.md).

#include <iosfwd>

#include "regemu/emulator/coverage/coverage.hpp"

namespace regemu::tools {

void PrintCoverageTable(const emulator::CoverageData& data, std::ostream& out);
void PrintCoverageJson(const emulator::CoverageData& data, std::ostream& out);

}  // namespace regemu::tools
