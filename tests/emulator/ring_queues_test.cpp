// `kind: ring` beyond one queue pair (yaml/README.md, "kind: ring"), on a
// made-up DMA engine rather than NVMe, so nothing here is NVMe's: queues
// that commands create and delete, each completion queue on its own
// interrupt vector (`vector_status`), the statuses the database names for
// queue commands it refuses, copies between the command's page list and a
// block store, held commands, and what reset and snapshots do to it all.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::PointHits;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

constexpr const char* kEngine = R"yaml(device: dma_queues
spaces:
  - {name: regs, kind: mmio, size: 0x100}
  - {name: ram, kind: memory, size: 0x100000}
  - {name: store, kind: memory, size: 0x1000}
  - {name: state, kind: state, size: 0x10}
registers:
  - {name: CTRL, space: regs, offset: 0x0, fields: [{name: EN, bits: 0}]}
  - {name: Q0BASE, space: regs, offset: 0x4}
  - {name: "SQ{n}_TAIL", space: regs, offset: 0x40, array: {count: 3, stride: 8}}
  - {name: "CQ{n}_HEAD", space: regs, offset: 0x44, array: {count: 3, stride: 8}}
  - {name: PENDING, space: state, offset: 0x0, width: 8}
behaviours:
  - name: engine
    kind: ring
    memory: ram
    enabled: "CTRL.EN == 1"
    reset_when: "CTRL.EN == 0"
    queues: 3
    max_size: 16
    vector_status: PENDING
    queue_status: {invalid_id: 0x11, invalid_size: 0x12, invalid_completion: 0x13, invalid_vector: 0x14, in_use: 0x15}
    data: {first: entry.ADDR, second: entry.ADDR2, page_size: 256, error_status: 0x20}
    submission: {base: "Q0BASE", size: 4, entry_size: 32, tail_doorbell: "SQ{id}_TAIL"}
    completion:
      base: "Q0BASE + 0x400"
      size: 4
      entry_size: 8
      head_doorbell: "CQ{id}_HEAD"
      entry:
        - {offset: 0, width: 16, value: "entry.TAG"}
        - {offset: 2, width: 16, value: "phase | (status << 1)"}
        - {offset: 4, width: 32, value: "result"}
    fields:
      OP: {offset: 0, width: 8}
      ID: {offset: 1, width: 8}
      TAG: {offset: 2, width: 16}
      ARG: {offset: 4, width: 32}
      ADDR: {offset: 8, width: 64}
      ADDR2: {offset: 16, width: 64}
      LEN: {offset: 24, width: 32}
    commands:
      - {name: create_cq, when: "entry.OP == 1", create_completion_queue: {id: entry.ID, base: entry.ADDR, size: entry.LEN, vector: entry.ARG}}
      - {name: create_sq, when: "entry.OP == 2", create_submission_queue: {id: entry.ID, base: entry.ADDR, size: entry.LEN, completion: entry.ARG}}
      - {name: delete_sq, when: "entry.OP == 3", delete_submission_queue: entry.ID}
      - {name: delete_cq, when: "entry.OP == 4", delete_completion_queue: entry.ID}
      - {name: save, when: "entry.OP == 5", copy: {from: data, to: {space: store, offset: entry.ARG}, bytes: entry.LEN}}
      - {name: load, when: "entry.OP == 6", copy: {from: {space: store, offset: entry.ARG}, to: data, bytes: entry.LEN}, result: "sq_id << 8 | cq_id"}
      - {name: wait, when: "entry.OP == 7", hold: true}
      - {name: clear, when: "entry.OP == 8", copy: {from: zeros, to: {space: store, offset: entry.ARG}, bytes: entry.LEN}}
    default_status: 0x7F
)yaml";

constexpr uint64_t kQ0 = 0x1000;  // SQ 0 there, CQ 0 at + 0x400
constexpr uint64_t kSq1 = 0x2000, kCq1 = 0x3000, kCq2 = 0x3800;

struct Command {
  uint8_t op = 0;
  uint8_t id = 0;
  uint16_t tag = 0;
  uint32_t arg = 0;
  uint64_t addr = 0;
  uint64_t addr2 = 0;
  uint32_t len = 0;
};

struct Completion {
  uint16_t tag = 0;
  unsigned phase = 0;
  uint16_t status = 0;
  uint32_t result = 0;
};

DeviceOptions WithCoverage() {
  DeviceOptions options;
  options.coverage = true;
  return options;
}

class RingQueuesTest : public ::testing::Test {
 protected:
  RingQueuesTest()
      : device_(MakeDevice(kEngine, WithCoverage())),
        regs_(SpaceNamed(device_->model(), "regs")),
        ram_(SpaceNamed(device_->model(), "ram")),
        store_(SpaceNamed(device_->model(), "store")) {
    device_->Write(regs_, 0x4, 32, kQ0);
    device_->Write(regs_, 0x0, 32, 1);
  }

  void Put(uint64_t base, uint64_t slot, const Command& c) {
    uint64_t at = base + slot * 32;
    device_->Poke(ram_, at + 0, 8, c.op);
    device_->Poke(ram_, at + 1, 8, c.id);
    device_->Poke(ram_, at + 2, 16, c.tag);
    device_->Poke(ram_, at + 4, 32, c.arg);
    device_->Poke(ram_, at + 8, 64, c.addr);
    device_->Poke(ram_, at + 16, 64, c.addr2);
    device_->Poke(ram_, at + 24, 32, c.len);
  }
  // Puts the commands at SQ `sq`'s slots from `first` and rings its tail.
  void Submit(uint64_t sq, uint64_t base, uint64_t first, const std::vector<Command>& commands, uint64_t size = 4) {
    for (size_t i = 0; i < commands.size(); ++i) Put(base, (first + i) % size, commands[i]);
    device_->Write(regs_, 0x40 + 8 * sq, 32, (first + commands.size()) % size);
  }
  Completion At(uint64_t base, uint64_t slot) {
    uint64_t at = base + slot * 8;
    uint64_t word = device_->Peek(ram_, at + 2, 16);
    return Completion{static_cast<uint16_t>(device_->Peek(ram_, at, 16)), static_cast<unsigned>(word & 1),
                      static_cast<uint16_t>(word >> 1), static_cast<uint32_t>(device_->Peek(ram_, at + 4, 32))};
  }
  uint64_t Pending() { return device_->PeekRegister(RegisterNamed(device_->model(), "PENDING")); }
  void Release(uint64_t cq, uint64_t head) { device_->Write(regs_, 0x44 + 8 * cq, 32, head); }

  // CQ 1 (4 entries, vector 3) and SQ 1 (4 entries, posting to it), through
  // SQ 0; their completions released.
  void CreateQueuePair() {
    Submit(0, kQ0, 0, {{1, 1, 0x10, 3, kCq1, 0, 4}, {2, 1, 0x11, 1, kSq1, 0, 4}});
    ASSERT_EQ(At(kQ0 + 0x400, 0).status, 0);
    ASSERT_EQ(At(kQ0 + 0x400, 1).status, 0);
    Release(0, 2);
  }

  std::unique_ptr<Device> device_;
  SpaceId regs_, ram_, store_;
};

TEST_F(RingQueuesTest, ACreatedQueuePostsToItsOwnCompletionQueueOnItsOwnVector) {
  CreateQueuePair();
  EXPECT_EQ(Pending(), 0u) << "queue 0's completions were released";
  device_->Poke(ram_, 0x8000, 32, 0xCAFEF00D);
  Submit(1, kSq1, 0, {{5, 0, 0x21, 0x100, 0x8000, 0, 4}});
  Completion done = At(kCq1, 0);
  EXPECT_EQ(done.tag, 0x21);
  EXPECT_EQ(done.phase, 1u);
  EXPECT_EQ(done.status, 0);
  EXPECT_EQ(device_->Peek(store_, 0x100, 32), 0xCAFEF00Du);
  EXPECT_EQ(Pending(), 1u << 3) << "CQ 1 is on vector 3";
  Release(1, 1);
  EXPECT_EQ(Pending(), 0u);
  // sq_id and cq_id name the queue an entry came from.
  Submit(1, kSq1, 1, {{6, 0, 0x22, 0x100, 0x8100, 0, 4}});
  EXPECT_EQ(At(kCq1, 1).result, 0x0101u);
  EXPECT_EQ(device_->Peek(ram_, 0x8100, 32), 0xCAFEF00Du);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(RingQueuesTest, TheDataPointerIsAPageListWhoseListChainsAcrossPages) {
  CreateQueuePair();
  // 600 bytes from 0x80F0 (the first 256-byte page holds 16 of them), then
  // a list at 0x9000 naming three pages.
  device_->Poke(ram_, 0x9000, 64, 0xA000);
  device_->Poke(ram_, 0x9008, 64, 0xB000);
  device_->Poke(ram_, 0x9010, 64, 0xC000);
  device_->Poke(ram_, 0x80F0, 32, 0x11111111);
  device_->Poke(ram_, 0xA000, 32, 0x22222222);
  device_->Poke(ram_, 0xB000, 32, 0x33333333);
  device_->Poke(ram_, 0xC000, 32, 0x44444444);
  Submit(1, kSq1, 0, {{5, 0, 0x31, 0, 0x80F0, 0x9000, 600}});
  EXPECT_EQ(At(kCq1, 0).status, 0);
  EXPECT_EQ(device_->Peek(store_, 0, 32), 0x11111111u);
  EXPECT_EQ(device_->Peek(store_, 16, 32), 0x22222222u);
  EXPECT_EQ(device_->Peek(store_, 16 + 256, 32), 0x33333333u);
  EXPECT_EQ(device_->Peek(store_, 16 + 512, 32), 0x44444444u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(RingQueuesTest, QueueCommandsItCannotDoCompleteWithTheDatabasesStatuses) {
  CreateQueuePair();
  std::vector<uint16_t> statuses;
  // Submits on SQ 0 from `first` and collects the statuses, then releases them.
  auto batch = [&](uint64_t first, const std::vector<Command>& commands) {
    Submit(0, kQ0, first, commands);
    for (size_t i = 0; i < commands.size(); ++i) statuses.push_back(At(kQ0 + 0x400, (first + i) % 4).status);
    Release(0, (first + commands.size()) % 4);
  };
  batch(2, {
               {1, 0, 1, 0, kCq2, 0, 4},  // id 0 is the pair the registers describe
               {1, 3, 2, 0, kCq2, 0, 4},  // past `queues: 3`
               {1, 1, 3, 0, kCq2, 0, 4},  // CQ 1 is in use
           });
  batch(1, {{1, 2, 4, 0, kCq2, 0, 17}, {1, 2, 5, 8, kCq2, 0, 4}});  // above max_size; vector 8 of an 8-bit PENDING
  batch(3, {{2, 2, 6, 2, kSq1, 0, 4}, {4, 1, 7, 0, 0, 0, 0}, {3, 2, 8, 0, 0, 0, 0}});  // CQ 2 missing; CQ 1 in use; SQ 2 missing
  EXPECT_THAT(statuses, ElementsAre(0x11, 0x11, 0x11, 0x12, 0x14, 0x13, 0x15, 0x11));
  EXPECT_EQ(PointHits(*device_, "engine")["queues/queue command refused"], 8u);
  EXPECT_THAT(Kinds(*device_), IsEmpty()) << "a refused command is the device's answer, not a violation";
}

TEST_F(RingQueuesTest, DeletedQueuesStopAndTheirDoorbellIsTheHostsError) {
  CreateQueuePair();
  Submit(0, kQ0, 2, {{3, 1, 1, 0, 0, 0, 0}, {4, 1, 2, 0, 0, 0, 0}});
  EXPECT_EQ(At(kQ0 + 0x400, 2).status, 0);
  EXPECT_EQ(At(kQ0 + 0x400, 3).status, 0);
  device_->Write(regs_, 0x48, 32, 1);  // SQ1_TAIL
  device_->Write(regs_, 0x4C, 32, 1);  // CQ1_HEAD
  std::vector<Violation> violations = device_->violations();
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_THAT(violations[0].rule, HasSubstr("doorbell of submission queue 1, which does not exist"));
  EXPECT_THAT(violations[1].rule, HasSubstr("doorbell of completion queue 1, which does not exist"));
}

TEST_F(RingQueuesTest, AHeldCommandIsConsumedWithoutACompletionUntilReset) {
  CreateQueuePair();
  Submit(1, kSq1, 0, {{7, 0, 0x41, 0, 0, 0, 0}, {8, 0, 0x42, 0, 0, 0, 16}});
  EXPECT_EQ(At(kCq1, 0).tag, 0x42) << "the held command posted nothing; the next one took slot 0";
  EXPECT_EQ(At(kCq1, 1).tag, 0);
  EXPECT_EQ(PointHits(*device_, "engine")["ring/command held"], 1u);
}

TEST_F(RingQueuesTest, ACopyPastTheStoreOrAMalformedListCompletesWithTheErrorStatus) {
  CreateQueuePair();
  device_->Poke(ram_, 0x9000, 64, 0xA010);  // a list entry that does not start a page
  Submit(1, kSq1, 0, {{5, 0, 0x51, 0xFF0, 0x8000, 0, 32}, {5, 0, 0x52, 0, 0x8000, 0x9000, 600}});
  EXPECT_EQ(At(kCq1, 0).status, 0x20);
  EXPECT_EQ(At(kCq1, 1).status, 0x20);
  std::vector<Violation> violations = device_->violations();
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_EQ(violations[0].kind, ViolationKind::kUnmodelled);
  EXPECT_THAT(violations[0].rule, HasSubstr("offset 0xff0 (entry.ARG) runs past the end of space 'store'"));
  EXPECT_EQ(violations[1].kind, ViolationKind::kProtocol);
  EXPECT_THAT(violations[1].rule, HasSubstr("list entry 0 at 0x9000 is 0xa010"));
}

TEST_F(RingQueuesTest, ResetWhenDeletesTheCreatedQueuesAndSnapshotsKeepThem) {
  CreateQueuePair();
  DeviceSnapshot with_queues = device_->Snapshot();
  device_->Write(regs_, 0x0, 32, 0);
  device_->Write(regs_, 0x0, 32, 1);
  device_->Write(regs_, 0x48, 32, 1);
  ASSERT_EQ(device_->violations().size(), 1u) << "SQ 1 is gone after CTRL.EN fell";
  device_->Restore(with_queues);
  device_->Poke(ram_, 0x8000, 32, 7);
  Submit(1, kSq1, 0, {{5, 0, 0x61, 0x10, 0x8000, 0, 4}});
  EXPECT_EQ(At(kCq1, 0).tag, 0x61);
  EXPECT_EQ(device_->Peek(store_, 0x10, 32), 7u);
}

}  // namespace
}  // namespace regemu::emulator
