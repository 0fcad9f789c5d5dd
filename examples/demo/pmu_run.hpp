#pragma once
// The example Goldmont PMU driver (examples/goldmont_perf) on the shipped
// yaml/goldmont: counting and sampling with injected events, then each of
// its bugs on a fresh device with the violation regemu reports.

#include <filesystem>
#include <ostream>

namespace regemu::demo {

// True when the driver ran clean with the expected counts and each bug
// recorded exactly its kind of violation.
bool RunGoldmontPmu(const std::filesystem::path& database, std::ostream& out);

}  // namespace regemu::demo
