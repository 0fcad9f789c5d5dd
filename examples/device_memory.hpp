#pragma once
// A driver's view of memory the device reaches by DMA (an interface with
// Read and Write at bus addresses: nvme's HostMemory, i915-perf's
// GgttMemory) onto an emulator device's `memory` space, through bulk
// ReadMemory/WriteMemory: the backdoor, untraced, as the CPU's own loads
// and stores are not bus accesses of the device. Header-only; users link
// regemu::emulator.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "regemu/emulator/device.hpp"

namespace regemu::examples {

template <class Memory>
class DeviceMemory : public Memory {
 public:
  // Throws std::invalid_argument when the device's model has no such space.
  DeviceMemory(emulator::Device& device, std::string_view space) : device_(&device), space_(Find(device, space)) {}

  void Read(uint64_t address, std::span<uint8_t> out) override { device_->ReadMemory(space_, address, out); }
  void Write(uint64_t address, std::span<const uint8_t> bytes) override {
    device_->WriteMemory(space_, address, bytes);
  }

 private:
  static emulator::SpaceId Find(const emulator::Device& device, std::string_view space) {
    auto id = device.model().FindSpace(space);
    if (!id) throw std::invalid_argument("the device has no memory space '" + std::string(space) + "'");
    return *id;
  }

  emulator::Device* device_;
  emulator::SpaceId space_;
};

}  // namespace regemu::examples
