#pragma once
// One PCI function of a regemu device, as the kernel's virt-pci driver
// reaches it (arch/um/drivers/virt-pci.c): configuration reads and writes
// go to the database's `pci-config` space, MMIO to the space with
// `pci_bar: N`, both through the device's frontdoor, so access semantics,
// behaviours, rules, violations, trace and coverage apply exactly as to
// any other driver's access. The device's memory spaces that no BAR
// decodes are the host memory it reaches by DMA: they are backed by the
// kernel's RAM that vhost-user shares (Device::AttachExternalMemory).
//
// Interrupts leave the other way: the device's MSI and MSI-X messages
// (DeviceOptions::on_message) and the rising edges of its INTx line are
// collected here and handed to the transport by TakeInterrupts, after the
// access that raised them, outside the device's lock.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/uml/vhost/pci_function.hpp"

namespace regemu::uml {

// What the function sends the kernel: an MSI/MSI-X message's data, or an INTx edge.
struct InterruptOut {
  bool intx = false;
  uint32_t data = 0;
};

class DeviceFunction final : public PciFunction {
 public:
  // `device` outlives this function. Throws std::invalid_argument when the
  // model has no `pci-config` space.
  explicit DeviceFunction(emulator::Device& device);

  // On the device's options before it is built: collects its messages here.
  static void Observe(emulator::DeviceOptions& options, std::vector<InterruptOut>& sink);

  void ConfigRead(uint64_t offset, std::span<uint8_t> out) override;
  void ConfigWrite(uint64_t offset, std::span<const uint8_t> data) override;
  void MmioRead(unsigned bar, uint64_t offset, std::span<uint8_t> out) override;
  void MmioWrite(unsigned bar, uint64_t offset, std::span<const uint8_t> data) override;
  void MmioMemset(unsigned bar, uint64_t offset, uint8_t value, uint64_t length) override;
  void ProtocolError(const std::string& what) override;
  void MemoryChanged(const GuestMemory& memory) override;

  emulator::Device& device() { return device_; }
  // INTx edges since the last call are added to `sink` (messages arrive there directly).
  void CollectIntx(std::vector<InterruptOut>& sink);
  // The kernel side's protocol errors so far (bounded; later ones counted).
  const std::vector<std::string>& protocol_errors() const { return protocol_errors_; }
  uint64_t protocol_error_count() const { return protocol_error_count_; }

 private:
  // Splits [offset, offset + size) into naturally aligned accesses of 8, 4, 2 or 1 bytes.
  template <typename Access>
  void ForEachPiece(uint64_t offset, uint64_t size, Access access);
  std::optional<emulator::SpaceId> BarSpace(unsigned bar, uint64_t offset, uint64_t size, const char* what);

  emulator::Device& device_;
  emulator::SpaceId config_ = 0;
  std::vector<std::optional<emulator::SpaceId>> bars_;  // by BAR number, 0-5
  std::vector<emulator::SpaceId> dma_spaces_;           // memory spaces no BAR decodes
  uint64_t intx_edges_seen_ = 0;
  std::vector<std::string> protocol_errors_;
  uint64_t protocol_error_count_ = 0;
};

}  // namespace regemu::uml
