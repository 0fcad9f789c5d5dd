#pragma once
// The example NVMe driver: Linux nvme-pci / nvme-core bring-up, Identify
// Controller and shutdown, written against the generated register header
// (regemu/regs/nvme.hpp) and the MmioBus seam (configuration space, BAR0),
// with host memory behind HostMemory. Each step is one Linux function,
// reduced to its register and memory accesses; the files next to this one
// hold them (pci.cpp, core.cpp, admin_queue.cpp, identify.cpp).
//
//   NvmeDriver driver(config, bar0, memory, [&](uint64_t ns) { device.Advance(ns); });
//   driver.Probe();                        // nvme_pci_enable + nvme_pci_configure_admin_queue
//   IdentifyResult id = driver.Identify(); // Identify Controller on the admin queue
//   driver.Shutdown();                     // SHN = 01b, wait SHST = 10b
//   driver.Probe();                        // a later probe: reset, admin queue, enable again

#include <cstdint>
#include <functional>
#include <string_view>

#include "examples/nvme/admin_queue.hpp"
#include "examples/nvme/bugs.hpp"
#include "examples/nvme/ctrl.hpp"
#include "examples/nvme/delay.hpp"
#include "examples/nvme/host_memory.hpp"
#include "examples/nvme/identify.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::nvme {

struct DriverOptions {
  AdminQueueConfig admin;                    // DMA addresses, depth, timeout, interrupt
  uint64_t identify_dma = 0x5000'0000;       // the Identify buffer (4 KiB, page aligned)
  Bugs bugs;
  // Called as each step starts, with its name: the driver's tracepoints.
  std::function<void(std::string_view step)> on_step;
};

class NvmeDriver {
 public:
  // `delay` is the driver's usleep: on the emulator, Device::Advance.
  NvmeDriver(fakes::MmioBus& config, fakes::MmioBus& bar0, HostMemory& memory, Delay delay,
             DriverOptions options = {});
  // The admin queue refers to the controller state inside: not movable.
  NvmeDriver(const NvmeDriver&) = delete;
  NvmeDriver& operator=(const NvmeDriver&) = delete;

  // nvme_pci_enable, then nvme_pci_configure_admin_queue: the controller
  // is reset, the admin queue programmed and the controller enabled.
  Status Probe();
  // nvme_identify_ctrl.
  IdentifyResult Identify();
  // nvme_dev_disable(dev, true) without I/O queues: the shutdown handshake.
  Status Shutdown();
  // nvme_disable_ctrl(ctrl, false): a controller reset.
  Status Disable();

  // INTMS / INTMC for vector 0.
  void MaskInterrupt();
  void UnmaskInterrupt();

  Ctrl& ctrl() { return ctrl_; }
  AdminQueue& admin_queue() { return admin_; }

 private:
  fakes::MmioBus& config_;
  HostMemory& memory_;
  DriverOptions options_;
  Ctrl ctrl_;
  AdminQueue admin_;
};

}  // namespace regemu::nvme
