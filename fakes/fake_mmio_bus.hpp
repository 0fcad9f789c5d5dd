#pragma once
// An MmioBus backed by an emulator device: every access goes through the
// device's frontdoor (access semantics, side effects, violations, trace).

#include <string_view>

#include "regemu/emulator/device.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::fakes {

class FakeMmioBus : public MmioBus {
 public:
  // Throws std::invalid_argument when the device's model has no such space.
  FakeMmioBus(emulator::Device& device, std::string_view space);

  uint64_t Read(uint64_t offset, unsigned width) override { return device_->Read(space_, offset, width); }
  void Write(uint64_t offset, unsigned width, uint64_t value) override { device_->Write(space_, offset, width, value); }

  emulator::Device& device() const { return *device_; }
  emulator::SpaceId space() const { return space_; }

 private:
  emulator::Device* device_;
  emulator::SpaceId space_;
};

}  // namespace regemu::fakes
