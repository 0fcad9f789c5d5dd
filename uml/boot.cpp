#include "regemu/uml/boot.hpp"

#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include "regemu/emulator/trace.hpp"
#include "regemu/uml/device_host.hpp"
#include "regemu/uml/kernel_process.hpp"

namespace regemu::uml {
namespace {

uint64_t WallSeconds() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec);
}

// A private folder for the sockets and UML's own files (uml_dir), removed afterwards.
class ScratchFolder {
 public:
  ScratchFolder() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/regemu-boot.XXXXXX";
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    if (::mkdtemp(buffer.data()) == nullptr) {
      throw std::runtime_error("cannot make a scratch folder " + pattern + ": " + std::strerror(errno));
    }
    path_ = buffer.data();
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Watches the console for the kernel's panic line (arch/um: panic() prints
// "Kernel panic - not syncing: ..."); keeps only a bounded tail, so a
// kernel printing forever costs constant memory.
class ConsoleWatch {
 public:
  void Feed(const std::string& text) {
    tail_ += text;
    size_t at = tail_.find("Kernel panic - not syncing");
    if (at != std::string::npos && panic_.empty()) {
      size_t end = tail_.find('\n', at);
      panic_ = tail_.substr(at, end == std::string::npos ? std::string::npos : end - at);
    }
    if (tail_.size() > 8192) tail_.erase(0, tail_.size() - 4096);
  }
  const std::string& panic() const { return panic_; }
  // Waiting for the rest of the panic line.
  bool panic_line_complete() const { return !panic_.empty(); }

 private:
  std::string tail_;
  std::string panic_;
};

}  // namespace

int BootResult::ExitStatus() const {
  if (outcome != BootOutcome::kPoweredOff) return 3;
  return failing_violations == 0 ? 0 : 1;
}

BootResult Boot(const BootOptions& options, std::ostream& console, std::ostream& report) {
  BootResult result;
  if (options.devices.size() > kMaxDevices) {
    throw std::runtime_error("virt-pci has " + std::to_string(kMaxDevices) + " slots; " +
                             std::to_string(options.devices.size()) + " devices were given");
  }
  if (::access(options.kernel.c_str(), X_OK) != 0) {
    result.why = "the kernel '" + options.kernel + "' is not an executable file: " + std::strerror(errno);
    report << "regemu boot: the kernel could not start: " << result.why << "\n";
    return result;
  }
  ScratchFolder scratch;
  DeviceHostOptions host_options;
  if (!options.real_time) host_options.time_travel_socket = scratch.path() + "/time-travel.sock";
  DeviceHost host(host_options);

  std::vector<std::unique_ptr<std::ofstream>> traces;
  std::vector<std::string> arguments = {"mem=" + options.memory, "initrd=" + options.initrd, "con=null",
                                        "con0=null,fd:1", "uml_dir=" + scratch.path()};
  for (size_t i = 0; i < options.devices.size(); ++i) {
    emulator::DeviceOptions device_options;
    device_options.policy = options.lenient ? emulator::ViolationPolicy::Lenient() : emulator::ViolationPolicy::Strict();
    device_options.thread_safe = false;  // one thread: the host's loop
    device_options.coverage = emulator::CoverageFromEnvironment();
    if (!options.trace_path.empty()) {
      std::string path = options.devices.size() == 1 ? options.trace_path
                                                     : options.trace_path + "." + std::to_string(i);
      traces.push_back(std::make_unique<std::ofstream>(path));
      if (!*traces.back()) throw std::runtime_error("cannot write the trace '" + path + "'");
      std::ofstream* out = traces.back().get();
      const emulator::Model* model = options.devices[i].model.get();
      device_options.on_trace = [out, model](const emulator::TraceEntry& entry) {
        *out << emulator::RenderTraceEntry(*model, entry) << "\n";
      };
    }
    std::string socket = scratch.path() + "/device" + std::to_string(i) + ".sock";
    host.Add(socket, options.devices[i].model, std::move(device_options));
    arguments.push_back("virtio_uml.device=" + socket + ":" + std::to_string(kVirtioDeviceId));
  }
  if (!options.real_time) arguments.push_back("time-travel=ext:" + host_options.time_travel_socket);
  arguments.insert(arguments.end(), options.kernel_args.begin(), options.kernel_args.end());

  KernelProcess kernel(options.kernel, arguments);
  ConsoleWatch watch;
  uint64_t deadline = WallSeconds() + options.timeout_s;
  bool started = false;
  for (;;) {
    pollfd console_fd{kernel.console_fd(), POLLIN, 0};
    host.Poll(50, std::span<pollfd>(&console_fd, kernel.console_fd() >= 0 ? 1 : 0));
    if ((console_fd.revents & (POLLIN | POLLHUP)) != 0) {
      std::string text = kernel.ReadConsole();
      if (!text.empty()) started = true;
      console << text << std::flush;
      watch.Feed(text);
    }
    if (!watch.panic().empty()) {
      result.outcome = BootOutcome::kPanicked;
      result.why = "the kernel panicked: " + watch.panic();
      break;
    }
    if (kernel.Exited() && kernel.console_fd() < 0) {
      int status = kernel.exit_status().value_or(-1);
      if (!started && status != 0) {
        result.why = "the kernel exited with status " + std::to_string(status) + " before printing anything";
      } else {
        result.outcome = BootOutcome::kPoweredOff;
      }
      break;
    }
    if (WallSeconds() >= deadline) {
      result.outcome = BootOutcome::kTimedOut;
      result.why = "the kernel was still running after " + std::to_string(options.timeout_s) + " s (--timeout)";
      break;
    }
  }
  kernel.Kill();
  result.virtual_ns = host.now_ns();

  for (size_t i = 0; i < host.size(); ++i) {
    emulator::Device& device = host.device(i);
    const std::string& name = options.devices[i].name;
    for (const emulator::Violation& v : device.violations()) {
      report << name << ": " << (v.fails ? "error: violation: " : "violation (recorded, not failing): ")
             << v.Describe(device.model());
    }
    if (device.violation_count() > device.violations().size()) {
      report << name << ": note: " << device.violation_count() - device.violations().size()
             << " more violation(s) were counted but not kept\n";
    }
    for (const std::string& error : host.function(i).protocol_errors()) {
      report << name << ": the kernel broke the virt-pci protocol: " << error << "\n";
    }
    result.failing_violations += device.failing_violation_count();
    report << name << ": " << device.access_count() << " trace event(s), " << device.violation_count()
           << " violation(s)\n";
  }
  for (const std::string& error : host.errors()) report << "regemu boot: " << error << "\n";
  const char* what = result.outcome == BootOutcome::kPoweredOff ? "the kernel powered off" : result.why.c_str();
  report << "regemu boot: " << what << (options.real_time ? "" : "; virtual time ")
         << (options.real_time ? std::string() : std::to_string(result.virtual_ns) + " ns") << "\n";
  return result;
}

}  // namespace regemu::uml
