// Behaviours inside a block run per instance: the dual timer's TIMER1 and
// TIMER2 count, interrupt and react on their own registers and lines.
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kDualTimer = R"(device: dual
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
blocks:
  - name: timer
    space: mmio
    instances: {TIMER1: 0x00, TIMER2: 0x20}
    registers:
      - {name: LOAD, offset: 0x0}
      - {name: VALUE, offset: 0x4, volatile: true}
      - {name: CONTROL, offset: 0x8, fields: [{name: ENABLE, bits: 7}, {name: INTEN, bits: 5}]}
      - {name: RIS, offset: 0x10, fields: [{name: INT, bits: 0, access: w1c}]}
      - {name: HITS, offset: 0x14, access: hw}
    behaviours:
      - {name: count, kind: counter, register: VALUE, direction: down, frequency: 25MHz,
         enable: CONTROL.ENABLE, at_limit: {set: RIS.INT, reload: LOAD}}
      - kind: interrupts
        sources: [{name: timer, status: RIS.INT, enable: CONTROL.INTEN}]
        outputs: [{name: out, sources: [timer], line: TIMINT}]
      - kind: reactions
        reactions: [{name: hit, on: {event: count.limit}, do: [{set: {HITS: HITS + 1}}]}]
)";

TEST(BlockBehavioursRunTest, InstancesCountAndInterruptOnTheirOwn) {
  auto device = MakeDevice(kDualTimer);
  auto reg = [&](const char* name) { return RegisterNamed(device->model(), name); };
  device->WriteRegister(reg("TIMER1_LOAD"), 4);
  device->WriteRegister(reg("TIMER1_VALUE"), 4);
  device->WriteRegister(reg("TIMER1_CONTROL"), 0xA0);  // ENABLE, INTEN
  device->WriteRegister(reg("TIMER2_VALUE"), 100);
  device->WriteRegister(reg("TIMER2_CONTROL"), 0x80);  // ENABLE only
  device->Advance(4 * 40);
  EXPECT_EQ(device->PeekRegister(reg("TIMER1_VALUE")), 0u);
  EXPECT_EQ(device->PeekRegister(reg("TIMER1_RIS")), 1u);
  EXPECT_EQ(device->PeekRegister(reg("TIMER1_HITS")), 1u);
  EXPECT_TRUE(device->line_asserted("TIMER1_TIMINT"));
  EXPECT_EQ(device->PeekRegister(reg("TIMER2_VALUE")), 96u);
  EXPECT_EQ(device->PeekRegister(reg("TIMER2_RIS")), 0u);
  EXPECT_EQ(device->PeekRegister(reg("TIMER2_HITS")), 0u);
  EXPECT_FALSE(device->line_asserted("TIMER2_TIMINT"));
  device->Advance(5 * 40 * 3);  // three more periods of LOAD + 1 ticks
  EXPECT_EQ(device->PeekRegister(reg("TIMER1_HITS")), 4u);
  EXPECT_EQ(device->PeekRegister(reg("TIMER2_VALUE")), 81u);
}

// A block's `let:` is per instance, and a rate through it follows the
// instance's own prescaler.
TEST(BlockBehavioursRunTest, ALetPerInstanceDrivesTheRate) {
  auto device = MakeDevice(R"(device: lets
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
blocks:
  - name: timer
    space: mmio
    instances: {T1: 0x00, T2: 0x20}
    let: {DIVIDER: "CONTROL.PRESCALE ? 16 : 1"}
    registers:
      - {name: VALUE, offset: 0x4, volatile: true}
      - {name: CONTROL, offset: 0x8, fields: [{name: PRESCALE, bits: 2}, {name: ENABLE, bits: 7}]}
    behaviours:
      - {name: count, kind: counter, register: VALUE, direction: down, frequency: "25MHz / DIVIDER",
         enable: CONTROL.ENABLE}
)");
  auto reg = [&](const char* name) { return RegisterNamed(device->model(), name); };
  device->WriteRegister(reg("T1_VALUE"), 100);
  device->WriteRegister(reg("T2_VALUE"), 100);
  device->WriteRegister(reg("T1_CONTROL"), 0x80);
  device->WriteRegister(reg("T2_CONTROL"), 0x84);
  device->Advance(640);
  EXPECT_EQ(device->PeekRegister(reg("T1_VALUE")), 84u);
  EXPECT_EQ(device->PeekRegister(reg("T2_VALUE")), 99u);
}

}  // namespace
}  // namespace regemu::emulator
