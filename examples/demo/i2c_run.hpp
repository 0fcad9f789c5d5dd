#pragma once
// The example DesignWare I2C driver (examples/dw_i2c) on the shipped
// yaml/dw_i2c: probed and initialised as a 400 kHz master, a write-then-read
// of the EEPROM at 0x50 by interrupts, an absent address aborted, then one
// of its bugs on a fresh device with the violation regemu reports.

#include <filesystem>
#include <ostream>

namespace regemu::demo {

// True when the driver ran clean, the EEPROM's bytes came back at the
// bus's byte time, the absent address gave -EREMOTEIO, and the bug recorded
// exactly its violation.
bool RunI2c(const std::filesystem::path& database, std::ostream& out);

}  // namespace regemu::demo
