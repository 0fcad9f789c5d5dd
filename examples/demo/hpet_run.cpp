#include "examples/demo/hpet_run.hpp"

#include <string>
#include <vector>

#include "examples/demo/violation_lines.hpp"
#include "examples/hpet/hpet.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using hpet::Bug;
using hpet::Status;

std::string Us(uint64_t ns) { return std::to_string(ns / 1000) + " us"; }

// The device's MMIO, with an SMI: `smi_ns` of virtual time pass just before
// the next write of `offset` (an NMI or SMI between a driver's counter read
// and its comparator write).
class SmiBus : public fakes::MmioBus {
 public:
  SmiBus(emulator::Device& device, fakes::MmioBus& mmio) : device_(device), mmio_(mmio) {}
  void ArmBefore(uint64_t offset, uint64_t smi_ns) {
    armed_offset_ = offset;
    smi_ns_ = smi_ns;
  }
  uint64_t Read(uint64_t offset, unsigned width) override { return mmio_.Read(offset, width); }
  void Write(uint64_t offset, unsigned width, uint64_t value) override {
    if (smi_ns_ != 0 && offset == armed_offset_) {
      device_.Advance(smi_ns_);
      smi_ns_ = 0;
    }
    mmio_.Write(offset, width, value);
  }

 private:
  emulator::Device& device_;
  fakes::MmioBus& mmio_;
  uint64_t armed_offset_ = 0;
  uint64_t smi_ns_ = 0;
};

constexpr uint64_t kT0Cmp = 0x108;  // HPET_Tn_CMP(0)

bool RunClean(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::Device device(model);  // strict: a violation would be recorded and fail the run
  fakes::FakeMmioBus mmio(device, "mmio");
  SmiBus bus(device, mmio);
  auto on_step = [&](std::string_view step) { out << "  [" << Us(device.now_ns()) << "] " << step << "\n"; };
  hpet::HpetDriver driver(bus, [&](uint64_t ns) { device.Advance(ns); }, {}, on_step);

  Status enable = driver.Enable();
  out << "  enable: " << hpet::StatusName(enable) << ", period " << driver.period_fs() << " fs = "
      << driver.clockevent().freq_hz << " Hz, " << driver.channels().size() << " channels, mult "
      << driver.clockevent().mult << " shift " << driver.clockevent().shift << "\n";
  driver.SetPeriodic(0, 1000);
  device.Advance(1'000'000'000);
  uint64_t ticks = device.line_edges("IRQ0");
  out << "  one virtual second of the 1 kHz tick: " << ticks << " interrupts on IRQ0 (LegacyReplacement)\n";

  driver.SetOneShot(0);
  uint64_t before = device.line_edges("IRQ0");
  bus.ArmBefore(kT0Cmp, 20'000);
  Status late = driver.SetNextEvent(0, 192);
  out << "  next event in 192 ticks with a 20 us SMI before the comparator write: " << hpet::StatusName(late) << "\n";
  Status retried = driver.ProgramEvent(0, driver.clockevent().min_delta_ns);
  device.Advance(1'000'000);
  uint64_t events = device.line_edges("IRQ0") - before;
  out << "  clockevents_program_min_delta: " << hpet::StatusName(retried) << ", " << events
      << " interrupt\n  violations: " << device.violation_count() << "\n";
  return enable == Status::kOk && ticks == 1000 && late == Status::kTooLate && retried == Status::kOk &&
         events == 1 && device.violation_count() == 0;
}

bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, Bug bug, std::ostream& out) {
  emulator::DeviceOptions device_options;
  device_options.policy = emulator::ViolationPolicy::Lenient();
  device_options.violation_context = 3;
  emulator::Device device(model, device_options);
  fakes::FakeMmioBus mmio(device, "mmio");
  hpet::HpetDriver driver(mmio, [&](uint64_t ns) { device.Advance(ns); }, {bug});
  out << "  bug '" << hpet::BugName(bug) << "': the periodic tick on channel 1, which has no periodic capability\n";
  driver.Enable();
  driver.SetPeriodic(driver.TickChannel(), 1000);
  device.Advance(1'000'000'000);
  std::vector<emulator::Violation> violations = device.violations();
  PrintViolations(*model, violations, out);
  uint64_t ticks = device.line_edges("IRQ8");
  bool caught = violations.size() == 1 && violations[0].kind == emulator::ViolationKind::kProtocol && ticks == 1;
  out << "   => " << violations.size() << " violation(s), " << ticks << " tick(s) in the second instead of 1000: "
      << (caught ? "one protocol, as expected" : "NOT what this bug should cause") << "\n";
  return caught;
}

}  // namespace

bool RunHpet(const std::filesystem::path& database, std::ostream& out) {
  out << "\nA Linux arch/x86/kernel/hpet.c style driver (examples/hpet) on " << database.string() << ":\n";
  std::shared_ptr<const emulator::Model> model = fakes::CompileDatabase(database);
  bool clean = RunClean(model, out);
  out << "The same driver with one bug:\n";
  bool caught = RunBuggy(model, Bug::kPeriodicOnOneShotChannel, out);
  return clean && caught;
}

}  // namespace regemu::demo
