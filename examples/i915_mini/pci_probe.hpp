#pragma once
// What the PCI core learns about the function before i915 binds to it, done
// the way Linux does it (drivers/pci/probe.c, pci.c, msi/msi.c): BAR sizing
// (pci_read_bases), the capability list (pci_find_capability) and the
// extended list (pci_find_ext_capability), then pci_enable_device and
// pci_set_master.

#include <cstdint>
#include <optional>
#include <vector>

#include "examples/i915_mini/bugs.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_mini {

struct Bar {
  unsigned index = 0;  // BAR number: 0..5
  uint64_t size = 0;   // bytes
  bool io = false;
  bool is_64bit = false;
  bool prefetchable = false;
};

struct Capability {
  uint8_t id = 0;
  uint8_t offset = 0;
};

struct ExtCapability {
  uint16_t id = 0;
  uint8_t version = 0;
  uint16_t offset = 0;
};

struct PciProbeResult {
  uint16_t vendor_id = 0;
  uint16_t device_id = 0;
  std::vector<Bar> bars;  // implemented BARs, in order
  uint64_t rom_size = 0;  // 0: no expansion ROM
  std::vector<Capability> capabilities;         // in list order
  std::vector<ExtCapability> ext_capabilities;  // in list order
  bool msi_enabled = false;  // set by the driver once it enabled MSI

  std::optional<uint8_t> FindCapability(uint8_t id) const;
  const Bar* FindBar(unsigned index) const;
};

// pci_read_bases: decoding off while sizing, each BAR dword written with
// all-ones, read back and restored (a 64-bit BAR's upper dword too), then
// the ROM. `result` gets the BARs and the ROM size.
void SizeBars(fakes::MmioBus& config, PciProbeResult& result);

// The standard list from the pointer at 0x34 (if the status register
// says there is one) and the extended list from 0x100, bounded as Linux
// bounds them.
void WalkCapabilities(fakes::MmioBus& config, PciProbeResult& result);

// pci_enable_device (memory decode) and pci_set_master: each bit written
// only if it is not set yet, with 16-bit writes of COMMAND (with
// Bug::kRmwCommandStatus, one dword read-modify-write of COMMAND + STATUS).
void EnableDevice(fakes::MmioBus& config, Bugs bugs = {});

}  // namespace regemu::i915_mini
