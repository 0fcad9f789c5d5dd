#pragma once
// The example MI200 counter collector (examples/rocm_collector) on the
// shipped yaml/mi200: a workload injected while it counts, its metrics next
// to regemu's oracle, then each of its bugs.

#include <filesystem>
#include <ostream>

namespace regemu::demo {

// True when the collector's metrics match the oracle and each bug shows:
// a metric or count the oracle contradicts, or a protocol violation.
bool RunRocmCollector(const std::filesystem::path& database, std::ostream& out);

}  // namespace regemu::demo
