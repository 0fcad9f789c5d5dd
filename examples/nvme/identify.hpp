#pragma once
// Identify Controller (opcode 06h, CNS 01h) through the admin queue, and
// the fields of its 4096-byte data structure a driver's bring-up reads
// (include/linux/nvme.h struct nvme_id_ctrl, NVME_ID_CNS_*).

#include <cstdint>

#include "examples/nvme/admin_queue.hpp"
#include "examples/nvme/host_memory.hpp"

namespace regemu::nvme {

inline constexpr uint8_t kOpcodeIdentify = 0x06;
inline constexpr uint8_t kCnsController = 0x01;
inline constexpr unsigned kIdentifySize = 4096;

struct IdCtrl {
  uint16_t vid = 0;    // bytes 1:0, PCI vendor ID
  uint16_t ssvid = 0;  // bytes 3:2
  uint8_t mdts = 0;    // byte 77: max transfer 2^MDTS minimum pages
  uint32_t ver = 0;    // bytes 83:80
  uint8_t sqes = 0;    // byte 512: 3:0 required, 7:4 maximum (2^n bytes)
  uint8_t cqes = 0;    // byte 513
  uint32_t nn = 0;     // bytes 519:516, number of namespaces
};

struct IdentifyResult {
  Status status = Status::kTimedOut;
  Completion completion;  // valid when status is kOk
  IdCtrl id;              // valid when status is kOk and completion.status is 0
};

// nvme_identify_ctrl: the command with PRP1 = `buffer_dma` (a zeroed,
// page-aligned 4 KiB buffer), executed on `queue`, then the fields read
// back from the buffer.
IdentifyResult IdentifyController(AdminQueue& queue, HostMemory& memory, uint64_t buffer_dma);

}  // namespace regemu::nvme
