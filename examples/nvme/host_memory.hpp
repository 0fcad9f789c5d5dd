#pragma once
// Host memory as the driver's CPU sees its DMA buffers (the admin queues,
// the Identify buffer), addressed by their DMA (bus) address: what
// dma_alloc_coherent hands nvme-pci. A seam like MmioBus: on the emulator
// it is the device's `host` memory space (device_host_memory.hpp).

#include <cstdint>
#include <span>

namespace regemu::nvme {

class HostMemory {
 public:
  virtual ~HostMemory() = default;
  virtual void Read(uint64_t address, std::span<uint8_t> out) = 0;
  virtual void Write(uint64_t address, std::span<const uint8_t> bytes) = 0;
};

}  // namespace regemu::nvme
