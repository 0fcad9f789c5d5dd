#include "examples/nvme/driver.hpp"

#include <utility>

#include "examples/nvme/core.hpp"
#include "examples/nvme/pci.hpp"

namespace regemu::nvme {

NvmeDriver::NvmeDriver(fakes::MmioBus& config, fakes::MmioBus& bar0, HostMemory& memory, Delay delay,
                       DriverOptions options)
    : config_(config),
      memory_(memory),
      options_(std::move(options)),
      ctrl_(bar0, std::move(delay), options_.bugs),
      admin_(ctrl_, memory, options_.admin) {
  ctrl_.on_step = options_.on_step;
}

Status NvmeDriver::Probe() {
  if (Status status = PciEnable(ctrl_, config_); status != Status::kOk) return status;
  return ConfigureAdminQueue(ctrl_, admin_);
}

IdentifyResult NvmeDriver::Identify() {
  ctrl_.Step("core: nvme_identify_ctrl (Identify, CNS 01h, on the admin queue)");
  return IdentifyController(admin_, memory_, options_.identify_dma);
}

Status NvmeDriver::Shutdown() { return DisableCtrl(ctrl_, true); }

Status NvmeDriver::Disable() { return DisableCtrl(ctrl_, false); }

void NvmeDriver::MaskInterrupt() { MaskVector0(ctrl_); }
void NvmeDriver::UnmaskInterrupt() { UnmaskVector0(ctrl_); }

}  // namespace regemu::nvme
