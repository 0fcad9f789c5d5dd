#pragma once
// MSI, enabled in the order of Linux's msi_capability_init
// (drivers/pci/msi/msi.c), for one vector.

#include <cstdint>

#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_mini {

// The memory write the function will issue per interrupt (from the
// platform's interrupt controller: on x86, an APIC address and vector).
struct MsiMessage {
  uint64_t address = 0;
  uint16_t data = 0;
};

// Programs and enables MSI at capability position `pos`: enable bit off,
// vector masked (with per-vector masking), QSIZE, address and data, a
// flushing read, INTx disabled in the command register, enable bit on,
// vector unmasked.
void EnableMsi(fakes::MmioBus& config, uint8_t pos, const MsiMessage& message);

}  // namespace regemu::i915_mini
