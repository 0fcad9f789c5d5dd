// uml_vhost_fuzz: what a kernel (or anything else on the socket) can send
// the device side of virt-pci's vhost-user wire (uml/vhost): the message
// parser and the descriptor walker. Finds crashes, hangs and unbounded
// memory on hostile input; every bad message or chain must end as a
// reported error.
//
//   input:      byte 0 picks the mode.
//               0: the rest is a raw vhost-user message stream to a fresh
//                  slave (headers, payloads, sizes, requests);
//               1: the slave is set up as UML 6.1 does (protocol features,
//                  a 64 KiB memory table, both vrings of 16 entries at
//                  fixed places), the rest is written over that memory
//                  (descriptor tables, available rings, virt-pci requests),
//                  then both queues are kicked and an MSI is sent.
//   seeds:      corpus/uml_vhost_fuzz
//   dictionary: tests/fuzz/uml_vhost_fuzz.dict
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "regemu/uml/vhost/message_channel.hpp"
#include "regemu/uml/vhost/vhost_user_slave.hpp"
#include "regemu/uml/vhost/virtio_pcidev.hpp"

using namespace regemu::uml;

namespace {

constexpr uint64_t kBase = 0x21000000;
constexpr uint64_t kMemory = 64 * 1024;
constexpr int kMaxMessages = 256;

class NullFunction : public PciFunction {
 public:
  void ConfigRead(uint64_t, std::span<uint8_t> out) override { std::memset(out.data(), 0xFF, out.size()); }
  void ConfigWrite(uint64_t, std::span<const uint8_t>) override {}
  void MmioRead(unsigned, uint64_t, std::span<uint8_t> out) override { std::memset(out.data(), 0x5A, out.size()); }
  void MmioWrite(unsigned, uint64_t, std::span<const uint8_t>) override {}
  void MmioMemset(unsigned, uint64_t, uint8_t, uint64_t length) override {
    if (length > kMaxTransfer) __builtin_trap();  // the slave bounds it
  }
  void ProtocolError(const std::string&) override {}
  void MemoryChanged(const GuestMemory&) override {}
};

// Reads whatever the slave wrote, so that its sends never block.
void Drain(int fd) {
  char buffer[4096];
  while (::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT) > 0) {
  }
}

void Send(int fd, uint32_t request, const void* payload, uint32_t size, int pass_fd = -1) {
  if (!SendMessage(fd, request, kVhostUserVersion, payload, size, pass_fd)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > 32768) return 0;
  int pair[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) return 0;
  int master = pair[0];
  NullFunction function;
  VhostUserSlave slave(pair[1], function, VhostUserSlave::Options{});
  if (data[0] % 2 == 0) {
    // The stream, then end of file: every message, and the truncated last one, must end cleanly.
    size_t done = 1;
    while (done < size) {
      ssize_t put = ::send(master, data + done, size - done, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (put <= 0) break;
      done += static_cast<size_t>(put);
    }
    ::shutdown(master, SHUT_WR);
    for (int i = 0; i < kMaxMessages && slave.HandleMessage(); ++i) Drain(master);
    ::close(master);
    return 0;
  }
  int calls[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, calls) != 0) {
    ::close(master);
    return 0;
  }
  int memfd = ::memfd_create("guest", MFD_CLOEXEC);
  if (memfd < 0 || ::ftruncate(memfd, kMemory) != 0) __builtin_trap();
  auto* memory = static_cast<uint8_t*>(::mmap(nullptr, kMemory, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0));
  uint64_t protocol = (1u << kProtocolReplyAck) | (1u << kProtocolSlaveReq) | (1u << kProtocolInbandNotifications);
  auto step = [&] {
    slave.HandleMessage();
    Drain(master);
    Drain(calls[0]);
  };
  Send(master, kSetProtocolFeatures, &protocol, 8);
  step();
  uint64_t none = 0;
  Send(master, kSetSlaveReqFd, &none, 8, calls[1]);
  step();
  uint8_t table[72] = {};
  uint32_t num = 1;
  std::memcpy(table, &num, 4);
  MemoryRegionDesc region{kBase, kMemory, kBase, 0};
  std::memcpy(table + 8, &region, sizeof region);
  Send(master, kSetMemTable, table, sizeof table, memfd);
  step();
  for (uint32_t q = 0; q < 2; ++q) {
    VringState ring{q, 16};
    Send(master, kSetVringNum, &ring, sizeof ring);
    step();
    VringAddr addr{q, 0, kBase + 0x1000 * q, kBase + 0x1000 * q + 0x800, kBase + 0x1000 * q + 0x400, ~uint64_t{0}};
    Send(master, kSetVringAddr, &addr, sizeof addr);
    step();
    VringState enable{q, 1};
    Send(master, kSetVringEnable, &enable, sizeof enable);
    step();
  }
  std::memcpy(memory, data + 1, std::min<size_t>(size - 1, kMemory));
  for (uint32_t q = 0; q < 2; ++q) {
    VringState kick{q, 0};
    Send(master, kVringKick, &kick, sizeof kick);
    step();
  }
  slave.SendMsi(65);
  slave.SendIntx(1);
  Drain(calls[0]);
  ::munmap(memory, kMemory);
  ::close(calls[0]);
  ::close(calls[1]);
  ::close(memfd);
  ::close(master);
  return 0;
}
