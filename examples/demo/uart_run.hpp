#pragma once
// The example 8250 driver (examples/uart16550) on the shipped
// yaml/uart16550: probed, started and set to 115200 8N1, a line sent by THRE
// interrupts and read back off the serial line with its timing, then one of
// its bugs on a fresh device with the violation regemu reports.

#include <filesystem>
#include <ostream>

namespace regemu::demo {

// True when the driver ran clean, the line came out whole at the line's
// rate, and the bug recorded exactly its violation.
bool RunUart(const std::filesystem::path& database, std::ostream& out);

}  // namespace regemu::demo
