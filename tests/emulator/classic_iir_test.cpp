// The `classic-iir` behaviour (yaml/README.md "behaviours"; i915 ISR/IMR/
// IIR/IER semantics, i915 gt/intel_gt_irq.c): live ISR, IIR latching only
// unmasked events, write-1-to-clear IIR, output (IIR & IER) != 0, the
// gen3_assert_iir_is_zero rule, reset and snapshots.
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
using ::testing::Pair;
using ::testing::UnorderedElementsAre;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kDatabase = R"(device: iir
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: ISR, space: mmio, offset: 0x0, access: hw}
  - {name: IMR, space: mmio, offset: 0x4, reset: 0xFFFFFFFF}
  - {name: IIR, space: mmio, offset: 0x8, access: w1c, volatile: true}
  - {name: IER, space: mmio, offset: 0xC}
behaviours:
  - {name: misc, kind: classic-iir, isr: ISR, imr: IMR, iir: IIR, ier: IER}
)";

struct Iir {
  Iir() {
    DeviceOptions options;
    options.policy = ViolationPolicy::Lenient();
    options.coverage = true;
    device = MakeDevice(kDatabase, std::move(options));
  }
  RegisterId Reg(const char* name) const { return RegisterNamed(device->model(), name); }
  uint64_t Read(const char* name) { return device->ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device->WriteRegister(Reg(name), value); }
  uint64_t Peek(const char* name) const { return device->PeekRegister(Reg(name)); }
  std::string Inject(std::vector<std::string> args) { return device->Inject("misc", args); }
  // GEN3_IRQ_INIT(ier = imr complement = bits).
  void Init(uint64_t bits) {
    Write("IER", bits);
    Write("IMR", ~bits & 0xFFFFFFFF);
  }

  std::unique_ptr<Device> device;
};

TEST(ClassicIirTest, UnmaskedEnabledEventRaisesTheOutput) {
  Iir iir;
  iir.Init(1u << 27);
  ASSERT_EQ(iir.Inject({"27"}), "");
  EXPECT_EQ(iir.Peek("IIR"), 1u << 27);
  EXPECT_EQ(iir.Peek("ISR"), 0u);  // a pulse
  EXPECT_TRUE(iir.device->interrupt_asserted());
  iir.Write("IIR", iir.Read("IIR"));  // the ack
  EXPECT_EQ(iir.Peek("IIR"), 0u);
  EXPECT_FALSE(iir.device->interrupt_asserted());
  EXPECT_THAT(iir.device->violations(), IsEmpty());
}

// i915 semantics: IIR latches only unmasked events.
TEST(ClassicIirTest, MaskedPulseIsNotLatched) {
  Iir iir;
  iir.Write("IER", 1u << 3);
  ASSERT_EQ(iir.Inject({"3"}), "");
  EXPECT_EQ(iir.Peek("IIR"), 0u);
  iir.Write("IMR", 0xFFFFFFF7);
  EXPECT_EQ(iir.Peek("IIR"), 0u);  // the pulse is gone
  EXPECT_FALSE(iir.device->interrupt_asserted());
}

// A source still live when its mask bit clears is latched then.
TEST(ClassicIirTest, LiveSourceIsLatchedOnUnmask) {
  Iir iir;
  iir.Write("IER", 1u << 3);
  ASSERT_EQ(iir.Inject({"3", "on"}), "");
  EXPECT_EQ(iir.Peek("ISR"), 1u << 3);
  EXPECT_EQ(iir.Peek("IIR"), 0u);
  iir.Write("IMR", 0xFFFFFFF7);
  EXPECT_EQ(iir.Peek("IIR"), 1u << 3);
  EXPECT_TRUE(iir.device->interrupt_asserted());
  ASSERT_EQ(iir.Inject({"3", "off"}), "");
  EXPECT_EQ(iir.Peek("ISR"), 0u);
  EXPECT_EQ(iir.Peek("IIR"), 1u << 3);  // latched until cleared
}

// Latched but not enabled: IIR shows it, the output stays low.
TEST(ClassicIirTest, LatchedButDisabledKeepsOutputLow) {
  Iir iir;
  iir.Write("IMR", 0);
  ASSERT_EQ(iir.Inject({"5"}), "");
  EXPECT_EQ(iir.Peek("IIR"), 1u << 5);
  EXPECT_FALSE(iir.device->interrupt_asserted());
}

// i915 gen3_assert_iir_is_zero (i915_irq.c gen3_irq_init): IIR must be 0 at GEN3_IRQ_INIT.
TEST(ClassicIirTest, EnablingWithIirSetIsAViolation) {
  Iir iir;
  iir.Write("IMR", 0);
  ASSERT_EQ(iir.Inject({"1"}), "");
  iir.Write("IER", 0x2);
  EXPECT_THAT(Kinds(*iir.device), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(iir.device->violations()[0].rule, HasSubstr("IIR must be zero when IER enables interrupts"));
  EXPECT_TRUE(iir.device->interrupt_asserted());
}

// GEN3_IRQ_RESET (i915_irq.c gen3_irq_reset) leaves nothing behind.
TEST(ClassicIirTest, Gen3IrqResetClearsIir) {
  Iir iir;
  iir.Init(0xFF);
  ASSERT_EQ(iir.Inject({"0"}), "");
  iir.Write("IMR", 0xFFFFFFFF);
  iir.Write("IER", 0);
  iir.Write("IIR", 0xFFFFFFFF);
  iir.Write("IIR", 0xFFFFFFFF);
  EXPECT_EQ(iir.Read("IIR"), 0u);
  EXPECT_FALSE(iir.device->interrupt_asserted());
  EXPECT_THAT(iir.device->violations(), IsEmpty());
}

TEST(ClassicIirTest, BadInjectArguments) {
  Iir iir;
  EXPECT_THAT(iir.Inject({}), HasSubstr("usage: inject misc BIT [on|off]"));
  EXPECT_THAT(iir.Inject({"32"}), HasSubstr("bad bit '32'"));
  EXPECT_THAT(iir.Inject({"1", "up"}), HasSubstr("expected 'on' or 'off'"));
}

TEST(ClassicIirTest, ResetAndSnapshot) {
  Iir iir;
  iir.Init(0x1);
  ASSERT_EQ(iir.Inject({"0", "on"}), "");
  DeviceSnapshot snapshot = iir.device->Snapshot();
  iir.Write("IIR", 0x1);
  EXPECT_FALSE(iir.device->interrupt_asserted());
  iir.device->Restore(snapshot);
  EXPECT_EQ(iir.Peek("IIR"), 0x1u);
  EXPECT_EQ(iir.Peek("ISR"), 0x1u);
  iir.device->Reset();
  EXPECT_EQ(iir.Peek("IIR"), 0u);
  EXPECT_EQ(iir.Peek("ISR"), 0u);
  EXPECT_FALSE(iir.device->interrupt_asserted());
}

// Coverage: each path through the IIR counts where it ran.
TEST(ClassicIirTest, CoversLatchedMaskedLatchedOnUnmaskAndAsserted) {
  Iir iir;
  iir.Init(1u << 3);
  ASSERT_EQ(iir.Inject({"5"}), "");        // masked: not latched
  ASSERT_EQ(iir.Inject({"3"}), "");        // latched, the output rises
  iir.Write("IIR", 1u << 3);
  ASSERT_EQ(iir.Inject({"4", "on"}), "");  // masked, but live
  iir.Write("IMR", ~(1u << 3 | 1u << 4) & 0xFFFFFFFF);  // latched now; IER leaves the output low
  EXPECT_THAT(testing_support::PointHits(*iir.device, "misc"),
              UnorderedElementsAre(Pair("events/latched", 1), Pair("events/masked (not latched)", 2),
                                   Pair("events/latched on unmask", 1), Pair("output/asserted", 1)));
}

// With an interrupt parent the output goes to the parent, not the device.
TEST(ClassicIirTest, ParentTakesTheOutput) {
  std::string yaml = std::string(kDatabase) +
                     "  - {name: misc2, kind: classic-iir, isr: ISR2, imr: IMR2, iir: IIR2, ier: IER2, "
                     "interrupt_parent: misc}\n";
  yaml.replace(yaml.find("behaviours:"), 11,
               "  - {name: ISR2, space: mmio, offset: 0x10, access: hw}\n"
               "  - {name: IMR2, space: mmio, offset: 0x14}\n"
               "  - {name: IIR2, space: mmio, offset: 0x18, access: w1c}\n"
               "  - {name: IER2, space: mmio, offset: 0x1C}\nbehaviours:");
  std::unique_ptr<Device> device = MakeDevice(yaml);
  device->WriteRegister(RegisterNamed(device->model(), "IER2"), 1);
  ASSERT_EQ(device->Inject("misc2", std::vector<std::string>{"0"}), "");
  EXPECT_EQ(device->PeekRegister(RegisterNamed(device->model(), "IIR2")), 1u);
  EXPECT_FALSE(device->interrupt_asserted());  // classic-iir ignores children
}

}  // namespace
}  // namespace regemu::emulator
