// The Intel ISR/IMR/IIR/IER quadruplets as the shipped databases say them
// in data (`reactions` + `interrupts`): yaml/hsw's GT interrupts, fed by the
// OA unit through GTISR bit 9, and yaml/icl's GU_MISC and PCU under the
// Gen11 master. i915 semantics (i915_irq.c gen3_irq_reset / gen3_irq_init,
// gt/intel_gt_irq.c): live ISR, IIR latching only unmasked events,
// write-1-to-clear IIR, output (IIR & IER) != 0, the gen3_assert_iir_is_zero
// rule, reset and snapshots. (The OA unit's pulse through GTISR bit 9:
// oa_unit_test.cpp.)
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
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

std::shared_ptr<const Model> Shipped(const char* name) {
  return testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/" + name);
}

DeviceOptions Lenient() {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  options.coverage = true;
  return options;
}

// Haswell's GT quadruplet: `inject gt BIT [on|off]`, the output the
// device's interrupt request.
class HswGtIrqTest : public ::testing::Test {
 protected:
  HswGtIrqTest() : device_(Shipped("hsw"), Lenient()) {}

  RegisterId Reg(const char* name) const { return RegisterNamed(device_.model(), name); }
  uint64_t Read(const char* name) { return device_.ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device_.WriteRegister(Reg(name), value); }
  uint64_t Peek(const char* name) const { return device_.PeekRegister(Reg(name)); }
  std::string Inject(std::vector<std::string> args) { return device_.Inject("gt", args); }
  // GEN3_IRQ_INIT(GT, ~bits, bits): IER, then IMR.
  void Init(uint64_t bits) {
    Write("GTIER", bits);
    Write("GTIMR", ~bits & 0xFFFFFFFF);
  }

  Device device_;
};

TEST_F(HswGtIrqTest, UnmaskedEnabledEventRaisesTheOutput) {
  Init(1u << 4);
  ASSERT_EQ(Inject({"4"}), "");
  EXPECT_EQ(Peek("GTIIR"), 1u << 4);
  EXPECT_EQ(Peek("GTISR"), 0u);  // a pulse
  EXPECT_TRUE(device_.interrupt_asserted());
  Write("GTIIR", Read("GTIIR"));  // the ack
  EXPECT_EQ(Peek("GTIIR"), 0u);
  EXPECT_FALSE(device_.interrupt_asserted());
  EXPECT_THAT(device_.violations(), IsEmpty());
}

// i915 semantics: IIR latches only unmasked events.
TEST_F(HswGtIrqTest, MaskedPulseIsNotLatched) {
  Write("GTIER", 1u << 3);
  ASSERT_EQ(Inject({"3"}), "");
  EXPECT_EQ(Peek("GTIIR"), 0u);
  Write("GTIMR", 0xFFFFFFF7);
  EXPECT_EQ(Peek("GTIIR"), 0u);  // the pulse is gone
  EXPECT_FALSE(device_.interrupt_asserted());
}

// A source still live when its mask bit clears is latched then.
TEST_F(HswGtIrqTest, LiveSourceIsLatchedOnUnmask) {
  Write("GTIER", 1u << 3);
  ASSERT_EQ(Inject({"3", "on"}), "");
  EXPECT_EQ(Peek("GTISR"), 1u << 3);
  EXPECT_EQ(Peek("GTIIR"), 0u);
  Write("GTIMR", 0xFFFFFFF7);
  EXPECT_EQ(Peek("GTIIR"), 1u << 3);
  EXPECT_TRUE(device_.interrupt_asserted());
  ASSERT_EQ(Inject({"3", "off"}), "");
  EXPECT_EQ(Peek("GTISR"), 0u);
  EXPECT_EQ(Peek("GTIIR"), 1u << 3);  // latched until cleared
}

// A source made live while unmasked is latched at once; a pulse on a live
// source is a new event.
TEST_F(HswGtIrqTest, LiveSourceUnmaskedIsLatchedAtOnce) {
  Init(1u << 0);
  ASSERT_EQ(Inject({"0", "on"}), "");
  EXPECT_EQ(Peek("GTIIR"), 1u);
  Write("GTIIR", 1);
  EXPECT_EQ(Peek("GTIIR"), 0u);
  ASSERT_EQ(Inject({"0"}), "");
  EXPECT_EQ(Peek("GTIIR"), 1u);
  EXPECT_EQ(Peek("GTISR"), 1u);  // still live
}

// Latched but not enabled: IIR shows it, the output stays low.
TEST_F(HswGtIrqTest, LatchedButDisabledKeepsOutputLow) {
  Write("GTIMR", 0);
  ASSERT_EQ(Inject({"5"}), "");
  EXPECT_EQ(Peek("GTIIR"), 1u << 5);
  EXPECT_FALSE(device_.interrupt_asserted());
}

// i915 gen3_assert_iir_is_zero (i915_irq.c gen3_irq_init): IIR must be 0 at GEN3_IRQ_INIT.
TEST_F(HswGtIrqTest, EnablingWithIirSetIsAViolation) {
  Write("GTIMR", 0);
  ASSERT_EQ(Inject({"1"}), "");
  Write("GTIER", 0x2);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device_.violations()[0].rule, HasSubstr("IIR must be zero when IER enables interrupts"));
  EXPECT_EQ(device_.violations()[0].offset, 0x4401Cu);  // GTIER
  EXPECT_TRUE(device_.interrupt_asserted());
}

// GEN3_IRQ_RESET (i915_irq.c gen3_irq_reset) leaves nothing behind.
TEST_F(HswGtIrqTest, Gen3IrqResetClearsIir) {
  Init(0xFF);
  ASSERT_EQ(Inject({"0"}), "");
  Write("GTIMR", 0xFFFFFFFF);
  Write("GTIER", 0);
  Write("GTIIR", 0xFFFFFFFF);
  Write("GTIIR", 0xFFFFFFFF);
  EXPECT_EQ(Read("GTIIR"), 0u);
  EXPECT_FALSE(device_.interrupt_asserted());
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(HswGtIrqTest, BadInjectArguments) {
  EXPECT_THAT(Inject({}), AllOf(HasSubstr("takes 1 to 2 argument(s)"), HasSubstr("usage: inject gt BIT [on|off]")));
  EXPECT_THAT(Inject({"32"}), HasSubstr("bad bit '32' (0..31)"));
  EXPECT_THAT(Inject({"1", "up"}), HasSubstr("expected 'on' or 'off', got 'up'"));
}

TEST_F(HswGtIrqTest, ResetAndSnapshot) {
  Init(0x1);
  ASSERT_EQ(Inject({"0", "on"}), "");
  DeviceSnapshot snapshot = device_.Snapshot();
  Write("GTIIR", 0x1);
  EXPECT_FALSE(device_.interrupt_asserted());
  device_.Restore(snapshot);
  EXPECT_EQ(Peek("GTIIR"), 0x1u);
  EXPECT_EQ(Peek("GTISR"), 0x1u);
  EXPECT_TRUE(device_.interrupt_asserted());
  device_.Reset();
  EXPECT_EQ(Peek("GTIIR"), 0u);
  EXPECT_EQ(Peek("GTISR"), 0u);
  EXPECT_FALSE(device_.interrupt_asserted());
}

// Ice Lake's GU_MISC and PCU quadruplets feed master bits 29 and 30 of the
// Gen11 master (gen11-interrupts `children:`).
class IclMiscIrqTest : public ::testing::Test {
 protected:
  IclMiscIrqTest() : device_(Shipped("icl"), Lenient()) {
    device_.Write(SpaceNamed(device_.model(), "config"), 0x04, 16, 0x0006);  // memory decode on
  }
  RegisterId Reg(const char* name) const { return RegisterNamed(device_.model(), name); }
  void Write(const char* name, uint64_t value) { device_.WriteRegister(Reg(name), value); }
  uint64_t Peek(const char* name) const { return device_.PeekRegister(Reg(name)); }

  Device device_;
};

TEST_F(IclMiscIrqTest, GuMiscAndPcuRaiseTheirMasterBits) {
  Write("GEN11_GU_MISC_IER", 1u << 27);
  Write("GEN11_GU_MISC_IMR", ~(1u << 27) & 0xFFFFFFFF);
  Write("GEN8_PCU_IER", 1u << 2);
  Write("GEN8_PCU_IMR", ~(1u << 2) & 0xFFFFFFFF);
  Write("GEN11_GFX_MSTR_IRQ", 0x80000000);
  ASSERT_EQ(device_.Inject("gu_misc", std::vector<std::string>{"27"}), "");
  EXPECT_EQ(Peek("GEN11_GU_MISC_IIR"), 1u << 27);
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ") & (1u << 29), 1u << 29);
  EXPECT_TRUE(device_.interrupt_asserted());
  ASSERT_EQ(device_.Inject("pcu", std::vector<std::string>{"2", "on"}), "");
  EXPECT_EQ(Peek("GEN8_PCU_IIR"), 1u << 2);
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ") & (1u << 30), 1u << 30);
  Write("GEN11_GU_MISC_IIR", 1u << 27);
  Write("GEN8_PCU_IIR", 1u << 2);
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ") & (3u << 29), 0u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

}  // namespace
}  // namespace regemu::emulator
