#pragma once
// GgttMemory onto an emulator device's `ggtt` memory space
// (examples/device_memory.hpp): the CPU's mapping of the buffer the OA unit
// writes its reports into.

#include <string_view>

#include "examples/device_memory.hpp"
#include "examples/i915_perf/ggtt_memory.hpp"

namespace regemu::i915_perf {

class DeviceGgttMemory : public examples::DeviceMemory<GgttMemory> {
 public:
  explicit DeviceGgttMemory(emulator::Device& device, std::string_view space = "ggtt")
      : DeviceMemory(device, space) {}
};

}  // namespace regemu::i915_perf
