#pragma once
// What a PCI function on virt-pci's wire answers: the requests the kernel
// sends on the command queue (arch/um/drivers/virt-pci.c, um_pci_send_cmd),
// decoded by VhostUserSlave.

#include <cstdint>
#include <span>
#include <string>

namespace regemu::uml {

class GuestMemory;

class PciFunction {
 public:
  virtual ~PciFunction() = default;
  virtual void ConfigRead(uint64_t offset, std::span<uint8_t> out) = 0;
  virtual void ConfigWrite(uint64_t offset, std::span<const uint8_t> data) = 0;
  virtual void MmioRead(unsigned bar, uint64_t offset, std::span<uint8_t> out) = 0;
  virtual void MmioWrite(unsigned bar, uint64_t offset, std::span<const uint8_t> data) = 0;
  virtual void MmioMemset(unsigned bar, uint64_t offset, uint8_t value, uint64_t length) = 0;
  // The kernel side broke the protocol (a malformed message or descriptor
  // chain): reported; the connection goes on where it can.
  virtual void ProtocolError(const std::string& what) = 0;
  // The memory table changed (SET_MEM_TABLE): DMA now reaches these regions.
  virtual void MemoryChanged(const GuestMemory& memory) = 0;
};

}  // namespace regemu::uml
