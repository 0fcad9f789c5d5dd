#include "examples/i915_mini/capture/mmiotrace_capture.hpp"

#include <optional>
#include <ostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "examples/i915_mini/driver.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"
#include "tools/traces/mmiotrace_writer.hpp"

namespace regemu::i915_mini {
namespace {

// The integrated GPU is 00:02.0 on every Intel client platform.
constexpr uint8_t kDevfn = 2 << 3;
// The PCIDEV line is printed when the trace starts, before the driver
// loads and switches to MSI: it shows the legacy INTA line.
constexpr uint32_t kLegacyIrq = 16;
// i915 maps only the register half of GTTMMADR (intel_uncore_setup_mmio:
// 2 MiB from Gen5 on, integrated, before Meteor Lake); the GTT above it is
// mapped write-combined on its own, and the driver never touches it here.
constexpr uint64_t kRegisterMapLen = 2 << 20;
// About an uncached MMIO read, and well under the 500 ns yaml/icl's
// force-wake acks take, so the driver still polls for them as on hardware.
constexpr uint64_t kAccessCostNs = 100;
// resource->flags keeps the BAR's low bits (PCI_REGION_FLAG_MASK).
constexpr uint64_t kFlagIo = 0x1;
constexpr uint64_t kFlag64Bit = 0x4;
constexpr uint64_t kFlagPrefetch = 0x8;

// The resources as firmware assigns them: each BAR at the next multiple of
// its size (BARs are naturally aligned), memory BARs in index order from
// kCaptureMmioBase, so BAR0 is at the base, I/O BARs from kCaptureIoBase.
traces::MmiotracePciDevice DescribeFunction(const PciProbeResult& probe) {
  traces::MmiotracePciDevice function;
  function.devfn = kDevfn;
  function.vendor = probe.vendor_id;
  function.device = probe.device_id;
  function.irq = kLegacyIrq;
  uint64_t next_mmio = kCaptureMmioBase;
  uint64_t next_io = kCaptureIoBase;
  for (const Bar& bar : probe.bars) {
    uint64_t& next = bar.io ? next_io : next_mmio;
    uint64_t start = (next + bar.size - 1) / bar.size * bar.size;
    next = start + bar.size;
    uint64_t flags = bar.io ? kFlagIo : (bar.is_64bit ? kFlag64Bit : 0) | (bar.prefetchable ? kFlagPrefetch : 0);
    function.bar_start_flags.at(bar.index) = start | flags;
    function.bar_size.at(bar.index) = bar.size;
  }
  return function;
}

}  // namespace

CaptureSummary CaptureMmiotrace(const std::shared_ptr<const emulator::Model>& model, Bugs bugs, std::ostream& out) {
  const traces::MmiotraceMapping gttmmadr{
      .map_id = 1, .phys = kCaptureMmioBase, .virt = kCaptureGttmmadrVirt, .len = kRegisterMapLen};
  std::optional<emulator::SpaceId> mmio_space = model->FindSpace("mmio");
  if (!mmio_space) throw std::invalid_argument("device '" + model->device() + "' has no 'mmio' space to trace");
  // The events go here first: the PCIDEV line at the top needs the BAR
  // sizes the probe finds.
  std::ostringstream events;
  traces::MmiotraceWriter writer(events);
  CaptureSummary summary;
  bool mapped = false;

  emulator::DeviceOptions options;
  // A buggy driver runs on, as it would on hardware; the violations are counted.
  options.policy = emulator::ViolationPolicy::Lenient();
  // Each access takes time, as on a bus, so timestamps move between
  // accesses and not only in the driver's delays.
  options.access_cost_ns = kAccessCostNs;
  options.trace_capacity = 0;  // the observer sees every entry; the ring would keep only the last ones
  options.on_trace = [&](const emulator::TraceEntry& entry) {
    std::optional<traces::MmiotraceAccess> access = traces::ToMmiotraceAccess(entry, *mmio_space, gttmmadr);
    if (!access) return;
    // pci_iomap comes right before the first register access.
    if (!mapped) writer.Map(entry.time_ns, gttmmadr);
    mapped = true;
    writer.Access(*access);
    ++summary.accesses;
  };
  emulator::Device device(model, options);
  fakes::FakeMmioBus config(device, "config");
  fakes::FakeMmioBus mmio(device, "mmio");

  DriverOptions driver_options;
  driver_options.bugs = bugs;
  driver_options.on_step = [&](std::string_view step) { writer.Mark(device.now_ns(), step); };
  I915Mini driver(config, mmio, [&](uint64_t ns) { device.Advance(ns); }, driver_options);

  // What firmware leaves for the OS: memory decode and bus mastering on.
  config.Write16(pci::kCommand, pci::kCommandMemory | pci::kCommandMaster);
  PciProbeResult probe = driver.Probe();
  driver.InitEngines();
  driver.InstallIrq();
  // Two engines in two banks (GT_INTR_DW0 and DW1) raise MI_USER_INTERRUPT.
  for (const char* engine : {"RCS0", "VCS0"}) {
    std::string refused = device.Inject("irq", std::vector<std::string>{engine, "0x1"});
    if (!refused.empty()) throw std::invalid_argument("inject irq " + std::string(engine) + ": " + refused);
  }
  driver.HandleIrq();
  driver.ReadFrequencies();
  if (mapped) writer.Unmap(device.now_ns(), gttmmadr.map_id);

  traces::MmiotraceWriter header(out);
  header.Version();
  header.PciDev(DescribeFunction(probe));
  out << events.str();
  summary.violations = device.violation_count();
  return summary;
}

}  // namespace regemu::i915_mini
