#pragma once
// The driver's CPU view of graphics memory at GGTT addresses: how i915
// reaches the OA buffer (through the kernel mapping of its pinned GGTT
// object, stream->oa_buffer.vaddr). A seam like MmioBus: on the emulator it
// is the device's memory space (device_ggtt_memory.hpp), in unit tests a
// plain array.

#include <cstdint>
#include <span>

namespace regemu::i915_perf {

class GgttMemory {
 public:
  virtual ~GgttMemory() = default;
  virtual void Read(uint64_t address, std::span<uint8_t> out) = 0;
  virtual void Write(uint64_t address, std::span<const uint8_t> bytes) = 0;
};

}  // namespace regemu::i915_perf
