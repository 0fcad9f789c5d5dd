// Computed fields (`value:`), write gates (`write_gate:`) and what a
// reaction's delayed actions may read of their trigger (yaml/README.md
// "fields" and "kind: reactions"), on the smallest devices that show them:
// the SP804's masked interrupt status (MIS = RIS AND the enable) and the
// SP805's lock ("writing 0x1ACCE551 enables write access to all other
// registers; writing any other value disables it", Arm Watchdog Module
// (SP805) TRM, ARM DDI 0270, WdogLock).
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
using testing_support::RegisterNamed;

constexpr const char* kTimer = R"(device: timer
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: CONTROL, space: mmio, offset: 0x8, fields: [{name: INTEN, bits: 5}]}
  - {name: RIS, space: mmio, offset: 0x10, fields: [{name: INT, bits: 0, access: hw}]}
  - {name: MIS, space: mmio, offset: 0x14, fields: [{name: INT, bits: 0, value: "RIS.INT & CONTROL.INTEN"}]}
behaviours:
  - kind: interrupts
    sources: [{name: timer, status: MIS.INT}]
    outputs: [{name: out, sources: [timer], line: TIMINT}]
)";

// MIS follows RIS and the enable, as they change, by a write or by the
// device; the roll-up over it hears each change; a read is a read.
TEST(ComputedFieldTest, FollowsWhatItReadsAndIsHeard) {
  auto device = MakeDevice(kTimer);
  RegisterId ris = RegisterNamed(device->model(), "RIS");
  RegisterId mis = RegisterNamed(device->model(), "MIS");
  device->PokeRegister(ris, 1);
  device->Advance(1);  // a poke is seen at the next advance of the clock
  EXPECT_EQ(device->PeekRegister(mis), 0u);
  device->Write(0, 0x8, 32, 1 << 5);
  EXPECT_EQ(device->Read(0, 0x14, 32), 1u);
  EXPECT_TRUE(device->line_asserted("TIMINT"));
  device->Write(0, 0x8, 32, 0);
  EXPECT_EQ(device->Read(0, 0x14, 32), 0u);
  EXPECT_FALSE(device->line_asserted("TIMINT"));
  EXPECT_THAT(device->violations(), IsEmpty());
}

// A computed field is read-only: writing the register is a read-only violation.
TEST(ComputedFieldTest, IsReadOnly) {
  auto device = MakeDevice(kTimer);
  device->Write(0, 0x14, 32, 1);
  EXPECT_THAT(Kinds(*device), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_EQ(device->Read(0, 0x14, 32), 0u);
}

constexpr const char* kWatchdog = R"(device: wdog
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: WDOGLOAD, space: mmio, offset: 0x0, reset: 0xFFFFFFFF, write_gate: "WDOGLOCK.LOCKED == 0"}
  - name: WDOGCONTROL
    space: mmio
    offset: 0x8
    fields:
      - name: INTEN
        bits: 0
        write_gate: {when: "WDOGLOCK.LOCKED == 0", violation: "the watchdog is locked: unlock it first", ref: "SP805 TRM"}
      - {name: RESEN, bits: 1}
  - name: WDOGLOCK
    space: mmio
    offset: 0xC00
    access: wo
    fields: [{name: LOCKED, bits: 0, access: hw}]
behaviours:
  - kind: reactions
    reactions:
      - {name: key, on: {write: WDOGLOCK}, do: [{set: {WDOGLOCK.LOCKED: "written != 0x1ACCE551"}}]}
)";

// Locked, a write of a gated register is ignored as the hardware ignores
// it; one with a rule is also that violation; the key unlocks.
TEST(WriteGateTest, TheLockIdiom) {
  auto device = MakeDevice(kWatchdog);
  device->Write(0, 0x0, 32, 1000);  // unlocked at reset
  EXPECT_EQ(device->Read(0, 0x0, 32), 1000u);
  device->Write(0, 0xC00, 32, 1);  // any other value locks
  EXPECT_EQ(device->Read(0, 0xC00, 32), 1u);
  device->Write(0, 0x0, 32, 5);
  EXPECT_EQ(device->Read(0, 0x0, 32), 1000u);
  EXPECT_THAT(device->violations(), IsEmpty());
  device->Write(0, 0x8, 32, 3);  // INTEN gated with a rule; RESEN not gated
  EXPECT_EQ(device->Read(0, 0x8, 32), 2u);
  ASSERT_EQ(device->violations().size(), 1u);
  EXPECT_EQ(device->violations()[0].kind, ViolationKind::kProtocol);
  EXPECT_THAT(device->violations()[0].rule, HasSubstr("the watchdog is locked: unlock it first (SP805 TRM)"));
  device->Write(0, 0xC00, 32, 0x1ACCE551);
  EXPECT_EQ(device->Read(0, 0xC00, 32), 0u);
  device->Write(0, 0x0, 32, 5);
  EXPECT_EQ(device->Read(0, 0x0, 32), 5u);
}

constexpr const char* kDelayed = R"(device: delayed
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: CMD, space: mmio, offset: 0x0, fields: [{name: OP, bits: "7:0"}]}
  - {name: RESULT, space: mmio, offset: 0x4, access: hw}
  - {name: ARG, space: mmio, offset: 0x8, access: hw}
behaviours:
  - kind: reactions
    reactions:
      - {name: run, on: {write: CMD}, do: [{after: 100ns, set: {RESULT: "written + before"}}]}
      - {name: kick, on: {event: kick, args: [n]}, do: [{after: 1us, set: {ARG: "n * 2"}}]}
)";

// A delayed action reads the trigger's values as they were at the trigger,
// whatever happened since: each pending one its own.
TEST(DelayedActionTest, ReadsItsTriggersValues) {
  auto device = MakeDevice(kDelayed);
  device->Write(0, 0x0, 32, 0x1234);  // OP keeps 0x34; `written` is 0x1234, `before` 0
  device->Advance(50);
  device->Write(0, 0x0, 32, 0x10);  // written 0x10, before 0x34
  device->Advance(50);
  EXPECT_EQ(device->PeekRegister(RegisterNamed(device->model(), "RESULT")), 0x1234u);
  device->Advance(50);
  EXPECT_EQ(device->PeekRegister(RegisterNamed(device->model(), "RESULT")), 0x10u + 0x34u);
  std::vector<std::string> args{"21"};
  EXPECT_EQ(device->Inject("kick", args), "");
  device->Advance(1000);
  EXPECT_EQ(device->PeekRegister(RegisterNamed(device->model(), "ARG")), 42u);
}

}  // namespace
}  // namespace regemu::emulator
