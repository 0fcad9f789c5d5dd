#include "regemu/fakes/fake_mmio_bus.hpp"

#include <stdexcept>
#include <string>

namespace regemu::fakes {

FakeMmioBus::FakeMmioBus(emulator::Device& device, std::string_view space) : device_(&device), space_(0) {
  auto id = device.model().FindSpace(space);
  if (!id) {
    throw std::invalid_argument("FakeMmioBus: device '" + device.model().device() + "' has no space '" +
                                std::string(space) + "'");
  }
  space_ = *id;
}

}  // namespace regemu::fakes
