// Each deliberate driver bug and exactly what regemu reports for it: the
// violation kind, the register and the rule, then the test takes them
// (the fixture would fail on any left over).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/i915_mini/engines.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "examples/i915_mini/gen11_irq.hpp"
#include "examples/i915_mini/gt_freq.hpp"
#include "examples/i915_mini/tests/i915_mini_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::i915_mini {
namespace {

using fakes::FieldIs;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

class BugsTest : public I915MiniTest {
 protected:
  void SetUp() override {
    I915MiniTest::SetUp();
    FirmwareEnablesDecode();
  }
};

// The device refuses every access to a sleeping domain: the fuse read (GT)
// and both ring accesses (render); reads return 0, the write is dropped.
TEST_F(BugsTest, SkippingForcewakeIsRefusedAtEveryRenderAndGtAccess) {
  Forcewake forcewake(mmio(), VirtualDelay());
  EngineInfo info = InitEngines(mmio(), forcewake, 0x00100000, Bugs{Bug::kSkipForcewake});
  EXPECT_FALSE(info.rcs_ring_ok);
  EXPECT_EQ(info.vdbox_mask, 0xFFu);  // the refused read said "nothing fused off"
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("forcewake", "GEN11_GT_VEBOX_VDBOX_DISABLE",
                                      "forcewake domain 'gt' is asleep at 0x9140"),
                          ViolationIs("forcewake", "RCS0_RING_START",
                                      "forcewake domain 'render' is asleep at 0x2038 (range 0x2000..0x26ff): write "
                                      "0x00010001 to FORCEWAKE_RENDER_GEN9 and wait for bit 0 of "
                                      "FORCEWAKE_ACK_RENDER_GEN9 first"),
                          ViolationIs("forcewake", "RCS0_RING_START", "forcewake domain 'render' is asleep")));
  EXPECT_THAT(device(), FieldIs("RCS0_RING_START", 0));
}

// The DW clear comes first: the device reports the unserviced engine, and
// then the selector naming a bit the DW no longer has; the identity never
// becomes valid and the handler times out after its ~100 us.
TEST_F(BugsTest, ClearingDwBeforeServiceIsAProtocolViolation) {
  Gen11Irq<fakes::MmioBus> irq(mmio(), VirtualDelay(), Bugs{Bug::kClearDwBeforeService});
  irq.Postinstall();
  RaiseEngineInterrupt("RCS0", "0x1");
  uint64_t before = device().now_ns();
  IrqReport report = irq.Handle();
  EXPECT_THAT(report.serviced(), IsEmpty());
  EXPECT_EQ(report.identity_timeouts, 1u);
  EXPECT_EQ(device().now_ns() - before, kIdentityTimeoutNs);
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("protocol", "GEN11_GT_INTR_DW0",
                                      "GEN11_GT_INTR_DW0 bit 0 (RCS0) cleared without first servicing the engine via "
                                      "GEN11_IIR_REG0_SELECTOR and GEN11_INTR_IDENTITY_REG0"),
                          ViolationIs("protocol", "GEN11_IIR_REG0_SELECTOR",
                                      "GEN11_IIR_REG0_SELECTOR selects bit 0 (RCS0), not set in GEN11_GT_INTR_DW0")));
}

TEST_F(BugsTest, SelectingTwoEnginesAtOnceIsAProtocolViolation) {
  Gen11Irq<fakes::MmioBus> irq(mmio(), VirtualDelay(), Bugs{Bug::kSelectAllPending});
  irq.Postinstall();
  RaiseEngineInterrupt("VCS0", "0x1");
  RaiseEngineInterrupt("VECS0", "0x1");
  IrqReport report = irq.Handle();
  EXPECT_THAT(report.serviced(), IsEmpty());
  EXPECT_EQ(report.identity_timeouts, 1u);
  // i915 clears the DW after the (failed) service, so the unserviced
  // engines are reported too.
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("protocol", "GEN11_IIR_REG1_SELECTOR",
                                      "GEN11_IIR_REG1_SELECTOR written with 0x80000001, which is not one-hot"),
                          ViolationIs("protocol", "GEN11_GT_INTR_DW1",
                                      "GEN11_GT_INTR_DW1 bit 0 (VCS0), bit 31 (VECS0) cleared without first servicing")));
}

// The same bug is invisible while one engine at a time interrupts: a
// test must make two fire together to catch it.
TEST_F(BugsTest, SelectingAllPendingPassesWithASingleEngine) {
  Gen11Irq<fakes::MmioBus> irq(mmio(), VirtualDelay(), Bugs{Bug::kSelectAllPending});
  irq.Postinstall();
  RaiseEngineInterrupt("VCS0", "0x1");
  EXPECT_EQ(irq.Handle().serviced().size(), 1u);
  EXPECT_THAT(TakeViolations(), IsEmpty());
}

// The write is ignored and reported, naming the MCHBAR register it meant
// to reach through the window.
TEST_F(BugsTest, WritingThroughTheMchbarMirrorIsAnAliasWrite) {
  GtFrequencies freq = ReadGtFrequencies(mmio(), Bugs{Bug::kWriteMchbarMirror});
  EXPECT_EQ(freq.rp0_mhz, 1100u);
  EXPECT_THAT(TakeViolations(),
              ElementsAre(ViolationIs("alias-write", "RP_STATE_CAP",
                                      "window 'MCHBAR_MIRROR' is a read-only view of space 'mchbar' (RP_STATE_CAP at "
                                      "0x5998): writes have no effect")));
  EXPECT_THAT(device(), FieldIs("RP_STATE_CAP.RP0_CAP", 0x16));
}

}  // namespace
}  // namespace regemu::i915_mini
