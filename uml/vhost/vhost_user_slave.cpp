#include "regemu/uml/vhost/vhost_user_slave.hpp"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "regemu/uml/vhost/virtio_pcidev.hpp"

namespace regemu::uml {
namespace {

constexpr uint64_t kOfferedFeatures = (uint64_t{1} << kFeatureProtocolFeatures) | (uint64_t{1} << kFeatureVersion1);
constexpr uint64_t kOfferedProtocol = (uint64_t{1} << kProtocolReplyAck) | (uint64_t{1} << kProtocolSlaveReq) |
                                      (uint64_t{1} << kProtocolInbandNotifications);
constexpr unsigned kQueues = 2;
// How long a synchronous call waits for the kernel's answer by default
// (it comes within microseconds; a kernel that hangs must not hang us).
constexpr int kCallAnswerMs = 5000;
// Each function's configuration window (virt-pci.c, CFG_SPACE_SIZE).
constexpr uint64_t kConfigWindow = 4096;

template <typename T>
bool PayloadAs(const VhostUserMessage& message, T& out) {
  if (message.payload.size() < sizeof(T)) return false;
  std::memcpy(&out, message.payload.data(), sizeof(T));
  return true;
}

std::string RequestName(uint32_t request) { return "request " + std::to_string(request); }

}  // namespace

VhostUserSlave::VhostUserSlave(int fd, PciFunction& function, Options options)
    : fd_(fd), function_(function), options_(std::move(options)) {}

VhostUserSlave::~VhostUserSlave() {
  for (Vring& v : vrings_) {
    if (v.kick_fd >= 0) ::close(v.kick_fd);
    if (v.call_fd >= 0) ::close(v.call_fd);
  }
  if (slave_fd_ >= 0) ::close(slave_fd_);
  if (fd_ >= 0) ::close(fd_);
}

void VhostUserSlave::Fail(std::string what) {
  error_ = what;
  function_.ProtocolError(what);
}

bool VhostUserSlave::HandleMessage() {
  if (broken_ || closed_) return false;
  VhostUserMessage message;
  std::string why;
  switch (ReceiveMessage(fd_, message, why)) {
    case ReceiveStatus::kClosed:
      closed_ = true;
      return false;
    case ReceiveStatus::kError:
      Fail(why);
      broken_ = true;
      return false;
    case ReceiveStatus::kOk:
      break;
  }
  bool ok = Handle(message);
  CloseAll(message.fds);
  return ok && !broken_;
}

bool VhostUserSlave::Handle(VhostUserMessage& message) {
  const uint32_t request = message.header.request;
  bool need_reply = (message.header.flags & kFlagNeedReply) != 0 && Negotiated(kProtocolReplyAck);
  uint64_t status = 0;
  auto ack = [&] { return !need_reply || SendReplyU64(fd_, request, status); };
  auto vring_index = [&](uint64_t raw, unsigned& index) {
    index = static_cast<unsigned>(raw & kVringIndexMask);
    if (index >= kQueues) {
      Fail(RequestName(request) + " names vring " + std::to_string(index) + "; virt-pci has " +
           std::to_string(kQueues));
      status = 1;
      return false;
    }
    return true;
  };
  switch (request) {
    case kGetFeatures:
      return SendReplyU64(fd_, request, kOfferedFeatures);
    case kGetProtocolFeatures:
      return SendReplyU64(fd_, request, kOfferedProtocol);
    case kSetFeatures:
    case kSetProtocolFeatures: {
      uint64_t value = 0;
      if (!PayloadAs(message, value)) {
        Fail(RequestName(request) + " without its u64");
        status = 1;
      } else if (request == kSetFeatures) {
        features_ = value & kOfferedFeatures;
      } else {
        protocol_features_ = value & kOfferedProtocol;
        // The ack rule applies from this message on (virtio_uml sets NEED_REPLY once REPLY_ACK is known).
        need_reply = (message.header.flags & kFlagNeedReply) != 0 && Negotiated(kProtocolReplyAck);
      }
      return ack();
    }
    case kSetOwner:
    case kResetOwner:
      return ack();
    case kSetSlaveReqFd:
      if (message.fds.size() != 1) {
        Fail("SET_SLAVE_REQ_FD with " + std::to_string(message.fds.size()) + " file descriptors");
        status = 1;
      } else {
        if (slave_fd_ >= 0) ::close(slave_fd_);
        slave_fd_ = message.fds[0];
        message.fds.clear();
      }
      return ack();
    case kSetMemTable: {
      uint32_t num = 0;
      if (!PayloadAs(message, num) || num == 0 || num > kMaxRegions ||
          message.payload.size() < 8 + sizeof(MemoryRegionDesc) * num) {
        Fail("SET_MEM_TABLE with " + std::to_string(num) + " region(s) in a payload of " +
             std::to_string(message.payload.size()) + " bytes");
        status = 1;
        return ack();
      }
      std::vector<MemoryRegionDesc> regions(num);
      std::memcpy(regions.data(), message.payload.data() + 8, sizeof(MemoryRegionDesc) * num);
      std::string problem = memory_.Set(regions, message.fds);
      message.fds.clear();  // Set closed them
      if (!problem.empty()) {
        Fail(problem);
        status = 1;
      }
      function_.MemoryChanged(memory_);
      return ack();
    }
    case kSetVringNum:
    case kSetVringBase:
    case kSetVringEnable:
    case kGetVringBase:
    case kVringKick: {
      VringState state{};
      unsigned index = 0;
      if (!PayloadAs(message, state)) {
        Fail(RequestName(request) + " without its vring state");
        status = 1;
        return request == kGetVringBase ? SendMessage(fd_, request, kReplyFlags, &state, sizeof state) : ack();
      }
      if (!vring_index(state.index, index)) {
        return request == kGetVringBase ? SendMessage(fd_, request, kReplyFlags, &state, sizeof state) : ack();
      }
      SplitVirtqueue& queue = vrings_[index].queue;
      if (request == kSetVringNum) {
        if (state.num == 0 || state.num > SplitVirtqueue::kMaxSize || (state.num & (state.num - 1)) != 0) {
          Fail("SET_VRING_NUM " + std::to_string(state.num) + " is not a power of two up to " +
               std::to_string(SplitVirtqueue::kMaxSize));
          status = 1;
        } else {
          queue.SetSize(state.num);
        }
      } else if (request == kSetVringBase) {
        queue.SetBase(static_cast<uint16_t>(state.num));
      } else if (request == kSetVringEnable) {
        queue.SetEnabled(state.num != 0);
        if (state.num != 0 && index == kInterruptQueue) FlushEvents();
      } else if (request == kGetVringBase) {
        queue.SetEnabled(false);
        VringState reply{state.index, queue.base()};
        return SendMessage(fd_, request, kReplyFlags, &reply, sizeof reply);
      } else {  // an in-band kick
        if (options_.synchronous_calls) {
          RunQueue(index);  // the queue runs and is called before the kick is acknowledged
          return ack();
        }
        bool sent = ack();
        RunQueue(index);
        return sent;
      }
      return ack();
    }
    case kSetVringAddr: {
      VringAddr addr{};
      unsigned index = 0;
      if (!PayloadAs(message, addr)) {
        Fail("SET_VRING_ADDR without its addresses");
        status = 1;
      } else if (vring_index(addr.index, index)) {
        vrings_[index].queue.SetAddresses(addr.desc, addr.avail, addr.used);
        if (std::string problem = vrings_[index].queue.Check(memory_); !problem.empty()) {
          Fail("vring " + std::to_string(index) + ": " + problem);
          status = 1;
        }
      }
      return ack();
    }
    case kSetVringKick:
    case kSetVringCall:
    case kSetVringErr: {
      uint64_t value = 0;
      unsigned index = 0;
      if (!PayloadAs(message, value)) {
        Fail(RequestName(request) + " without its u64");
        status = 1;
        return ack();
      }
      if (!vring_index(value, index)) return ack();
      bool has_fd = (value & kVringPollMask) == 0;
      if (has_fd != (message.fds.size() == 1)) {
        Fail(RequestName(request) + " for vring " + std::to_string(index) + ": the fd and the poll bit disagree");
        status = 1;
        return ack();
      }
      if (has_fd && request != kSetVringErr) {
        int& slot = request == kSetVringKick ? vrings_[index].kick_fd : vrings_[index].call_fd;
        if (slot >= 0) ::close(slot);
        slot = message.fds[0];
        message.fds.clear();
      }
      return ack();
    }
    default:
      Fail("unknown vhost-user " + RequestName(request) + " (answered as failed)");
      status = 1;
      return ack();
  }
}

std::vector<int> VhostUserSlave::kick_fds() const {
  std::vector<int> fds;
  for (const Vring& v : vrings_) {
    if (v.kick_fd >= 0) fds.push_back(v.kick_fd);
  }
  return fds;
}

void VhostUserSlave::HandleKick(int fd) {
  for (unsigned i = 0; i < kQueues; ++i) {
    if (vrings_[i].kick_fd != fd) continue;
    uint64_t count = 0;
    ssize_t got = ::read(fd, &count, sizeof count);
    (void)got;  // an eventfd: the count is not needed, only that it fired
    RunQueue(i);
  }
}

void VhostUserSlave::RunQueue(unsigned index) {
  if (index == kCommandQueue) {
    RunCommands();
  } else {
    FlushEvents();  // the kernel posted interrupt buffers
  }
}

void VhostUserSlave::RunCommands() {
  SplitVirtqueue& queue = vrings_[kCommandQueue].queue;
  bool any = false;
  for (;;) {
    std::string error;
    auto chain = queue.Pop(memory_, error);
    if (!error.empty()) Fail("command queue: " + error);
    if (!chain) break;
    uint32_t written = 0;
    if (!chain->error.empty()) {
      Fail("command queue: " + chain->error);
    } else {
      Request(*chain, written);
    }
    queue.Push(memory_, chain->head, written);
    any = true;
  }
  if (options_.after_requests) options_.after_requests();
  if (any) Call(kCommandQueue);
}

void VhostUserSlave::Request(DescriptorChain& chain, uint32_t& written) {
  ++requests_;
  // The request and its data, gathered: virt-pci may split them over descriptors.
  std::vector<uint8_t> in;
  for (const auto& buffer : chain.readable) {
    if (in.size() + buffer.size() > sizeof(PcidevHeader) + kMaxTransfer) {
      Fail("a virt-pci request carries more than " + std::to_string(kMaxTransfer) + " bytes");
      return;
    }
    in.insert(in.end(), buffer.begin(), buffer.end());
  }
  if (in.size() < sizeof(PcidevHeader)) {
    Fail("a virt-pci request of " + std::to_string(in.size()) + " bytes, shorter than its 16-byte header");
    return;
  }
  PcidevHeader header;
  std::memcpy(&header, in.data(), sizeof header);
  std::span<const uint8_t> data(in.data() + sizeof header, in.size() - sizeof header);
  size_t room = 0;
  for (const auto& buffer : chain.writable) room += buffer.size();
  // Reads fill the writable buffers in order.
  auto answer = [&](const std::vector<uint8_t>& bytes) {
    size_t done = 0;
    for (auto& buffer : chain.writable) {
      size_t count = std::min(buffer.size(), bytes.size() - done);
      std::memcpy(buffer.data(), bytes.data() + done, count);
      done += count;
      if (done == bytes.size()) break;
    }
    written = static_cast<uint32_t>(done);
  };
  switch (header.op) {
    case kOpCfgRead:
    case kOpMmioRead: {
      if (header.size == 0 || header.size > kMaxTransfer || header.size > room) {
        Fail("a read of " + std::to_string(header.size) + " bytes with room for " + std::to_string(room));
        return;
      }
      std::vector<uint8_t> bytes(header.size, 0xFF);
      if (header.op == kOpCfgRead) {
        function_.ConfigRead(header.addr, bytes);
      } else {
        function_.MmioRead(header.bar, header.addr, bytes);
      }
      answer(bytes);
      return;
    }
    case kOpCfgWrite:
      // Linux 6.1's um_pci_bar_set (memset_io on a BAR) sends CFG_WRITE
      // with the BAR index in `bar`, the value in data[0] and the length in
      // `size`; its message is padded to 24 bytes like a configuration
      // write's (um_pci_cfgspace_write), so only the addressing tells them
      // apart: a BAR other than 0, a length a configuration access cannot
      // have, or a range past the 4 KiB configuration window. A memset of
      // BAR 0 of 1, 2, 4 or 8 bytes inside its first 4 KiB is
      // indistinguishable from a configuration write and is taken as one.
      if (!data.empty() && (header.bar != 0 || (header.size != 1 && header.size != 2 && header.size != 4 &&
                                                header.size != 8) ||
                            header.addr >= kConfigWindow || header.size > kConfigWindow - header.addr)) {
        if (header.size > kMaxTransfer) {
          Fail("a memset of " + std::to_string(header.size) + " bytes, over " + std::to_string(kMaxTransfer));
          return;
        }
        function_.MmioMemset(header.bar, header.addr, data[0], header.size);
        return;
      }
      [[fallthrough]];
    case kOpMmioWrite:
      if (header.size > data.size()) {
        Fail("a write of " + std::to_string(header.size) + " bytes carrying " + std::to_string(data.size()));
        return;
      }
      if (header.op == kOpCfgWrite) {
        function_.ConfigWrite(header.addr, data.first(header.size));
      } else {
        function_.MmioWrite(header.bar, header.addr, data.first(header.size));
      }
      return;
    case kOpMmioMemset:
      if (data.empty() || header.size > kMaxTransfer) {
        Fail("a memset of " + std::to_string(header.size) + " bytes without its value or too long");
        return;
      }
      function_.MmioMemset(header.bar, header.addr, data[0], header.size);
      return;
    default:
      Fail("virt-pci op " + std::to_string(header.op) + " on the command queue");
      return;
  }
}

void VhostUserSlave::SendMsi(uint32_t data) {
  if (events_.size() >= kMaxQueuedEvents) events_.pop_front();
  events_.push_back(Event{kOpMsi, 0, data, 4});
  FlushEvents();
}

void VhostUserSlave::SendIntx(unsigned pin) {
  if (events_.size() >= kMaxQueuedEvents) events_.pop_front();
  events_.push_back(Event{kOpInt, pin, 0, 0});
  FlushEvents();
}

void VhostUserSlave::SendPme() {
  if (events_.size() >= kMaxQueuedEvents) events_.pop_front();
  events_.push_back(Event{kOpPme, 0, 0, 0});
  FlushEvents();
}

void VhostUserSlave::FlushEvents() {
  SplitVirtqueue& queue = vrings_[kInterruptQueue].queue;
  bool any = false;
  while (!events_.empty() && queue.ready()) {
    std::string error;
    auto chain = queue.Pop(memory_, error);
    if (!error.empty()) Fail("interrupt queue: " + error);
    if (!chain) break;
    uint32_t written = 0;
    if (!chain->error.empty() || chain->writable.empty() || chain->writable[0].size() < kIrqMessageSize) {
      Fail("interrupt queue: a buffer that cannot hold a " + std::to_string(kIrqMessageSize) + "-byte message" +
           (chain->error.empty() ? "" : ": " + chain->error));
    } else {
      const Event& event = events_.front();
      PcidevHeader header{event.op, 0, 0, event.size, event.addr};
      std::memcpy(chain->writable[0].data(), &header, sizeof header);
      std::memcpy(chain->writable[0].data() + sizeof header, &event.data, sizeof event.data);
      written = kIrqMessageSize;
      events_.pop_front();
    }
    queue.Push(memory_, chain->head, written);
    any = true;
  }
  if (any) Call(kInterruptQueue);
}

void VhostUserSlave::WaitReadable(int fd) {
  if (options_.wait_readable) {
    options_.wait_readable(fd);
    return;
  }
  pollfd p{fd, POLLIN, 0};
  while (::poll(&p, 1, kCallAnswerMs) < 0 && errno == EINTR) {
  }
}

void VhostUserSlave::Call(unsigned index) {
  if (Negotiated(kProtocolInbandNotifications) && slave_fd_ >= 0) {
    VringState state{index, 0};
    uint32_t flags = kVhostUserVersion | (options_.synchronous_calls ? kFlagNeedReply : 0);
    if (!SendMessage(slave_fd_, kSlaveVringCall, flags, &state, sizeof state)) {
      Fail(std::string("slave channel: send failed: ") + std::strerror(errno));
      return;
    }
    if (!options_.synchronous_calls) return;
    WaitReadable(slave_fd_);
    pollfd answered{slave_fd_, POLLIN, 0};
    if (::poll(&answered, 1, 0) <= 0) {
      Fail("slave channel: the kernel did not answer a vring call");
      return;
    }
    VhostUserMessage reply;
    std::string why;
    if (ReceiveMessage(slave_fd_, reply, why) != ReceiveStatus::kOk) {
      Fail("slave channel: no answer to a vring call" + (why.empty() ? "" : ": " + why));
      return;
    }
    CloseAll(reply.fds);
    if (reply.header.flags != kReplyFlags || reply.header.request != kSlaveVringCall) {
      Fail("slave channel: an answer to a vring call with request " + std::to_string(reply.header.request) +
           " and flags " + std::to_string(reply.header.flags));
    }
    return;
  }
  if (vrings_[index].call_fd >= 0) {
    uint64_t one = 1;
    ssize_t put = ::write(vrings_[index].call_fd, &one, sizeof one);
    (void)put;  // an eventfd: a full counter still signals
  }
}

}  // namespace regemu::uml
