#include "examples/demo/uart_run.hpp"

#include <string>
#include <vector>

#include "examples/demo/phase_printer.hpp"
#include "examples/uart16550/port.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"

namespace regemu::demo {
namespace {

using uart16550::Bug;

// The kernel's side of the interrupt line: the handler runs while it is
// asserted; otherwise time passes to the device's next event.
void Serve(emulator::Device& device, uart16550::Port& port) {
  for (int guard = 0; guard < 100'000 && !port.tx_done(); ++guard) {
    if (device.interrupt_asserted()) {
      port.HandleIrq();
    } else if (auto next = device.next_event_ns()) {
      device.Advance(*next - device.now_ns());
    } else {
      break;
    }
  }
  // The FIFO drains after the last write.
  while (auto next = device.next_event_ns()) device.Advance(*next - device.now_ns());
}

bool RunClean(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::Device device(model);  // strict: a violation would be recorded and fail the run
  fakes::FakeMmioBus io(device, "io");
  uart16550::Port port(io, [&](uint64_t ns) { device.Advance(ns); });
  bool found = port.Autoconfig() == uart16550::PortType::k16550A;
  bool started = port.Startup();
  port.SetTermios(115200);
  out << "  autoconfig: " << (found ? "16550A" : "not a 16550A") << "; startup " << (started ? "ok" : "FAILED")
      << "; 115200 8N1, FIFOs, trigger 8, OUT2\n";
  const std::string line = "Hello from an unmodified 8250 path!\r\n";
  uint64_t start = device.now_ns();
  port.Write(line);
  Serve(device, port);
  std::vector<emulator::StreamEntry> sout = device.output("sout");
  std::string sent;
  for (const emulator::StreamEntry& entry : sout) sent += static_cast<char>(entry.value);
  bool whole = sent == line;
  double per_char_us = sout.size() > 1 ? static_cast<double>(sout.back().time_ns - sout.front().time_ns) /
                                             static_cast<double>(sout.size() - 1) / 1000.0
                                       : 0;
  out << "  sent " << sout.size() << " characters by THRE interrupts (" << device.interrupt_edges()
      << " interrupts), the last " << (sout.empty() ? 0 : (sout.back().time_ns - start) / 1000)
      << " us after the first write, " << per_char_us << " us apart on the line: "
      << (whole ? "all of it, in order" : "NOT what was written") << "\n  violations: " << device.violation_count()
      << "\n";
  bool rate = per_char_us > 86.7 && per_char_us < 86.9;
  return found && started && whole && rate && device.violation_count() == 0;
}

bool RunBuggy(const std::shared_ptr<const emulator::Model>& model, std::ostream& out) {
  emulator::DeviceOptions options;
  options.policy = emulator::ViolationPolicy::Lenient();
  options.violation_context = 3;
  emulator::Device device(model, options);
  fakes::FakeMmioBus io(device, "io");
  uart16550::Port port(io, [&](uint64_t ns) { device.Advance(ns); }, {Bug::kNoDivisor});
  out << "  bug '" << uart16550::BugName(Bug::kNoDivisor) << "': set_termios without the divisor latch\n";
  port.Startup();
  port.SetTermios(115200);
  port.Write("x");
  Serve(device, port);
  return PrintOneProtocolViolation(device, *model, out);
}

}  // namespace

bool RunUart(const std::filesystem::path& database, std::ostream& out) {
  out << "\nA Linux 8250-style driver (examples/uart16550) on " << database.string() << ":\n";
  std::shared_ptr<const emulator::Model> model = fakes::CompileDatabase(database);
  bool clean = RunClean(model, out);
  out << "The same driver with one bug:\n";
  bool caught = RunBuggy(model, out);
  return clean && caught;
}

}  // namespace regemu::demo
