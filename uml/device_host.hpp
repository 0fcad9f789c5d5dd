#pragma once
// Hosts regemu devices for one User-Mode Linux kernel: each device listens
// on its own vhost-user socket (the kernel's `virtio_uml.device=PATH:ID`,
// one per virt-pci slot), and with time travel one controller owns the
// kernel's clock (`time-travel=ext:PATH`), so that the devices' virtual
// clock and the kernel's are one.
//
// Time travel: the kernel may only move its clock when told RUN. When it
// waits, the host runs the devices' event queues up to the time the kernel
// asked for; the first event that sends an interrupt stops there, the
// interrupt is delivered (a synchronous vring call: the kernel queues it
// as an event at that instant) and the kernel runs at that instant. So a
// behaviour's `after: 2ms` fires at exactly 2 ms of kernel time, and two
// runs with the same inputs repeat byte for byte.
//
// Real time (no controller): a device's clock follows CLOCK_MONOTONIC from
// the host's start; runs do not repeat.
//
// Single-threaded: Poll does all the work, on the caller's thread.

#include <poll.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/uml/device_function.hpp"
#include "regemu/uml/time_travel_controller.hpp"

namespace regemu::uml {

class HostedDevice;

struct DeviceHostOptions {
  // The controller's socket (the kernel's `time-travel=ext:PATH`); empty: real time.
  std::string time_travel_socket;
};

class DeviceHost {
 public:
  explicit DeviceHost(DeviceHostOptions options);
  ~DeviceHost();
  DeviceHost(const DeviceHost&) = delete;
  DeviceHost& operator=(const DeviceHost&) = delete;

  // A device of `model` at `socket_path` (listening from now on). Throws
  // std::invalid_argument for a model with no pci-config space, and
  // std::runtime_error when the socket cannot be made.
  emulator::Device& Add(const std::string& socket_path, std::shared_ptr<const emulator::Model> model,
                        emulator::DeviceOptions options = {});

  // Waits up to `timeout_ms` (-1: no limit) for the kernel or for `extra`
  // fds (their revents are filled in for the caller), handles every
  // message that arrived and runs the devices' clocks.
  void Poll(int timeout_ms, std::span<pollfd> extra = {});

  bool time_travel() const { return controller_ != nullptr; }
  // The shared clock (time travel) or the monotonic time since the start.
  uint64_t now_ns() const;
  // The kernel closed the time-travel link (it powered off, or died).
  bool kernel_gone() const { return kernel_gone_; }
  size_t size() const { return devices_.size(); }
  // The kernel connected to device `index` and has since closed the connection.
  bool disconnected(size_t index) const;
  emulator::Device& device(size_t index);
  DeviceFunction& function(size_t index);
  // What went wrong on the links (the kernel broke the protocol, a socket failed).
  std::vector<std::string> errors() const;

 private:
  void HandleController();
  // While the kernel waits: run the devices up to its request, stopping at
  // the first interrupt, then let it run.
  void RunWaitingKernel();
  void AdvanceDevicesTo(uint64_t ns);
  // Sends what the devices raised; true if anything went out.
  bool DeliverInterrupts();
  // For a synchronous vring call: until `fd` is readable, answers the
  // controller's messages (the kernel asks for the time while it queues the interrupt).
  void WaitServicingController(int fd);
  std::optional<uint64_t> NextDeviceEvent() const;

  std::unique_ptr<TimeTravelController> controller_;
  std::vector<std::unique_ptr<HostedDevice>> devices_;
  uint64_t start_ns_ = 0;  // CLOCK_MONOTONIC at construction (real time)
  bool kernel_gone_ = false;
  std::vector<std::string> errors_;
};

}  // namespace regemu::uml
