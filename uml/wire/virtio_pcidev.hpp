#pragma once
// The virtio-pcidev protocol: PCI configuration and BAR accesses carried
// over two virtqueues, as User-Mode Linux's virt-pci driver speaks it
// (include/uapi/linux/virtio_pcidev.h and arch/um/drivers/virt-pci.c,
// Linux 6.1). Header fields are in native byte order, data little endian.

#include <cstddef>
#include <cstdint>

namespace regemu::uml::pcidev {

// enum virtio_pcidev_ops.
enum class Op : uint8_t {
  kReserved = 0,
  kCfgRead = 1,     // addr: config offset; size 1, 2, 4 or 8; device writes `size` bytes LE
  kCfgWrite = 2,    // data: `size` bytes LE
  kMmioRead = 3,    // bar: BAR index; addr: offset inside the BAR; any size
  kMmioWrite = 4,
  kMmioMemset = 5,  // data[0]: the byte; size: the length
  kInt = 6,         // device -> guest: INTx, addr = pin 1-4
  kMsi = 7,         // device -> guest: MSI(-X) data, 16 or 32 bits (size == 4)
  kPme = 8,         // device -> guest: PME#, content ignored
};

// struct virtio_pcidev_msg without its flexible `data[]`.
struct MessageHeader {
  uint8_t op = 0;
  uint8_t bar = 0;
  uint16_t reserved = 0;
  uint32_t size = 0;
  uint64_t addr = 0;
};
static_assert(sizeof(MessageHeader) == 16, "struct virtio_pcidev_msg has a 16-byte header");

// vq0 carries the guest's requests, vq1 the device's interrupts
// (um_pci_init_vqs: names "cmd" and "irq").
inline constexpr unsigned kCommandQueue = 0;
inline constexpr unsigned kIrqQueue = 1;
inline constexpr unsigned kNumQueues = 2;

// MAX_IRQ_MSG_SIZE (virt-pci.c): the header and a 32-bit MSI payload; the
// guest pre-posts NUM_IRQ_MSGS = 10 such buffers on vq1 (um_pci_init_vqs)
// and handles one only if the used length is at least the header
// (um_pci_irq_vq_cb).
inline constexpr size_t kMaxIrqMessageSize = sizeof(MessageHeader) + sizeof(uint32_t);
inline constexpr unsigned kNumIrqMessages = 10;

// PCI_STD_NUM_BARS, and virt-pci's CFG_SPACE_SIZE (a 4 KiB window per device).
inline constexpr unsigned kNumBars = 6;
inline constexpr uint64_t kConfigSpaceSize = 4096;

// CFG_READ's device-writable buffer is always 8 bytes, whatever `size`
// (um_pci_cfgspace_read passes sizeof(buf->data)).
inline constexpr size_t kConfigReadBufferSize = 8;

}  // namespace regemu::uml::pcidev
