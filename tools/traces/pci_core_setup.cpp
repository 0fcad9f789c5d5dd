#include "tools/traces/pci_core_setup.hpp"

#include "regemu/regdb/behaviour_configs/pci_config.hpp"

namespace regemu::traces {

std::vector<SetupWrite> MemoryDecodeWrites(const regdb::Database& db) {
  std::vector<SetupWrite> writes;
  for (const regdb::BehaviourSpec& spec : db.behaviours) {
    const auto* pci = dynamic_cast<const regdb::PciConfigConfig*>(spec.config.get());
    if (!pci || pci->memory_spaces.empty()) continue;
    const regdb::Register& command = db.registers[pci->command];
    writes.push_back({&command, command.reset | 0x2});  // PCI_COMMAND_MEMORY
  }
  return writes;
}

}  // namespace regemu::traces
