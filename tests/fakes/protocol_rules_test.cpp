// Protocol rules (fakes/protocol_rules.hpp) against the shipped Ice Lake
// database: the force-wake hold rule and the Gen11 interrupt service order,
// their normal paths, each way to break them, and the fixture's reporting.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/mmio_bus.hpp"
#include "regemu/fakes/protocol_rules.hpp"

namespace regemu::fakes {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;

// yaml/icl offsets (i915_reg.h, gt/intel_gt_regs.h; i915 intel_uncore.c).
constexpr uint64_t kPciCmd = 0x04;
constexpr uint64_t kForcewakeRender = 0xA278;
constexpr uint64_t kForcewakeAckRender = 0x0D84;
constexpr uint64_t kRcs0RingTail = 0x2030;
constexpr uint64_t kRcs0RingStart = 0x2038;
constexpr uint64_t kMaster = 0x190010;
constexpr uint64_t kDw0 = 0x190018;
constexpr uint64_t kIdentity0 = 0x190060;
constexpr uint64_t kSelector0 = 0x190070;
constexpr uint64_t kRenderCopyEnable = 0x190030;
constexpr uint64_t kRcs0Mask = 0x190090;
constexpr uint64_t kLatencyNs = 500;  // yaml/icl/forcewake_domains.yaml

class ProtocolRulesTest : public DeviceTest {
 public:
  void RunTearDown() { DeviceTest::TearDown(); }

 protected:
  void SetUp() override {
    LoadDevice(ShippedDatabase("icl"));
    bus("config").Write16(kPciCmd, 0x0006);  // memory decode on, so BAR0 answers
  }

  MmioBus& mmio() { return bus("mmio"); }

  // i915's get: wait for the ack clear, request, wait for the ack set.
  void ForcewakeGet() {
    EXPECT_EQ(mmio().Read32(kForcewakeAckRender) & 1, 0u);
    mmio().Write32(kForcewakeRender, MaskedBitEnable(1));
    device().Advance(kLatencyNs);
    EXPECT_EQ(mmio().Read32(kForcewakeAckRender) & 1, 1u);
  }
  void ForcewakePut() { mmio().Write32(kForcewakeRender, MaskedBitDisable(1)); }

  // The part of gen11_irq_postinstall RCS0 needs: enable and unmask its user interrupt.
  void InstallRcs0Interrupts() {
    mmio().Write32(kMaster, 0);
    mmio().Write32(kRenderCopyEnable, 0x09090909);
    mmio().Write32(kRcs0Mask, 0xF6F6FFFF);
    mmio().Write32(kMaster, 0x80000000);
  }
  void InjectRcs0() { ASSERT_EQ(device().Inject("irq", std::vector<std::string>{"RCS0", "0x1"}), ""); }

  // With the service-order rule on: an RCS0 event pending and the handler
  // entered (master disabled), so a test goes on from the handler's first step.
  void EnterHandlerWithRcs0Pending() {
    EnableRule(Gen11InterruptServiceOrder());
    InstallRcs0Interrupts();
    InjectRcs0();
    mmio().Write32(kMaster, 0);
  }

  // gen11_irq_handler for one RCS0 event, in the documented order.
  void ServiceRcs0() {
    mmio().Write32(kMaster, 0);
    EXPECT_EQ(mmio().Read32(kDw0), 0x1u);
    mmio().Write32(kSelector0, 0x1);
    EXPECT_EQ(mmio().Read32(kIdentity0), 0x80000001u);
    mmio().Write32(kIdentity0, 0x80000000);
    mmio().Write32(kDw0, 0x1);
    mmio().Write32(kMaster, 0x80000000);
  }
};

// --- force-wake -------------------------------------------------------------

TEST_F(ProtocolRulesTest, ForcewakeHeldAroundTheAccessesIsClean) {
  EnableRule(NoAccessWithoutForcewake("render"));
  ForcewakeGet();
  mmio().Write32(kRcs0RingStart, 0x00100000);
  EXPECT_EQ(mmio().Read32(kRcs0RingStart), 0x00100000u);
  ForcewakePut();
  EXPECT_THAT(TakeBreaches(), IsEmpty());
}

TEST_F(ProtocolRulesTest, AccessWithoutAnyRequestIsTheFirstBreach) {
  EnableRule(NoAccessWithoutForcewake("render"));
  mmio().Write32(kRcs0RingStart, 0x00100000);  // the device refuses it too
  mmio().Read32(kRcs0RingStart);
  std::vector<RuleBreach> breaches = TakeBreaches();
  ASSERT_THAT(breaches, SizeIs(1));  // only the first access that broke the rule
  EXPECT_EQ(breaches[0].rule, "no 'render' domain access without force-wake");
  EXPECT_THAT(breaches[0].why, HasSubstr("write to RCS0_RING_START (mmio 0x2038) without force-wake 'render'"));
  EXPECT_THAT(breaches[0].why, HasSubstr("FORCEWAKE_RENDER_GEN9"));
  EXPECT_EQ(breaches[0].access.offset, kRcs0RingStart);
  EXPECT_THAT(TakeViolations(), SizeIs(2));  // the device's own forcewake violations
}

// The device alone accepts this driver: the domain is awake by the time it
// writes. The rule does not, because the driver never looked at the ack.
TEST_F(ProtocolRulesTest, AccessAfterTheRequestButBeforeTheAckIsABreach) {
  EnableRule(NoAccessWithoutForcewake("render"));
  mmio().Write32(kForcewakeRender, MaskedBitEnable(1));
  device().Advance(10 * kLatencyNs);
  mmio().Write32(kRcs0RingStart, 0x00100000);
  EXPECT_THAT(TakeViolations(), IsEmpty());
  std::vector<RuleBreach> breaches = TakeBreaches();
  ASSERT_THAT(breaches, SizeIs(1));
  EXPECT_THAT(breaches[0].why, HasSubstr("before reading bit 0 of FORCEWAKE_ACK_RENDER_GEN9 set"));
  // The breach carries the accesses before it, oldest first, ending with the request.
  ASSERT_THAT(breaches[0].before, ::testing::Not(IsEmpty()));
  EXPECT_EQ(breaches[0].before.back().op, emulator::TraceOp::kStep);
  EXPECT_EQ(breaches[0].before[breaches[0].before.size() - 2].offset, kForcewakeRender);
}

// After a put the ack lingers for the latency, so the hardware still
// answers; the driver no longer holds the domain.
TEST_F(ProtocolRulesTest, AccessAfterThePutIsABreachEvenWhileTheAckLingers) {
  EnableRule(NoAccessWithoutForcewake("render"));
  ForcewakeGet();
  ForcewakePut();
  EXPECT_EQ(mmio().Read32(kRcs0RingStart), 0u);
  EXPECT_THAT(TakeViolations(), IsEmpty());
  std::vector<RuleBreach> breaches = TakeBreaches();
  ASSERT_THAT(breaches, SizeIs(1));
  EXPECT_THAT(breaches[0].why, HasSubstr("read of RCS0_RING_START (mmio 0x2038) after force-wake 'render' was released"));
}

TEST_F(ProtocolRulesTest, ShadowedWritesNeedNoForcewakeButReadsDo) {
  EnableRule(NoAccessWithoutForcewake("render"));
  mmio().Write32(kRcs0RingTail, 0x40);  // i915 writes RING_TAIL without force-wake
  EXPECT_THAT(TakeBreaches(), IsEmpty());
  mmio().Read32(kRcs0RingTail);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("read of RCS0_RING_TAIL"))));
  TakeViolations();
}

TEST_F(ProtocolRulesTest, ResetDropsTheHold) {
  EnableRule(NoAccessWithoutForcewake("render"));
  ForcewakeGet();
  device().Reset();
  bus("config").Write16(kPciCmd, 0x0006);
  mmio().Read32(kRcs0RingStart);
  EXPECT_THAT(TakeBreaches(), SizeIs(1));
  TakeViolations();
}

TEST_F(ProtocolRulesTest, BackdoorAccessesAreNotTheDriversAndNeverBreak) {
  EnableRule(NoAccessWithoutForcewake("render"));
  device().Poke(*device().model().FindSpace("mmio"), kRcs0RingStart, 32, 0x1000);
  EXPECT_EQ(device().Peek(*device().model().FindSpace("mmio"), kRcs0RingStart, 32), 0x1000u);
  EXPECT_THAT(TakeBreaches(), IsEmpty());
}

TEST_F(ProtocolRulesTest, OtherDomainsAreNotWatched) {
  EnableRule(NoAccessWithoutForcewake("vdbox0"));
  ForcewakeGet();
  mmio().Write32(kRcs0RingStart, 0x1);  // render, held
  EXPECT_THAT(TakeBreaches(), IsEmpty());
}

// The request and ack registers of every domain sit inside the GT domain's
// declared ranges, but they are always on: taking render's force-wake is
// not a GT access.
TEST_F(ProtocolRulesTest, OtherDomainsRequestAndAckRegistersAreNeverDomainAccesses) {
  EnableRule(NoAccessWithoutForcewake("gt"));
  ForcewakeGet();
  ForcewakePut();
  EXPECT_THAT(TakeBreaches(), IsEmpty());
}

TEST_F(ProtocolRulesTest, AnUnknownDomainOrRegisterIsADocumentedError) {
  EXPECT_THROW(EnableRule(NoAccessWithoutForcewake("blitter")), std::invalid_argument);
  Gen11InterruptRegisters names;
  names.master = "GEN11_MASTER";
  EXPECT_THROW(EnableRule(Gen11InterruptServiceOrder(names)), std::invalid_argument);
  LoadDevice(ShippedDatabase("hsw"));  // no force-wake at all
  EXPECT_THROW(EnableRule(NoAccessWithoutForcewake("render")), std::invalid_argument);
}

TEST(ProtocolRulesFixtureTest, EnableRuleBeforeLoadDeviceIsALogicError) {
  class Probe : public DeviceTest {
   public:
    void TestBody() override {}
    void Enable() { EnableRule(NoAccessWithoutForcewake("render")); }
  } probe;
  EXPECT_THROW(probe.Enable(), std::logic_error);
}

TEST_F(ProtocolRulesTest, TearDownFailsOnABreachNamingTheRuleAndTheAccess) {
  EnableRule(NoAccessWithoutForcewake("render"));
  mmio().Write32(kForcewakeRender, MaskedBitEnable(1));
  device().Advance(kLatencyNs);
  mmio().Read32(kRcs0RingStart);
  EXPECT_NONFATAL_FAILURE(RunTearDown(), "protocol rule 'no 'render' domain access without force-wake' broken");
  EXPECT_NONFATAL_FAILURE(
      {
        mmio().Read32(kRcs0RingStart);  // a second breach of the same rule is not reported again
        ADD_FAILURE() << "marker";
        RunTearDown();
      },
      "marker");
}

// --- Gen11 interrupt service order -----------------------------------------

TEST_F(ProtocolRulesTest, TheDocumentedHandlerIsClean) {
  EnableRule(Gen11InterruptServiceOrder());
  InstallRcs0Interrupts();
  InjectRcs0();
  ServiceRcs0();
  InjectRcs0();
  ServiceRcs0();
  EXPECT_THAT(TakeBreaches(), IsEmpty());
  EXPECT_FALSE(device().interrupt_asserted());
}

TEST_F(ProtocolRulesTest, ReadingDwWithTheMasterEnabledIsABreach) {
  EnableRule(Gen11InterruptServiceOrder());
  InstallRcs0Interrupts();
  InjectRcs0();
  mmio().Read32(kDw0);
  EXPECT_THAT(TakeBreaches(),
              ElementsAre(Field(&RuleBreach::why,
                                HasSubstr("GEN11_GT_INTR_DW0 read while the master interrupt is enabled"))));
}

TEST_F(ProtocolRulesTest, SelectorBeforeTheDwReadIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Write32(kSelector0, 0x1);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("GEN11_IIR_REG0_SELECTOR written before "
                                                                            "GEN11_GT_INTR_DW0 was read"))));
}

TEST_F(ProtocolRulesTest, SelectingABitTheDwReadDidNotShowIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Write32(kSelector0, 0x2);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("did not show"))));
  TakeViolations();  // the device's own protocol violation
}

TEST_F(ProtocolRulesTest, ANonOneHotSelectorIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Write32(kSelector0, 0x3);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("= 0x3 is not one-hot"))));
  TakeViolations();
}

TEST_F(ProtocolRulesTest, IdentityReadWithoutASelectorIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Read32(kIdentity0);
  EXPECT_THAT(TakeBreaches(),
              ElementsAre(Field(&RuleBreach::why, HasSubstr("GEN11_INTR_IDENTITY_REG0 read without an engine selected"))));
}

TEST_F(ProtocolRulesTest, ClearingTheIdentityBeforeReadingItValidIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Write32(kSelector0, 0x1);
  mmio().Write32(kIdentity0, 0x80000000);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("cleared before a read of it showed the "
                                                                            "valid bit 31"))));
}

TEST_F(ProtocolRulesTest, ClearingDwBeforeServiceIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Write32(kDw0, 0x1);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("GEN11_GT_INTR_DW0 bits 0x1 cleared before "
                                                                            "being serviced"))));
  TakeViolations();
}

TEST_F(ProtocolRulesTest, ReenablingTheMasterWithAServicedBitStillInDwIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Write32(kSelector0, 0x1);
  mmio().Read32(kIdentity0);
  mmio().Write32(kIdentity0, 0x80000000);
  mmio().Write32(kMaster, 0x80000000);  // forgot to clear DW0
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("serviced but not cleared"))));
}

TEST_F(ProtocolRulesTest, ReenablingTheMasterMidServiceIsABreach) {
  EnterHandlerWithRcs0Pending();
  mmio().Read32(kDw0);
  mmio().Write32(kSelector0, 0x1);
  mmio().Write32(kMaster, 0x80000000);
  EXPECT_THAT(TakeBreaches(), ElementsAre(Field(&RuleBreach::why, HasSubstr("whose identity was not cleared"))));
}

TEST_F(ProtocolRulesTest, BothRulesReportTheirOwnFirstBreach) {
  EnableRule(NoAccessWithoutForcewake("render"));
  EnableRule(Gen11InterruptServiceOrder());
  InstallRcs0Interrupts();
  InjectRcs0();
  mmio().Read32(kDw0);
  mmio().Read32(kRcs0RingStart);
  std::vector<RuleBreach> breaches = TakeBreaches();
  ASSERT_THAT(breaches, SizeIs(2));
  EXPECT_EQ(breaches[0].rule, "Gen11 interrupt service order");
  EXPECT_EQ(breaches[1].rule, "no 'render' domain access without force-wake");
  EXPECT_LT(breaches[0].access.sequence, breaches[1].access.sequence);
  TakeViolations();
}

// A checker attached by hand, outside the fixture: the trace ring may be
// off, the rules still see every access.
TEST(ProtocolCheckerTest, SeesEveryAccessEvenWithoutATraceRing) {
  std::shared_ptr<const emulator::Model> model = CompileDatabase(ShippedDatabase("icl"));
  ProtocolChecker checker(model, 2);
  checker.Add(NoAccessWithoutForcewake("render"));
  emulator::DeviceOptions options;
  options.trace_capacity = 0;
  options.policy = emulator::ViolationPolicy::Lenient();
  checker.Attach(options);
  emulator::Device device(model, options);
  emulator::SpaceId config = *model->FindSpace("config");
  emulator::SpaceId mmio = *model->FindSpace("mmio");
  device.Write(config, kPciCmd, 16, 0x0006);
  device.Write(mmio, kForcewakeRender, 32, 0x00010001);
  device.Read(mmio, kRcs0RingStart, 32);
  ASSERT_THAT(checker.breaches(), SizeIs(1));
  EXPECT_THAT(checker.breaches()[0].before, SizeIs(2));  // the context size
  EXPECT_THAT(checker.breaches()[0].Describe(*model), HasSubstr("accesses before it:"));
  EXPECT_THROW(checker.Add(nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace regemu::fakes
