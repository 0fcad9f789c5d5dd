// A device's state (emulator/README.md "Device"): the backdoor never has
// side effects, Reset() and Snapshot()/Restore() bring back whole states,
// the trace is bounded and deterministic, and time moves only virtually.
#include <cstdint>
#include <stdexcept>
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
using ::testing::SizeIs;
using testing_support::CompileYaml;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

constexpr const char* kDevice = R"(device: state
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: IIR, space: mmio, offset: 0x0, access: rc, reset: 0x0}
  - {name: STATUS, space: mmio, offset: 0x4, access: w1c}
  - {name: LOCK, space: mmio, offset: 0x8, access: w1, reset: 0x5}
  - {name: SCRATCH, space: mmio, offset: 0xC, reset: 0xA5A5A5A5}
  - {name: RO_ID, space: mmio, offset: 0x10, access: ro, reset: 0x8086}
  - {name: TIMESTAMP, space: mmio, offset: 0x18, width: 64, access: hw}
ranges:
  - {name: HOLE, space: mmio, base: 0x800, size: 0x100, kind: reserved}
behaviours:
  - {kind: counter, register: TIMESTAMP, period: 10ns}
)";

class DeviceStateTest : public ::testing::Test {
 protected:
  void Make(DeviceOptions options = {}) {
    device_ = MakeDevice(kDevice, std::move(options));
    mmio_ = SpaceNamed(device_->model(), "mmio");
  }
  void SetUp() override { Make(); }
  RegisterId Reg(const char* name) const { return RegisterNamed(device_->model(), name); }

  std::unique_ptr<Device> device_;
  SpaceId mmio_ = 0;
};

// --------------------------------------------------------------- the backdoor

// Peeking a clear-on-read register does not clear it; the frontdoor read does.
TEST_F(DeviceStateTest, PeekOfClearOnReadDoesNotClear) {
  device_->PokeRegister(Reg("IIR"), 0x8);
  EXPECT_EQ(device_->Peek(mmio_, 0x0, 32), 0x8u);
  EXPECT_EQ(device_->Peek(mmio_, 0x0, 8), 0x8u);
  EXPECT_EQ(device_->PeekRegister(Reg("IIR")), 0x8u);
  EXPECT_EQ(device_->Read(mmio_, 0x0, 32), 0x8u);
  EXPECT_EQ(device_->PeekRegister(Reg("IIR")), 0x0u);
}

// Poking a write-1-to-clear register stores the raw value (a frontdoor
// write of the same value would clear those bits).
TEST_F(DeviceStateTest, PokeOfW1cStoresRaw) {
  EXPECT_TRUE(device_->Poke(mmio_, 0x4, 32, 0xF0));
  EXPECT_EQ(device_->PeekRegister(Reg("STATUS")), 0xF0u);
  EXPECT_TRUE(device_->Poke(mmio_, 0x5, 8, 0x0F));
  EXPECT_EQ(device_->PeekRegister(Reg("STATUS")), 0x0FF0u);
  device_->Write(mmio_, 0x4, 32, 0xF0);
  EXPECT_EQ(device_->PeekRegister(Reg("STATUS")), 0x0F00u);
}

// The backdoor leaves no trace, takes no time, breaks no rule (poking a ro
// register is fine) and reports where nothing is.
TEST_F(DeviceStateTest, BackdoorTakesNoTimeAndBreaksNoRuleButIsTracedForReplay) {
  DeviceOptions options;
  options.access_cost_ns = 5;
  Make(options);
  EXPECT_TRUE(device_->Poke(mmio_, 0x10, 32, 0x1234));
  device_->PokeRegister(Reg("IIR"), 0x1);
  device_->Peek(mmio_, 0x0, 32);
  device_->Peek(mmio_, 0x400, 32);
  EXPECT_FALSE(device_->Poke(mmio_, 0x400, 32, 1)) << "no register holds 0x400";
  EXPECT_EQ(device_->PeekRegister(Reg("RO_ID")), 0x1234u);  // the inspection helper is not traced
  EXPECT_EQ(device_->now_ns(), 0u);
  EXPECT_THAT(device_->violations(), IsEmpty());
  std::vector<TraceEntry> trace = device_->Trace();
  ASSERT_EQ(trace.size(), 5u);
  EXPECT_EQ(device_->access_count(), 5u);
  EXPECT_EQ(trace[0].op, TraceOp::kPoke);
  EXPECT_EQ(trace[1].op, TraceOp::kPoke);
  EXPECT_EQ(trace[1].reg, Reg("IIR"));
  EXPECT_EQ(trace[2].op, TraceOp::kPeek);
  EXPECT_EQ(trace[4].op, TraceOp::kPoke);
  EXPECT_EQ(trace[4].outcome, TraceOutcome::kDropped);
  for (const TraceEntry& entry : trace) EXPECT_EQ(entry.time_ns, 0u);
}

// ---------------------------------------------------------- reset, snapshots

// Reset() brings every register back to its reset value and forgets which
// write-once registers were written; time goes on.
TEST_F(DeviceStateTest, ResetRestoresResetValuesAndWriteOnce) {
  device_->Write(mmio_, 0x8, 32, 0x1);
  device_->Write(mmio_, 0x8, 32, 0x2);  // later write: no effect
  device_->Write(mmio_, 0xC, 32, 0x0);
  device_->Advance(100);
  EXPECT_EQ(device_->PeekRegister(Reg("LOCK")), 0x1u);
  device_->Reset();
  EXPECT_EQ(device_->PeekRegister(Reg("LOCK")), 0x5u);
  EXPECT_EQ(device_->PeekRegister(Reg("SCRATCH")), 0xA5A5A5A5u);
  EXPECT_EQ(device_->PeekRegister(Reg("TIMESTAMP")), 0u);
  EXPECT_EQ(device_->now_ns(), 100u);
  device_->Write(mmio_, 0x8, 32, 0x2);  // first write after reset: stores
  EXPECT_EQ(device_->PeekRegister(Reg("LOCK")), 0x2u);
}

// Restore() brings back register values, write-once state, the counter's
// state and the time of the snapshot; the device then runs on as it would have.
TEST_F(DeviceStateTest, SnapshotRestoreRoundTrips) {
  device_->Write(mmio_, 0xC, 32, 0x1111);
  device_->Advance(25);  // TIMESTAMP = 2, 5ns into its period
  DeviceSnapshot snapshot = device_->Snapshot();

  device_->Write(mmio_, 0xC, 32, 0x2222);
  device_->Write(mmio_, 0x8, 32, 0x7);  // uses up LOCK's write
  device_->Advance(1000);
  device_->Reset();
  device_->Restore(snapshot);

  EXPECT_EQ(device_->PeekRegister(Reg("SCRATCH")), 0x1111u);
  EXPECT_EQ(device_->PeekRegister(Reg("TIMESTAMP")), 2u);
  EXPECT_EQ(device_->now_ns(), 25u);
  device_->Advance(5);
  EXPECT_EQ(device_->PeekRegister(Reg("TIMESTAMP")), 3u) << "the counter's epoch came back too";
  device_->Write(mmio_, 0x8, 32, 0x3);
  EXPECT_EQ(device_->PeekRegister(Reg("LOCK")), 0x3u) << "LOCK's first write came back too";

  device_->Restore(snapshot);  // a snapshot can be restored again
  EXPECT_EQ(device_->PeekRegister(Reg("LOCK")), 0x5u);
}

// Snapshot(into) refills a snapshot in place, from any state, and the
// refilled one restores the later state, not the first: behaviour state is
// assigned, not left behind.
TEST_F(DeviceStateTest, SnapshotIntoAnExistingSnapshotTakesTheNewState) {
  DeviceSnapshot snapshot;
  device_->Snapshot(snapshot);  // an empty one is filled
  device_->Write(mmio_, 0xC, 32, 0x1111);
  device_->Advance(25);
  device_->Snapshot(snapshot);  // a filled one is refilled

  device_->Write(mmio_, 0xC, 32, 0x2222);
  device_->Advance(1000);
  device_->Restore(snapshot);
  EXPECT_EQ(device_->PeekRegister(Reg("SCRATCH")), 0x1111u);
  EXPECT_EQ(device_->now_ns(), 25u);
  device_->Advance(5);
  EXPECT_EQ(device_->PeekRegister(Reg("TIMESTAMP")), 3u) << "the counter's state is the second snapshot's";

  auto other = MakeDevice(R"(device: other
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: ONLY, space: mmio, offset: 0x0, reset: 0x77}
)");
  other->Snapshot(snapshot);  // a snapshot of another device is replaced whole
  EXPECT_THROW(device_->Restore(snapshot), std::invalid_argument);
  other->Restore(snapshot);
  EXPECT_EQ(other->PeekRegister(0), 0x77u);
}

// PeekRegisters copies every value at once, by RegisterId, and refuses a
// buffer of the wrong size.
TEST_F(DeviceStateTest, PeekRegistersCopiesEveryValue) {
  device_->Write(mmio_, 0xC, 32, 0x1234);
  std::vector<uint64_t> values(device_->model().registers().size());
  device_->PeekRegisters(values);
  for (RegisterId reg = 0; reg < values.size(); ++reg) EXPECT_EQ(values[reg], device_->PeekRegister(reg));
  EXPECT_EQ(values[Reg("SCRATCH")], 0x1234u);
  std::vector<uint64_t> short_buffer(values.size() - 1);
  EXPECT_THROW(device_->PeekRegisters(short_buffer), std::invalid_argument);
}

// Restoring a snapshot of another model's device is refused.
TEST_F(DeviceStateTest, RestoreFromAnotherModelThrows) {
  auto other = MakeDevice(R"(device: other
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: ONLY, space: mmio, offset: 0x0}
)");
  EXPECT_THROW(device_->Restore(other->Snapshot()), std::invalid_argument);
}

// Two models with the same number of registers and behaviours are still two
// models: a snapshot of one does not fit the other.
TEST_F(DeviceStateTest, RestoreFromASameSizedModelThrows) {
  auto other = MakeDevice(R"(device: other
spaces:
  - {name: io, kind: mmio, size: 0x100}
registers:
  - {name: A, space: io, offset: 0x0, width: 8}
  - {name: B, space: io, offset: 0x1, width: 8}
  - {name: C, space: io, offset: 0x2, width: 8}
  - {name: D, space: io, offset: 0x3, width: 8}
  - {name: E, space: io, offset: 0x4, width: 8}
  - {name: F, space: io, offset: 0x8, width: 64}
behaviours:
  - {kind: counter, register: A, period: 1ns}
)");
  ASSERT_EQ(other->model().registers().size(), device_->model().registers().size());
  EXPECT_THROW(device_->Restore(other->Snapshot()), std::invalid_argument);
}

// --------------------------------------------------------------------- trace

// The same accesses on two devices of one model give byte-identical traces
// (DESIGN.md "Time": "same database, same inputs, same trace, byte for byte").
TEST(DeviceDeterminismTest, SameAccessesSameTrace) {
  std::shared_ptr<const Model> model = CompileYaml(kDevice);
  auto run = [&model] {
    DeviceOptions options;
    options.access_cost_ns = 3;
    options.policy = ViolationPolicy::Lenient();
    Device device(model, options);
    device.Write(0, 0xC, 32, 0x1234);
    device.Read(0, 0x18, 64);
    device.Advance(47);
    device.Write(0, 0x10, 32, 0x1);  // read-only violation
    device.Read(0, 0x800, 32);       // reserved
    device.Read(0, 0x400, 16);       // unclaimed
    device.Reset();
    device.Read(0, 0x18, 64);
    return RenderTrace(device.model(), device.Trace());
  };
  std::string first = run();
  EXPECT_EQ(first, run());
  EXPECT_THAT(first, HasSubstr("expect-violation read-only\nwrite32 mmio 0x10 0x00000001"));
  EXPECT_THAT(first, HasSubstr("step 47ns"));
  EXPECT_THAT(first, HasSubstr("reset"));
}

// The trace ring keeps the newest `trace_capacity` entries, oldest first.
TEST_F(DeviceStateTest, TraceKeepsTheLastCapacityEntries) {
  DeviceOptions options;
  options.trace_capacity = 4;
  Make(options);
  for (uint64_t i = 1; i <= 6; ++i) device_->Write(mmio_, 0xC, 32, i);
  std::vector<TraceEntry> trace = device_->Trace();
  ASSERT_THAT(trace, SizeIs(4));
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(trace[i].sequence, i + 3);
    EXPECT_EQ(trace[i].value, i + 3);
  }
  EXPECT_THAT(device_->Trace(2), SizeIs(2));
  EXPECT_EQ(device_->Trace(2)[1].sequence, 6u);
  EXPECT_EQ(device_->access_count(), 6u);
}

// Capacity 0 keeps no trace, but accesses are still counted and still checked.
TEST_F(DeviceStateTest, TraceCapacityZeroKeepsNothing) {
  DeviceOptions options;
  options.trace_capacity = 0;
  Make(options);
  device_->Write(mmio_, 0xC, 32, 1);
  device_->Write(mmio_, 0x10, 32, 1);
  EXPECT_THAT(device_->Trace(), IsEmpty());
  EXPECT_EQ(device_->access_count(), 2u);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_THAT(device_->violations()[0].recent, IsEmpty());
}

// A violation carries the accesses before it, up to violation_context, also
// when the ring is full and the violating access's own entry reuses the
// oldest slot: the ring keeps a slot apart for the entry being built.
TEST_F(DeviceStateTest, ViolationInAFullRingCarriesTheAccessesBeforeIt) {
  DeviceOptions options;
  options.trace_capacity = 3;
  options.violation_context = 8;
  Make(options);
  for (uint64_t i = 1; i <= 5; ++i) device_->Write(mmio_, 0xC, 32, i);
  device_->Write(mmio_, 0x10, 32, 1);  // RO_ID: read-only
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
  const std::vector<TraceEntry> recent = device_->violations()[0].recent;  // violations() returns a copy
  ASSERT_THAT(recent, SizeIs(3));
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(recent[i].offset, 0xCu);
    EXPECT_EQ(recent[i].value, i + 3);
  }
  std::vector<TraceEntry> trace = device_->Trace();
  ASSERT_THAT(trace, SizeIs(3));
  EXPECT_EQ(trace[2].offset, 0x10u);
  EXPECT_EQ(trace[2].outcome, TraceOutcome::kViolation);
  EXPECT_EQ(trace[0].value, 4u);
}

// Each trace entry says what happened: op, space, offset, width, value,
// register, time, and how the access ended (ok, reserved, violation + kind).
TEST_F(DeviceStateTest, TraceEntryFields) {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  Make(options);
  device_->Write(mmio_, 0xC, 32, 0x77);
  device_->Advance(9);
  device_->Read(mmio_, 0xD, 8);
  device_->Write(mmio_, 0x10, 32, 0x1);
  device_->Read(mmio_, 0x800, 32);
  std::vector<TraceEntry> t = device_->Trace();
  ASSERT_THAT(t, SizeIs(5));

  EXPECT_EQ(t[0].op, TraceOp::kWrite);
  EXPECT_EQ(t[0].reg, Reg("SCRATCH"));
  EXPECT_EQ(t[0].value, 0x77u);
  EXPECT_EQ(t[0].outcome, TraceOutcome::kOk);
  EXPECT_EQ(t[1].op, TraceOp::kStep);
  EXPECT_EQ(t[1].value, 9u);
  EXPECT_EQ(t[2].op, TraceOp::kRead);
  EXPECT_EQ(t[2].time_ns, 9u);
  EXPECT_EQ(t[2].offset, 0xDu);
  EXPECT_EQ(t[2].width, 8u);
  EXPECT_EQ(t[2].value, 0x00u);
  EXPECT_EQ(t[2].reg, Reg("SCRATCH"));
  EXPECT_EQ(t[3].outcome, TraceOutcome::kViolation);
  EXPECT_EQ(t[3].violation, static_cast<uint8_t>(ViolationKind::kReadOnly));
  EXPECT_EQ(t[3].reg, Reg("RO_ID"));
  EXPECT_EQ(t[4].outcome, TraceOutcome::kReserved);
  EXPECT_EQ(t[4].reg, kNoRegister);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i].sequence, t[i - 1].sequence + 1);
}

// An unclaimed access whose violation is ignored is still traced as unclaimed.
TEST_F(DeviceStateTest, IgnoredUnclaimedAccessIsTracedAsUnclaimed) {
  DeviceOptions options;
  options.policy = ViolationPolicy::Strict().Set(ViolationKind::kUnclaimed, ViolationAction::kIgnore);
  Make(options);
  device_->Read(mmio_, 0x400, 32);
  EXPECT_THAT(device_->violations(), IsEmpty());
  EXPECT_EQ(device_->Trace(1).at(0).outcome, TraceOutcome::kUnclaimed);
  EXPECT_THAT(RenderTrace(device_->model(), device_->Trace()), HasSubstr("(unclaimed)"));
}

// ---------------------------------------------------------------------- time

// access_cost_ns advances the virtual clock by that much per frontdoor
// access (reads, writes, refused ones alike); each entry has its start time.
TEST_F(DeviceStateTest, AccessCostAdvancesTime) {
  DeviceOptions options;
  options.access_cost_ns = 10;
  options.policy = ViolationPolicy::Lenient();
  Make(options);
  device_->Read(mmio_, 0xC, 32);
  device_->Write(mmio_, 0xC, 32, 1);
  device_->Read(mmio_, 0x400, 32);  // unclaimed, still costs time
  EXPECT_EQ(device_->now_ns(), 30u);
  std::vector<TraceEntry> t = device_->Trace();
  ASSERT_THAT(t, SizeIs(3));
  EXPECT_EQ(t[0].time_ns, 0u);
  EXPECT_EQ(t[1].time_ns, 10u);
  EXPECT_EQ(t[2].time_ns, 20u);
  EXPECT_EQ(device_->PeekRegister(Reg("TIMESTAMP")), 3u) << "behaviours see the time move";
}

// Without a cost, only Advance() moves time.
TEST_F(DeviceStateTest, NoCostNoTime) {
  for (int i = 0; i < 10; ++i) device_->Read(mmio_, 0xC, 32);
  EXPECT_EQ(device_->now_ns(), 0u);
  device_->Advance(7);
  device_->Advance(8);
  EXPECT_EQ(device_->now_ns(), 15u);
}

// One access that breaks two rules announces both in the rendered trace, so
// the trace replays in strict mode.
TEST(DeviceTraceRenderTest, AnAccessBreakingTwoRulesAnnouncesBoth) {
  DeviceOptions lenient;
  lenient.policy = ViolationPolicy::Lenient();
  auto device = MakeDevice(R"(device: two
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0
    fields:
      - {name: LOCKED, bits: 0, access: ro}
      - {name: ZERO, bits: 1, access: mbz}
)",
                           lenient);
  device->Write(0, 0, 32, 0x3);
  std::string text = RenderTrace(device->model(), device->Trace());
  EXPECT_THAT(text, HasSubstr("expect-violation read-only\nexpect-violation mbz\nwrite32 mmio 0x0 0x00000003"));
}

// The backdoor renders as peek/poke lines, so a trace with pokes replays.
TEST_F(DeviceStateTest, BackdoorAccessesRenderAsPeekAndPokeLines) {
  device_->Poke(mmio_, 0x4, 32, 0xF0);
  device_->Peek(mmio_, 0x4, 32);
  std::string text = RenderTrace(device_->model(), device_->Trace());
  EXPECT_THAT(text, HasSubstr("poke32 mmio 0x4 0x000000f0"));
  EXPECT_THAT(text, HasSubstr("peek32 mmio 0x4"));
}

// Virtual time saturates instead of wrapping back to the past.
TEST_F(DeviceStateTest, ClockSaturatesAtTheEndOfTime) {
  device_->Advance(~uint64_t{0} - 10);
  device_->Advance(100);
  EXPECT_EQ(device_->now_ns(), ~uint64_t{0});
  uint64_t timer = device_->PeekRegister(Reg("TIMESTAMP"));
  device_->Advance(5);
  EXPECT_EQ(device_->PeekRegister(Reg("TIMESTAMP")), timer) << "the counter does not run backwards or jump";
}

// A single-threaded device (no lock) behaves exactly like the default one.
TEST(DeviceThreadModeTest, SingleThreadedDeviceTracesTheSameAccesses) {
  DeviceOptions single;
  single.thread_safe = false;
  single.policy = ViolationPolicy::Lenient();
  DeviceOptions shared;
  shared.policy = ViolationPolicy::Lenient();
  auto a = MakeDevice(kDevice, single);
  auto b = MakeDevice(kDevice, shared);
  for (Device* device : {a.get(), b.get()}) {
    device->Write(0, 0x4, 32, 0xFF);
    device->Read(0, 0x0, 32);
    device->Write(0, 0x10, 32, 0x1);  // read-only: a violation
    device->Advance(30);
    device->Read(0, 0x18, 32);
  }
  EXPECT_EQ(RenderTrace(a->model(), a->Trace()), RenderTrace(b->model(), b->Trace()));
  EXPECT_EQ(a->violation_count(), 1u);
  EXPECT_EQ(a->PeekRegister(RegisterNamed(a->model(), "TIMESTAMP")), 3u);
}

}  // namespace
}  // namespace regemu::emulator
