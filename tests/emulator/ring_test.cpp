// `kind: ring` at run time (yaml/README.md, "kind: ring"), proven on NVMe's
// admin queue pair (NVMe 1.4 §3.1.8-3.1.10,
// §3.1.25-26, §4 [M]; Linux nvme pci.c nvme_sq_copy_cmd, nvme_write_sq_db,
// nvme_ring_cq_doorbell): the driver writes
// 64-byte submission entries into host memory and rings SQ0TDBL; the device
// posts 16-byte completion entries with CID, SQ head, SQ id, phase tag and
// status, raises its interrupt status, and stalls when the completion queue
// is full until the host's CQ0HDBL frees a slot.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::PointHits;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

// The NVMe admin pair: CC.EN raises CSTS.RDY (a reaction), the ring's
// interrupt status bit feeds an interrupt roll-up that drives the device's
// interrupt request. `latency` is the ring's.
std::string AdminDevice(const std::string& latency = "0ns") {
  return R"yaml(device: nvme_admin
spaces:
  - {name: bar0, kind: mmio, size: 0x2000}
  - {name: host, kind: memory, size: 0x100000}
  - {name: queues, kind: state, size: 0x100}
registers:
  - {name: CC, space: bar0, offset: 0x14, fields: [{name: EN, bits: 0}]}
  - {name: CSTS, space: bar0, offset: 0x1C, access: hw, fields: [{name: RDY, bits: 0}]}
  - {name: AQA, space: bar0, offset: 0x24, fields: [{name: ACQS, bits: "27:16"}, {name: ASQS, bits: "11:0"}]}
  - {name: ASQ, space: bar0, offset: 0x28, width: 64}
  - {name: ACQ, space: bar0, offset: 0x30, width: 64}
  - {name: SQ0TDBL, space: bar0, offset: 0x1000, fields: [{name: SQT, bits: "15:0"}]}
  - {name: CQ0HDBL, space: bar0, offset: 0x1004, fields: [{name: CQH, bits: "15:0"}]}
  - {name: ADMIN_SQ_HEAD, space: queues, offset: 0x0, width: 16}
  - {name: ADMIN_CQ_TAIL, space: queues, offset: 0x2, width: 16}
  - {name: ADMIN_CQ_PHASE, space: queues, offset: 0x4, width: 8, fields: [{name: P, bits: 0}]}
  - {name: ADMIN_IS, space: queues, offset: 0x8, fields: [{name: V0, bits: 0}]}
behaviours:
  - name: controller
    kind: reactions
    reactions:
      - {name: ready, on: {rise: CC.EN}, do: [{set: {CSTS.RDY: 1}}]}
      - {name: not_ready, on: {fall: CC.EN}, do: [{set: {CSTS.RDY: 0}}]}
  - name: irq
    kind: interrupts
    sources: [{name: admin_cq, status: ADMIN_IS.V0}]
  - name: admin
    kind: ring
    memory: host
    enabled: "CC.EN == 1 && CSTS.RDY == 1"
    reset_when: "CC.EN == 0"
    submission:
      base: "ASQ & ~0xFFF"
      size: "AQA.ASQS + 1"
      entry_size: 64
      tail_doorbell: SQ0TDBL.SQT
      head: ADMIN_SQ_HEAD
    completion:
      base: "ACQ & ~0xFFF"
      size: "AQA.ACQS + 1"
      entry_size: 16
      head_doorbell: CQ0HDBL.CQH
      tail: ADMIN_CQ_TAIL
      phase: ADMIN_CQ_PHASE.P
      interrupt: ADMIN_IS.V0
      entry:
        - {offset: 0, width: 32, value: "result"}
        - {offset: 8, width: 16, value: "sq_head"}
        - {offset: 10, width: 16, value: "sq_id"}
        - {offset: 12, width: 16, value: "entry.CID"}
        - {offset: 14, width: 16, value: "phase | (status << 1)"}
    sq_id: 0
    fields:
      OPC: {offset: 0, width: 8}
      CID: {offset: 2, width: 16}
      NSID: {offset: 4, width: 32}
      PRP1: {offset: 24, width: 64}
      CDW10: {offset: 40, width: 32}
      CNS: {offset: 40, width: 32, bits: "7:0"}
      CDW11: {offset: 44, width: 32}
    commands:
      - name: identify
        when: "entry.OPC == 0x06 && entry.CNS == 1"
        writes:
          - {address: "entry.PRP1", width: 16, value: 0x1B36}
          - {address: "entry.PRP1 + 77", width: 8, value: 5}
      - {name: identify_other, when: "entry.OPC == 0x06", status: 0x02}
      - {name: set_features, when: "entry.OPC == 0x09", result: "entry.CDW11"}
    default_status: 0x01
    latency: )yaml" + latency + "\n";
}

constexpr uint64_t kAsq = 0x10000;
constexpr uint64_t kAcq = 0x20000;
constexpr uint8_t kIdentify = 0x06;
constexpr uint8_t kSetFeatures = 0x09;
constexpr uint8_t kBogus = 0x7E;

struct Completion {
  uint32_t result = 0;
  uint16_t sq_head = 0;
  uint16_t sq_id = 0;
  uint16_t cid = 0;
  unsigned phase = 0;
  uint16_t status = 0;
};

class RingTest : public ::testing::Test {
 protected:
  explicit RingTest(const std::string& latency = "0ns") : device_(MakeDevice(AdminDevice(latency), Options())) {}

  static DeviceOptions Options() {
    DeviceOptions options;
    options.coverage = true;
    return options;
  }

  RegisterId Reg(const char* name) const { return RegisterNamed(device_->model(), name); }
  uint64_t Peek(const char* name) const { return device_->PeekRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device_->WriteRegister(Reg(name), value); }

  // nvme_pci_configure_admin_queue then nvme_enable_ctrl (§12.3, §12.4):
  // AQA (0's based sizes), ASQ, ACQ, then CC.EN.
  void Enable(unsigned sq_entries, unsigned cq_entries) {
    Write("AQA", (uint64_t{cq_entries - 1} << 16) | (sq_entries - 1));
    Write("ASQ", kAsq);
    Write("ACQ", kAcq);
    Write("CC", 1);
    ASSERT_EQ(Peek("CSTS"), 1u) << "the reaction made the controller ready";
  }

  // A 64-byte submission entry in slot `slot` (§11.1).
  void Submit(uint64_t slot, uint8_t opcode, uint16_t cid, uint64_t prp1 = 0, uint32_t cdw10 = 0, uint32_t cdw11 = 0) {
    std::array<uint8_t, 64> entry{};
    entry[0] = opcode;
    entry[2] = static_cast<uint8_t>(cid);
    entry[3] = static_cast<uint8_t>(cid >> 8);
    for (unsigned b = 0; b < 8; ++b) entry[24 + b] = static_cast<uint8_t>(prp1 >> (8 * b));
    for (unsigned b = 0; b < 4; ++b) entry[40 + b] = static_cast<uint8_t>(cdw10 >> (8 * b));
    for (unsigned b = 0; b < 4; ++b) entry[44 + b] = static_cast<uint8_t>(cdw11 >> (8 * b));
    device_->WriteMemory(host_, kAsq + slot * 64, entry);
  }

  // The 16-byte completion entry in slot `slot` (§11.2).
  Completion At(uint64_t slot) const {
    std::array<uint8_t, 16> b{};
    device_->ReadMemory(host_, kAcq + slot * 16, b);
    auto le16 = [&](unsigned at) { return static_cast<uint16_t>(b[at] | (b[at + 1] << 8)); };
    uint16_t status = le16(14);
    return Completion{uint32_t{b[0]} | (uint32_t{b[1]} << 8) | (uint32_t{b[2]} << 16) | (uint32_t{b[3]} << 24),
                      le16(8),
                      le16(10),
                      le16(12),
                      static_cast<unsigned>(status & 1),
                      static_cast<uint16_t>(status >> 1)};
  }

  std::vector<uint8_t> Memory(uint64_t address, size_t size) const {
    std::vector<uint8_t> bytes(size);
    device_->ReadMemory(host_, address, bytes);
    return bytes;
  }

  std::unique_ptr<Device> device_;
  SpaceId host_ = SpaceNamed(device_->model(), "host");
};

// §12.8: one Identify Controller round trip. The controller writes the data
// (PRP1), then the completion: CID echoed, SQHD = 1, SQID = 0, P = 1 on the
// first pass, status Success; the interrupt status is set until the host's
// CQ head doorbell catches up.
TEST_F(RingTest, OneCommandRoundTrip) {
  Enable(32, 32);
  Submit(0, kIdentify, 0x1234, /*prp1=*/0x40000, /*cdw10=*/1);
  Write("SQ0TDBL", 1);
  Completion c = At(0);
  EXPECT_EQ(c.cid, 0x1234);
  EXPECT_EQ(c.sq_head, 1);
  EXPECT_EQ(c.sq_id, 0);
  EXPECT_EQ(c.phase, 1u);
  EXPECT_EQ(c.status, 0);
  EXPECT_THAT(Memory(0x40000, 2), ElementsAre(0x36, 0x1B));  // VID
  EXPECT_THAT(Memory(0x40000 + 77, 1), ElementsAre(5));      // MDTS
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 1u);
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 1u);
  EXPECT_EQ(Peek("ADMIN_CQ_PHASE"), 1u);
  EXPECT_EQ(Peek("ADMIN_IS"), 1u);
  EXPECT_TRUE(device_->interrupt_requested());
  Write("CQ0HDBL", 1);
  EXPECT_EQ(Peek("ADMIN_IS"), 0u);
  EXPECT_FALSE(device_->interrupt_requested());
  EXPECT_THAT(device_->violations(), IsEmpty());
  EXPECT_EQ(PointHits(*device_, "admin")["commands run/identify"], 1u);
}

// Two entries behind one doorbell complete in order; the first matching
// command decides (Identify with another CNS takes the second rule), and a
// result is carried in DW0.
TEST_F(RingTest, TwoCommandsCompleteInOrder) {
  Enable(32, 32);
  Submit(0, kIdentify, 7, 0x40000, /*cdw10=*/0);
  Submit(1, kSetFeatures, 8, 0, /*cdw10=*/0x07, /*cdw11=*/0x00030003);
  Write("SQ0TDBL", 2);
  EXPECT_EQ(At(0).cid, 7);
  EXPECT_EQ(At(0).status, 0x02);
  EXPECT_EQ(At(0).sq_head, 1);
  EXPECT_EQ(At(1).cid, 8);
  EXPECT_EQ(At(1).status, 0);
  EXPECT_EQ(At(1).result, 0x00030003u);
  EXPECT_EQ(At(1).sq_head, 2);
  EXPECT_THAT(Memory(0x40000, 2), ElementsAre(0, 0)) << "identify_other writes nothing";
  EXPECT_EQ(PointHits(*device_, "admin")["commands run/identify_other"], 1u);
}

// A 32-entry pair holds 31 outstanding commands (§11.3: one slot stays
// empty). After the host releases them, the next completion goes to slot
// 31; the CQ tail then wraps and the phase tag inverts for the second pass.
TEST_F(RingTest, ThirtyOneCommandsThenTheWrap) {
  Enable(32, 32);
  for (uint16_t i = 0; i < 31; ++i) Submit(i, kSetFeatures, static_cast<uint16_t>(0x100 + i), 0, 0, i);
  Write("SQ0TDBL", 31);
  for (uint16_t i = 0; i < 31; ++i) {
    Completion c = At(i);
    EXPECT_EQ(c.cid, 0x100 + i) << i;
    EXPECT_EQ(c.result, i) << i;
    EXPECT_EQ(c.sq_head, i + 1) << i;
    EXPECT_EQ(c.phase, 1u) << i;
    EXPECT_EQ(c.status, 0) << i;
  }
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 31u);
  Write("CQ0HDBL", 31);
  Submit(31, kSetFeatures, 0x200);
  Submit(0, kSetFeatures, 0x201);
  Write("SQ0TDBL", 1);  // two entries: slot 31, then slot 0 (the SQ wraps too)
  EXPECT_EQ(At(31).cid, 0x200);
  EXPECT_EQ(At(31).phase, 1u);
  EXPECT_EQ(At(31).sq_head, 0) << "SQHD wraps to 0 after slot 31";
  EXPECT_EQ(At(0).cid, 0x201);
  EXPECT_EQ(At(0).phase, 0u) << "second pass: the phase tag inverted";
  EXPECT_EQ(At(0).sq_head, 1);
  EXPECT_EQ(Peek("ADMIN_CQ_PHASE"), 0u);
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 1u);
  EXPECT_EQ(PointHits(*device_, "admin")["ring/phase inverted"], 1u);
  EXPECT_EQ(PointHits(*device_, "admin")["commands run/set_features"], 33u);
}

// The phase inverts at every wrap: three passes over a 4-entry CQ.
TEST_F(RingTest, PhaseInvertsAtEachWrap) {
  Enable(4, 4);
  std::vector<unsigned> phases;
  for (unsigned n = 0; n < 12; ++n) {
    Submit(n % 4, kSetFeatures, static_cast<uint16_t>(n));
    Write("SQ0TDBL", (n + 1u) % 4);
    phases.push_back(At(n % 4).phase);
    Write("CQ0HDBL", (n + 1u) % 4);
  }
  EXPECT_THAT(phases, ElementsAre(1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1));
  EXPECT_EQ(PointHits(*device_, "admin")["ring/phase inverted"], 3u);
}

// A full CQ ((tail + 1) % size == head) stops the device: the rest stays
// in the SQ until the host's head doorbell frees slots, then it continues.
TEST_F(RingTest, FullCompletionQueueStallsUntilTheHeadDoorbell) {
  Enable(8, 4);
  for (uint16_t i = 0; i < 5; ++i) Submit(i, kSetFeatures, static_cast<uint16_t>(0x10 + i));
  Write("SQ0TDBL", 5);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 3u) << "3 completions fill a 4-entry CQ";
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 3u);
  EXPECT_EQ(PointHits(*device_, "admin")["ring/completion queue full"], 1u);
  Write("CQ0HDBL", 2);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 5u);
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 1u);
  EXPECT_EQ(At(3).cid, 0x13);
  EXPECT_EQ(At(3).phase, 1u);
  EXPECT_EQ(At(0).cid, 0x14);
  EXPECT_EQ(At(0).phase, 0u);
  EXPECT_EQ(At(0).sq_head, 5);
  EXPECT_EQ(Peek("ADMIN_IS"), 1u) << "entries still wait for the host";
  Write("CQ0HDBL", 1);
  EXPECT_EQ(Peek("ADMIN_IS"), 0u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// An opcode no command knows completes with default_status (Invalid
// Command Opcode, §11.7), never a crash.
TEST_F(RingTest, UnknownOpcodeGetsTheDefaultStatus) {
  Enable(4, 4);
  Submit(0, kBogus, 0x55);
  Write("SQ0TDBL", 1);
  EXPECT_EQ(At(0).cid, 0x55);
  EXPECT_EQ(At(0).status, 0x01);
  EXPECT_EQ(At(0).phase, 1u);
  EXPECT_EQ(PointHits(*device_, "admin")["ring/default status"], 1u);
}

// §11.3 Invalid Doorbell Write Value: a tail or head past the queue's size,
// or a head releasing entries never posted, is the driver's mistake; the
// write is ignored.
TEST_F(RingTest, InvalidDoorbellValuesAreViolations) {
  Enable(4, 4);
  Submit(0, kSetFeatures, 1);
  Write("SQ0TDBL", 4);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
  Write("CQ0HDBL", 9);
  Write("CQ0HDBL", 2);  // nothing posted: the head would pass the tail
  std::vector<Violation> violations = device_->violations();
  ASSERT_EQ(violations.size(), 3u);
  EXPECT_EQ(violations[0].kind, ViolationKind::kProtocol);
  EXPECT_EQ(violations[0].register_name, "SQ0TDBL");
  EXPECT_THAT(violations[0].rule, HasSubstr("invalid doorbell write value: tail 4 ≥ queue size 4"));
  EXPECT_EQ(violations[1].register_name, "CQ0HDBL");
  EXPECT_THAT(violations[1].rule, HasSubstr("invalid doorbell write value: head 9 ≥ queue size 4"));
  EXPECT_THAT(violations[2].rule, HasSubstr("head 2 passes the completion tail 0"));
  EXPECT_EQ(PointHits(*device_, "admin")["ring/invalid doorbell"], 3u);
  Write("SQ0TDBL", 1);  // the valid doorbell still works
  EXPECT_EQ(At(0).cid, 1);
}

// AQA.ASQS = 0 is a one-entry queue, which no ring can be (§6: min 2).
TEST_F(RingTest, OneEntryQueueIsRefusedAtTheDoorbell) {
  Enable(1, 4);
  Write("SQ0TDBL", 0);
  ASSERT_EQ(device_->violations().size(), 1u);
  EXPECT_THAT(device_->violations()[0].rule, HasSubstr("submission queue size is 1 (AQA.ASQS + 1)"));
}

// Doorbells are processed only while `enabled` holds: before CC.EN, and
// with CC.EN = 1 but CSTS.RDY still 0, they are ignored (reporting them is
// the database's rules' job).
TEST_F(RingTest, DisabledRingIgnoresDoorbells) {
  Write("AQA", 0x00030003);
  Write("ASQ", kAsq);
  Write("ACQ", kAcq);
  Submit(0, kSetFeatures, 1);
  Write("SQ0TDBL", 1);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
  EXPECT_EQ(At(0).cid, 0);
  Write("CC", 1);
  device_->PokeRegister(Reg("CSTS"), 0);  // not ready yet
  Write("SQ0TDBL", 1);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
  EXPECT_THAT(device_->violations(), IsEmpty());
  device_->PokeRegister(Reg("CSTS"), 1);
  Write("SQ0TDBL", 1);
  EXPECT_EQ(At(0).cid, 1);
}

// CC.EN 1 → 0 is a Controller Reset (§4 facts, CC.EN): the queues start
// over: SQ head and CQ tail 0, phase 1, interrupt status clear.
TEST_F(RingTest, ResetWhenClearsTheQueues) {
  Enable(4, 4);
  Submit(0, kSetFeatures, 1);
  Submit(1, kSetFeatures, 2);
  Submit(2, kSetFeatures, 3);
  Submit(3, kSetFeatures, 4);
  Write("SQ0TDBL", 3);
  Write("CQ0HDBL", 3);
  Write("SQ0TDBL", 0);  // slot 3: the CQ tail wraps, phase 0
  EXPECT_EQ(Peek("ADMIN_CQ_PHASE"), 0u);
  EXPECT_EQ(Peek("ADMIN_IS"), 1u);
  Write("CC", 0);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 0u);
  EXPECT_EQ(Peek("ADMIN_CQ_PHASE"), 1u);
  EXPECT_EQ(Peek("ADMIN_IS"), 0u);
  EXPECT_FALSE(device_->interrupt_requested());
  // The driver starts over as from probe: zeroed CQ, slot 0, P = 1.
  device_->WriteMemory(host_, kAcq, std::vector<uint8_t>(64, 0));
  Write("SQ0TDBL", 0);
  Write("CQ0HDBL", 0);
  Write("CC", 1);
  Submit(0, kSetFeatures, 9);
  Write("SQ0TDBL", 1);
  EXPECT_EQ(At(0).cid, 9);
  EXPECT_EQ(At(0).phase, 1u);
  EXPECT_EQ(At(0).sq_head, 1);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// Device::Reset puts the ring's state back too.
TEST_F(RingTest, DeviceResetClearsTheQueues) {
  Enable(4, 4);
  Submit(0, kSetFeatures, 1);
  Write("SQ0TDBL", 1);
  device_->Reset();
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 0u);
  EXPECT_EQ(Peek("ADMIN_CQ_PHASE"), 1u);
  EXPECT_EQ(Peek("ADMIN_IS"), 0u);
}

// A queue whose entries lie past the end of host memory is an emulator gap
// (the space is the model's), not the driver's mistake: `unmodelled`.
TEST_F(RingTest, EntryPastTheMemorySpaceIsUnmodelled) {
  Enable(4, 4);
  Submit(0, kSetFeatures, 1);
  Write("SQ0TDBL", 1);
  ASSERT_THAT(Kinds(*device_), IsEmpty());
  Write("ASQ", 0xFFFFF000);  // slot 1 is past the 1 MiB space
  Write("SQ0TDBL", 2);
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnmodelled));
  EXPECT_THAT(device_->violations()[0].rule,
              AllOf(HasSubstr("submission entry 1"), HasSubstr("past the end of space 'host'")));
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 2u) << "the entry is consumed, with no completion";
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 1u);
}

class RingLatencyTest : public RingTest {
 protected:
  RingLatencyTest() : RingTest("2us") {}
};

// With `latency: 2us` the completion appears 2 µs of virtual time after the
// doorbell (the event queue), not before; each doorbell has its own.
TEST_F(RingLatencyTest, CompletionsArriveAfterTheLatency) {
  Enable(8, 8);
  Submit(0, kSetFeatures, 1);
  uint64_t start = device_->now_ns();
  Write("SQ0TDBL", 1);
  EXPECT_EQ(At(0).cid, 0);
  EXPECT_EQ(device_->next_event_ns(), start + 2000);
  device_->Advance(1000);
  Submit(1, kSetFeatures, 2);
  Write("SQ0TDBL", 2);  // due at start + 3000
  device_->Advance(999);
  EXPECT_EQ(At(0).cid, 0);
  device_->Advance(1);
  EXPECT_EQ(At(0).cid, 1);
  EXPECT_EQ(At(1).cid, 0);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 1u);
  EXPECT_EQ(device_->next_event_ns(), start + 3000);
  device_->Advance(1000);
  EXPECT_EQ(At(1).cid, 2);
  EXPECT_EQ(device_->pending_events(), 0u);
}

// Controller reset cancels completions still in flight.
TEST_F(RingLatencyTest, ResetWhenCancelsPendingCompletions) {
  Enable(8, 8);
  Submit(0, kSetFeatures, 1);
  Write("SQ0TDBL", 1);
  Write("CC", 0);
  EXPECT_EQ(device_->pending_events(), 0u);
  device_->Advance(5000);
  EXPECT_EQ(At(0).cid, 0);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
}

// A snapshot taken mid-way (a completion in flight, a stalled CQ) restores
// the ring's indices, its pending event and the memory: replaying from it
// gives the same completions.
TEST_F(RingLatencyTest, SnapshotAndRestoreMidWay) {
  Enable(8, 4);
  for (uint16_t i = 0; i < 5; ++i) Submit(i, kSetFeatures, static_cast<uint16_t>(0x20 + i));
  Write("SQ0TDBL", 5);
  DeviceSnapshot in_flight = device_->Snapshot();
  device_->Advance(2000);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 3u) << "stalled on the full CQ";
  DeviceSnapshot stalled = device_->Snapshot();
  Write("CQ0HDBL", 3);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 5u);
  EXPECT_EQ(At(0).cid, 0x24);

  device_->Restore(stalled);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 3u);
  EXPECT_EQ(Peek("ADMIN_CQ_TAIL"), 3u);
  EXPECT_EQ(At(0).cid, 0x20) << "slot 0 holds the first pass again";
  Write("CQ0HDBL", 3);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 5u);
  EXPECT_EQ(At(0).cid, 0x24);
  EXPECT_EQ(At(0).phase, 0u);

  device_->Restore(in_flight);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 0u);
  EXPECT_EQ(At(0).cid, 0);
  EXPECT_EQ(device_->pending_events(), 1u);
  device_->Advance(2000);
  EXPECT_EQ(Peek("ADMIN_SQ_HEAD"), 3u);
  EXPECT_EQ(At(2).cid, 0x22);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

}  // namespace
}  // namespace regemu::emulator
