#include "examples/i915_mini/driver.hpp"

#include <utility>

#include "examples/i915_mini/pci_regs.hpp"

namespace regemu::i915_mini {

I915Mini::I915Mini(fakes::MmioBus& config, fakes::MmioBus& mmio, Delay delay, DriverOptions options)
    : config_(config),
      mmio_(mmio),
      options_(std::move(options)),
      forcewake_(mmio, delay),
      irq_(mmio, delay, options_.bugs) {}

PciProbeResult I915Mini::Probe() {
  PciProbeResult result;
  Step("pci: vendor and device ID");
  result.vendor_id = config_.Read16(pci::kVendorId);
  result.device_id = config_.Read16(pci::kDeviceId);
  Step("pci: BAR sizing (pci_read_bases)");
  SizeBars(config_, result);
  Step("pci: capability lists");
  WalkCapabilities(config_, result);
  Step("pci: enable memory decode and bus mastering");
  EnableDevice(config_, options_.bugs);
  if (std::optional<uint8_t> msi = result.FindCapability(pci::kCapIdMsi)) {
    Step("pci: MSI (msi_capability_init)");
    EnableMsi(config_, *msi, options_.msi);
    result.msi_enabled = true;
  }
  return result;
}

EngineInfo I915Mini::InitEngines() {
  Step("forcewake: reset every domain");
  forcewake_.ResetDomains();
  Step("engines: media fuses and render ring, RENDER + GT held");
  return i915_mini::InitEngines(mmio_, forcewake_, options_.rcs_ring_start, options_.bugs);
}

void I915Mini::InstallIrq() {
  Step("irq: gen11_irq_reset");
  irq_.Reset();
  Step("irq: gen11_irq_postinstall");
  irq_.Postinstall();
}

IrqReport I915Mini::HandleIrq() {
  Step("irq: gen11_irq_handler");
  return irq_.Handle();
}

GtFrequencies I915Mini::ReadFrequencies() {
  Step("rps: frequencies through the MCHBAR mirror");
  return ReadGtFrequencies(mmio_, options_.bugs);
}

}  // namespace regemu::i915_mini
