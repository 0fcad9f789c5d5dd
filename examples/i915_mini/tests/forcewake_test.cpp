// Force-wake get/put and the engine bring-up that needs it, against the
// shipped Ice Lake domains (acks 500 ns after each request,
// yaml/icl/forcewake_domains.yaml; tests/scripts/icl_forcewake_get_put.script).
// The protocol rules hold the driver to more than the device does: every
// render and GT access must come after the driver saw the ack.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "examples/i915_mini/engines.hpp"
#include "examples/i915_mini/forcewake.hpp"
#include "examples/i915_mini/tests/i915_mini_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/fakes/mock_mmio_bus.hpp"
#include "regemu/fakes/protocol_rules.hpp"
#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini {
namespace {

namespace icl = ::regemu::regs::icl;
using fakes::AccessesInOrder;
using fakes::FieldIs;
using fakes::MaskedBitDisable;
using fakes::MaskedBitEnable;
using fakes::NoAccessWithoutForcewake;
using fakes::ReadOf;
using fakes::WriteOf;

class ForcewakeTest : public I915MiniTest {
 protected:
  void SetUp() override {
    I915MiniTest::SetUp();
    FirmwareEnablesDecode();
    EnableRule(NoAccessWithoutForcewake("render"));
    EnableRule(NoAccessWithoutForcewake("gt"));
  }
};

TEST_F(ForcewakeTest, GetPollsTheAckInVirtualTime) {
  Forcewake forcewake(mmio(), VirtualDelay());
  ASSERT_TRUE(forcewake.Get(kFwRender));
  EXPECT_EQ(forcewake.held(), kFwRender);
  // One poll too early, one delay of kFwAckPollNs, then the ack.
  EXPECT_EQ(device().now_ns(), kFwAckPollNs);
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("FORCEWAKE_ACK_RENDER_GEN9", 0),
                                         WriteOf("FORCEWAKE_RENDER_GEN9", MaskedBitEnable(1)),
                                         ReadOf("FORCEWAKE_ACK_RENDER_GEN9", 0), ReadOf("FORCEWAKE_ACK_RENDER_GEN9", 1)}));
  icl::ENGINE_RING::RING_START::FromValue(icl::ENGINE_RING::RCS0_BASE, 0x1000).WriteTo(mmio());
  forcewake.Put(kFwRender);
  EXPECT_THAT(device(), fakes::Wrote("FORCEWAKE_RENDER_GEN9", MaskedBitDisable(1)));
  EXPECT_EQ(forcewake.held(), 0u);
}

// fw_domains_get_with_fallback: every request goes out before the first
// ack wait, so the domains wake in parallel.
TEST_F(ForcewakeTest, RequestsEveryDomainBeforeWaitingForAnyAck) {
  Forcewake forcewake(mmio(), VirtualDelay());
  ASSERT_TRUE(forcewake.Get(kFwRender | kFwGt));
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("FORCEWAKE_RENDER_GEN9", 0x00010001),
                                         WriteOf("FORCEWAKE_GT_GEN9", 0x00010001),
                                         ReadOf("FORCEWAKE_ACK_RENDER_GEN9", 1), ReadOf("FORCEWAKE_ACK_GT_GEN9", 1)}));
  forcewake.Put(kFwRender | kFwGt);
}

// A clock that never moves (a delay wired to nothing) cannot hang the
// driver: the poll gives up after its budget of tries.
TEST_F(ForcewakeTest, AnAckThatNeverComesTimesOutAfterABoundedNumberOfPolls) {
  uint64_t delays = 0;
  Forcewake forcewake(mmio(), [&](uint64_t) { ++delays; });
  EXPECT_FALSE(forcewake.Get(kFwRender));
  EXPECT_EQ(delays, kFwAckTimeoutNs / kFwAckPollNs);
  EXPECT_EQ(device().now_ns(), 0u);
  forcewake.Put(kFwRender);
}

TEST_F(ForcewakeTest, ResetClearsEveryIclDomainRequest) {
  ::testing::NiceMock<fakes::MockMmioBus> mmio_mock;
  mmio_mock.DelegateToFake(device(), "mmio");
  Forcewake mocked(mmio_mock, VirtualDelay());
  for (uint64_t request : {icl::FORCEWAKE_RENDER_GEN9::kOffset, icl::FORCEWAKE_GT_GEN9::kOffset,
                           icl::FORCEWAKE_MEDIA_VDBOX_GEN11::OffsetOf(0), icl::FORCEWAKE_MEDIA_VDBOX_GEN11::OffsetOf(2),
                           icl::FORCEWAKE_MEDIA_VEBOX_GEN11::OffsetOf(0)}) {
    EXPECT_CALL(mmio_mock, Write(request, 32, MaskedBitDisable(0xFFFF)));
  }
  mocked.ResetDomains();
}

TEST_F(ForcewakeTest, EnginesAreReadAndProgrammedWithRenderAndGtHeld) {
  Forcewake forcewake(mmio(), VirtualDelay());
  EngineInfo info = InitEngines(mmio(), forcewake, 0x00100000);
  EXPECT_TRUE(info.forcewake_acked);
  EXPECT_EQ(info.vdbox_mask, 0x5u);  // VCS0, VCS2
  EXPECT_EQ(info.vebox_mask, 0x1u);  // VECS0
  EXPECT_TRUE(info.rcs_ring_ok);
  EXPECT_THAT(device(), FieldIs("RCS0_RING_START", 0x00100000));
  EXPECT_EQ(forcewake.held(), 0u);
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("FORCEWAKE_ACK_GT_GEN9", 1), ReadOf("GEN11_GT_VEBOX_VDBOX_DISABLE"),
                                         WriteOf("RCS0_RING_START", 0x00100000), ReadOf("RCS0_RING_START", 0x00100000),
                                         WriteOf("FORCEWAKE_RENDER_GEN9", MaskedBitDisable(1)),
                                         WriteOf("FORCEWAKE_GT_GEN9", MaskedBitDisable(1))}));
}

}  // namespace
}  // namespace regemu::i915_mini
