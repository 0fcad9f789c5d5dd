#include "examples/demo/happy_run.hpp"

#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "examples/demo/pci_names.hpp"
#include "examples/demo/phase_printer.hpp"
#include "examples/i915_mini/driver.hpp"
#include "examples/i915_mini/icl_interrupt_sources.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"
#include "regemu/fakes/protocol_rules.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::demo {
namespace {

namespace pci = i915_mini::pci;
using regdb::Hex;

std::string Size(uint64_t bytes) {
  if (bytes >= (1u << 20)) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1u << 10)) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " B";
}

std::string Describe(const i915_mini::PciProbeResult& probe) {
  std::string text = "=> " + Hex(probe.vendor_id) + ":" + Hex(probe.device_id) + ";";
  for (const i915_mini::Bar& bar : probe.bars) {
    text += " BAR" + std::to_string(bar.index) + " " + Size(bar.size) +
            (bar.io ? " I/O" : (bar.is_64bit ? " 64-bit" : " 32-bit")) + (bar.prefetchable ? " prefetchable" : "") + ",";
  }
  text += probe.rom_size == 0 ? " no ROM" : " ROM " + Size(probe.rom_size);
  text += "\n  => capabilities:";
  for (const i915_mini::Capability& cap : probe.capabilities) text += " " + CapabilityName(cap.id) + "@" + Hex(cap.offset);
  text += "; extended:";
  for (const i915_mini::ExtCapability& cap : probe.ext_capabilities) {
    text += " " + ExtCapabilityName(cap.id) + "@" + Hex(cap.offset);
  }
  text += probe.msi_enabled ? "; MSI enabled" : "; no MSI";
  return text;
}

std::string Describe(const i915_mini::IrqReport& report) {
  std::string text = "=> master_ctl " + Hex(report.master_ctl) + ", serviced:";
  for (const i915_mini::ServicedInterrupt& s : report.serviced()) {
    const i915_mini::InterruptSource* source = i915_mini::SourceOf(s.engine_class, s.instance);
    text += " " + (source ? std::string(source->name) : "?") + " (class " + std::to_string(s.engine_class) +
            " instance " + std::to_string(s.instance) + " data " + Hex(s.data) + ")";
  }
  if (report.identity_timeouts != 0) text += ", " + std::to_string(report.identity_timeouts) + " identity timeout(s)";
  return text;
}

}  // namespace

bool RunHappy(const std::shared_ptr<const emulator::Model>& model, size_t max_lines, std::ostream& out) {
  // The rules hold the driver to i915's protocol beyond what the hardware
  // refuses: acks seen before domain accesses, the Gen11 service order.
  fakes::ProtocolChecker checker(model);
  checker.Add(fakes::NoAccessWithoutForcewake("render"));
  checker.Add(fakes::NoAccessWithoutForcewake("gt"));
  checker.Add(fakes::Gen11InterruptServiceOrder());
  emulator::DeviceOptions options;
  options.trace_capacity = size_t{1} << 14;  // the whole run, so every step can be printed
  checker.Attach(options);
  emulator::Device device(model, options);
  fakes::FakeMmioBus config(device, "config");
  fakes::FakeMmioBus mmio(device, "mmio");
  PhasePrinter printer(device, out, max_lines);

  i915_mini::DriverOptions driver_options;
  driver_options.on_step = [&](std::string_view step) { printer.Begin(step); };
  i915_mini::I915Mini driver(config, mmio, [&](uint64_t ns) { device.Advance(ns); }, driver_options);

  printer.Begin("firmware: leaves memory decode and bus mastering on");
  config.Write16(pci::kCommand, pci::kCommandMemory | pci::kCommandMaster);

  printer.Say(Describe(driver.Probe()));
  i915_mini::EngineInfo engines = driver.InitEngines();
  printer.Say("=> VCS mask " + Hex(engines.vdbox_mask) + ", VECS mask " + Hex(engines.vebox_mask) +
              ", render ring start " + (engines.rcs_ring_ok ? "read back" : "LOST"));
  driver.InstallIrq();

  printer.Begin("device: two engines interrupt");
  for (const char* engine : {"RCS0", "VCS0"}) {
    size_t before = device.message_count();
    device.Inject("irq", std::vector<std::string>{engine, "0x1"});
    std::string effect = device.message_count() > before
                             ? "the function sends its MSI: " + Hex(device.messages().back().data) + " to " +
                                   Hex(device.messages().back().address)
                             : "no new MSI: the interrupt request is already up";
    printer.Say(std::string("inject irq ") + engine + " 0x1 (MI_USER_INTERRUPT): " + effect);
  }
  printer.Say(Describe(driver.HandleIrq()));

  i915_mini::GtFrequencies freq = driver.ReadFrequencies();
  printer.Say("=> RP0 " + std::to_string(freq.rp0_mhz) + " MHz, RP1 " + std::to_string(freq.rp1_mhz) + " MHz, RPn " +
              std::to_string(freq.rpn_mhz) + " MHz, RPe " + std::to_string(freq.rpe_mhz) + " MHz");
  printer.Flush();

  for (const emulator::Violation& violation : device.violations()) out << "\n" << violation.Describe(*model);
  for (const fakes::RuleBreach& breach : checker.breaches()) out << "\n" << breach.Describe(*model);
  bool clean = device.violation_count() == 0 && checker.breaches().empty();
  out << "\nhappy path: " << device.access_count() << " trace events, " << device.violation_count()
      << " violation(s), " << checker.breaches().size() << " protocol-rule breach(es)"
      << (clean ? "" : "  <-- FAILED") << "\n";
  return clean;
}

}  // namespace regemu::demo
