#pragma once
// What nvme-core's struct nvme_ctrl and nvme-pci's struct nvme_dev keep
// between calls, reduced to the register-level state: the cached CAP and
// CC (ctrl_config), the doorbell stride and the queue depth; plus the seams
// (BAR0, the delay) and the bug switches.

#include <cstdint>
#include <functional>
#include <string_view>
#include <utility>

#include "examples/nvme/bugs.hpp"
#include "examples/nvme/delay.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::nvme {

// How a step ended; Linux's errno in words.
enum class Status : uint8_t {
  kOk,
  kNoDevice,          // -ENODEV: CSTS read all-ones (the function is gone)
  kTimedOut,          // nvme_wait_ready or an admin command ran out of time (Linux: -ENODEV / timeout)
  kPageSizeTooLarge,  // -ENODEV: CAP.MPSMIN above the host's 4 KiB page
  kBadCompletion,     // a completion carried a command identifier no command is waiting for
};

constexpr std::string_view StatusName(Status status) {
  switch (status) {
    case Status::kOk: return "ok";
    case Status::kNoDevice: return "no device";
    case Status::kTimedOut: return "timed out";
    case Status::kPageSizeTooLarge: return "minimum device page size too large";
    case Status::kBadCompletion: return "bad completion";
  }
  return "?";
}

// NVME_CTRL_PAGE_SHIFT: nvme-pci always uses 4 KiB controller pages.
inline constexpr unsigned kCtrlPageShift = 12;

struct Ctrl {
  Ctrl(fakes::MmioBus& bar0_bus, Delay delay_fn, Bugs bug_set)
      : bar0(bar0_bus), delay(std::move(delay_fn)), bugs(bug_set) {}

  fakes::MmioBus& bar0;
  Delay delay;
  Bugs bugs;
  uint64_t cap = 0;             // ctrl->cap, read in nvme_pci_enable and again in nvme_enable_ctrl
  uint32_t ctrl_config = 0;     // ctrl->ctrl_config: the CC value last written
  uint32_t db_stride = 1;       // dev->db_stride, in 32-bit doorbells
  uint32_t q_depth = 0;         // dev->q_depth (I/O queues)
  uint32_t shutdown_timeout_s = 5;  // the shutdown_timeout module parameter
  std::function<void(std::string_view)> on_step;  // tracepoints, for annotated traces

  void Step(std::string_view name) const {
    if (on_step) on_step(name);
  }
  // BAR0 offsets of queue `qid`'s doorbells (sq_idx, cq_idx).
  uint64_t SqDoorbell(uint16_t qid) const { return 0x1000 + uint64_t{2} * qid * 4 * db_stride; }
  uint64_t CqDoorbell(uint16_t qid) const { return SqDoorbell(qid) + 4 * db_stride; }
};

}  // namespace regemu::nvme
