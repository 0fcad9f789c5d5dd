#pragma once
// Names of the PCI capability IDs the Ice Lake function lists, for output.

#include <cstdint>
#include <string>

#include "examples/i915_mini/pci_regs.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::demo {

inline std::string CapabilityName(uint64_t id) {
  namespace pci = i915_mini::pci;
  switch (id) {
    case pci::kCapIdPm: return "power-management";
    case pci::kCapIdMsi: return "MSI";
    case pci::kCapIdVndr: return "vendor-specific";
    case pci::kCapIdExp: return "PCIe";
    case pci::kCapIdMsix: return "MSI-X";
    default: return "ID " + regdb::Hex(id);
  }
}

inline std::string ExtCapabilityName(uint64_t id) {
  switch (id) {
    case 0x0F: return "ATS";
    case 0x10: return "SR-IOV";
    case 0x13: return "PRI";
    case 0x1B: return "PASID";
    default: return "ID " + regdb::Hex(id);
  }
}

}  // namespace regemu::demo
