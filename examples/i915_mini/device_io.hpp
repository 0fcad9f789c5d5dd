#pragma once
// Register IO straight onto an emulator device's frontdoor, with no
// MmioBus (no virtual call) in between: what the driver's templates run on
// when a benchmark wants the emulator's own cost as the baseline.
// Header-only; users link regemu::emulator.

#include <cstdint>

#include "regemu/emulator/device.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_mini {

class DeviceIo {
 public:
  DeviceIo(emulator::Device& device, emulator::SpaceId space) : device_(&device), space_(space) {}
  uint64_t Read(uint64_t offset, unsigned width) { return device_->Read(space_, offset, width); }
  void Write(uint64_t offset, unsigned width, uint64_t value) { device_->Write(space_, offset, width, value); }

 private:
  emulator::Device* device_;
  emulator::SpaceId space_;
};
static_assert(fakes::MmioBusLike<DeviceIo>);

}  // namespace regemu::i915_mini
