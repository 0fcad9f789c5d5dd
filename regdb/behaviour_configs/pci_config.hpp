#pragma once
// `kind: pci-config`: the PCI function's configuration-space machinery
// (memory decode, power states, MSI, the aperture size).

#include <cstdint>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct PciConfigConfig : BehaviourConfig {
  // An optional register left out; the same value as the emulator's kNoRegister.
  static constexpr RegisterIndex kNone = ~RegisterIndex{0};

  // All in the function's configuration space, at their PCI widths.
  RegisterIndex command = 0;
  RegisterIndex status = kNone;
  RegisterIndex power = kNone;            // PMCS
  std::vector<SpaceIndex> memory_spaces;  // the BARs' spaces: none is a pci-config space
  bool has_msi = false;
  RegisterIndex msi_control = kNone;
  RegisterIndex msi_address = kNone;
  RegisterIndex msi_data = kNone;
  RegisterIndex msi_mask = kNone;  // per-vector masking: both or neither
  RegisterIndex msi_pending = kNone;
  // MSI-X (PCI Local Bus 3.0 §6.8.2): Message Control in configuration
  // space; each vector's table entry (four dwords) and the PBA word holding
  // its pending bit, registers of the BAR that MTAB's and MPBA's BIR names.
  struct MsixVector {
    RegisterIndex address = kNone;  // Message Address (low dword)
    RegisterIndex upper_address = kNone;
    RegisterIndex data = kNone;
    RegisterIndex control = kNone;  // Vector Control
    RegisterIndex pending = kNone;  // the register holding the vector's PBA bit
    unsigned pending_bit = 0;       // that bit, within `pending`
  };
  bool has_msix = false;
  RegisterIndex msix_control = kNone;
  // Vector 0 alone (the device's one interrupt request), or with `vectors:`
  // every vector of the table (Table Size + 1).
  std::vector<MsixVector> msix_vectors;
  // `vectors:`: bit n of this register is vector n's request.
  RegisterIndex msix_requests = kNone;
  RegisterIndex aperture = kNone;  // the aperture BAR
  RegisterIndex aperture_size = kNone;
  FieldBits aperture_size_bits;  // its size control field (Intel MSAC.APSZ)

  bool RoutesInterrupts() const override { return true; }
};

}  // namespace regemu::regdb
