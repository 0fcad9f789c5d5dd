#include "tools/regemu/boot_command.hpp"

#include <iostream>
#include <stdexcept>

#include "regemu/uml/boot.hpp"
#include "regemu/uml/device_host.hpp"
#include "tools/regemu/device_inputs.hpp"

namespace regemu::tools {

int RunBootCommand(const BootCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (options.databases.size() > uml::kMaxDevices) {
    err << "regemu boot: virt-pci has " << uml::kMaxDevices << " slots; " << options.databases.size()
        << " databases were given\n";
    return 2;
  }
  uml::BootOptions boot;
  boot.kernel = options.kernel;
  boot.initrd = options.initrd;
  boot.kernel_args = options.kernel_args;
  boot.real_time = options.real_time;
  boot.lenient = options.lenient;
  boot.timeout_s = options.timeout_s;
  boot.trace_path = options.trace;
  for (const std::string& path : options.databases) {
    if (!DatabaseExists("regemu boot", path, err)) return 2;
    CompiledDatabase compiled = CompileDatabase(path, err);
    if (!compiled.model) return 2;
    bool pci = false;
    for (const auto& space : compiled.model->spaces()) pci = pci || space.kind == regdb::SpaceKind::kPciConfig;
    if (!pci) {
      err << "regemu boot: " << path << ": the database has no pci-config space; virt-pci carries PCI functions only\n";
      return 2;
    }
    boot.devices.push_back(uml::BootDevice{path, compiled.model});
  }
  try {
    uml::BootResult result = uml::Boot(boot, out, err);
    return result.ExitStatus();
  } catch (const std::exception& e) {
    err << "regemu boot: " << e.what() << "\n";
    return 3;
  }
}

int RunServeCommand(const ServeCommandOptions& options, std::ostream& out, std::ostream& err) {
  if (!DatabaseExists("regemu serve", options.database, err)) return 2;
  CompiledDatabase compiled = CompileDatabase(options.database, err);
  if (!compiled.model) return 2;
  try {
    uml::DeviceHostOptions host_options;
    host_options.time_travel_socket = options.time_travel;
    uml::DeviceHost host(host_options);
    emulator::DeviceOptions device_options;
    device_options.policy = options.lenient ? emulator::ViolationPolicy::Lenient() : emulator::ViolationPolicy::Strict();
    device_options.thread_safe = false;
    device_options.coverage = emulator::CoverageFromEnvironment();
    device_options.on_violation = [&err, model = compiled.model](const emulator::Violation& v) {
      err << "regemu serve: " << (v.fails ? "error: violation: " : "violation (recorded, not failing): ")
          << v.Describe(*model) << std::flush;
    };
    emulator::Device& device = host.Add(options.socket, compiled.model, std::move(device_options));
    out << "regemu serve: " << options.database << " on " << options.socket
        << (options.time_travel.empty() ? "" : ", time travel on " + options.time_travel) << std::endl;
    while (!host.kernel_gone() && !host.disconnected(0)) host.Poll(100);
    for (const std::string& error : host.errors()) err << "regemu serve: " << error << "\n";
    out << "regemu serve: the kernel disconnected; " << device.violation_count() << " violation(s)\n";
    return device.failing_violation_count() == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    err << "regemu serve: " << e.what() << "\n";
    return 2;
  }
}

}  // namespace regemu::tools
