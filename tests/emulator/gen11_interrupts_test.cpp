// The `gen11-interrupts` behaviour (yaml/README.md "behaviours", ICL PRM Vol 13
// "Interrupts", i915 gt/intel_gt_irq.c) against the shipped yaml/icl and a
// small inline device: enables and masks, collapsing registers, the
// double-buffered GT INT DW, selector + identity service, master levels and
// the interrupt output, the protocol rules, reset and snapshots.
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/loader.hpp"
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

constexpr uint64_t kMasterEnable = 0x80000000;
constexpr uint64_t kValid = 0x80000000;

std::shared_ptr<const Model> IclModel() {
  return testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
}

class IclIrqTest : public ::testing::Test {
 protected:
  IclIrqTest() : device_(IclModel(), Lenient()) {
    // pci_enable_device: memory decode on before any MMIO access.
    device_.Write(SpaceNamed(device_.model(), "config"), 0x04, 16, 0x0006);
  }
  static DeviceOptions Lenient() {
    DeviceOptions options;
    options.policy = ViolationPolicy::Lenient();
    options.coverage = true;
    return options;
  }

  RegisterId Reg(const char* name) const { return RegisterNamed(device_.model(), name); }
  uint64_t Read(const char* name) { return device_.ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device_.WriteRegister(Reg(name), value); }
  uint64_t Peek(const char* name) const { return device_.PeekRegister(Reg(name)); }
  void Inject(std::vector<std::string> args) {
    std::string verb = args.front();
    args.erase(args.begin());
    ASSERT_EQ(device_.Inject(verb, args), "");
  }
  std::string InjectError(std::vector<std::string> args) {
    std::string verb = args.front();
    args.erase(args.begin());
    return device_.Inject(verb, args);
  }

  // gen11_gt_irq_postinstall with irqs = 0x0909, GU_MISC init, master enable (i915 gen11_irq_postinstall).
  void Postinstall() {
    Write("GEN11_RENDER_COPY_INTR_ENABLE", 0x09090909);
    Write("GEN11_VCS_VECS_INTR_ENABLE", 0x09090909);
    Write("GEN11_RCS0_RSVD_INTR_MASK", 0xF6F6FFFF);
    Write("GEN11_BCS_RSVD_INTR_MASK", 0xF6F6FFFF);
    Write("GEN11_VCS0_VCS1_INTR_MASK", 0xF6F6F6F6);
    Write("GEN11_VCS2_VCS3_INTR_MASK", 0xF6F6F6F6);
    Write("GEN11_VECS0_VECS1_INTR_MASK", 0xF6F6F6F6);
    Write("GEN11_GU_MISC_IER", 0x08000000);
    Write("GEN11_GU_MISC_IMR", 0xF7FFFFFF);
    Write("GEN11_GFX_MSTR_IRQ", kMasterEnable);
  }

  // One engine's service (gen11_gt_engine_identity): returns the identity read.
  uint64_t Service(int bank, uint64_t bit) {
    std::string sel = "GEN11_IIR_REG" + std::to_string(bank) + "_SELECTOR";
    std::string id = "GEN11_INTR_IDENTITY_REG" + std::to_string(bank);
    Write(sel.c_str(), uint64_t{1} << bit);
    uint64_t identity = Read(id.c_str());
    Write(id.c_str(), kValid);
    return identity;
  }

  std::vector<std::string> Rules() const {
    std::vector<std::string> rules;
    for (const Violation& v : device_.violations()) rules.push_back(v.rule);
    return rules;
  }

  Device device_;
};

// PRM: "An interrupt is sent to driver whenever bits are set in the Master
// Interrupt Control Register and the Enable bit is also set."
TEST_F(IclIrqTest, RenderEventRaisesDwMasterAndLine) {
  Postinstall();
  EXPECT_FALSE(device_.interrupt_asserted());
  Inject({"irq", "RCS0", "0x1"});
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ"), kMasterEnable | 0x1);
  EXPECT_TRUE(device_.interrupt_asserted());
  EXPECT_EQ(device_.interrupt_edges(), 1u);
}

// Coverage: each engine serviced, the second DW-level event, a child
// raising its master bit, an event held by its mask and released by the
// unmask, the output's rising edges and the handler's master-off window.
TEST_F(IclIrqTest, CoversServiceSecondEventsChildrenMaskingAndMaster) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});             // the output rises
  Write("GEN11_GFX_MSTR_IRQ", 0);             // gen11_gt_irq_handler: master off
  uint64_t dw0 = Read("GEN11_GT_INTR_DW0");   // DW0 locks
  Inject({"irq", "BCS0", "0x100"});           // latched while locked: a second event
  Service(0, 0);
  Write("GEN11_GT_INTR_DW0", dw0);            // BCS0's event becomes DW0
  Service(0, 15);
  Write("GEN11_GT_INTR_DW0", uint64_t{1} << 15);
  Write("GEN11_GFX_MSTR_IRQ", kMasterEnable);
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xFFFFFFFF);
  Inject({"irq", "RCS0", "0x1"});             // held by the mask
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xF6F6FFFF);  // released: the output rises again
  Inject({"gu_misc", "27"});                  // GU_MISC raises master bit 29
  std::map<std::string, uint64_t> hits = testing_support::PointHits(device_, "irq");
  EXPECT_EQ(hits.size(), 20u + 2 + 2 + 4);
  EXPECT_EQ(hits.at("engines serviced/RCS0"), 1u);
  EXPECT_EQ(hits.at("engines serviced/BCS0"), 1u);
  EXPECT_EQ(hits.at("engines serviced/VCS0"), 0u);
  EXPECT_EQ(hits.at("second events/GEN11_GT_INTR_DW0"), 1u);
  EXPECT_EQ(hits.at("second events/GEN11_GT_INTR_DW1"), 0u);
  EXPECT_EQ(hits.at("children raised/gu_misc"), 1u);
  EXPECT_EQ(hits.at("children raised/pcu"), 0u);
  EXPECT_EQ(hits.at("masking/event held by mask"), 1u);
  EXPECT_EQ(hits.at("masking/released by unmask"), 1u);
  EXPECT_EQ(hits.at("master/interrupt asserted"), 2u);
  EXPECT_GT(hits.at("master/level held while disabled"), 0u);
}

// i915 gen11_irq_handler (i915_irq.c, gt/intel_gt_irq.c): the whole handler leaves everything clear and no violation.
TEST_F(IclIrqTest, I915HandlerServesBothBanks) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Inject({"irq", "BCS0", "0x100"});
  Inject({"irq", "VECS0", "0x8"});
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_FALSE(device_.interrupt_asserted());
  uint64_t master = Read("GEN11_GFX_MSTR_IRQ");
  EXPECT_EQ(master, 0x3u);
  uint64_t dw0 = Read("GEN11_GT_INTR_DW0");
  EXPECT_EQ(dw0, 0x8001u);
  EXPECT_EQ(Service(0, 0), kValid | 0x1);                     // RCS0: class 0 instance 0
  EXPECT_EQ(Peek("GEN11_IIR_REG0_SELECTOR"), 0u);           // cleared with DATA_VALID
  EXPECT_EQ(Peek("GEN11_INTR_IDENTITY_REG0"), 0u);
  EXPECT_EQ(Service(0, 15), kValid | (3u << 16) | 0x100);     // BCS0: class 3
  Write("GEN11_GT_INTR_DW0", dw0);
  uint64_t dw1 = Read("GEN11_GT_INTR_DW1");
  EXPECT_EQ(dw1, 0x80000000u);
  EXPECT_EQ(Service(1, 31), kValid | (2u << 16) | 0x8);       // VECS0: class 2
  Write("GEN11_GT_INTR_DW1", dw1);
  EXPECT_EQ(Read("GEN11_GFX_MSTR_IRQ"), 0u);
  Write("GEN11_GFX_MSTR_IRQ", kMasterEnable);
  EXPECT_FALSE(device_.interrupt_asserted());
  EXPECT_THAT(device_.violations(), IsEmpty());
}

// PRM: "Disabled events are simply dropped by the interrupt handling logic."
TEST_F(IclIrqTest, DisabledEventIsDropped) {
  Postinstall();
  Inject({"irq", "RCS0", "0x2"});  // bit 1 is not in irqs (0x0909)
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0);  // unmasking later does not bring it back
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0u);
  Inject({"irq", "GTPM", "0x20"});  // GPM enable is 0 after postinstall
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0u);
  EXPECT_FALSE(device_.interrupt_asserted());
}

// PRM: "Masked events remain in the per-Instance Collapsing Register until they are unmasked."
TEST_F(IclIrqTest, MaskedEventIsDeliveredOnUnmask) {
  Postinstall();
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xFFFFFFFF);
  Inject({"irq", "RCS0", "0x1"});
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0u);
  EXPECT_FALSE(device_.interrupt_asserted());
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xFFFEFFFF);  // unmask bit 0 of the upper half
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_TRUE(device_.interrupt_asserted());
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_EQ(Service(0, 0), kValid | 0x1);
}

// PRM: the Shared IIR presents "all the unmasked interrupt bits" of the engine.
TEST_F(IclIrqTest, IdentityPresentsOnlyUnmaskedBitsAndKeepsMaskedPending) {
  Postinstall();
  Inject({"irq", "RCS0", "0x100"});
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xFFFEFFFF);  // now only bit 0 unmasked; 0x100 is masked
  Inject({"irq", "RCS0", "0x1"});
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_EQ(Service(0, 0), kValid | 0x1);
  Write("GEN11_GT_INTR_DW0", 0x1);
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xF6F6FFFF);  // 0x100 unmasked again: delivered now
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_EQ(Service(0, 0), kValid | 0x100);
}

// PRM: "From the time of read to the time of SW completely clearing GT INT
// DW ... all incoming interrupts are logged in a secondary storage ... a
// second DW-level event will be generated."
TEST_F(IclIrqTest, EventBetweenDwReadAndClearIsASecondDwEvent) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_EQ(Service(0, 0), kValid | 0x1);
  Inject({"irq", "RCS0", "0x8"});
  Inject({"irq", "BCS0", "0x1"});
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x1u);  // the snapshot does not change under service
  Write("GEN11_GT_INTR_DW0", 0x1);
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x8001u);  // the secondary storage, now the DW
  EXPECT_EQ(Read("GEN11_GFX_MSTR_IRQ"), 0x1u);
  uint64_t edges = device_.interrupt_edges();
  Write("GEN11_GFX_MSTR_IRQ", kMasterEnable);
  EXPECT_TRUE(device_.interrupt_asserted());
  EXPECT_EQ(device_.interrupt_edges(), edges + 1);
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x8001u);
  EXPECT_EQ(Service(0, 0), kValid | 0x8);
  EXPECT_EQ(Service(0, 15), kValid | (3u << 16) | 0x1);
  Write("GEN11_GT_INTR_DW0", 0x8001);
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

// A partial clear keeps the lock: events still go to the secondary storage.
TEST_F(IclIrqTest, PartialClearKeepsDwLocked) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Inject({"irq", "BCS0", "0x1"});
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 0x8001u);
  Service(0, 0);
  Write("GEN11_GT_INTR_DW0", 0x1);
  Inject({"irq", "RCS0", "0x1"});
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x8000u);
  Service(0, 15);
  Write("GEN11_GT_INTR_DW0", 0x8000);
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x1u);
}

// PRM: "SW first resets the Master Control Enable bit ... writes ... to set" it.
TEST_F(IclIrqTest, MasterDisableEnableReRaisesTheLine) {
  Postinstall();
  Inject({"irq", "VCS2", "0x1"});
  EXPECT_EQ(device_.interrupt_edges(), 1u);
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_FALSE(device_.interrupt_asserted());
  EXPECT_EQ(Read("GEN11_GFX_MSTR_IRQ"), 0x2u);  // levels are read with the master disabled
  Write("GEN11_GFX_MSTR_IRQ", kMasterEnable);    // nothing serviced: the line rises again
  EXPECT_TRUE(device_.interrupt_asserted());
  EXPECT_EQ(device_.interrupt_edges(), 2u);
  Write("GEN11_GFX_MSTR_IRQ", 0x00000003);       // level bits are not the driver's to write
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ"), 0x2u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

// i915_reg.h GEN11_GFX_MSTR_IRQ, i915_irq.c gen11_irq_handler: GU_MISC is master bit 29, acked through its IIR.
TEST_F(IclIrqTest, GuMiscThroughTheMaster) {
  Postinstall();
  Inject({"gu_misc", "27"});
  EXPECT_EQ(Peek("GEN11_GU_MISC_IIR"), 0x08000000u);
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ"), kMasterEnable | (1u << 29));
  EXPECT_TRUE(device_.interrupt_asserted());
  Write("GEN11_GFX_MSTR_IRQ", 0);
  uint64_t iir = Read("GEN11_GU_MISC_IIR");
  Write("GEN11_GU_MISC_IIR", iir);
  EXPECT_EQ(Read("GEN11_GFX_MSTR_IRQ"), 0u);
  Write("GEN11_GFX_MSTR_IRQ", kMasterEnable);
  EXPECT_FALSE(device_.interrupt_asserted());
}

TEST_F(IclIrqTest, PcuThroughTheMaster) {
  Postinstall();
  Write("GEN8_PCU_IER", 0x10);
  Write("GEN8_PCU_IMR", 0xFFFFFFEF);
  Inject({"pcu", "4"});
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ"), kMasterEnable | (1u << 30));
  Write("GEN8_PCU_IER", 0);  // disabling the source drops the level
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ"), kMasterEnable);
  EXPECT_FALSE(device_.interrupt_asserted());
}

TEST_F(IclIrqTest, NonOneHotSelectorIsAViolation) {
  Postinstall();
  Inject({"irq", "VCS0", "0x1"});
  Inject({"irq", "VECS0", "0x1"});
  Read("GEN11_GT_INTR_DW1");
  Write("GEN11_IIR_REG1_SELECTOR", 0x80000001);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(Rules(), ElementsAre(HasSubstr("not one-hot")));
  EXPECT_EQ(Peek("GEN11_INTR_IDENTITY_REG1"), 0u);  // nothing presented
}

TEST_F(IclIrqTest, ZeroSelectorIsNotOneHot) {
  Postinstall();
  Write("GEN11_IIR_REG0_SELECTOR", 0);
  EXPECT_THAT(Rules(), ElementsAre(HasSubstr("not one-hot")));
}

TEST_F(IclIrqTest, SelectorOfABitNotInDwIsAViolation) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Read("GEN11_GT_INTR_DW0");
  Write("GEN11_IIR_REG0_SELECTOR", 1u << 15);
  EXPECT_THAT(Rules(), ElementsAre(HasSubstr("selects bit 15 (BCS0), not set in GEN11_GT_INTR_DW0")));
  EXPECT_EQ(Peek("GEN11_INTR_IDENTITY_REG0"), 0u);
}

TEST_F(IclIrqTest, SelectorWhileIdentityValidIsAViolation) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Inject({"irq", "BCS0", "0x1"});
  Read("GEN11_GT_INTR_DW0");
  Write("GEN11_IIR_REG0_SELECTOR", 0x1);
  Write("GEN11_IIR_REG0_SELECTOR", 0x8000);
  EXPECT_THAT(Rules(), ElementsAre(HasSubstr("still holds valid data of RCS0")));
  EXPECT_EQ(Peek("GEN11_INTR_IDENTITY_REG0"), kValid | (3u << 16) | 0x1);
}

TEST_F(IclIrqTest, ClearingDwWithoutServiceIsAViolation) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Inject({"irq", "BCS0", "0x1"});
  uint64_t dw0 = Read("GEN11_GT_INTR_DW0");
  Service(0, 0);
  Write("GEN11_GT_INTR_DW0", dw0);
  EXPECT_THAT(Rules(), ElementsAre(AllOf(HasSubstr("bit 15 (BCS0) cleared without first servicing"),
                                         ::testing::Not(HasSubstr("RCS0")))));
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0u);  // the hardware clears it all the same
}

// Service counts once: a second round must select the engine again.
TEST_F(IclIrqTest, ServiceIsConsumedByTheClear) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Read("GEN11_GT_INTR_DW0");
  Service(0, 0);
  Write("GEN11_GT_INTR_DW0", 0x1);
  Inject({"irq", "RCS0", "0x1"});
  Read("GEN11_GT_INTR_DW0");
  Write("GEN11_GT_INTR_DW0", 0x1);
  EXPECT_THAT(Rules(), ElementsAre(HasSubstr("bit 0 (RCS0) cleared without")));
}

// A write of the identity without DATA_VALID changes nothing.
TEST_F(IclIrqTest, IdentityFieldsAreOwnedByTheBehaviour) {
  Postinstall();
  Inject({"irq", "VCS2", "0x1"});
  Read("GEN11_GT_INTR_DW1");
  Write("GEN11_IIR_REG1_SELECTOR", 0x4);
  Write("GEN11_INTR_IDENTITY_REG1", 0x0000FFFF);
  EXPECT_EQ(Peek("GEN11_INTR_IDENTITY_REG1"), kValid | (2u << 20) | (1u << 16) | 0x1);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclIrqTest, ResetClearsEverything) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Write("GEN11_RCS0_RSVD_INTR_MASK", 0xFFFFFFFF);
  Inject({"irq", "RCS0", "0x8"});  // pending, masked
  Inject({"gu_misc", "27"});
  Read("GEN11_GT_INTR_DW0");     // locked
  Write("GEN11_IIR_REG0_SELECTOR", 0x1);
  device_.Reset();
  device_.Write(SpaceNamed(device_.model(), "config"), 0x04, 16, 0x0006);
  EXPECT_FALSE(device_.interrupt_asserted());
  EXPECT_EQ(Peek("GEN11_GFX_MSTR_IRQ"), 0u);
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0u);
  EXPECT_EQ(Peek("GEN11_INTR_IDENTITY_REG0"), 0u);
  Postinstall();
  EXPECT_FALSE(device_.interrupt_asserted());  // nothing pending survived, GU_MISC included
  Inject({"irq", "RCS0", "0x1"});
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x1u);    // not locked any more
  EXPECT_EQ(Service(0, 0), kValid | 0x1);        // the masked 0x8 is gone
}

TEST_F(IclIrqTest, SnapshotRestoresPendingAndLockState) {
  Postinstall();
  Inject({"irq", "RCS0", "0x1"});
  Read("GEN11_GT_INTR_DW0");  // locked
  DeviceSnapshot snapshot = device_.Snapshot();
  Service(0, 0);
  Write("GEN11_GT_INTR_DW0", 0x1);
  Inject({"irq", "RCS0", "0x8"});
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x1u);
  device_.Restore(snapshot);
  Inject({"irq", "BCS0", "0x1"});  // still locked: held back
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x1u);
  EXPECT_EQ(Service(0, 0), kValid | 0x1);  // the 0x8 after the snapshot never happened
  Write("GEN11_GT_INTR_DW0", 0x1);
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW0"), 0x8000u);
}

// PRM "Format of interrupt message": VF 29:27, instance 25:20, class 18:16, data 15:0.
TEST_F(IclIrqTest, InjectByMessageFormat) {
  Postinstall();
  Inject({"irq", "message", "0x00210001"});  // class 1 (VCS) instance 2, data 0x1
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW1"), 0x4u);
  Inject({"irq", "message", "2", "0", "0", "0x8"});  // VECS0
  EXPECT_EQ(Peek("GEN11_GT_INTR_DW1"), 0x80000004u);
  EXPECT_THAT(InjectError({"irq", "message", "0x08000001"}), HasSubstr("only the physical function"));
  EXPECT_THAT(InjectError({"irq", "message", "0x40000001"}), HasSubstr("reserved bits"));
  EXPECT_THAT(InjectError({"irq", "message", "4", "3", "0", "0x1"}), HasSubstr("no engine of class 4 instance 3"));
  EXPECT_THAT(InjectError({"irq", "RSC0", "0x1"}), HasSubstr("unknown engine 'RSC0'"));
  EXPECT_THAT(InjectError({"irq", "RCS0", "0x10000"}), HasSubstr("bad data"));
  EXPECT_THAT(InjectError({"irq", "RCS0"}), HasSubstr("usage: inject irq ENGINE DATA"));
}

// Other class: each instance has its own enable (PRM), GuC in the upper half (i915 gt/intel_gt_irq.c).
TEST_F(IclIrqTest, OtherClassHasPerInstanceEnables) {
  Postinstall();
  Write("GEN11_GUC_SG_INTR_ENABLE", 0x80000000);
  Write("GEN11_GUC_SG_INTR_MASK", 0x7FFFFFFF);
  Inject({"irq", "GUC", "0x8000"});
  Inject({"irq", "GUNIT", "0x1"});  // its enable is 0
  Write("GEN11_GFX_MSTR_IRQ", 0);
  EXPECT_EQ(Read("GEN11_GT_INTR_DW0"), 1u << 25);
  EXPECT_EQ(Service(0, 25), kValid | (4u << 16) | 0x8000);
}

// A small device: the engine table is data; an engine without a mask register is never masked.
constexpr const char* kSmall = R"(device: small
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: MSTR, space: mmio, offset: 0x10}
  - {name: DW, space: mmio, offset: 0x18, access: w1c}
  - {name: ID, space: mmio, offset: 0x60, fields: [{name: VALID, bits: 31, access: w1c}, {name: REST, bits: "30:0", access: hw}]}
  - {name: SEL, space: mmio, offset: 0x70}
  - {name: EN, space: mmio, offset: 0x30, fields: [{name: A, bits: "31:16"}, {name: B, bits: "15:0"}]}
  - {name: MASK, space: mmio, offset: 0x90, reset: 0xFFFFFFFF, fields: [{name: A, bits: "31:16"}, {name: B, bits: "15:0"}]}
behaviours:
  - name: gt
    kind: gen11-interrupts
    master: MSTR
    master_enable_bit: 31
    banks:
      - {dw: DW, selector: SEL, identity: ID, master_bit: 4}
    engines:
      - {name: A0, class: 0, instance: 0, bank: 0, bit: 3, enable: EN.A, mask: MASK.A}
      - {name: B0, class: 3, instance: 1, bank: 0, bit: 9, enable: EN.B}
)";

TEST(Gen11InterruptsSmallTest, EngineTableComesFromTheConfig) {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  std::unique_ptr<Device> device = MakeDevice(kSmall, std::move(options));
  const Model& model = device->model();
  auto reg = [&](const char* name) { return RegisterNamed(model, name); };
  device->WriteRegister(reg("EN"), 0xFFFFFFFF);
  device->WriteRegister(reg("MSTR"), 0x80000000);
  ASSERT_EQ(device->Inject("gt", std::vector<std::string>{"B0", "0x5"}), "");
  EXPECT_EQ(device->PeekRegister(reg("DW")), 1u << 9);
  EXPECT_EQ(device->PeekRegister(reg("MSTR")), 0x80000010u);
  EXPECT_TRUE(device->interrupt_asserted());
  ASSERT_EQ(device->Inject("gt", std::vector<std::string>{"A0", "0x1"}), "");  // masked
  EXPECT_EQ(device->PeekRegister(reg("DW")), 1u << 9);
  device->ReadRegister(reg("DW"));
  device->WriteRegister(reg("SEL"), 1u << 9);
  EXPECT_EQ(device->ReadRegister(reg("ID")), 0x80000000u | (1u << 20) | (3u << 16) | 0x5);
  device->WriteRegister(reg("ID"), 0x80000000);
  device->WriteRegister(reg("DW"), 1u << 9);
  EXPECT_FALSE(device->interrupt_asserted());
  EXPECT_THAT(device->violations(), IsEmpty());
  EXPECT_EQ(device->Inject("other", std::vector<std::string>{"A0", "1"}),
            "no behaviour of device 'small' handles 'inject other'");
}

}  // namespace
}  // namespace regemu::emulator
