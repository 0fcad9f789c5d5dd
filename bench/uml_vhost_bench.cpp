// One MMIO read through virt-pci's wire (uml/vhost) as the kernel sends it:
// a request in shared memory, an in-band kick, the slave's handling, the
// used entry, the call and the kick's acknowledgement; once against a null
// function (the channel alone: the baseline) and once against yaml/nvme's
// CSTS through the frontdoor. Their difference is regemu's own share of a
// round trip. Single-threaded, both ends in this process: the kernel's side
// and the context switches of a real boot come on top of both.
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "bench/shipped_device.hpp"
#include "regemu/uml/device_function.hpp"
#include "regemu/uml/vhost/message_channel.hpp"
#include "regemu/uml/vhost/vhost_user_slave.hpp"
#include "regemu/uml/vhost/virtio_pcidev.hpp"

namespace {

using namespace regemu::uml;

class NullFunction : public PciFunction {
 public:
  void ConfigRead(uint64_t, std::span<uint8_t> out) override { std::memset(out.data(), 0xFF, out.size()); }
  void ConfigWrite(uint64_t, std::span<const uint8_t>) override {}
  void MmioRead(unsigned, uint64_t, std::span<uint8_t> out) override { std::memset(out.data(), 0xFF, out.size()); }
  void MmioWrite(unsigned, uint64_t, std::span<const uint8_t>) override {}
  void MmioMemset(unsigned, uint64_t, uint8_t, uint64_t) override {}
  void ProtocolError(const std::string&) override {}
  void MemoryChanged(const GuestMemory&) override {}
};

// The kernel's end: a socketpair, a memfd as its RAM, the handshake, vq 0's ring.
class Wire {
 public:
  static constexpr uint64_t kBase = 0x21000000;
  static constexpr uint64_t kSize = 1 << 20;
  static constexpr uint32_t kRing = 256;

  explicit Wire(PciFunction& function) {
    int pair[2];
    ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
    master_ = pair[0];
    int slave_end = pair[1];
    ::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair);
    calls_ = pair[0];
    int calls_remote = pair[1];
    int memfd = ::memfd_create("guest", MFD_CLOEXEC);
    if (::ftruncate(memfd, kSize) != 0) std::abort();
    memory_ = static_cast<uint8_t*>(::mmap(nullptr, kSize, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0));
    slave_ = std::make_unique<VhostUserSlave>(slave_end, function, VhostUserSlave::Options{});
    uint64_t protocol = (1u << kProtocolReplyAck) | (1u << kProtocolSlaveReq) | (1u << kProtocolInbandNotifications);
    Do(kSetProtocolFeatures, &protocol, 8);
    Do(kSetSlaveReqFd, nullptr, 0, calls_remote);
    uint8_t table[72] = {};
    uint32_t num = 1;
    std::memcpy(table, &num, 4);
    MemoryRegionDesc region{kBase, kSize, kBase, 0};
    std::memcpy(table + 8, &region, sizeof region);
    Do(kSetMemTable, table, sizeof table, memfd);
    VringState size{0, kRing};
    Do(kSetVringNum, &size, sizeof size);
    VringAddr addr{0, 0, kBase, kBase + 0x2000, kBase + 0x1000, ~uint64_t{0}};
    Do(kSetVringAddr, &addr, sizeof addr);
    VringState enable{0, 1};
    Do(kSetVringEnable, &enable, sizeof enable);
    // One MMIO read of CSTS (BAR0 + 1Ch): header, then an 8-byte in-buffer.
    PcidevHeader header{kOpMmioRead, 0, 0, 4, 0x1c};
    std::memcpy(At(kBase + 0x8000), &header, sizeof header);
    Descriptor(0, kBase + 0x8000, sizeof header, 1, 1);
    Descriptor(1, kBase + 0x8100, 8, 2, 0);
  }
  ~Wire() {
    slave_.reset();
    ::munmap(memory_, kSize);
    ::close(master_);
    ::close(calls_);
  }

  // The kernel's read: post, kick, and take back the acknowledgement and the call.
  uint32_t Read() {
    uint16_t idx;
    std::memcpy(&idx, At(kBase + 0x1000 + 2), 2);
    uint16_t head = 0;
    std::memcpy(At(kBase + 0x1000 + 4 + 2 * (idx % kRing)), &head, 2);
    ++idx;
    std::memcpy(At(kBase + 0x1000 + 2), &idx, 2);
    VringState kick{0, 0};
    Do(kVringKick, &kick, sizeof kick);
    VhostUserMessage call;
    std::string error;
    ReceiveMessage(calls_, call, error);
    uint32_t value;
    std::memcpy(&value, At(kBase + 0x8100), 4);
    return value;
  }

 private:
  uint8_t* At(uint64_t guest) { return memory_ + (guest - kBase); }
  void Descriptor(uint16_t slot, uint64_t addr, uint32_t len, uint16_t flags, uint16_t next) {
    uint8_t* d = At(kBase) + 16 * slot;
    std::memcpy(d, &addr, 8);
    std::memcpy(d + 8, &len, 4);
    std::memcpy(d + 12, &flags, 2);
    std::memcpy(d + 14, &next, 2);
  }
  // A request as virtio_uml sends it (NEED_REPLY, with an fd where it passes one), handled, its ack read.
  void Do(uint32_t request, const void* payload, uint32_t size, int fd = -1) {
    SendMessage(master_, request, kVhostUserVersion | kFlagNeedReply, payload, size, fd);
    slave_->HandleMessage();
    VhostUserMessage ack;
    std::string error;
    ReceiveMessage(master_, ack, error);
  }

  int master_ = -1;
  int calls_ = -1;
  uint8_t* memory_ = nullptr;
  std::unique_ptr<VhostUserSlave> slave_;
};

void BM_UmlMmioReadNullFunction(benchmark::State& state) {
  NullFunction function;
  Wire wire(function);
  for (auto _ : state) benchmark::DoNotOptimize(wire.Read());
}
BENCHMARK(BM_UmlMmioReadNullFunction);

void BM_UmlMmioReadNvmeCsts(benchmark::State& state) {
  regemu::emulator::DeviceOptions options;
  options.thread_safe = false;  // as regemu boot hosts it
  regemu::emulator::Device device(regemu::bench::ShippedModel("nvme"), options);
  const auto& spaces = device.model().spaces();
  for (regemu::emulator::SpaceId id = 0; id < spaces.size(); ++id) {
    // CMD: memory decode and bus mastering, as the PCI core sets them.
    if (spaces[id].name == "config") device.Write(id, 0x4, 16, 0x6);
  }
  DeviceFunction function(device);
  Wire wire(function);
  for (auto _ : state) benchmark::DoNotOptimize(wire.Read());
}
BENCHMARK(BM_UmlMmioReadNvmeCsts);

}  // namespace
