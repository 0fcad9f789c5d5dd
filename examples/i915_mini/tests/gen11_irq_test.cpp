// The Gen11 interrupt paths against the shipped Ice Lake interrupt
// behaviour: reset and postinstall leave i915's values, and the handler
// services injected engine events through selector and identity in the
// documented order (tests/scripts/icl_irq_reset_postinstall.script,
// icl_irq_handler.script; ICL PRM Vol 13, "Interrupt Service Routine").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "examples/i915_mini/device_io.hpp"
#include "examples/i915_mini/gen11_irq.hpp"
#include "examples/i915_mini/icl_interrupt_sources.hpp"
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
using fakes::ReadOf;
using fakes::WriteOf;
using ::testing::AllOf;
using ::testing::AnyNumber;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::InSequence;
using ::testing::IsEmpty;
using ::testing::NiceMock;

constexpr uint64_t kMaster = icl::GEN11_GFX_MSTR_IRQ::kOffset;
constexpr uint64_t kDw0 = icl::GEN11_GT_INTR_DW0::kOffset;
constexpr uint64_t kSelector0 = icl::GEN11_IIR_REG_SELECTOR::OffsetOf(0);
constexpr uint64_t kIdentity0 = icl::GEN11_INTR_IDENTITY_REG::OffsetOf(0);
constexpr uint32_t kMasterIrq = icl::GEN11_GFX_MSTR_IRQ::MASTER_IRQ::kMask;
constexpr uint32_t kDataValid = icl::GEN11_INTR_IDENTITY_REG::DATA_VALID::kMask;

auto ServicedIs(std::string_view source, uint16_t data) {
  const InterruptSource* s = nullptr;
  for (const InterruptSource& candidate : kIclInterruptSources) {
    if (candidate.name == source) s = &candidate;
  }
  return AllOf(Field("bank", &ServicedInterrupt::bank, s->bank), Field("bit", &ServicedInterrupt::bit, s->bit),
               Field("class", &ServicedInterrupt::engine_class, s->engine_class),
               Field("instance", &ServicedInterrupt::instance, s->instance), Field("data", &ServicedInterrupt::data, data));
}

class Gen11IrqTest : public I915MiniTest {
 protected:
  void SetUp() override {
    I915MiniTest::SetUp();
    FirmwareEnablesDecode();
    EnableRule(fakes::Gen11InterruptServiceOrder());
  }

  std::vector<ServicedInterrupt> Serviced(const IrqReport& report) {
    return {report.serviced().begin(), report.serviced().end()};
  }
};

TEST_F(Gen11IrqTest, ResetThenPostinstallLeaveI915sEnablesAndMasks) {
  Gen11Irq<fakes::MmioBus> irq(mmio(), VirtualDelay());
  irq.Reset();
  irq.Postinstall();
  EXPECT_THAT(device(), FieldIs("GEN11_RENDER_COPY_INTR_ENABLE", 0x09090909));
  EXPECT_THAT(device(), FieldIs("GEN11_VCS_VECS_INTR_ENABLE", 0x09090909));
  EXPECT_THAT(device(), FieldIs("GEN11_RCS0_RSVD_INTR_MASK", 0xF6F6FFFF));
  EXPECT_THAT(device(), FieldIs("GEN11_BCS_RSVD_INTR_MASK", 0xF6F6FFFF));
  EXPECT_THAT(device(), FieldIs("GEN11_VCS0_VCS1_INTR_MASK", 0xF6F6F6F6));
  EXPECT_THAT(device(), FieldIs("GEN11_VCS2_VCS3_INTR_MASK", 0xF6F6F6F6));
  EXPECT_THAT(device(), FieldIs("GEN11_VECS0_VECS1_INTR_MASK", 0xF6F6F6F6));
  EXPECT_THAT(device(), FieldIs("GEN11_GU_MISC_IER", 0x08000000));
  EXPECT_THAT(device(), FieldIs("GEN11_GU_MISC_IMR", 0xF7FFFFFF));
  EXPECT_THAT(device(), FieldIs("GEN11_GFX_MSTR_IRQ.MASTER_IRQ", 1));
  // Master off first and on last; IIRs reset twice ("be paranoid"); the
  // GU_MISC IIR checked zero before IER enables it.
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("GEN11_GFX_MSTR_IRQ", 0), ReadOf("GEN11_GFX_MSTR_IRQ", 0),
                                         WriteOf("GEN11_GU_MISC_IIR", 0xFFFFFFFF), WriteOf("GEN11_GU_MISC_IIR", 0xFFFFFFFF),
                                         WriteOf("GEN8_PCU_IIR", 0xFFFFFFFF), ReadOf("GEN11_GU_MISC_IIR", 0),
                                         WriteOf("GEN11_GU_MISC_IER", 0x08000000),
                                         WriteOf("GEN11_GFX_MSTR_IRQ", 0x80000000)}));
  EXPECT_FALSE(device().interrupt_asserted());
}

TEST_F(Gen11IrqTest, HandlerServicesRenderVideoAndEnhancementEngines) {
  Gen11Irq<fakes::MmioBus> irq(mmio(), VirtualDelay());
  irq.Reset();
  irq.Postinstall();
  RaiseEngineInterrupt("RCS0", "0x1");
  RaiseEngineInterrupt("VCS0", "0x100");
  RaiseEngineInterrupt("VECS0", "0x1");
  ASSERT_EQ(device().Inject("gu_misc", std::vector<std::string>{"27"}), "");
  ASSERT_TRUE(device().interrupt_asserted());

  IrqReport report = irq.Handle();
  EXPECT_TRUE(report.handled());
  EXPECT_EQ(report.master_ctl, 0x20000003u);  // DW0, DW1, GU_MISC pending; master already off
  EXPECT_THAT(Serviced(report), ElementsAre(ServicedIs("RCS0", 0x1), ServicedIs("VCS0", 0x100), ServicedIs("VECS0", 0x1)));
  EXPECT_EQ(report.gu_misc_iir, icl::GEN11_GU_MISC_IIR::GSE::kMask);
  EXPECT_EQ(report.identity_timeouts, 0u);
  EXPECT_FALSE(device().interrupt_asserted());
  EXPECT_THAT(device(), FieldIs("GEN11_GFX_MSTR_IRQ", kMasterIrq));
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("GEN11_GT_INTR_DW0", 0x1), WriteOf("GEN11_IIR_REG0_SELECTOR", 0x1),
                                         ReadOf("GEN11_INTR_IDENTITY_REG0", 0x80000001),
                                         WriteOf("GEN11_INTR_IDENTITY_REG0", kDataValid),
                                         WriteOf("GEN11_GT_INTR_DW0", 0x1), ReadOf("GEN11_GT_INTR_DW1", 0x80000001),
                                         WriteOf("GEN11_IIR_REG1_SELECTOR", 0x1),
                                         ReadOf("GEN11_INTR_IDENTITY_REG1", 0x80010100),
                                         WriteOf("GEN11_IIR_REG1_SELECTOR", 0x80000000),
                                         ReadOf("GEN11_INTR_IDENTITY_REG1", 0x80020001),
                                         WriteOf("GEN11_GT_INTR_DW1", 0x80000001),
                                         WriteOf("GEN11_GU_MISC_IIR", 0x08000000)}));
}

// The master interrupt is off for the whole handler: the first access
// turns it off, the last turns it back on.
TEST_F(Gen11IrqTest, MasterDisableComesFirstAndMasterEnableLast) {
  NiceMock<fakes::MockMmioBus> mmio_mock;
  mmio_mock.DelegateToFake(device(), "mmio");
  Gen11Irq<fakes::MmioBus> irq(mmio_mock, VirtualDelay());
  irq.Postinstall();
  RaiseEngineInterrupt("RCS0", "0x1");
  {
    // Every access of the handler, in order: nothing else may happen.
    InSequence in_order;
    EXPECT_CALL(mmio_mock, Write(kMaster, 32, 0));
    EXPECT_CALL(mmio_mock, Read(kMaster, 32));
    EXPECT_CALL(mmio_mock, Read(kDw0, 32));
    EXPECT_CALL(mmio_mock, Write(kSelector0, 32, 0x1));
    EXPECT_CALL(mmio_mock, Read(kIdentity0, 32));
    EXPECT_CALL(mmio_mock, Write(kIdentity0, 32, kDataValid));
    EXPECT_CALL(mmio_mock, Write(kDw0, 32, 0x1));
    EXPECT_CALL(mmio_mock, Write(kMaster, 32, kMasterIrq));
  }
  IrqReport report = irq.Handle();
  EXPECT_THAT(Serviced(report), ElementsAre(ServicedIs("RCS0", 0x1)));
}

// An event arriving after the DW read and before the DW clear is held in
// secondary storage (the DW is locked) and comes back as a second DW-level
// event once the DW is cleared: the interrupt fires again and the next run
// of the handler services it.
TEST_F(Gen11IrqTest, AnEventDuringServiceComesBackForTheNextRun) {
  NiceMock<fakes::MockMmioBus> mmio_mock;
  mmio_mock.DelegateToFake(device(), "mmio");
  Gen11Irq<fakes::MmioBus> irq(mmio_mock, VirtualDelay());
  irq.Postinstall();
  RaiseEngineInterrupt("RCS0", "0x1");
  EXPECT_CALL(mmio_mock, Read).Times(AnyNumber());
  EXPECT_CALL(mmio_mock, Write).Times(AnyNumber());
  EXPECT_CALL(mmio_mock, Write(kIdentity0, 32, kDataValid))
      .WillOnce([&](uint64_t offset, unsigned width, uint64_t value) {
        mmio_mock.fake()->Write(offset, width, value);
        RaiseEngineInterrupt("RCS0", "0x1");  // between identity clear and DW clear
      })
      .WillRepeatedly([&](uint64_t offset, unsigned width, uint64_t value) { mmio_mock.fake()->Write(offset, width, value); });

  IrqReport first = irq.Handle();
  EXPECT_THAT(Serviced(first), ElementsAre(ServicedIs("RCS0", 0x1)));
  EXPECT_TRUE(device().interrupt_asserted());
  EXPECT_THAT(device(), FieldIs("GEN11_GT_INTR_DW0", 0x1));

  IrqReport second = irq.Handle();
  EXPECT_THAT(Serviced(second), ElementsAre(ServicedIs("RCS0", 0x1)));
  EXPECT_FALSE(device().interrupt_asserted());
  EXPECT_THAT(device(), FieldIs("GEN11_GT_INTR_DW0", 0));
}

TEST_F(Gen11IrqTest, NothingPendingIsNotOurs) {
  Gen11Irq<fakes::MmioBus> irq(mmio(), VirtualDelay());
  irq.Postinstall();
  IrqReport report = irq.Handle();
  EXPECT_FALSE(report.handled());
  EXPECT_THAT(Serviced(report), IsEmpty());
  EXPECT_THAT(device(), FieldIs("GEN11_GFX_MSTR_IRQ", kMasterIrq));
}

// The same template, straight on the device (the benchmark's baseline).
TEST_F(Gen11IrqTest, TheHandlerTemplateRunsStraightOnTheDevice) {
  DeviceIo io(device(), *device().model().FindSpace("mmio"));
  Gen11Irq<DeviceIo> irq(io, VirtualDelay());
  irq.Reset();
  irq.Postinstall();
  RaiseEngineInterrupt("VCS0", "0x1");
  IrqReport report = irq.Handle();
  EXPECT_THAT(Serviced(report), ElementsAre(ServicedIs("VCS0", 0x1)));
}

}  // namespace
}  // namespace regemu::i915_mini
