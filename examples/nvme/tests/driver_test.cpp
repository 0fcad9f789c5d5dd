// The driver as Linux nvme-pci / nvme-core writes it, on a strict yaml/nvme
// device: bring-up, Identify Controller, shutdown, a later probe, a queue
// that wraps, and the interrupt. Any violation fails the test (DeviceTest).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>

#include "examples/nvme/core.hpp"
#include "examples/nvme/tests/nvme_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::nvme {
namespace {

using fakes::AccessesInOrder;
using fakes::FieldIs;
using fakes::ReadOf;
using fakes::WriteOf;
using fakes::Wrote;

class DriverTest : public NvmeTest {};

// nvme_pci_enable, nvme_pci_configure_admin_queue, nvme_enable_ctrl: CSTS and CAP (two dwords), the reset on first
// probe (cached CC 0), AQA 001F001Fh, ASQ and ACQ low dword first, CC
// without EN, CAP again, CRTO (CAP.CRMS.CRWMS = 1), CC with EN, RDY = 1.
TEST_F(DriverTest, ProbeBringsTheControllerUpAsLinuxDoes) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  EXPECT_THAT(device(), FieldIs("CMD.MSE", 1));
  EXPECT_THAT(device(), FieldIs("CMD.BME", 1));
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 1));
  EXPECT_THAT(device(), FieldIs("CC", 0x00460001));
  EXPECT_THAT(device(), FieldIs("AQA", 0x001F001F));
  EXPECT_THAT(device(), FieldIs("ASQ", 0x1'2345'6000));
  EXPECT_THAT(device(), FieldIs("ACQ", 0x1'2345'7000));
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("CSTS", 0), ReadOf("CAP"), ReadOf("CAP"), ReadOf("VS"),
                                         WriteOf("CC", 0), ReadOf("CSTS", 0), WriteOf("AQA", 0x001F001F),
                                         WriteOf("ASQ"), WriteOf("ASQ"), WriteOf("ACQ"), WriteOf("ACQ"),
                                         WriteOf("CC", 0x00460000), ReadOf("CRTO"), WriteOf("CC", 0x00460001),
                                         ReadOf("CSTS", 1)}));
  EXPECT_EQ(driver->ctrl().db_stride, 1u);
  EXPECT_EQ(driver->ctrl().q_depth, 1024u);  // min(CAP.MQES + 1 = 2048, io_queue_depth)
  // The controller became ready 2 ms after CC.EN, polled every 1 ms.
  EXPECT_EQ(device().now_ns(), 2 * kMillisecond);
}

TEST_F(DriverTest, IdentifyControllerReturnsTheBringUpFields) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  IdentifyResult result = driver->Identify();
  ASSERT_EQ(result.status, Status::kOk);
  EXPECT_EQ(result.completion.status, 0);
  EXPECT_EQ(result.completion.sq_id, 0);
  EXPECT_EQ(result.completion.sq_head, 1);
  EXPECT_EQ(result.completion.cid, 0x1000);  // generation 1, tag 0
  EXPECT_EQ(result.id.vid, 0x1B36);
  EXPECT_EQ(result.id.ssvid, 0x1AF4);
  EXPECT_EQ(result.id.mdts, 7);
  EXPECT_EQ(result.id.ver, 0x00020000u);
  EXPECT_EQ(result.id.sqes, 0x66);
  EXPECT_EQ(result.id.cqes, 0x44);
  EXPECT_EQ(result.id.nn, 1u);
  // The SQ tail rang, the completion released: vector 0 no longer pending.
  EXPECT_THAT(device(), AccessesInOrder({WriteOf("SQ0TDBL", 1), WriteOf("CQ0HDBL", 1)}));
  EXPECT_THAT(device(), FieldIs("IS.V0", 0));
  EXPECT_FALSE(device().interrupt_asserted());
}

// nvme_disable_ctrl: SHN = 01b with EN left at 1 (CC 00464001h), then
// SHST = 10b, which this controller reports 1 ms later.
TEST_F(DriverTest, ShutdownWaitsForShutdownComplete) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  uint64_t before = device().now_ns();
  ASSERT_EQ(driver->Shutdown(), Status::kOk);
  EXPECT_THAT(device(), FieldIs("CC", 0x00464001));
  EXPECT_THAT(device(), FieldIs("CSTS.SHST", 2));
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 1));
  EXPECT_EQ(device().now_ns() - before, kMillisecond);
}

// A later probe after shutdown: the reset clears SHN and EN (CC 00460000h),
// waits for RDY = 0, and brings the controller up again.
TEST_F(DriverTest, ReprobeAfterShutdownWorks) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  ASSERT_EQ(driver->Identify().status, Status::kOk);
  ASSERT_EQ(driver->Shutdown(), Status::kOk);
  ASSERT_EQ(driver->Probe(), Status::kOk);
  EXPECT_THAT(device(), Wrote("CC", 0x00460000));
  EXPECT_THAT(device(), FieldIs("CSTS.SHST", 0));
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 1));
  IdentifyResult again = driver->Identify();
  ASSERT_EQ(again.status, Status::kOk);
  EXPECT_EQ(again.id.vid, 0x1B36);
  EXPECT_EQ(again.completion.sq_head, 1);  // the reset emptied the queues
}

// 70 commands in a 32-entry queue: the completion tail wraps twice, the
// controller inverts its phase tag each time, and the driver's expected
// phase follows (nvme_update_cq_head).
TEST_F(DriverTest, SeventyIdentifyCommandsAcrossTwoWraps) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  std::set<uint16_t> cids;
  for (int i = 1; i <= 70; ++i) {
    IdentifyResult result = driver->Identify();
    ASSERT_EQ(result.status, Status::kOk) << "command " << i;
    ASSERT_EQ(result.id.nn, 1u) << "command " << i;
    EXPECT_EQ(result.completion.sq_head, i % 32) << "command " << i;
    cids.insert(result.completion.cid);
    EXPECT_EQ(driver->admin_queue().cq_phase(), (i / 32) % 2 == 0 ? 1 : 0) << "command " << i;
    EXPECT_THAT(device(), FieldIs("ADMIN_CQ_PHASE.P", driver->admin_queue().cq_phase())) << "command " << i;
  }
  EXPECT_EQ(driver->admin_queue().cq_head(), 6);
  EXPECT_THAT(device(), FieldIs("ADMIN_CQ_TAIL", 6));
  EXPECT_THAT(device(), FieldIs("ADMIN_SQ_HEAD", 6));
  EXPECT_GT(cids.size(), 16u);  // tag and generation: consecutive commands never share a CID
}

// The admin queue's completion waits for the driver behind the INTx pin:
// one rising edge per command, low again once CQ0HDBL releases it.
TEST_F(DriverTest, EachCommandRaisesTheInterruptOnce) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  uint64_t edges = device().interrupt_edges();
  ASSERT_EQ(driver->Identify().status, Status::kOk);
  ASSERT_EQ(driver->Identify().status, Status::kOk);
  EXPECT_EQ(device().interrupt_edges() - edges, 2u);
  EXPECT_FALSE(device().interrupt_asserted());
}

// INTMS masks vector 0: a completion is pending (IS.V0) but the pin stays
// low; the driver still finds it by polling the completion queue; INTMC
// unmasks, and with nothing pending any more the pin stays low.
TEST_F(DriverTest, MaskedThroughIntmsThePinStaysLow) {
  auto driver = MakeDriver({}, /*interrupt_driven=*/false);
  ASSERT_EQ(driver->Probe(), Status::kOk);
  uint64_t edges = device().interrupt_edges();
  driver->MaskInterrupt();
  EXPECT_THAT(device(), FieldIs("IVM.V0", 1));

  Command identify;
  identify.opcode = kOpcodeIdentify;
  identify.prp1 = 0x5000'0000;
  identify.cdw10_15[0] = kCnsController;
  driver->admin_queue().Submit(identify, 0x0042);
  EXPECT_THAT(device(), FieldIs("IS.V0", 1));
  EXPECT_FALSE(device().interrupt_asserted());

  std::optional<Completion> cqe = driver->admin_queue().Reap();
  ASSERT_TRUE(cqe.has_value());
  EXPECT_EQ(cqe->cid, 0x0042);
  driver->admin_queue().RingCqDoorbell();
  EXPECT_THAT(device(), FieldIs("IS.V0", 0));

  driver->UnmaskInterrupt();
  EXPECT_THAT(device(), FieldIs("IVM.V0", 0));
  EXPECT_FALSE(device().interrupt_asserted());
  EXPECT_EQ(device().interrupt_edges(), edges);
}

// Unmasking with a completion still pending raises the pin at once.
TEST_F(DriverTest, UnmaskingWithACompletionPendingRaisesThePin) {
  auto driver = MakeDriver({}, /*interrupt_driven=*/false);
  ASSERT_EQ(driver->Probe(), Status::kOk);
  driver->MaskInterrupt();
  Command identify;
  identify.opcode = kOpcodeIdentify;
  identify.prp1 = 0x5000'0000;
  identify.cdw10_15[0] = kCnsController;
  driver->admin_queue().Submit(identify, 0x0042);
  EXPECT_FALSE(device().interrupt_asserted());
  driver->UnmaskInterrupt();
  EXPECT_TRUE(device().interrupt_asserted());
  ASSERT_TRUE(driver->admin_queue().Reap().has_value());
  driver->admin_queue().RingCqDoorbell();
  EXPECT_FALSE(device().interrupt_asserted());
}

// An interrupt-driven driver with the vector masked never hears of its
// completion: it times out after ADMIN_TIMEOUT (60 s) of virtual time.
TEST_F(DriverTest, InterruptDrivenCommandTimesOutWhileMasked) {
  auto driver = MakeDriver();
  ASSERT_EQ(driver->Probe(), Status::kOk);
  driver->MaskInterrupt();
  uint64_t before = device().now_ns();
  EXPECT_EQ(driver->Identify().status, Status::kTimedOut);
  EXPECT_GE(device().now_ns() - before, 60 * kSecond);
  EXPECT_THAT(device(), FieldIs("IS.V0", 1));
  EXPECT_EQ(device().interrupt_edges(), 0u);
}

}  // namespace
}  // namespace regemu::nvme
