#pragma once
// The messages of virt-pci (include/uapi/linux/virtio_pcidev.h,
// arch/um/drivers/virt-pci.c): one 16-byte header and inline data, on the
// command queue (vq 0, guest to device) and the interrupt queue (vq 1,
// device to guest).

#include <cstdint>

namespace regemu::uml {

enum PcidevOp : uint8_t {
  kOpReserved = 0,
  kOpCfgRead = 1,
  kOpCfgWrite = 2,
  kOpMmioRead = 3,
  kOpMmioWrite = 4,
  kOpMmioMemset = 5,
  kOpInt = 6,
  kOpMsi = 7,
  kOpPme = 8,
};

#pragma pack(push, 1)
struct PcidevHeader {
  uint8_t op;
  uint8_t bar;
  uint16_t reserved;
  uint32_t size;
  uint64_t addr;
};
#pragma pack(pop)
static_assert(sizeof(PcidevHeader) == 16);

inline constexpr unsigned kCommandQueue = 0;
inline constexpr unsigned kInterruptQueue = 1;
// The buffers virt-pci posts on the interrupt queue hold a header and 4
// bytes of data (MAX_IRQ_MSG_SIZE).
inline constexpr uint32_t kIrqMessageSize = sizeof(PcidevHeader) + 4;
// The largest transfer this side carries out in one request; virt-pci
// sends memcpy_fromio/toio as one request of any length.
inline constexpr uint32_t kMaxTransfer = 64 * 1024;

}  // namespace regemu::uml
