#pragma once
// drivers/nvme/host/pci.c, reduced to its register accesses: the PCI
// function enabled and BAR0 sized up (nvme_pci_enable), the admin queue
// programmed around a disable/enable (nvme_pci_configure_admin_queue),
// and the interrupt mask registers (nvme_pci_enable; nvme_pci_configure_admin_queue; NVMe 1.4 §7.5.1 [M]).

#include "examples/nvme/admin_queue.hpp"
#include "examples/nvme/ctrl.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::nvme {

// pci_enable_device_mem + pci_set_master on the configuration space, then
// CSTS (all-ones: kNoDevice), CAP by lo_hi_readq, the queue depth and the
// doorbell stride.
Status PciEnable(Ctrl& ctrl, fakes::MmioBus& config);

// VS and CSTS.NSSRO (acked when the controller supports NVM subsystem
// resets), nvme_disable_ctrl, AQA, ASQ and ACQ (lo_hi_writeq),
// nvme_enable_ctrl, then nvme_init_queue (tail, head, phase 1, CQ zeroed).
Status ConfigureAdminQueue(Ctrl& ctrl, AdminQueue& queue);

// INTMS / INTMC bit 0: mask and unmask vector 0 (pin-based or single MSI
// only; NVMe 1.4 §7.5.1.1's handling recommends masking around the handler).
void MaskVector0(Ctrl& ctrl);
void UnmaskVector0(Ctrl& ctrl);

}  // namespace regemu::nvme
