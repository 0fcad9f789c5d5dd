#pragma once
// `regemu boot`'s session as a C++ API: starts the devices (one virt-pci
// slot each) and the time-travel controller, launches a User-Mode Linux
// kernel wired to them, passes its console on, and when it powers off (or
// panics, hangs past the timeout, or cannot start) reports what each device
// saw. No UML process outlives the call.

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/model.hpp"

namespace regemu::uml {

// virt-pci offers eight slots (arch/um/drivers/virt-pci.c, MAX_DEVICES).
inline constexpr size_t kMaxDevices = 8;
// The virtio device ID the kernel's CONFIG_UML_PCI_OVER_VIRTIO_DEVICE_ID
// names in tools/uml/uml.config: the number after the colon in
// `virtio_uml.device=SOCKET:ID` (there is no official one).
inline constexpr unsigned kVirtioDeviceId = 1234;

struct BootDevice {
  std::string name;  // for the report: the database path
  std::shared_ptr<const emulator::Model> model;
};

struct BootOptions {
  std::string kernel;
  std::string initrd;
  std::vector<BootDevice> devices;
  std::vector<std::string> kernel_args;  // after ours
  bool real_time = false;                // no time travel: the devices follow the host's clock
  bool lenient = false;                  // violations are reported but do not fail
  uint64_t timeout_s = 60;               // wall-clock limit for the whole boot
  std::string trace_path;                // each device's accesses as a script ("" none; several devices: PATH.N)
  std::string memory = "128M";           // the kernel's mem=
};

enum class BootOutcome {
  kPoweredOff,      // the kernel shut down by itself
  kPanicked,        // it printed "Kernel panic"
  kTimedOut,        // still running after the timeout
  kCouldNotStart,   // no kernel, not executable, or it died before booting
};

struct BootResult {
  BootOutcome outcome = BootOutcome::kCouldNotStart;
  std::string why;               // for kPanicked / kTimedOut / kCouldNotStart
  size_t failing_violations = 0;  // over every device
  uint64_t virtual_ns = 0;       // the kernel's clock at the end (time travel)
  // 0 powered off, no failing violation; 1 violations; 3 the kernel failed.
  int ExitStatus() const;
};

// `console` receives the kernel's console as it runs; `report` the devices'
// violations and the summary. Throws std::runtime_error for what the
// caller got wrong before the kernel started (a socket that cannot be made).
BootResult Boot(const BootOptions& options, std::ostream& console, std::ostream& report);

}  // namespace regemu::uml
