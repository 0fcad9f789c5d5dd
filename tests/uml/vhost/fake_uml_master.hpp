#pragma once
// The kernel's side of a vhost-user connection, as User-Mode Linux 6.1's
// virtio_uml drives it (arch/um/drivers/virtio_uml.c), for the wire tests:
// a socketpair, guest memory in a memfd shared with the slave, split rings
// built in it, and the handshake in virtio_uml's order.
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/uml/vhost/message_channel.hpp"
#include "regemu/uml/vhost/vhost_user_messages.hpp"
#include "regemu/uml/vhost/virtio_pcidev.hpp"

namespace regemu::uml::testing_support {

class FakeUmlMaster {
 public:
  static constexpr uint64_t kGuestBase = 0x21000000;  // a UML physmem-like address
  static constexpr uint64_t kMemorySize = 1 << 20;
  static constexpr uint32_t kRingSize = 16;
  // Where the rings and buffers live, as offsets into guest memory.
  static constexpr uint64_t kRingBytes = 0x1000;
  static constexpr uint64_t kBuffers = 0x10000;

  FakeUmlMaster() {
    int pair[2];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    master_ = pair[0];
    slave_end_ = pair[1];
    EXPECT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair), 0);
    slave_req_ = pair[0];
    slave_req_remote_ = pair[1];
    memfd_ = ::memfd_create("guest", MFD_CLOEXEC);
    EXPECT_GE(memfd_, 0);
    EXPECT_EQ(::ftruncate(memfd_, kMemorySize), 0);
    memory_ = static_cast<uint8_t*>(::mmap(nullptr, kMemorySize, PROT_READ | PROT_WRITE, MAP_SHARED, memfd_, 0));
  }
  ~FakeUmlMaster() {
    ::munmap(memory_, kMemorySize);
    for (int fd : {master_, slave_req_, slave_req_remote_, memfd_}) {
      if (fd >= 0) ::close(fd);
    }
  }

  // The slave's end of the main socket (the slave owns it from then on).
  int TakeSlaveEnd() {
    int fd = slave_end_;
    slave_end_ = -1;
    return fd;
  }
  int master() const { return master_; }
  int slave_req() const { return slave_req_; }
  uint8_t* memory() { return memory_; }

  void Send(uint32_t request, uint32_t flags, const void* payload, uint32_t size, int fd = -1) {
    ASSERT_TRUE(SendMessage(master_, request, flags | kVhostUserVersion, payload, size, fd));
  }
  void SendU64(uint32_t request, uint64_t value, uint32_t flags = 0, int fd = -1) {
    Send(request, flags, &value, sizeof value, fd);
  }
  void SendState(uint32_t request, uint32_t index, uint32_t num, uint32_t flags = 0) {
    VringState state{index, num};
    Send(request, flags, &state, sizeof state);
  }
  // Reads one message the slave sent on `fd` (main socket or slave channel).
  VhostUserMessage Receive(int fd) {
    VhostUserMessage message;
    std::string error;
    EXPECT_EQ(ReceiveMessage(fd, message, error), ReceiveStatus::kOk) << error;
    return message;
  }
  uint64_t ReceiveU64() {
    VhostUserMessage reply = Receive(master_);
    EXPECT_EQ(reply.header.flags, kReplyFlags) << "UML refuses a reply with other flags";
    uint64_t value = ~uint64_t{0};
    if (reply.payload.size() == 8) std::memcpy(&value, reply.payload.data(), 8);
    return value;
  }
  bool Readable(int fd) {
    char byte;
    return ::recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT) > 0;
  }

  // Guest addresses of vring `index`'s parts.
  uint64_t Desc(unsigned index) const { return kGuestBase + index * kRingBytes; }
  uint64_t Avail(unsigned index) const { return Desc(index) + 16 * kRingSize; }
  uint64_t Used(unsigned index) const { return Desc(index) + 0x800; }
  uint8_t* At(uint64_t guest) { return memory_ + (guest - kGuestBase); }

  void SetDescriptor(unsigned queue, uint16_t slot, uint64_t addr, uint32_t len, uint16_t flags, uint16_t next) {
    uint8_t* d = At(Desc(queue)) + 16 * slot;
    std::memcpy(d, &addr, 8);
    std::memcpy(d + 8, &len, 4);
    std::memcpy(d + 12, &flags, 2);
    std::memcpy(d + 14, &next, 2);
  }
  // Makes chain `head` available on `queue`.
  void MakeAvailable(unsigned queue, uint16_t head) {
    uint16_t idx;
    std::memcpy(&idx, At(Avail(queue)) + 2, 2);
    std::memcpy(At(Avail(queue)) + 4 + 2 * (idx % kRingSize), &head, 2);
    ++idx;
    std::memcpy(At(Avail(queue)) + 2, &idx, 2);
  }
  void SetAvailIndex(unsigned queue, uint16_t idx) { std::memcpy(At(Avail(queue)) + 2, &idx, 2); }
  uint16_t UsedIndex(unsigned queue) {
    uint16_t idx;
    std::memcpy(&idx, At(Used(queue)) + 2, 2);
    return idx;
  }
  uint32_t UsedLength(unsigned queue, uint16_t n) {
    uint32_t len;
    std::memcpy(&len, At(Used(queue)) + 4 + 8 * (n % kRingSize) + 4, 4);
    return len;
  }

  int memfd() const { return memfd_; }

 private:
  int master_ = -1;
  int slave_end_ = -1;
  int slave_req_ = -1;         // our end of the slave channel
  int slave_req_remote_ = -1;  // the end we pass to the slave
  int memfd_ = -1;
  uint8_t* memory_ = nullptr;

 public:
  int slave_req_remote() const { return slave_req_remote_; }
};

}  // namespace regemu::uml::testing_support
