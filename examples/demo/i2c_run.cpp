#include "examples/demo/i2c_run.hpp"

#include <string>
#include <vector>

#include "examples/demo/phase_printer.hpp"
#include "examples/dw_i2c/adapter.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using dw_i2c::Bug;

constexpr uint8_t kWordAddress[] = {0x00};

// The kernel's side of the interrupt line: the ISR runs while it is
// asserted; otherwise time passes to the device's next event.
int Transfer(emulator::Device& device, dw_i2c::Adapter& adapter, uint16_t address, size_t read_count) {
  adapter.StartTransfer(address, kWordAddress, read_count);
  for (int guard = 0; guard < 100'000 && !adapter.done(); ++guard) {
    if (device.interrupt_asserted()) {
      adapter.HandleIrq();
    } else if (auto next = device.next_event_ns()) {
      device.Advance(*next - device.now_ns());
    } else {
      break;
    }
  }
  return adapter.FinishTransfer();
}

bool RunClean(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::Device device(model);  // strict: a violation would be recorded and fail the run
  fakes::FakeMmioBus io(device, "regs");
  dw_i2c::Adapter adapter(io, [&](uint64_t ns) { device.Advance(ns); });
  bool probed = adapter.Probe() == 0;
  out << "  probe: IC_COMP_TYPE " << (probed ? "0x44570140, 16-entry FIFOs" : "REFUSED")
      << "; init_master at 400 kHz from a 120 MHz ic_clk\n";
  uint64_t start = device.now_ns();
  int result = Transfer(device, adapter, 0x50, 6);
  uint64_t took_ns = device.now_ns() - start;
  std::string text(adapter.read_data().begin(), adapter.read_data().end());
  bool eeprom = result == 2 && text == "DW-I2C";
  out << "  i2c_dw_xfer to 0x50 (write 0x00, read 6): " << result << ", \"" << text << "\" in " << took_ns / 1000
      << " us of virtual time (" << device.interrupt_edges() << " interrupts)\n";
  int absent = Transfer(device, adapter, 0x51, 1);
  bool nacked = absent == dw_i2c::kEremoteio && adapter.abort_source() == 0x1;
  out << "  i2c_dw_xfer to 0x51 (no target): " << absent << " (-EREMOTEIO), IC_TX_ABRT_SOURCE 0x"
      << std::hex << adapter.abort_source() << std::dec << " (ABRT_7B_ADDR_NOACK)\n  violations: "
      << device.violation_count() << "\n";
  // Eight commands of 22.5 us each: a few tens of microseconds of bus time.
  bool timed = took_ns >= 7 * 22'500 && took_ns < 1'000'000;
  return probed && eeprom && nacked && timed && device.violation_count() == 0;
}

bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  options.violation_context = 3;
  emulator::Device device(model, options);
  fakes::FakeMmioBus io(device, "regs");
  dw_i2c::Adapter adapter(io, [&](uint64_t ns) { device.Advance(ns); }, {Bug::kRetargetWhileEnabled});
  out << "  bug '" << dw_i2c::BugName(Bug::kRetargetWhileEnabled)
      << "': the controller kept enabled between transfers, IC_TAR rewritten\n";
  adapter.Probe();
  Transfer(device, adapter, 0x50, 1);
  Transfer(device, adapter, 0x51, 1);
  return PrintOneProtocolViolation(device, *model, out);
}

}  // namespace

bool RunI2c(const std::filesystem::path& database, std::ostream& out) {
  out << "\nA Linux i2c-designware-style driver (examples/dw_i2c) on " << database.string() << ":\n";
  std::shared_ptr<const emulator::Model> model = fakes::CompileDatabase(database);
  bool clean = RunClean(model, out);
  out << "The same driver with one bug:\n";
  bool caught = RunBuggy(model, out);
  return clean && caught;
}

}  // namespace regemu::demo
