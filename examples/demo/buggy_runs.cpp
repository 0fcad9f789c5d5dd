#include "examples/demo/buggy_runs.hpp"

#include <string>
#include <vector>

#include "examples/demo/phase_printer.hpp"
#include "regemu/emulator/device.hpp"
#include "examples/i915_mini/driver.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using i915_mini::Bug;

const char* Mistake(Bug bug) {
  switch (bug) {
    case Bug::kSkipForcewake: return "engine bring-up without taking force-wake";
    case Bug::kClearDwBeforeService: return "the handler clears GT_INTR_DW0 before selector and identity";
    case Bug::kSelectAllPending: return "the handler selects VCS0 and VECS0 with one selector write";
    case Bug::kWriteMchbarMirror: return "RP0 capped by writing RP_STATE_CAP through the MCHBAR mirror";
    case Bug::kRmwCommandStatus:
      return "bus mastering enabled by a dword read-modify-write of COMMAND + STATUS while a PCI error is pending";
  }
  return "?";
}

void Raise(emulator::Device& device, const char* engine) {
  device.Inject("irq", std::vector<std::string>{engine, "0x1"});
}

}  // namespace

emulator::ViolationKind ExpectedKind(Bug bug) {
  switch (bug) {
    case Bug::kSkipForcewake: return emulator::ViolationKind::kForcewake;
    case Bug::kClearDwBeforeService:
    case Bug::kSelectAllPending: return emulator::ViolationKind::kProtocol;
    case Bug::kWriteMchbarMirror: return emulator::ViolationKind::kAliasWrite;
    case Bug::kRmwCommandStatus: return emulator::ViolationKind::kHazard;
  }
  return emulator::ViolationKind::kUnmodelled;
}

bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, Bug bug, std::ostream& out) {
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  options.violation_context = 3;
  emulator::Device device(model, options);
  fakes::FakeMmioBus config(device, "config");
  fakes::FakeMmioBus mmio(device, "mmio");
  i915_mini::DriverOptions driver_options;
  driver_options.bugs = {bug};
  i915_mini::I915Mini driver(config, mmio, [&](uint64_t ns) { device.Advance(ns); }, driver_options);

  const emulator::ViolationKind expected = ExpectedKind(bug);
  out << "\n-- bug '" << i915_mini::BugName(bug) << "': " << Mistake(bug) << " (expect: "
      << emulator::ViolationKindName(expected) << ")\n";

  if (bug == Bug::kRmwCommandStatus) {
    // Firmware left a Received Master Abort pending in PCI STATUS; the
    // driver's own error handling (pci_status_get_and_clear_errors) is
    // what should ack it, not its probe.
    device.Poke(*model->FindSpace("config"), 0x06, 16, 0x2010);
  }
  driver.Probe();
  switch (bug) {
    case Bug::kSkipForcewake:
      driver.InitEngines();
      break;
    case Bug::kClearDwBeforeService:
      driver.InstallIrq();
      Raise(device, "RCS0");
      driver.HandleIrq();
      break;
    case Bug::kSelectAllPending:
      driver.InstallIrq();
      Raise(device, "VCS0");
      Raise(device, "VECS0");
      driver.HandleIrq();
      break;
    case Bug::kWriteMchbarMirror:
      driver.ReadFrequencies();
      break;
    case Bug::kRmwCommandStatus:
      break;  // the probe did it
  }

  std::vector<emulator::Violation> violations = device.violations();
  bool only_expected = !violations.empty();
  for (const emulator::Violation& violation : violations) only_expected = only_expected && violation.kind == expected;
  PrintViolations(violations, *model, out);
  out << "   => " << violations.size() << " violation(s), "
      << (only_expected ? "all " + std::string(emulator::ViolationKindName(expected)) + ", as expected"
                        : std::string("NOT what this bug should cause"))
      << "\n";
  return only_expected;
}

}  // namespace regemu::demo
