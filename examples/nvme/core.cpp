#include "examples/nvme/core.hpp"

#include "examples/nvme/lo_hi.hpp"
#include "regemu/regs/nvme.hpp"

namespace regemu::nvme {

using regs::nvme::CAP;
using regs::nvme::CC;
using regs::nvme::CRTO;
using regs::nvme::CSTS;

namespace {

// NVME_CAP_TIMEOUT is in 500 ms units; Linux waits (TO + 1) / 2 seconds.
uint32_t ReadyTimeoutSeconds(uint64_t cap_value) {
  return (static_cast<uint32_t>(CAP::FromValue(cap_value).to()) + 1) / 2;
}

constexpr uint32_t kCstsRdy = 1u << 0;
constexpr uint32_t kCstsShstMask = 3u << 2;
constexpr uint32_t kCstsShstComplete = 2u << 2;

uint32_t WithEn(uint32_t config, uint32_t en) { return CC::FromValue(config).set_en(en).reg_value(); }

}  // namespace

Status WaitReady(Ctrl& ctrl, uint32_t mask, uint32_t value, uint32_t timeout_s, std::string_view /*op*/) {
  Status status = Status::kTimedOut;
  PollUntil(ctrl.delay, uint64_t{timeout_s} * kSecond, [&] {
    uint32_t csts = CSTS::Get().ReadFrom(ctrl.bar0).reg_value();
    if (csts == ~uint32_t{0}) {
      status = Status::kNoDevice;
      return true;
    }
    if ((csts & mask) != value) return false;
    status = Status::kOk;
    return true;
  });
  return status;
}

Status DisableCtrl(Ctrl& ctrl, bool shutdown) {
  if (shutdown) return ShutdownCtrl(ctrl);
  ctrl.Step("core: nvme_disable_ctrl (CC.EN = 0, wait CSTS.RDY = 0)");
  ctrl.ctrl_config = CC::FromValue(ctrl.ctrl_config).set_shn(CC::SHN::Value::NONE).set_en(0).reg_value();
  CC::FromValue(ctrl.ctrl_config).WriteTo(ctrl.bar0);
  if (ctrl.bugs.Has(Bug::kNoWaitForNotReady)) return Status::kOk;
  return WaitReady(ctrl, kCstsRdy, 0, ReadyTimeoutSeconds(ctrl.cap), "reset");
}

Status EnableCtrl(Ctrl& ctrl) {
  ctrl.Step("core: nvme_enable_ctrl (CC without EN, CAP, CRTO, CC with EN, wait CSTS.RDY = 1)");
  ctrl.cap = LoHiReadQ(ctrl.bar0, CAP::kOffset);
  CAP cap = CAP::FromValue(ctrl.cap);
  if (kCtrlPageShift < cap.mpsmin() + 12) return Status::kPageSizeTooLarge;

  // CSS: all supported I/O command sets when CAP.CSS reports them, else NVM.
  uint32_t css = (cap.css() & 0x40) != 0 ? 6 : 0;
  uint32_t mps = ctrl.bugs.Has(Bug::kBadPageSize) ? static_cast<uint32_t>(cap.mpsmax()) + 1 : kCtrlPageShift - 12;
  ctrl.ctrl_config = CC::Get()
                         .set_css(css)
                         .set_mps(mps)
                         .set_ams(CC::AMS::Value::RR)
                         .set_shn(CC::SHN::Value::NONE)
                         .set_iosqes(6)
                         .set_iocqes(4)
                         .reg_value();
  CC::FromValue(ctrl.ctrl_config).WriteTo(ctrl.bar0);

  // "CAP value may change after initial CC write".
  ctrl.cap = LoHiReadQ(ctrl.bar0, CAP::kOffset);
  cap = CAP::FromValue(ctrl.cap);
  uint32_t timeout = static_cast<uint32_t>(cap.to());
  if ((cap.crms() & 1) != 0) {  // CAP.CRMS.CRWMS
    uint32_t ready_with_media = CRTO::Get().ReadFrom(ctrl.bar0).crwmt();
    if (ready_with_media >= timeout) timeout = ready_with_media;  // else Linux warns "bad crto" and keeps TO
  }

  ctrl.ctrl_config = WithEn(ctrl.ctrl_config, 1);
  CC::FromValue(ctrl.ctrl_config).WriteTo(ctrl.bar0);
  if (ctrl.bugs.Has(Bug::kDoorbellBeforeReady)) return Status::kOk;
  return WaitReady(ctrl, kCstsRdy, kCstsRdy, (timeout + 1) / 2, "initialisation");
}

Status ShutdownCtrl(Ctrl& ctrl) {
  ctrl.Step("core: nvme_disable_ctrl(shutdown) (CC.SHN = 01b, wait CSTS.SHST = 10b)");
  ctrl.ctrl_config = CC::FromValue(ctrl.ctrl_config).set_shn(CC::SHN::Value::NORMAL).reg_value();
  CC::FromValue(ctrl.ctrl_config).WriteTo(ctrl.bar0);
  if (ctrl.bugs.Has(Bug::kShutdownWithoutWait)) {
    // Straight to a controller reset while shutdown processing is occurring.
    ctrl.ctrl_config = WithEn(ctrl.ctrl_config, 0);
    CC::FromValue(ctrl.ctrl_config).WriteTo(ctrl.bar0);
    return Status::kOk;
  }
  return WaitReady(ctrl, kCstsShstMask, kCstsShstComplete, ctrl.shutdown_timeout_s, "shutdown");
}

}  // namespace regemu::nvme
