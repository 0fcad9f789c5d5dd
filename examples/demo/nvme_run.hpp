#pragma once
// The example NVMe driver (examples/nvme) on the shipped yaml/nvme: the
// controller brought up, identified and shut down, then one of its bugs on
// a fresh device with the violation regemu reports.

#include <filesystem>
#include <ostream>

namespace regemu::demo {

// True when the driver ran clean with the expected Identify data and the
// bug recorded exactly its violation.
bool RunNvme(const std::filesystem::path& database, std::ostream& out);

}  // namespace regemu::demo
