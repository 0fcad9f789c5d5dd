#pragma once
// What the PCI core did before the traced driver ran and a capture cannot
// show: an mmiotrace sees no configuration-space access, yet the driver's
// MMIO works because pci_enable_device turned memory decode on. Replay does
// these writes on its device; import writes them into its script.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"

namespace regemu::traces {

struct SetupWrite {
  const regdb::Register* reg = nullptr;  // a pci-config behaviour's command register
  uint64_t value = 0;                    // its reset with PCI_COMMAND_MEMORY set
};

// One write per pci-config behaviour that gates memory spaces.
std::vector<SetupWrite> MemoryDecodeWrites(const regdb::Database& db);

}  // namespace regemu::traces
