// State spaces (registers no bus reaches), views (several registers over
// one storage: NVMe's INTMS/INTMC, "write 1 to set / clear a bit of the
// interrupt mask; a read returns the current mask", NVMe Base 2.0
// §3.1.3.3-4) and the `interrupts` roll-up with named lines.
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

constexpr const char* kDevice = R"y(device: views
spaces:
  - {name: bar0, kind: mmio, size: 0x100}
  - {name: state, kind: state, size: 0x10}
registers:
  - name: IVM
    space: state
    offset: 0x0
    doc: the interrupt mask both views show
    fields: [{name: V0, bits: 0}, {name: OTHERS, bits: "31:1"}]
  - name: INTMS
    space: bar0
    offset: 0x0c
    view_of: IVM
    fields: [{name: IVMS, bits: "31:0", access: w1s}]
  - name: INTMC
    space: bar0
    offset: 0x10
    view_of: IVM
    fields: [{name: IVMC, bits: "31:0", access: w1c}]
  - name: IS
    space: bar0
    offset: 0x20
    fields:
      - {name: V0, bits: 0, access: w1c}
      - {name: T1, bits: 1, access: w1c}
  - name: EN
    space: bar0
    offset: 0x24
    fields:
      - {name: T1_EN, bits: 1}
)y";

std::unique_ptr<Device> ViewsDevice(const std::string& behaviours = "") {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  return MakeDevice(std::string(kDevice) + (behaviours.empty() ? "" : "behaviours:\n" + behaviours), options);
}

uint64_t Peek(const Device& device, const char* name) {
  return device.PeekRegister(RegisterNamed(device.model(), name));
}

// INTMS sets bits of the mask, INTMC clears them, both read the mask.
TEST(ViewsTest, SetAndClearViewsShareOneMask) {
  auto device = ViewsDevice();
  RegisterId intms = RegisterNamed(device->model(), "INTMS");
  RegisterId intmc = RegisterNamed(device->model(), "INTMC");
  device->WriteRegister(intms, 0x5);
  EXPECT_EQ(device->ReadRegister(intmc), 0x5u);
  EXPECT_EQ(Peek(*device, "IVM"), 0x5u);
  device->WriteRegister(intmc, 0x1);
  EXPECT_EQ(device->ReadRegister(intms), 0x4u);
  EXPECT_EQ(device->ReadRegister(intmc), 0x4u);
  device->WriteRegister(intms, 0x0);  // writing 0 changes nothing
  EXPECT_EQ(Peek(*device, "IVM"), 0x4u);
}

// The backdoor reaches the storage, and every view shows what it set.
TEST(ViewsTest, PokeOfTheStorageShowsThroughTheViews) {
  auto device = ViewsDevice();
  device->PokeRegister(RegisterNamed(device->model(), "IVM"), 0xF0);
  EXPECT_EQ(device->ReadRegister(RegisterNamed(device->model(), "INTMS")), 0xF0u);
  device->Poke(SpaceNamed(device->model(), "bar0"), 0x10, 32, 0x0F);  // through a view
  EXPECT_EQ(Peek(*device, "IVM"), 0x0Fu);
}

// A state space answers no bus access: an `unclaimed` violation naming it.
TEST(StateSpaceTest, NoBusAccessReachesIt) {
  auto device = ViewsDevice();
  SpaceId state = SpaceNamed(device->model(), "state");
  device->Write(state, 0, 32, 1);
  EXPECT_EQ(device->Read(state, 0, 32), 0xFFFFFFFFu);
  ASSERT_THAT(Kinds(*device), ElementsAre(ViolationKind::kUnclaimed, ViolationKind::kUnclaimed));
  EXPECT_THAT(device->violations()[0].rule, HasSubstr("internal state"));
  EXPECT_EQ(Peek(*device, "IVM"), 0u);
  device->Reset();  // still refused after a reset
  device->Read(state, 0, 32);
  EXPECT_EQ(device->violation_count(), 3u);
}

constexpr const char* kRollUp = R"y(behaviours:
  - name: irq
    kind: interrupts
    sources:
      - {name: admin, status: IS.V0, mask: IVM.V0}
      - {name: timer1, status: IS.T1, enable: EN.T1_EN}
    outputs:
      - {name: pin, sources: [admin]}
      - {name: irq8, sources: [timer1], line: IRQ8}
  - name: raise
    kind: reactions
    reactions:
      - {name: complete, on: {event: complete}, do: [{set: {IS.V0: 1}}]}
      - {name: tick, on: {event: tick}, do: [{set: {IS.T1: 1}}]}
)y";

class InterruptsTest : public ::testing::Test {
 protected:
  std::unique_ptr<Device> device_ = MakeDevice(std::string(kDevice) + kRollUp);
  RegisterId is_ = RegisterNamed(device_->model(), "IS");
  RegisterId en_ = RegisterNamed(device_->model(), "EN");
  RegisterId intms_ = RegisterNamed(device_->model(), "INTMS");
  RegisterId intmc_ = RegisterNamed(device_->model(), "INTMC");
};

// A status bit another behaviour raised (a reaction's set) reaches the
// device's interrupt request; the driver's w1c ack drops it.
TEST_F(InterruptsTest, UnmaskedSourceDrivesTheRequest) {
  EXPECT_FALSE(device_->interrupt_asserted());
  EXPECT_EQ(device_->Inject("complete", {}), "");
  EXPECT_TRUE(device_->interrupt_asserted());
  EXPECT_EQ(device_->interrupt_edges(), 1u);
  device_->WriteRegister(is_, 1);
  EXPECT_FALSE(device_->interrupt_asserted());
}

// The mask (set through INTMS, a view of the storage the source names)
// holds the request down; clearing it through INTMC lets it through.
TEST_F(InterruptsTest, MaskThroughViews) {
  device_->WriteRegister(intms_, 1);
  device_->Inject("complete", {});
  EXPECT_FALSE(device_->interrupt_asserted());
  device_->WriteRegister(intmc_, 1);
  EXPECT_TRUE(device_->interrupt_asserted());
}

// A named line follows its enabled source; the request does not.
TEST_F(InterruptsTest, NamedLineFollowsItsSources) {
  EXPECT_EQ(device_->model().interrupt_lines(), std::vector<std::string>{"IRQ8"});
  device_->Inject("tick", {});
  EXPECT_FALSE(device_->line_asserted("IRQ8"));  // not enabled
  device_->WriteRegister(en_, 2);
  EXPECT_TRUE(device_->line_asserted("IRQ8"));
  EXPECT_EQ(device_->line_edges("IRQ8"), 1u);
  EXPECT_FALSE(device_->interrupt_asserted());
  EXPECT_THROW(device_->line_asserted("IRQ9"), std::out_of_range);
}

// Scripts ask for a line by name, and a misspelt one is a parse error.
TEST_F(InterruptsTest, ScriptsExpectNamedLines) {
  Script script = ParseScript("write32 EN 2\ninject tick\nexpect-irq IRQ8 1\nexpect-irq 0\n", "lines.script",
                              device_->model());
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_TRUE(RunScript(script, *device_).passed());
  Script bad = ParseScript("expect-irq IRQ0 1\n", "bad.script", device_->model());
  EXPECT_FALSE(bad.ok());
  EXPECT_THAT(bad.FormatErrors(), HasSubstr("no interrupt line 'IRQ0'"));
}

// Reset drops the lines with the status bits.
TEST_F(InterruptsTest, ResetDropsTheLines) {
  device_->WriteRegister(en_, 2);
  device_->Inject("tick", {});
  device_->Reset();
  EXPECT_FALSE(device_->line_asserted("IRQ8"));
}

// An enable as wide as its status acts bit by bit (SystemRDL's per-bit
// `intr` enable; an Intel IIR & IER): a status bit whose own enable is
// clear does not interrupt, however many other enable bits are set.
TEST(InterruptsRollUpTest, AnEnableAsWideAsTheStatusActsBitByBit) {
  auto device = MakeDevice(R"y(device: bitwise
spaces:
  - {name: bar0, kind: mmio, size: 0x10}
registers:
  - {name: STS, space: bar0, offset: 0x0, fields: [{name: ALL, bits: "7:0", access: w1c}]}
  - {name: ENB, space: bar0, offset: 0x4, fields: [{name: ALL, bits: "7:0"}]}
  - {name: GATE, space: bar0, offset: 0x8, fields: [{name: ON, bits: 0}]}
behaviours:
  - name: irq
    kind: interrupts
    sources:
      - {name: bits, status: STS.ALL, enable: ENB.ALL}
      - {name: gated, status: STS.ALL, enable: GATE.ON}
    outputs:
      - {name: pin, sources: [bits]}
      - {name: gated, sources: [gated], line: GATED}
)y");
  RegisterId enb = RegisterNamed(device->model(), "ENB");
  RegisterId sts = RegisterNamed(device->model(), "STS");
  RegisterId gate = RegisterNamed(device->model(), "GATE");
  device->WriteRegister(enb, 0xF0);
  device->PokeRegister(sts, 0x01);
  device->WriteRegister(gate, 1);  // a write the roll-up hears
  EXPECT_FALSE(device->interrupt_asserted());
  EXPECT_TRUE(device->line_asserted("GATED"));  // a one-bit enable gates the whole status
  device->WriteRegister(enb, 0xF1);
  EXPECT_TRUE(device->interrupt_asserted());
  device->WriteRegister(sts, 0x01);  // w1c
  EXPECT_FALSE(device->interrupt_asserted());
  EXPECT_FALSE(device->line_asserted("GATED"));
}


// An interrupt tree as data: a child roll-up's output is the level of a
// one-bit status field (`interrupt_parent: REG.FIELD`), which the parent
// roll-up reads as any other status bit and a reaction can watch.
TEST(InterruptsRollUpTest, AnOutputStoredInAFieldIsTheParentsStatus) {
  auto device = MakeDevice(R"y(device: tree
spaces:
  - {name: bar0, kind: mmio, size: 0x20}
registers:
  - {name: CHILD_STS, space: bar0, offset: 0x0, fields: [{name: A, bits: 0, access: w1c}]}
  - {name: CHILD_ENB, space: bar0, offset: 0x4, fields: [{name: A, bits: 0}]}
  - {name: TOP_STS, space: bar0, offset: 0x8, fields: [{name: CHILD, bits: 3, access: hw}]}
  - {name: TOP_ENB, space: bar0, offset: 0xC, fields: [{name: CHILD, bits: 3}]}
  - {name: RAISES, space: bar0, offset: 0x10, access: hw}
behaviours:
  - name: child
    kind: interrupts
    sources: [{name: a, status: CHILD_STS.A, enable: CHILD_ENB.A}]
    interrupt_parent: TOP_STS.CHILD
  - name: top
    kind: interrupts
    sources: [{name: child, status: TOP_STS.CHILD, enable: TOP_ENB.CHILD}]
  - name: count
    kind: reactions
    reactions:
      - {name: counted, on: {rise: TOP_STS.CHILD}, do: [{set: {RAISES: "RAISES + 1"}}]}
)y");
  const Model& model = device->model();
  RegisterId top_sts = RegisterNamed(model, "TOP_STS");
  device->WriteRegister(RegisterNamed(model, "CHILD_ENB"), 1);
  device->WriteRegister(RegisterNamed(model, "TOP_ENB"), 1u << 3);
  EXPECT_FALSE(device->interrupt_asserted());
  device->PokeRegister(RegisterNamed(model, "CHILD_STS"), 1);
  device->WriteRegister(RegisterNamed(model, "CHILD_ENB"), 1);  // a write the child roll-up hears
  EXPECT_EQ(device->PeekRegister(top_sts), 1u << 3);
  EXPECT_TRUE(device->interrupt_asserted());  // only through the top: the child's output is a field
  EXPECT_EQ(device->PeekRegister(RegisterNamed(model, "RAISES")), 1u);
  device->WriteRegister(RegisterNamed(model, "TOP_ENB"), 0);
  EXPECT_FALSE(device->interrupt_asserted());
  EXPECT_EQ(device->PeekRegister(top_sts), 1u << 3);  // the level stays while the child's source does
  device->WriteRegister(RegisterNamed(model, "CHILD_STS"), 1);  // w1c
  EXPECT_EQ(device->PeekRegister(top_sts), 0u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

// A source with `when:` is pending only while its condition holds, and a
// routed output drives the line its `route:` picks from `lines:` (HPET:
// GEN_CONF.ENABLE_CNF gates every timer interrupt; Tn_INT_ROUTE_CNF picks
// the I/O APIC input, IA-PC HPET 1.0a §2.3.5, §2.3.8). Two outputs on one
// line are wired-OR; a route past the list drives nothing.
constexpr const char* kRouted = R"y(device: routed
spaces:
  - {name: bar0, kind: mmio, size: 0x10}
registers:
  - {name: STS, space: bar0, offset: 0x0, fields: [{name: T0, bits: 0, access: w1c}, {name: T1, bits: 1, access: w1c}]}
  - {name: CONF, space: bar0, offset: 0x4, fields: [{name: ENABLE, bits: 0}, {name: ROUTE0, bits: "3:1"}, {name: ROUTE1, bits: "6:4"}]}
behaviours:
  - name: irq
    kind: interrupts
    sources:
      - {name: t0, status: STS.T0, when: "CONF.ENABLE == 1"}
      - {name: t1, status: STS.T1, when: "CONF.ENABLE == 1"}
    outputs:
      - {name: timer0, sources: [t0], lines: [IRQ0, IRQ1, IRQ2], route: CONF.ROUTE0}
      - {name: timer1, sources: [t1], lines: [IRQ2, IRQ3], route: "CONF.ROUTE1 - 2"}
)y";

class RoutedInterruptsTest : public ::testing::Test {
 protected:
  std::unique_ptr<Device> device_ = MakeDevice(kRouted);
  RegisterId sts_ = RegisterNamed(device_->model(), "STS");
  RegisterId conf_ = RegisterNamed(device_->model(), "CONF");

  std::string Levels() const {
    std::string levels;
    for (const char* line : {"IRQ0", "IRQ1", "IRQ2", "IRQ3"}) levels += device_->line_asserted(line) ? '1' : '0';
    return levels;
  }
};

TEST_F(RoutedInterruptsTest, TheLinesAreTheOutputsListsEachOnce) {
  EXPECT_THAT(device_->model().interrupt_lines(), ElementsAre("IRQ0", "IRQ1", "IRQ2", "IRQ3"));
}

TEST_F(RoutedInterruptsTest, ASourceCountsOnlyWhileItsConditionHolds) {
  device_->PokeRegister(sts_, 1);
  device_->WriteRegister(conf_, 0b0000);  // ENABLE = 0, route 0: the write re-evaluates
  EXPECT_EQ(Levels(), "0000");
  device_->WriteRegister(conf_, 0b0001);  // ENABLE = 1
  EXPECT_EQ(Levels(), "1000");
  EXPECT_EQ(device_->line_edges("IRQ0"), 1u);
  device_->WriteRegister(conf_, 0b0000);
  EXPECT_EQ(Levels(), "0000");
}

TEST_F(RoutedInterruptsTest, TheRouteMovesTheLine) {
  device_->WriteRegister(conf_, 0b0011);  // ENABLE, ROUTE0 = 1
  device_->WriteRegister(sts_, 0);        // nothing pending yet
  device_->PokeRegister(sts_, 1);
  device_->WriteRegister(conf_, 0b0011);  // the roll-up hears a write of CONF
  EXPECT_EQ(Levels(), "0100");
  device_->WriteRegister(conf_, 0b0101);  // ROUTE0 = 2: IRQ1 falls, IRQ2 rises
  EXPECT_EQ(Levels(), "0010");
  EXPECT_EQ(device_->line_edges("IRQ1"), 1u);
  EXPECT_EQ(device_->line_edges("IRQ2"), 1u);
  device_->WriteRegister(conf_, 0b0111);  // ROUTE0 = 3: past the list, no line
  EXPECT_EQ(Levels(), "0000");
  device_->WriteRegister(sts_, 1);  // acked
  device_->WriteRegister(conf_, 0b0001);
  EXPECT_EQ(Levels(), "0000");
}

TEST_F(RoutedInterruptsTest, OutputsOnOneLineAreWiredOr) {
  // timer0 on IRQ2 (route 2), timer1 on IRQ2 (ROUTE1 - 2 = 0).
  device_->WriteRegister(conf_, 0b0100'101);
  device_->PokeRegister(sts_, 0b11);
  device_->WriteRegister(conf_, 0b0100'101);
  EXPECT_EQ(Levels(), "0010");
  device_->WriteRegister(sts_, 0b01);  // timer0 acked: timer1 still holds IRQ2
  EXPECT_EQ(Levels(), "0010");
  device_->WriteRegister(sts_, 0b10);
  EXPECT_EQ(Levels(), "0000");
  EXPECT_EQ(device_->line_edges("IRQ2"), 1u);
}

}  // namespace
}  // namespace regemu::emulator
