#pragma once
// The admin queue pair as nvme-pci drives it (NVMe 1.4 §4 [M]; Linux
// nvme pci.c nvme_sq_copy_cmd, nvme_write_sq_db, nvme_ring_cq_doorbell): the
// 64-byte submission entries copied to the SQ tail in host memory and the
// tail doorbell (nvme_sq_copy_cmd, nvme_write_sq_db), the 16-byte
// completion entries recognised by their phase tag at the CQ head
// (nvme_cqe_pending), the head advanced with the expected phase flipped at
// each wrap (nvme_update_cq_head), and the head doorbell
// (nvme_ring_cq_doorbell).

#include <array>
#include <cstdint>
#include <functional>
#include <optional>

#include "examples/nvme/ctrl.hpp"
#include "examples/nvme/host_memory.hpp"

namespace regemu::nvme {

inline constexpr unsigned kSqeSize = 64;  // NVME_ADM_SQES = 6
inline constexpr unsigned kCqeSize = 16;
inline constexpr uint16_t kAdminQueueDepth = 32;  // NVME_AQ_DEPTH

// A submission queue entry's fields (struct nvme_common_command); the CID
// is the queue's to assign.
struct Command {
  uint8_t opcode = 0;
  uint32_t nsid = 0;
  uint64_t prp1 = 0;
  uint64_t prp2 = 0;
  std::array<uint32_t, 6> cdw10_15{};

  // The 64 bytes, little-endian, with command identifier `cid`.
  std::array<uint8_t, kSqeSize> Encode(uint16_t cid) const;
};

// A completion queue entry (struct nvme_completion).
struct Completion {
  uint32_t result = 0;
  uint16_t sq_head = 0;
  uint16_t sq_id = 0;
  uint16_t cid = 0;
  uint16_t status = 0;  // the status field without the phase tag: SC 7:0, SCT 10:8, CRD, M, DNR 14

  static Completion Decode(const std::array<uint8_t, kCqeSize>& bytes);
};

struct AdminQueueConfig {
  uint64_t sq_dma = 0x1'2345'6000;  // page-aligned DMA addresses of the two rings
  uint64_t cq_dma = 0x1'2345'7000;
  uint16_t depth = kAdminQueueDepth;
  // How long a synchronous admin command may take (ADMIN_TIMEOUT: 60 s).
  uint64_t timeout_ns = 60 * kSecond;
  // Whether the queue's interrupt is raised: the driver looks at the CQ
  // only then, as nvme_irq does. Empty: poll the CQ (nvme_poll).
  std::function<bool()> irq_pending;
};

class AdminQueue {
 public:
  AdminQueue(Ctrl& ctrl, HostMemory& memory, AdminQueueConfig config = {});

  const AdminQueueConfig& config() const { return config_; }
  uint16_t sq_tail() const { return sq_tail_; }
  uint16_t cq_head() const { return cq_head_; }
  uint8_t cq_phase() const { return cq_phase_; }

  // nvme_init_queue: tail and head 0, expected phase 1, CQ memory zeroed.
  void Init();
  // Copies `command` with identifier `cid` to the SQ tail, advances the
  // tail (wrapping at the depth) and rings SQ0TDBL.
  void Submit(const Command& command, uint16_t cid);
  // nvme_cqe_pending + nvme_handle_cqe + nvme_update_cq_head for one entry:
  // the completion at the head if its phase tag is the expected one. Does
  // not ring the doorbell.
  std::optional<Completion> Reap();
  // nvme_ring_cq_doorbell: writes the CQ head to CQ0HDBL.
  void RingCqDoorbell();
  // Submit, then wait (irq_pending, or polling) until the completion with
  // `command`'s identifier arrives; rings the CQ head doorbell for what it
  // consumed. kTimedOut after config().timeout_ns, kBadCompletion when an
  // entry with another identifier shows up.
  Status Execute(const Command& command, Completion& completion);

 private:
  uint16_t NextCid();

  Ctrl& ctrl_;
  HostMemory& memory_;
  AdminQueueConfig config_;
  uint16_t sq_tail_ = 0;
  uint16_t cq_head_ = 0;
  uint8_t cq_phase_ = 1;
  uint8_t genctr_ = 0;  // nvme_cid's generation counter, 4 bits
};

}  // namespace regemu::nvme
