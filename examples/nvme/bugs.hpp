#pragma once
// The mistakes the example NVMe driver can be told to make, one switch
// each, so tests and the demo show what regemu reports for each (or, for
// kWrongPhase, what the driver then sees). A driver built with no bug set is
// the one that follows Linux nvme-pci / nvme-core.

#include <cstdint>
#include <string_view>

#include "examples/bug_set.hpp"

namespace regemu::nvme {

enum class Bug : uint8_t {
  // nvme_pci_configure_admin_queue enables the controller first and programs
  // AQA, ASQ and ACQ afterwards, while CC.EN = 1 (`protocol`, rule
  // admin-queue-while-enabled; on a first probe also admin-queue-too-small:
  // the controller was enabled with AQA still 0).
  kQueueRegistersAfterEnable,
  // nvme_disable_ctrl clears CC.EN and returns without waiting for
  // CSTS.RDY = 0, so the enable that follows sets EN while RDY is still 1
  // (`protocol`, rule enable-before-not-ready).
  kNoWaitForNotReady,
  // nvme_enable_ctrl sets CC.EN and returns without waiting for
  // CSTS.RDY = 1; the first admin command rings SQ0TDBL too early
  // (`protocol`, rule doorbell-before-ready) and is never processed.
  kDoorbellBeforeReady,
  // The completion phase the driver expects is flipped after every entry
  // instead of when the head wraps: the first command completes, the next
  // one's completion (phase 1) never looks new, and the driver times out. No
  // register rule can see this: the outcome shows it.
  kWrongPhase,
  // Shutdown sets CC.SHN = 01b and clears CC.EN at once instead of waiting
  // for CSTS.SHST = 10b (`protocol`, rule reset-during-shutdown).
  kShutdownWithoutWait,
  // nvme_enable_ctrl programs CC.MPS = CAP.MPSMAX + 1, a page size the
  // controller does not support (`protocol`, rule page-size-unsupported;
  // the admin queues, 4 KiB aligned, are then also misaligned for that page
  // size: admin-queue-misaligned).
  kBadPageSize,
};

inline constexpr Bug kAllBugs[] = {Bug::kQueueRegistersAfterEnable, Bug::kNoWaitForNotReady,
                                   Bug::kDoorbellBeforeReady,       Bug::kWrongPhase,
                                   Bug::kShutdownWithoutWait,       Bug::kBadPageSize};

constexpr std::string_view BugName(Bug bug) {
  switch (bug) {
    case Bug::kQueueRegistersAfterEnable: return "queue-registers-after-enable";
    case Bug::kNoWaitForNotReady: return "no-wait-for-not-ready";
    case Bug::kDoorbellBeforeReady: return "doorbell-before-ready";
    case Bug::kWrongPhase: return "wrong-phase";
    case Bug::kShutdownWithoutWait: return "shutdown-without-wait";
    case Bug::kBadPageSize: return "bad-page-size";
  }
  return "?";
}

using Bugs = examples::BugSet<Bug>;

}  // namespace regemu::nvme
