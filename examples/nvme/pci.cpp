#include "examples/nvme/pci.hpp"

#include <algorithm>

#include "examples/nvme/core.hpp"
#include "examples/nvme/lo_hi.hpp"
#include "regemu/regs/nvme.hpp"

namespace regemu::nvme {

using regs::nvme::ACQ;
using regs::nvme::AQA;
using regs::nvme::ASQ;
using regs::nvme::CAP;
using regs::nvme::CMD;
using regs::nvme::CSTS;
using regs::nvme::INTMC;
using regs::nvme::INTMS;
using regs::nvme::VS;

namespace {

constexpr uint32_t kIoQueueDepth = 1024;  // the io_queue_depth module parameter
constexpr uint32_t kVersion110 = 0x00010100;

void ProgramAdminQueue(Ctrl& ctrl, const AdminQueue& queue) {
  ctrl.Step("pci: AQA, ASQ and ACQ (lo_hi_writeq)");
  uint32_t depth = queue.config().depth;
  AQA::Get().set_asqs(depth - 1).set_acqs(depth - 1).WriteTo(ctrl.bar0);
  LoHiWriteQ(ctrl.bar0, ASQ::kOffset, queue.config().sq_dma);
  LoHiWriteQ(ctrl.bar0, ACQ::kOffset, queue.config().cq_dma);
}

}  // namespace

Status PciEnable(Ctrl& ctrl, fakes::MmioBus& config) {
  ctrl.Step("pci: nvme_pci_enable (memory decode, bus master, CSTS, CAP)");
  CMD::Get().ReadFrom(config).set_mse(1).WriteTo(config);  // pci_enable_device_mem
  CMD::Get().ReadFrom(config).set_bme(1).WriteTo(config);  // pci_set_master
  if (CSTS::Get().ReadFrom(ctrl.bar0).reg_value() == ~uint32_t{0}) return Status::kNoDevice;
  ctrl.cap = LoHiReadQ(ctrl.bar0, CAP::kOffset);
  CAP cap = CAP::FromValue(ctrl.cap);
  ctrl.q_depth = std::min(static_cast<uint32_t>(cap.mqes()) + 1, kIoQueueDepth);
  ctrl.db_stride = 1u << cap.dstrd();
  return Status::kOk;
}

Status ConfigureAdminQueue(Ctrl& ctrl, AdminQueue& queue) {
  ctrl.Step("pci: nvme_pci_configure_admin_queue");
  bool subsystem = VS::Get().ReadFrom(ctrl.bar0).reg_value() >= kVersion110 && CAP::FromValue(ctrl.cap).nssrs() != 0;
  if (subsystem && CSTS::Get().ReadFrom(ctrl.bar0).nssro() != 0) {
    CSTS::Get().set_nssro(1).WriteTo(ctrl.bar0);
  }
  if (Status status = DisableCtrl(ctrl, false); status != Status::kOk) return status;

  bool after_enable = ctrl.bugs.Has(Bug::kQueueRegistersAfterEnable);
  if (!after_enable) ProgramAdminQueue(ctrl, queue);
  Status status = EnableCtrl(ctrl);
  if (after_enable) ProgramAdminQueue(ctrl, queue);
  if (status != Status::kOk) return status;

  ctrl.Step("pci: nvme_init_queue (head, tail, phase 1, CQ zeroed)");
  queue.Init();
  return Status::kOk;
}

void MaskVector0(Ctrl& ctrl) { INTMS::Get().set_ivms(1).WriteTo(ctrl.bar0); }
void UnmaskVector0(Ctrl& ctrl) { INTMC::Get().set_ivmc(1).WriteTo(ctrl.bar0); }

}  // namespace regemu::nvme
