#include "regemu/uml/device_host.hpp"

#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "regemu/uml/unix_socket.hpp"
#include "regemu/uml/vhost/vhost_user_slave.hpp"

namespace regemu::uml {
namespace {

uint64_t MonotonicNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
}

}  // namespace

// One device: its listening socket, then the kernel's connection, the
// vhost-user slave on it and the PCI function behind that.
class HostedDevice {
 public:
  HostedDevice(const std::string& path, std::shared_ptr<const emulator::Model> model,
               emulator::DeviceOptions options)
      : path_(path) {
    DeviceFunction::Observe(options, interrupts_);
    device_ = std::make_unique<emulator::Device>(std::move(model), std::move(options));
    function_ = std::make_unique<DeviceFunction>(*device_);
    listener_ = ListenUnix(path_);
  }
  ~HostedDevice() {
    slave_.reset();  // closes the connection it owns
    if (listener_ >= 0) ::close(listener_);
    ::unlink(path_.c_str());
  }

  std::string path_;
  std::unique_ptr<emulator::Device> device_;
  std::unique_ptr<DeviceFunction> function_;
  std::vector<InterruptOut> interrupts_;  // raised, not yet sent
  std::unique_ptr<VhostUserSlave> slave_;
  int listener_ = -1;
  bool closed_ = false;
};

DeviceHost::DeviceHost(DeviceHostOptions options) : start_ns_(MonotonicNs()) {
  if (!options.time_travel_socket.empty()) {
    controller_ = std::make_unique<TimeTravelController>(options.time_travel_socket);
  }
}

DeviceHost::~DeviceHost() = default;

emulator::Device& DeviceHost::Add(const std::string& socket_path, std::shared_ptr<const emulator::Model> model,
                                  emulator::DeviceOptions options) {
  devices_.push_back(std::make_unique<HostedDevice>(socket_path, std::move(model), std::move(options)));
  return *devices_.back()->device_;
}

emulator::Device& DeviceHost::device(size_t index) { return *devices_.at(index)->device_; }
DeviceFunction& DeviceHost::function(size_t index) { return *devices_.at(index)->function_; }
bool DeviceHost::disconnected(size_t index) const { return devices_.at(index)->closed_; }

uint64_t DeviceHost::now_ns() const {
  return controller_ ? controller_->now_ns() : MonotonicNs() - start_ns_;
}

std::vector<std::string> DeviceHost::errors() const {
  std::vector<std::string> all = errors_;
  if (controller_ && !controller_->error().empty()) all.push_back(controller_->error());
  return all;
}

std::optional<uint64_t> DeviceHost::NextDeviceEvent() const {
  std::optional<uint64_t> next;
  for (const auto& hosted : devices_) {
    auto due = hosted->device_->next_event_ns();
    if (due && (!next || *due < *next)) next = due;
  }
  return next;
}

void DeviceHost::AdvanceDevicesTo(uint64_t ns) {
  for (auto& hosted : devices_) {
    emulator::Device& device = *hosted->device_;
    uint64_t now = device.now_ns();
    auto due = device.next_event_ns();
    // An advance is a trace entry: only when time moves or an event is due.
    if (ns > now || (due && *due <= ns)) device.Advance(ns > now ? ns - now : 0);
    hosted->function_->CollectIntx(hosted->interrupts_);
  }
}

bool DeviceHost::DeliverInterrupts() {
  bool sent = false;
  for (auto& hosted : devices_) {
    hosted->function_->CollectIntx(hosted->interrupts_);
    if (hosted->interrupts_.empty() || !hosted->slave_) continue;
    std::vector<InterruptOut> out;
    out.swap(hosted->interrupts_);
    for (const InterruptOut& irq : out) {
      if (irq.intx) {
        hosted->slave_->SendIntx(1);
      } else {
        hosted->slave_->SendMsi(irq.data);
      }
      sent = true;
    }
  }
  return sent;
}

void DeviceHost::WaitServicingController(int fd) {
  // The kernel answers within microseconds; one that hangs instead must not
  // hang the host (the call then fails and says so).
  constexpr uint64_t kAnswerWithinNs = 5'000'000'000;
  uint64_t deadline = MonotonicNs() + kAnswerWithinNs;
  for (;;) {
    uint64_t now = MonotonicNs();
    if (now >= deadline) return;
    pollfd fds[2] = {{fd, POLLIN, 0}, {controller_ ? controller_->fd() : -1, POLLIN, 0}};
    int ready = ::poll(fds, controller_ ? 2 : 1, static_cast<int>((deadline - now) / 1'000'000 + 1));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return;
    if (controller_ && (fds[1].revents & (POLLIN | POLLHUP)) != 0) HandleController();
    if ((fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) return;
    if (kernel_gone_) return;
  }
}

void DeviceHost::HandleController() {
  if (!controller_->HandleReadable()) kernel_gone_ = true;
}

void DeviceHost::RunWaitingKernel() {
  if (!controller_ || !controller_->waiting() || kernel_gone_) return;
  uint64_t target = controller_->requested_ns();
  // Each device event before the kernel's own, in order, until one interrupts.
  for (;;) {
    auto due = NextDeviceEvent();
    if (!due || *due > target) break;
    uint64_t at = std::max(*due, controller_->now_ns());
    controller_->SetNow(at);
    AdvanceDevicesTo(at);
    if (DeliverInterrupts()) {
      // The call added an interrupt event at `at` in the kernel (it asked
      // for the time while we waited for its reply): it runs from there.
      controller_->Run();
      return;
    }
  }
  controller_->SetNow(target);
  AdvanceDevicesTo(target);
  DeliverInterrupts();
  controller_->Run();
}

void DeviceHost::Poll(int timeout_ms, std::span<pollfd> extra) {
  std::vector<pollfd> fds;
  if (controller_) fds.push_back({controller_->fd(), POLLIN, 0});
  size_t first_device = fds.size();
  for (auto& hosted : devices_) {
    int fd = hosted->slave_ ? hosted->slave_->fd() : (hosted->closed_ ? -1 : hosted->listener_);
    fds.push_back({fd, POLLIN, 0});
  }
  size_t first_extra = fds.size();
  for (const pollfd& p : extra) fds.push_back({p.fd, p.events, 0});
  if (!controller_) {
    // Real time: wake for the next device event.
    if (auto due = NextDeviceEvent()) {
      uint64_t now = now_ns();
      int until = *due <= now ? 0 : static_cast<int>(std::min<uint64_t>((*due - now + 999999) / 1000000, 1000));
      if (timeout_ms < 0 || until < timeout_ms) timeout_ms = until;
    }
  }
  int ready = ::poll(fds.data(), fds.size(), timeout_ms);
  if (ready < 0 && errno != EINTR) {
    errors_.push_back(std::string("poll: ") + std::strerror(errno));
    return;
  }
  for (size_t i = 0; i < extra.size(); ++i) extra[i].revents = fds[first_extra + i].revents;
  if (!controller_) AdvanceDevicesTo(now_ns());
  if (controller_ && (fds[0].revents & (POLLIN | POLLHUP | POLLERR)) != 0) HandleController();
  for (size_t i = 0; i < devices_.size(); ++i) {
    HostedDevice& hosted = *devices_[i];
    short revents = fds[first_device + i].revents;
    if ((revents & (POLLIN | POLLHUP | POLLERR)) == 0) continue;
    if (!hosted.slave_) {
      int connection = ::accept4(hosted.listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (connection < 0) {
        errors_.push_back(hosted.path_ + ": accept: " + std::strerror(errno));
        continue;
      }
      VhostUserSlave::Options options;
      options.synchronous_calls = controller_ != nullptr;
      options.wait_readable = [this](int fd) { WaitServicingController(fd); };
      // The interrupts a kick's requests raised go out before the kick's acknowledgement.
      options.after_requests = [this] { DeliverInterrupts(); };
      hosted.slave_ = std::make_unique<VhostUserSlave>(connection, *hosted.function_, options);  // owns it
      continue;
    }
    // The kernel's requests happen at its current time.
    AdvanceDevicesTo(now_ns());
    if (!hosted.slave_->HandleMessage()) {
      hosted.closed_ = true;
      hosted.slave_.reset();  // closes the connection
      continue;
    }
    DeliverInterrupts();
  }
  RunWaitingKernel();
}

}  // namespace regemu::uml
