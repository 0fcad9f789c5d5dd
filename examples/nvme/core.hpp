#pragma once
// drivers/nvme/host/core.c, reduced to its register accesses: the enable,
// disable and shutdown handshakes over CC and CSTS (Linux core.c nvme_enable_ctrl,
// nvme_disable_ctrl, nvme_wait_ready).

#include <cstdint>
#include <string_view>

#include "examples/nvme/ctrl.hpp"

namespace regemu::nvme {

// nvme_wait_ready: polls CSTS until (CSTS & mask) == value, sleeping 1 ms
// between reads; kNoDevice when CSTS reads all-ones, kTimedOut past
// `timeout_s` seconds ("Device not ready; aborting <op>").
Status WaitReady(Ctrl& ctrl, uint32_t mask, uint32_t value, uint32_t timeout_s, std::string_view op);

// nvme_disable_ctrl: shutdown = false clears CC.SHN and CC.EN (a controller
// reset) and waits for CSTS.RDY = 0 within CAP.TO; shutdown = true is
// ShutdownCtrl.
Status DisableCtrl(Ctrl& ctrl, bool shutdown);

// nvme_enable_ctrl: CAP (MPSMIN check), CC without EN, CAP again, CRTO when
// CAP.CRMS.CRWMS, CC with EN, then waits for CSTS.RDY = 1.
Status EnableCtrl(Ctrl& ctrl);

// nvme_disable_ctrl(ctrl, true): CC.SHN = 01b with EN left at 1, then waits
// for CSTS.SHST = 10b (shutdown complete) within shutdown_timeout.
Status ShutdownCtrl(Ctrl& ctrl);

}  // namespace regemu::nvme
