#pragma once
// The device side of one vhost-user connection from User-Mode Linux's
// virtio_uml (arch/um/drivers/virtio_uml.c) carrying virt-pci
// (arch/um/drivers/virt-pci.c): the handshake, the memory table, the two
// virtqueues, and the requests on them handed to a PciFunction.
//
// What the kernel requires, read in its 6.1 sources:
// - replies carry exactly VERSION|REPLY (vhost_user_recv_resp);
// - SLAVE_REQ must be offered: virtio_uml allocates its interrupt only in
//   vhost_user_init_slave_req, and without it the probe fails;
// - the command queue must be called after each batch, posted writes
//   included, or the kernel never frees their buffers and its ring fills;
// - never offer indirect descriptors, the event index, packed rings or
//   ACCESS_PLATFORM (this side walks plain split rings only).
// INBAND_NOTIFICATIONS is offered: kicks arrive as VRING_KICK messages and
// calls leave as SLAVE_VRING_CALL messages, which is what time travel needs
// (their timetravel handler runs even with the kernel's interrupts off).
//
// Calls under time travel (Options::synchronous_calls) carry NEED_REPLY
// and this side waits for the kernel's answer, and a kick is acknowledged
// only after its queue ran and was called: the one order that keeps 6.1's
// time-travel event list consistent.

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "regemu/uml/vhost/guest_memory.hpp"
#include "regemu/uml/vhost/message_channel.hpp"
#include "regemu/uml/vhost/pci_function.hpp"
#include "regemu/uml/vhost/split_virtqueue.hpp"

namespace regemu::uml {

class VhostUserSlave {
 public:
  struct Options {
    bool synchronous_calls = false;
    // Returns once `fd` is readable (the kernel's answer to a call is
    // there): a host that also owns the kernel's clock serves its messages
    // meanwhile. The default polls `fd` alone.
    std::function<void(int fd)> wait_readable;
    // Runs after a kicked command queue's requests and before the kick is
    // acknowledged: where the host sends the interrupts they raised.
    std::function<void()> after_requests;
  };

  // Takes ownership of `fd`, a connected stream socket.
  VhostUserSlave(int fd, PciFunction& function, Options options);
  ~VhostUserSlave();
  VhostUserSlave(const VhostUserSlave&) = delete;
  VhostUserSlave& operator=(const VhostUserSlave&) = delete;

  int fd() const { return fd_; }
  // Reads and handles one message. False when the connection is over: the
  // kernel closed it (closed() true) or it broke beyond repair (error()).
  bool HandleMessage();
  bool closed() const { return closed_; }
  // The last thing that went wrong ("" if nothing did).
  const std::string& error() const { return error_; }

  // Kick fds the kernel passed (no INBAND_NOTIFICATIONS): poll them and
  // call HandleKick when one is readable.
  std::vector<int> kick_fds() const;
  void HandleKick(int fd);

  // Device-to-kernel events on the interrupt queue: an MSI or MSI-X message
  // with its data, an INTx assertion on `pin` (1-4), a PME. Queued (up to
  // kMaxQueuedEvents) while the kernel has posted no buffer.
  void SendMsi(uint32_t data);
  void SendIntx(unsigned pin);
  void SendPme();

  static constexpr size_t kMaxQueuedEvents = 1024;
  uint64_t requests() const { return requests_; }

 private:
  struct Vring {
    SplitVirtqueue queue;
    int kick_fd = -1;
    int call_fd = -1;
  };
  struct Event {
    uint8_t op;
    uint64_t addr;
    uint32_t data;
    uint32_t size;
  };

  void Fail(std::string what);  // a protocol error of the kernel's, reported
  bool Handle(VhostUserMessage& message);
  void RunQueue(unsigned index);
  void RunCommands();
  void Request(DescriptorChain& chain, uint32_t& written);
  void FlushEvents();
  void Call(unsigned index);
  void WaitReadable(int fd);
  bool Negotiated(unsigned protocol_bit) const { return (protocol_features_ >> protocol_bit) & 1; }

  int fd_;
  PciFunction& function_;
  Options options_;
  GuestMemory memory_;
  Vring vrings_[2];
  uint64_t features_ = 0;
  uint64_t protocol_features_ = 0;
  int slave_fd_ = -1;
  std::deque<Event> events_;
  bool closed_ = false;
  bool broken_ = false;
  std::string error_;
  uint64_t requests_ = 0;
};

}  // namespace regemu::uml
