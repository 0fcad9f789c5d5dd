#pragma once
// HostMemory onto an emulator device's `host` memory space
// (examples/device_memory.hpp).

#include <string_view>

#include "examples/device_memory.hpp"
#include "examples/nvme/host_memory.hpp"

namespace regemu::nvme {

class DeviceHostMemory : public examples::DeviceMemory<HostMemory> {
 public:
  explicit DeviceHostMemory(emulator::Device& device, std::string_view space = "host")
      : DeviceMemory(device, space) {}
};

}  // namespace regemu::nvme
