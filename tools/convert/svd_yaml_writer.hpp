#pragma once
// An SvdDevice as a regemu database: device.yaml (the device, its one bus
// space, the includes) and one file per peripheral under peripherals/.
//
// One space for the whole bus, not one per peripheral: SVD addresses are
// the CPU's, so a driver's CMSIS base addresses work unchanged on one
// MmioBus, peripherals derived from another become instances of one block
// in that space, and `regemu check` sees peripherals that overlap. An
// <alternatePeripheral> (a second view of another one's addresses) is the
// exception: it gets a space of its own.
//
// A peripheral is a block whose instances are itself and the peripherals
// derived from it (UART0, UART1), so its registers are named
// PERIPHERAL_REGISTER. With <prependToName> its registers are loose, named
// prefix + name + <appendToName>.

#include <map>
#include <string>

#include "tools/convert/svd_model.hpp"

namespace regemu::convert {

// File path (relative to the output folder) → text. `source_name` is named
// in each file's header comment.
std::map<std::string, std::string> WriteDatabaseYaml(const SvdDevice& device, const std::string& source_name);

}  // namespace regemu::convert
