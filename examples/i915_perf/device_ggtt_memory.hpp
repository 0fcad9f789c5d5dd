#pragma once
// GgttMemory onto an emulator device's `ggtt` memory space (bulk
// ReadMemory/WriteMemory): the CPU's mapping of the buffer the OA unit
// writes its reports into. Header-only; users link regemu::emulator.

#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "regemu/emulator/device.hpp"
#include "examples/i915_perf/ggtt_memory.hpp"

namespace regemu::i915_perf {

class DeviceGgttMemory : public GgttMemory {
 public:
  // Throws std::invalid_argument when the device's model has no such space.
  explicit DeviceGgttMemory(emulator::Device& device, std::string_view space = "ggtt")
      : device_(&device), space_(Find(device, space)) {}

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

}  // namespace regemu::i915_perf
