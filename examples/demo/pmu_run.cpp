#include "examples/demo/pmu_run.hpp"

#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "examples/goldmont_perf/pmu.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using goldmont_perf::Bug;
using goldmont_perf::GoldmontPmu;

constexpr uint16_t kInstructions = 0x00C0;
constexpr uint16_t kCycles = 0x003C;
constexpr uint16_t kCacheMisses = 0x412E;  // LONGEST_LAT_CACHE.MISS

void Inject(emulator::Device& device, const char* verb, std::vector<std::string> args) {
  device.Inject(verb, args);
}

bool RunClean(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::Device device(model);  // strict: a violation would be recorded and fail the run
  fakes::FakeMmioBus msr(device, "msr");
  GoldmontPmu pmu(msr);
  bool probed = pmu.Probe();
  out << "  probe: " << (probed ? "PMU works" : "broken PMU") << ", full-width counter writes: "
      << (pmu.full_width_writes() ? "yes" : "no") << "\n";

  auto instructions = pmu.Start({.code = kInstructions});
  auto cycles = pmu.Start({.code = kCycles});
  auto misses = pmu.Start({.code = kCacheMisses, .period = 2000});
  Inject(device, "event", {"INST_RETIRED.ANY", "1000000"});
  Inject(device, "event-rate", {"LONGEST_LAT_CACHE.MISS", "12.5"});
  uint64_t pmis = 0;
  for (int step = 0; step < 100; ++step) {  // 1 ms in 10 us steps; the PMI taken when raised
    device.Advance(10'000);
    if (device.interrupt_requested() && pmu.HandlePmi()) ++pmis;
  }
  uint64_t counted_instructions = pmu.Read(*instructions);
  uint64_t counted_cycles = pmu.Read(*cycles);
  uint64_t counted_misses = pmu.Read(*misses);
  out << "  1 ms of virtual time, 1,000,000 instructions and 12.5 cache misses/us injected:\n"
      << "    instructions (fixed 0)         " << counted_instructions << "\n"
      << "    cycles (fixed 1, 1100 MHz)     " << counted_cycles << "\n"
      << "    cache misses (PMC0, -c 2000)   " << counted_misses << " in " << pmu.samples(*misses)
      << " samples, " << pmis << " PMIs taken and acked\n";
  bool counts = counted_instructions == 1'000'000 && counted_cycles == 1'100'000 && counted_misses == 12'500 &&
                pmu.samples(*misses) == 6;
  out << "  violations: " << device.violation_count() << "\n";
  return probed && counts && device.violation_count() == 0;
}

bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, Bug bug, std::ostream& out) {
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  emulator::Device device(model, options);
  fakes::FakeMmioBus msr(device, "msr");
  GoldmontPmu pmu(msr, {bug});
  pmu.Probe();
  pmu.Start({.code = kCacheMisses, .period = 1000});
  if (bug == Bug::kStatusNeverAcked) {
    Inject(device, "event", {"LONGEST_LAT_CACHE.MISS", "1000"});
    pmu.HandlePmi();
  }
  std::vector<emulator::Violation> violations = device.violations();
  out << "  bug " << goldmont_perf::BugName(bug) << ":\n";
  for (const emulator::Violation& v : violations) {
    out << "    " << emulator::ViolationKindName(v.kind) << " at " << v.register_name << ": " << v.rule << "\n";
  }
  std::string_view expected = bug == Bug::kReservedEvtselBit ? "mbz" : "protocol";
  return violations.size() == 1 && emulator::ViolationKindName(violations[0].kind) == expected;
}

}  // namespace

bool RunGoldmontPmu(const std::filesystem::path& database, std::ostream& out) {
  std::shared_ptr<const emulator::Model> model = fakes::CompileDatabase(database);
  out << "\nA Linux-perf-style Goldmont PMU driver (examples/goldmont_perf) on " << database.string() << ":\n";
  bool clean = RunClean(model, out);
  out << "The same driver with one bug at a time:\n";
  bool caught = true;
  for (Bug bug : goldmont_perf::kAllBugs) caught = RunBuggy(model, bug, out) && caught;
  return clean && caught;
}

}  // namespace regemu::demo
