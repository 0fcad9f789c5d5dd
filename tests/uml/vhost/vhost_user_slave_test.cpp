// The device side of virt-pci's vhost-user wire (uml/vhost), against a fake
// of User-Mode Linux 6.1's virtio_uml: the handshake as virtio_uml sends
// it, virt-pci requests on the command queue, interrupts on the interrupt
// queue, the call order time travel needs, and hostile input from the
// other side, each a reported error and never a crash or a hang.
#include <cstring>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/uml/vhost/vhost_user_slave.hpp"
#include "tests/uml/vhost/fake_uml_master.hpp"

namespace regemu::uml {
namespace {

using testing_support::FakeUmlMaster;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A PCI function that records what it was asked and answers reads with a pattern.
class RecordingFunction : public PciFunction {
 public:
  void ConfigRead(uint64_t offset, std::span<uint8_t> out) override {
    calls.push_back("cfg-read " + std::to_string(offset) + " " + std::to_string(out.size()));
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<uint8_t>(0xA0 + i);
  }
  void ConfigWrite(uint64_t offset, std::span<const uint8_t> data) override {
    calls.push_back("cfg-write " + std::to_string(offset) + " " + std::to_string(data.size()) + " " +
                    std::to_string(data[0]));
  }
  void MmioRead(unsigned bar, uint64_t offset, std::span<uint8_t> out) override {
    calls.push_back("mmio-read " + std::to_string(bar) + " " + std::to_string(offset) + " " +
                    std::to_string(out.size()));
    std::fill(out.begin(), out.end(), uint8_t{0x5A});
  }
  void MmioWrite(unsigned bar, uint64_t offset, std::span<const uint8_t> data) override {
    calls.push_back("mmio-write " + std::to_string(bar) + " " + std::to_string(offset) + " " +
                    std::to_string(data.size()));
  }
  void MmioMemset(unsigned bar, uint64_t offset, uint8_t value, uint64_t length) override {
    calls.push_back("memset " + std::to_string(bar) + " " + std::to_string(offset) + " " + std::to_string(value) +
                    " " + std::to_string(length));
  }
  void ProtocolError(const std::string& what) override { errors.push_back(what); }
  void MemoryChanged(const GuestMemory& memory) override { regions = memory.regions().size(); }

  std::vector<std::string> calls;
  std::vector<std::string> errors;
  size_t regions = 0;
};

constexpr uint64_t kProtocol = (1u << kProtocolReplyAck) | (1u << kProtocolSlaveReq) | (1u << kProtocolInbandNotifications);

class VhostUserSlaveTest : public ::testing::Test {
 protected:
  void Start(bool synchronous) {
    VhostUserSlave::Options options;
    options.synchronous_calls = synchronous;
    options.wait_readable = [this](int) {
      // UML answers a call once it queued the interrupt (vu_req_read_message).
      VhostUserMessage call = master_.Receive(master_.slave_req());
      order_.push_back("call " + std::to_string(call.payload[0]));
      EXPECT_EQ(call.header.flags & kFlagNeedReply, kFlagNeedReply);
      uint64_t ok = 0;
      ASSERT_TRUE(SendMessage(master_.slave_req(), kSlaveVringCall, kReplyFlags, &ok, sizeof ok));
    };
    slave_ = std::make_unique<VhostUserSlave>(master_.TakeSlaveEnd(), function_, options);
  }
  void Step() { ASSERT_TRUE(slave_->HandleMessage()) << slave_->error(); }

  // virtio_uml's probe and virt-pci's two queues, in their order.
  void Handshake() {
    master_.Send(kSetOwner, 0, nullptr, 0);
    Step();
    master_.Send(kGetFeatures, 0, nullptr, 0);
    Step();
    uint64_t features = master_.ReceiveU64();
    ASSERT_TRUE(features & (uint64_t{1} << kFeatureProtocolFeatures));
    EXPECT_EQ(features & ((uint64_t{1} << 28) | (uint64_t{1} << 29) | (uint64_t{1} << 33) | (uint64_t{1} << 34)), 0u)
        << "never indirect descriptors, the event index, ACCESS_PLATFORM or packed rings";
    master_.Send(kGetProtocolFeatures, 0, nullptr, 0);
    Step();
    EXPECT_EQ(master_.ReceiveU64() & kProtocol, kProtocol);
    master_.SendU64(kSetProtocolFeatures, kProtocol, kFlagNeedReply);
    Step();
    EXPECT_EQ(master_.ReceiveU64(), 0u);
    master_.SendU64(kSetSlaveReqFd, 0, kFlagNeedReply, master_.slave_req_remote());
    Step();
    EXPECT_EQ(master_.ReceiveU64(), 0u);
    master_.SendU64(kSetFeatures, (uint64_t{1} << 32) | (uint64_t{1} << 30), kFlagNeedReply);
    Step();
    EXPECT_EQ(master_.ReceiveU64(), 0u);
    // virtio_uml sends room for two regions whatever `num` says: 72 bytes.
    uint8_t table[72] = {};
    uint32_t num = 1;
    std::memcpy(table, &num, 4);
    MemoryRegionDesc region{FakeUmlMaster::kGuestBase, FakeUmlMaster::kMemorySize, FakeUmlMaster::kGuestBase, 0};
    std::memcpy(table + 8, &region, sizeof region);
    master_.Send(kSetMemTable, kFlagNeedReply, table, sizeof table, master_.memfd());
    Step();
    EXPECT_EQ(master_.ReceiveU64(), 0u);
    EXPECT_EQ(function_.regions, 1u);
    for (unsigned q = 0; q < 2; ++q) {
      master_.SendState(kSetVringNum, q, FakeUmlMaster::kRingSize, kFlagNeedReply);
      Step();
      EXPECT_EQ(master_.ReceiveU64(), 0u);
      master_.SendState(kSetVringBase, q, 0, kFlagNeedReply);
      Step();
      EXPECT_EQ(master_.ReceiveU64(), 0u);
      VringAddr addr{q, 0, master_.Desc(q), master_.Used(q), master_.Avail(q), ~uint64_t{0}};
      master_.Send(kSetVringAddr, kFlagNeedReply, &addr, sizeof addr);
      Step();
      EXPECT_EQ(master_.ReceiveU64(), 0u);
    }
    for (unsigned q = 0; q < 2; ++q) {
      master_.SendState(kSetVringEnable, q, 1, kFlagNeedReply);
      Step();
      EXPECT_EQ(master_.ReceiveU64(), 0u);
    }
    EXPECT_THAT(function_.errors, IsEmpty());
  }

  // A virt-pci request in guest memory: header (+ data) readable, `in` bytes writable.
  void PostRequest(uint16_t slot, PcidevHeader header, std::vector<uint8_t> data, uint32_t in) {
    uint64_t buffer = FakeUmlMaster::kGuestBase + FakeUmlMaster::kBuffers + 0x100 * slot;
    std::memcpy(master_.At(buffer), &header, sizeof header);
    if (!data.empty()) std::memcpy(master_.At(buffer) + sizeof header, data.data(), data.size());
    uint32_t out = static_cast<uint32_t>(sizeof header + data.size());
    if (in == 0) {
      master_.SetDescriptor(0, slot, buffer, out, 0, 0);
    } else {
      master_.SetDescriptor(0, slot, buffer, out, 1, static_cast<uint16_t>(slot + 1));
      master_.SetDescriptor(0, static_cast<uint16_t>(slot + 1), buffer + 0x80, in, 2, 0);
    }
    master_.MakeAvailable(0, slot);
  }
  uint8_t* InBuffer(uint16_t slot) {
    return master_.At(FakeUmlMaster::kGuestBase + FakeUmlMaster::kBuffers + 0x100 * slot + 0x80);
  }
  void Kick(unsigned queue) {
    master_.SendState(kVringKick, queue, 0, kFlagNeedReply);
    Step();
  }

  FakeUmlMaster master_;
  RecordingFunction function_;
  std::unique_ptr<VhostUserSlave> slave_;
  std::vector<std::string> order_;
};

TEST_F(VhostUserSlaveTest, AConfigReadIsAnsweredInTheKernelsBufferAndTheQueueIsCalled) {
  Start(false);
  Handshake();
  PostRequest(0, PcidevHeader{kOpCfgRead, 0, 0, 4, 0x10}, {}, 8);
  Kick(0);
  EXPECT_EQ(master_.ReceiveU64(), 0u) << "the kick's acknowledgement";
  EXPECT_THAT(function_.calls, ElementsAre("cfg-read 16 4"));
  EXPECT_EQ(InBuffer(0)[0], 0xA0);
  EXPECT_EQ(InBuffer(0)[3], 0xA3);
  EXPECT_EQ(master_.UsedIndex(0), 1);
  EXPECT_EQ(master_.UsedLength(0, 0), 4u);
  VhostUserMessage call = master_.Receive(master_.slave_req());
  EXPECT_EQ(call.header.request, kSlaveVringCall);
  EXPECT_EQ(call.payload[0], 0) << "vq 0, the command queue";
}

TEST_F(VhostUserSlaveTest, PostedWritesAreCalledTooSoTheKernelFreesTheirBuffers) {
  Start(false);
  Handshake();
  PostRequest(0, PcidevHeader{kOpMmioWrite, 0, 0, 4, 0x1000}, {1, 0, 0, 0}, 0);
  PostRequest(1, PcidevHeader{kOpCfgWrite, 0, 0, 2, 0x04}, {6, 0}, 0);
  Kick(0);
  EXPECT_EQ(master_.ReceiveU64(), 0u);
  EXPECT_THAT(function_.calls, ElementsAre("mmio-write 0 4096 4", "cfg-write 4 2 6"));
  EXPECT_EQ(master_.UsedIndex(0), 2);
  EXPECT_EQ(master_.Receive(master_.slave_req()).header.request, kSlaveVringCall);
}

// Linux 6.1's um_pci_bar_set sends memset_io as CFG_WRITE with the BAR in
// `bar` and the value in data[0], padded to 24 bytes like a configuration
// write (um_pci_cfgspace_write): the addressing tells them apart.
TEST_F(VhostUserSlaveTest, Linux61sMemsetIoIsACfgWriteThatOnlyItsAddressingTellsApart) {
  Start(false);
  Handshake();
  const std::vector<uint8_t> padded_ee{0xEE, 0, 0, 0, 0, 0, 0, 0};
  PostRequest(0, PcidevHeader{kOpCfgWrite, 0, 0, 64, 0x2000}, padded_ee, 0);          // past the 4 KiB window
  PostRequest(2, PcidevHeader{kOpCfgWrite, 2, 0, 4, 0x10}, {0x11, 0, 0, 0, 0, 0, 0, 0}, 0);  // BAR 2
  PostRequest(4, PcidevHeader{kOpCfgWrite, 0, 0, 3, 0x10}, {0x22, 0, 0, 0, 0, 0, 0, 0}, 0);  // no config width
  PostRequest(6, PcidevHeader{kOpCfgWrite, 0, 0, 2, 0x04}, {0x06, 0, 0, 0, 0, 0, 0, 0}, 0);  // a config write
  PostRequest(8, PcidevHeader{kOpMmioMemset, 0, 0, 16, 0x40}, {0x11}, 0);
  Kick(0);
  EXPECT_THAT(function_.calls, ElementsAre("memset 0 8192 238 64", "memset 2 16 17 4", "memset 0 16 34 3",
                                           "cfg-write 4 2 6", "memset 0 64 17 16"));
}

TEST_F(VhostUserSlaveTest, AnMsiGoesOutOnTheInterruptQueueWithItsData) {
  Start(false);
  Handshake();
  // virt-pci pre-posts device-writable buffers of MAX_IRQ_MSG_SIZE on vq 1.
  uint64_t buffer = FakeUmlMaster::kGuestBase + 0x20000;
  master_.SetDescriptor(1, 0, buffer, kIrqMessageSize, 2, 0);
  master_.MakeAvailable(1, 0);
  slave_->SendMsi(65);
  EXPECT_EQ(master_.UsedIndex(1), 1);
  EXPECT_EQ(master_.UsedLength(1, 0), kIrqMessageSize);
  PcidevHeader header;
  std::memcpy(&header, master_.At(buffer), sizeof header);
  EXPECT_EQ(header.op, kOpMsi);
  EXPECT_EQ(header.size, 4u);
  uint32_t data;
  std::memcpy(&data, master_.At(buffer) + 16, 4);
  EXPECT_EQ(data, 65u);
  VhostUserMessage call = master_.Receive(master_.slave_req());
  EXPECT_EQ(call.payload[0], 1) << "vq 1, the interrupt queue";
}

TEST_F(VhostUserSlaveTest, AnInterruptWithNoBufferPostedWaitsForTheKernelsNextBuffer) {
  Start(false);
  Handshake();
  slave_->SendMsi(70);
  EXPECT_EQ(master_.UsedIndex(1), 0);
  uint64_t buffer = FakeUmlMaster::kGuestBase + 0x20000;
  master_.SetDescriptor(1, 0, buffer, kIrqMessageSize, 2, 0);
  master_.MakeAvailable(1, 0);
  Kick(1);
  EXPECT_EQ(master_.UsedIndex(1), 1);
}

TEST_F(VhostUserSlaveTest, UnderTimeTravelTheQueueIsCalledAndAnsweredBeforeTheKickIsAcknowledged) {
  Start(true);
  Handshake();
  PostRequest(0, PcidevHeader{kOpCfgRead, 0, 0, 2, 0x2}, {}, 8);
  master_.SendState(kVringKick, 0, 0, kFlagNeedReply);
  EXPECT_FALSE(master_.Readable(master_.master())) << "nothing before the kick is handled";
  Step();
  EXPECT_THAT(order_, ElementsAre("call 0")) << "the call was sent and answered inside the kick's handling";
  EXPECT_EQ(master_.ReceiveU64(), 0u) << "and only then the kick's acknowledgement";
}

// ---- hostile input --------------------------------------------------------

TEST_F(VhostUserSlaveTest, ADescriptorLoopIsReportedAndCompletedEmpty) {
  Start(false);
  Handshake();
  uint64_t buffer = FakeUmlMaster::kGuestBase + FakeUmlMaster::kBuffers;
  master_.SetDescriptor(0, 0, buffer, 16, 1, 1);
  master_.SetDescriptor(0, 1, buffer, 16, 1, 0);
  master_.MakeAvailable(0, 0);
  Kick(0);
  ASSERT_THAT(function_.errors, ElementsAre(HasSubstr("loops")));
  EXPECT_EQ(master_.UsedIndex(0), 1);
  EXPECT_EQ(master_.UsedLength(0, 0), 0u);
}

TEST_F(VhostUserSlaveTest, ABufferOutsideSharedMemoryIsReported) {
  Start(false);
  Handshake();
  master_.SetDescriptor(0, 0, 0x1000, 16, 0, 0);
  master_.MakeAvailable(0, 0);
  Kick(0);
  EXPECT_THAT(function_.errors, ElementsAre(HasSubstr("outside the shared memory")));
  EXPECT_THAT(function_.calls, IsEmpty());
}

TEST_F(VhostUserSlaveTest, AnAvailableIndexFarAheadIsReportedNotWalked) {
  Start(false);
  Handshake();
  master_.SetAvailIndex(0, 1000);
  Kick(0);
  EXPECT_THAT(function_.errors, ElementsAre(HasSubstr("ahead")));
  EXPECT_THAT(function_.calls, IsEmpty());
}

TEST_F(VhostUserSlaveTest, AReadLargerThanItsBufferIsReportedAndNotPerformed) {
  Start(false);
  Handshake();
  PostRequest(0, PcidevHeader{kOpMmioRead, 0, 0, 64, 0x0}, {}, 8);
  PostRequest(2, PcidevHeader{kOpMmioWrite, 0, 0, 32, 0x0}, {1, 2}, 0);
  Kick(0);
  EXPECT_THAT(function_.errors, ElementsAre(HasSubstr("room for 8"), HasSubstr("carrying 2")));
  EXPECT_THAT(function_.calls, IsEmpty());
}

TEST_F(VhostUserSlaveTest, AnUnknownRequestIsAnsweredAsFailedAndTheConnectionGoesOn) {
  Start(false);
  Handshake();
  master_.SendU64(99, 0, kFlagNeedReply);
  Step();
  EXPECT_NE(master_.ReceiveU64(), 0u);
  EXPECT_THAT(function_.errors, ElementsAre(HasSubstr("unknown vhost-user request 99")));
  master_.Send(kGetFeatures, 0, nullptr, 0);
  Step();
  EXPECT_NE(master_.ReceiveU64(), 0u);
}

TEST_F(VhostUserSlaveTest, AnOversizedPayloadEndsTheConnectionWithAReason) {
  Start(false);
  VhostUserHeader header{kSetMemTable, kVhostUserVersion, 1u << 30};
  ASSERT_EQ(::send(master_.master(), &header, sizeof header, 0), static_cast<ssize_t>(sizeof header));
  EXPECT_FALSE(slave_->HandleMessage());
  EXPECT_THAT(slave_->error(), HasSubstr("over the 4096"));
  EXPECT_FALSE(slave_->closed());
}

TEST_F(VhostUserSlaveTest, ATruncatedHeaderEndsTheConnectionWithAReason) {
  Start(false);
  uint32_t half[2] = {kGetFeatures, kVhostUserVersion};
  ASSERT_EQ(::send(master_.master(), half, sizeof half, 0), static_cast<ssize_t>(sizeof half));
  ::shutdown(master_.master(), SHUT_WR);
  EXPECT_FALSE(slave_->HandleMessage());
  EXPECT_THAT(slave_->error(), HasSubstr("inside a message header"));
}

TEST_F(VhostUserSlaveTest, APeerThatStopsInsideAPayloadEndsTheConnectionInsteadOfHanging) {
  Start(false);
  VhostUserHeader header{kSetFeatures, kVhostUserVersion, 8};
  uint32_t half = 0;
  ASSERT_EQ(::send(master_.master(), &header, sizeof header, 0), static_cast<ssize_t>(sizeof header));
  ASSERT_EQ(::send(master_.master(), &half, sizeof half, 0), static_cast<ssize_t>(sizeof half));
  EXPECT_FALSE(slave_->HandleMessage()) << "bounded: the rest must follow within 2 s";
  EXPECT_THAT(slave_->error(), HasSubstr("inside a message's payload"));
}

TEST_F(VhostUserSlaveTest, AnUnansweredSynchronousCallIsReportedNotWaitedForForever) {
  VhostUserSlave::Options options;
  options.synchronous_calls = true;
  options.wait_readable = [](int) {};  // the host gave up waiting: no answer came
  slave_ = std::make_unique<VhostUserSlave>(master_.TakeSlaveEnd(), function_, options);
  Handshake();
  PostRequest(0, PcidevHeader{kOpCfgRead, 0, 0, 2, 0x2}, {}, 8);
  Kick(0);
  EXPECT_THAT(function_.errors, ElementsAre(HasSubstr("did not answer a vring call")));
  EXPECT_EQ(master_.ReceiveU64(), 0u) << "the kick is still acknowledged";
}

TEST_F(VhostUserSlaveTest, APeerThatClosesIsClosedNotAnError) {
  Start(false);
  ::shutdown(master_.master(), SHUT_WR);
  EXPECT_FALSE(slave_->HandleMessage());
  EXPECT_TRUE(slave_->closed());
  EXPECT_EQ(slave_->error(), "");
}

TEST_F(VhostUserSlaveTest, AMemoryTableWithNoRegionOrTooManyIsRefused) {
  Start(false);
  master_.SendU64(kSetProtocolFeatures, kProtocol, kFlagNeedReply);
  Step();
  EXPECT_EQ(master_.ReceiveU64(), 0u);
  uint8_t table[72] = {};
  master_.Send(kSetMemTable, kFlagNeedReply, table, sizeof table);
  Step();
  EXPECT_NE(master_.ReceiveU64(), 0u);
  uint32_t num = 9;
  std::memcpy(table, &num, 4);
  master_.Send(kSetMemTable, kFlagNeedReply, table, sizeof table);
  Step();
  EXPECT_NE(master_.ReceiveU64(), 0u);
  EXPECT_EQ(function_.errors.size(), 2u);
}

TEST_F(VhostUserSlaveTest, AVringSizeThatIsNotAPowerOfTwoIsRefused) {
  Start(false);
  master_.SendU64(kSetProtocolFeatures, kProtocol, kFlagNeedReply);
  Step();
  EXPECT_EQ(master_.ReceiveU64(), 0u);
  master_.SendState(kSetVringNum, 0, 100, kFlagNeedReply);
  Step();
  EXPECT_NE(master_.ReceiveU64(), 0u);
  master_.SendState(kSetVringNum, 5, 16, kFlagNeedReply);
  Step();
  EXPECT_NE(master_.ReceiveU64(), 0u);
  EXPECT_THAT(function_.errors, ElementsAre(HasSubstr("power of two"), HasSubstr("names vring 5")));
}

}  // namespace
}  // namespace regemu::uml
