// The rules across behaviours (regdb/checks/model_rules.cpp): each is a
// located error of `regemu check`, where compiling the model used to be the
// first to refuse it, with no file:line.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Nine lines; behaviours start on line 10.
constexpr const char* kDevice = R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: STATUS, space: mmio, offset: 0x0, fields: [{name: A, bits: 0, access: w1c}, {name: B, bits: 1, access: w1c}]}
  - {name: ENABLE, space: mmio, offset: 0x4, fields: [{name: A, bits: 0}, {name: B, bits: 1}]}
  - {name: TX, space: mmio, offset: 0x8, access: wo}
  - {name: TX2, space: mmio, offset: 0xC, access: wo}
behaviours:
)";

TEST(ModelRulesTest, ALineHasOneDriver) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) + R"(  - name: first
    kind: interrupts
    sources: [{name: a, status: STATUS.A, enable: ENABLE.A}]
    outputs: [{name: out, sources: [a], line: IRQ0}]
  - name: second
    kind: interrupts
    sources: [{name: b, status: STATUS.B, enable: ENABLE.B}]
    outputs: [{name: out, sources: [b], line: IRQ0}]
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(17, 47, HasSubstr("behaviour 'second': interrupt line 'IRQ0' is driven by another "
                                                    "behaviour too ('first')"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(Field(&Note::message, "'first' drives it")));
  EXPECT_EQ(loaded.diagnostics.all()[0].notes[0].loc.line, 13u);
}

TEST(ModelRulesTest, NoLineIsCalledIrq) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) + R"(  - name: first
    kind: interrupts
    sources: [{name: a, status: STATUS.A, enable: ENABLE.A}]
    outputs: [{name: out, sources: [a], line: irq}]
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(13, 47, HasSubstr("interrupt line 'irq' is the name scripts and the C shim give"))))
      << Rendered(loaded);
}

TEST(ModelRulesTest, AStreamHasOneEmitter) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) + R"(  - {name: one, kind: fifo, depth: 4, push: TX, drain: {clock: 1MHz, ticks: 1}, to: [{stream: out}]}
  - {name: two, kind: fifo, depth: 4, push: TX2, drain: {clock: 1MHz, ticks: 1}, to: [{stream: out}]}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 96, HasSubstr("behaviour 'two': output stream 'out' is emitted by another "
                                                    "behaviour too ('one')"))))
      << Rendered(loaded);
}

TEST(ModelRulesTest, InterruptParentsFormNoCycle) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) + R"(  - name: first
    kind: interrupts
    interrupt_parent: second
    sources: [{name: a, status: STATUS.A, enable: ENABLE.A}]
    outputs: [{name: out, sources: [a]}]
  - name: second
    kind: interrupts
    interrupt_parent: first
    sources: [{name: b, status: STATUS.B, enable: ENABLE.B}]
    outputs: [{name: out, sources: [b]}]
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(12, 23, "behaviour 'first': its interrupt parents form a cycle (first -> second -> "
                                          "first)")))
      << Rendered(loaded);
}

TEST(ModelRulesTest, AnAccessHasOneGate) {
  LoadedDatabase loaded = CheckYaml(R"(device: fw
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: FW_RENDER, space: mmio, offset: 0xA278, masked: true}
  - {name: FW_ACK_RENDER, space: mmio, offset: 0x0D84, access: ro}
  - {name: FW_GT, space: mmio, offset: 0xA188, masked: true}
  - {name: FW_ACK_GT, space: mmio, offset: 0x0D88, access: ro}
behaviours:
  - name: render
    kind: forcewake
    domains: [{name: render, request: FW_RENDER, ack: FW_ACK_RENDER}]
    ranges: [{first: 0x2000, last: 0x2FFF, domains: [render]}]
  - name: gt
    kind: forcewake
    domains: [{name: gt, request: FW_GT, ack: FW_ACK_GT}]
    ranges: [{first: 0x2800, last: 0x3FFF, domains: [gt]}]
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 11, HasSubstr("gated ranges of behaviours 'render' and 'gt' overlap at 0x2800 "
                                                    "in space 'mmio': an access has one gate"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes,
              ElementsAre(Field(&Note::message, "'render' gates 0x2000-0x2fff")));
}

TEST(ModelRulesTest, GatesThatOnlyTouchAreFine) {
  LoadedDatabase loaded = CheckYaml(R"(device: fw
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: FW_RENDER, space: mmio, offset: 0xA278, masked: true}
  - {name: FW_ACK_RENDER, space: mmio, offset: 0x0D84, access: ro}
  - {name: FW_GT, space: mmio, offset: 0xA188, masked: true}
  - {name: FW_ACK_GT, space: mmio, offset: 0x0D88, access: ro}
behaviours:
  - name: render
    kind: forcewake
    domains: [{name: render, request: FW_RENDER, ack: FW_ACK_RENDER}]
    ranges: [{first: 0x2000, last: 0x2FFF, domains: [render]}]
  - name: gt
    kind: forcewake
    domains: [{name: gt, request: FW_GT, ack: FW_ACK_GT}]
    ranges: [{first: 0x3000, last: 0x3FFF, domains: [gt]}]
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
}

TEST(ModelRulesTest, OneBehaviourRoutesTheDevicesInterrupt) {
  LoadedDatabase loaded = CheckYaml(R"(device: p
spaces:
  - {name: config, kind: pci-config, size: 0x1000}
registers:
  - {name: PCICMD, space: config, offset: 0x04, width: 16}
  - {name: PCISTS, space: config, offset: 0x06, width: 16, access: ro}
behaviours:
  - {name: one, kind: pci-config, command: PCICMD, status: PCISTS}
  - {name: two, kind: pci-config, command: PCICMD, status: PCISTS}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(9, 23, HasSubstr("behaviours 'one' and 'two' both route the device's interrupt"))))
      << Rendered(loaded);
}

// A block's behaviours drive their instance's lines; the same line named
// twice in one block is driven by each instance once, which is fine.
TEST(ModelRulesTest, EachInstanceOfABlockDrivesItsOwnLine) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
blocks:
  - name: timer
    space: mmio
    instances: {TIMER1: 0x00, TIMER2: 0x20}
    registers:
      - {name: CONTROL, offset: 0x8, fields: [{name: INTEN, bits: 5}]}
      - {name: RIS, offset: 0x10, fields: [{name: INT, bits: 0, access: w1c}]}
    behaviours:
      - kind: interrupts
        sources: [{name: timer, status: RIS.INT, enable: CONTROL.INTEN}]
        outputs: [{name: out, sources: [timer], line: TIMINT}]
behaviours:
  - name: combined
    kind: interrupts
    sources: [{name: one, status: TIMER1_RIS.INT}]
    outputs: [{name: out, sources: [one], line: TIMER2_TIMINT}]
)");
  // The device-level behaviour takes TIMER2's line: reported at its own line, naming the instance's.
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(19, 49, HasSubstr("interrupt line 'TIMER2_TIMINT' is driven by another behaviour "
                                                    "too ('TIMER2_"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
