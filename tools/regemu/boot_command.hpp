#pragma once
// `regemu boot --kernel LINUX --initrd CPIO [--real-time] [--timeout S]
// [--lenient] [--trace FILE] DB... [-- KERNEL_ARGS...]`: boots a User-Mode
// Linux kernel with one PCI function per database on virt-pci's slots (at
// most 8), the kernel's clock and the devices' one (time travel) unless
// --real-time, and reports each device's violations when it powers off
// (uml/boot.hpp).
//
// `regemu serve --socket PATH [--time-travel PATH] [--lenient] DB`: one
// device on a vhost-user socket for a kernel someone else starts (KUnit's
// kunit.py, a user's own UML): it serves until the kernel disconnects.

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace regemu::tools {

struct BootCommandOptions {
  std::string kernel;
  std::string initrd;
  std::vector<std::string> databases;
  std::vector<std::string> kernel_args;
  bool real_time = false;
  bool lenient = false;
  uint64_t timeout_s = 60;
  std::string trace;
};

// Exit status: 0 the kernel powered off and (strict) no violation; 1
// violations; 2 usage or a bad database; 3 the kernel panicked, hung past
// --timeout, or could not start (the report says which).
int RunBootCommand(const BootCommandOptions& options, std::ostream& out, std::ostream& err);

struct ServeCommandOptions {
  std::string socket;
  std::string time_travel;  // "": the kernel keeps its own clock
  std::string database;
  bool lenient = false;
};

// Exit status: 0 the kernel disconnected with no violation (strict); 1
// violations; 2 usage, a bad database or a socket that cannot be made.
int RunServeCommand(const ServeCommandOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
