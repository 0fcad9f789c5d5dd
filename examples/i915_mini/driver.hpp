#pragma once
// The example driver: a few i915 paths for an Ice Lake GPU, written against
// the generated register header (regemu/regs/icl.hpp) and the MmioBus
// seam, one per space (PCI configuration space, GTTMMADR). Each step is
// one i915 (or Linux PCI core) function, reduced to its register accesses;
// the files next to this one hold them.
//
//   I915Mini driver(config, mmio, [&](uint64_t ns) { device.Advance(ns); });
//   driver.Probe();          // BARs, capabilities, enable, MSI
//   driver.InitEngines();    // force-wake held around render/GT registers
//   driver.InstallIrq();     // gen11_irq_reset + gen11_irq_postinstall
//   IrqReport r = driver.HandleIrq();
//   GtFrequencies f = driver.ReadFrequencies();

#include <cstdint>
#include <functional>
#include <string_view>

#include "examples/i915_mini/bugs.hpp"
#include "examples/i915_mini/delay.hpp"
#include "examples/i915_mini/engines.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "examples/i915_mini/gen11_irq.hpp"
#include "examples/i915_mini/gt_freq.hpp"
#include "examples/i915_mini/msi.hpp"
#include "examples/i915_mini/pci_probe.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::i915_mini {

struct DriverOptions {
  // The platform's MSI target (x86: the local APIC, vector 0x21).
  MsiMessage msi{0xFEE00000, 0x4021};
  uint32_t rcs_ring_start = 0x00100000;  // GGTT address of the render ring
  Bugs bugs;
  // Called as each step starts, with its name ("pci: BAR sizing", ...):
  // the driver's tracepoints, for annotated traces.
  std::function<void(std::string_view step)> on_step;
};

class I915Mini {
 public:
  // `delay` is the driver's udelay: on the emulator, Device::Advance.
  I915Mini(fakes::MmioBus& config, fakes::MmioBus& mmio, Delay delay, DriverOptions options = {});

  // What the PCI core does before i915 runs, then MSI (i915 calls
  // pci_enable_msi on Gen5+).
  PciProbeResult Probe();
  // Force-wake domains reset, then the engine fuses and the render ring
  // with RENDER and GT held.
  EngineInfo InitEngines();
  void InstallIrq();
  IrqReport HandleIrq();
  GtFrequencies ReadFrequencies();

  Forcewake& forcewake() { return forcewake_; }

 private:
  void Step(std::string_view name) const {
    if (options_.on_step) options_.on_step(name);
  }

  fakes::MmioBus& config_;
  fakes::MmioBus& mmio_;
  DriverOptions options_;
  Forcewake forcewake_;
  Gen11Irq<fakes::MmioBus> irq_;
};

}  // namespace regemu::i915_mini
