#include "examples/demo/nvme_run.hpp"

#include <cstdio>
#include <string>
#include <vector>

#include "examples/demo/phase_printer.hpp"
#include "examples/nvme/device_host_memory.hpp"
#include "examples/nvme/driver.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using nvme::Bug;
using nvme::Status;

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "%llxh", static_cast<unsigned long long>(value));
  return text;
}

std::string Ms(uint64_t ns) { return std::to_string(ns / 1'000'000) + " ms"; }

bool RunClean(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::Device device(model);  // strict: a violation would be recorded and fail the run
  fakes::FakeMmioBus config(device, "config");
  fakes::FakeMmioBus bar0(device, "bar0");
  nvme::DeviceHostMemory memory(device);
  nvme::DriverOptions options;
  options.admin.irq_pending = [&] { return device.interrupt_asserted(); };
  options.on_step = [&](std::string_view step) { out << "  [" << Ms(device.now_ns()) << "] " << step << "\n"; };
  nvme::NvmeDriver driver(config, bar0, memory, [&](uint64_t ns) { device.Advance(ns); }, options);

  Status probe = driver.Probe();
  out << "  probe: " << nvme::StatusName(probe) << ", CC = " << Hex(driver.ctrl().ctrl_config) << ", ready at "
      << Ms(device.now_ns()) << "\n";
  nvme::IdentifyResult id = driver.Identify();
  out << "  identify: " << nvme::StatusName(id.status) << " (CID " << Hex(id.completion.cid) << ", status "
      << id.completion.status << ", " << device.interrupt_edges() << " interrupt): VID " << Hex(id.id.vid)
      << ", SSVID " << Hex(id.id.ssvid) << ", MDTS " << unsigned{id.id.mdts} << ", VER " << Hex(id.id.ver)
      << ", SQES " << Hex(id.id.sqes) << ", CQES " << Hex(id.id.cqes) << ", NN " << id.id.nn << "\n";
  uint64_t before = device.now_ns();
  Status shutdown = driver.Shutdown();
  out << "  shutdown: " << nvme::StatusName(shutdown) << ", CSTS.SHST = 10b after " << Ms(device.now_ns() - before)
      << "\n  violations: " << device.violation_count() << "\n";
  bool data = id.status == Status::kOk && id.id.vid == 0x1B36 && id.id.sqes == 0x66 && id.id.cqes == 0x44 &&
              id.id.nn == 1;
  return probe == Status::kOk && data && shutdown == Status::kOk && device.violation_count() == 0;
}

bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, Bug bug, std::ostream& out) {
  emulator::DeviceOptions device_options;
  device_options.policy = emulator::ViolationPolicy::Lenient();
  device_options.violation_context = 3;
  emulator::Device device(model, device_options);
  fakes::FakeMmioBus config(device, "config");
  fakes::FakeMmioBus bar0(device, "bar0");
  nvme::DeviceHostMemory memory(device);
  nvme::DriverOptions options;
  options.bugs = {bug};
  nvme::NvmeDriver driver(config, bar0, memory, [&](uint64_t ns) { device.Advance(ns); }, options);
  out << "  bug '" << nvme::BugName(bug) << "': CC.SHN = 01b, then CC.EN = 0 without waiting for CSTS.SHST = 10b\n";
  driver.Probe();
  driver.Shutdown();
  return PrintOneProtocolViolation(device, *model, out);
}

}  // namespace

bool RunNvme(const std::filesystem::path& database, std::ostream& out) {
  out << "\nA Linux nvme-pci / nvme-core style driver (examples/nvme) on " << database.string() << ":\n";
  std::shared_ptr<const emulator::Model> model = fakes::CompileDatabase(database);
  bool clean = RunClean(model, out);
  out << "The same driver with one bug:\n";
  bool caught = RunBuggy(model, Bug::kShutdownWithoutWait, out);
  return clean && caught;
}

}  // namespace regemu::demo
