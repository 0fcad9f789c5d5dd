// Each deliberate driver bug and exactly what regemu reports for it: the
// violation kind, the register, the spec's sentence, the database rule and
// the driver function that made the access; then the test takes them (the
// fixture would fail on any left over). kWrongPhase breaks no register
// rule: its outcome, a command that never completes, shows it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "examples/nvme/tests/nvme_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::nvme {
namespace {

using fakes::FieldIs;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::Each;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class BugsTest : public NvmeTest {};

// First probe: the controller is enabled with AQA still 0 (a one-entry
// admin queue), then AQA and both dwords of ASQ and ACQ are written while
// CC.EN = 1.
TEST_F(BugsTest, QueueRegistersAfterEnableAreWrittenWhileEnabled) {
  auto driver = MakeDriver({Bug::kQueueRegistersAfterEnable});
  ASSERT_EQ(driver->Probe(), Status::kOk);
  const char* kWhileEnabled = "AQA, ASQ and ACQ shall only be modified while CC.EN is 0";
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations,
              ElementsAre(RuleViolation("protocol", "CC", "the admin queues need at least two entries",
                                        Rule("admin_queue_too_small")),
                          RuleViolation("protocol", "AQA", kWhileEnabled, Rule("admin_queue_while_enabled")),
                          RuleViolation("protocol", "ASQ", kWhileEnabled, Rule("admin_queue_while_enabled")),
                          RuleViolation("protocol", "ASQ", kWhileEnabled, Rule("admin_queue_while_enabled")),
                          RuleViolation("protocol", "ACQ", kWhileEnabled, Rule("admin_queue_while_enabled")),
                          RuleViolation("protocol", "ACQ", kWhileEnabled, Rule("admin_queue_while_enabled"))));
  ASSERT_EQ(violations.size(), 6u);
  EXPECT_THAT(FunctionOf(violations[0]), HasSubstr("EnableCtrl"));
  EXPECT_THAT(FileOf(violations[0]), EndsWith("examples/nvme/core.cpp"));
  for (size_t i = 1; i < violations.size(); ++i) {
    EXPECT_THAT(FunctionOf(violations[i]), HasSubstr("ProgramAdminQueue"));
    EXPECT_THAT(FileOf(violations[i]), EndsWith("examples/nvme/pci.cpp"));
  }
}

// A reset of a running controller: EN cleared, and set again at once while
// CSTS.RDY is still 1.
TEST_F(BugsTest, NoWaitForNotReadyEnablesWhileStillReady) {
  auto clean = MakeDriver();
  ASSERT_EQ(clean->Probe(), Status::kOk);
  auto driver = MakeDriver({Bug::kNoWaitForNotReady});
  ASSERT_EQ(driver->Probe(), Status::kOk);
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations, ElementsAre(RuleViolation("protocol", "CC",
                                                    "CC.EN set to 1 while CSTS.RDY is still 1",
                                                    Rule("enable_before_not_ready"))));
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].value, 0x00460001u);
  EXPECT_THAT(FunctionOf(violations[0]), HasSubstr("EnableCtrl"));
}

// CC.EN set, no wait for RDY: Identify rings SQ0TDBL 0 ms later. The
// controller ignores a doorbell while not ready, so the command is never
// processed and the driver times out.
TEST_F(BugsTest, DoorbellBeforeReadyIsReportedAndTheCommandIsLost) {
  auto driver = MakeDriver({Bug::kDoorbellBeforeReady});
  ASSERT_EQ(driver->Probe(), Status::kOk);
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 0));
  EXPECT_EQ(driver->Identify().status, Status::kTimedOut);
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations, ElementsAre(RuleViolation("protocol", "SQ0TDBL",
                                                    "a submission queue tail doorbell was written while CSTS.RDY is 0",
                                                    Rule("doorbell_before_ready"))));
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_THAT(FunctionOf(violations[0]), HasSubstr("Submit"));
  EXPECT_THAT(FileOf(violations[0]), EndsWith("examples/nvme/admin_queue.cpp"));
}

// The expected phase flips after the first completion (1 -> 0) instead of
// at the wrap: the second completion, written with phase 1 into slot 1,
// never looks new. No register access is wrong, so regemu reports
// nothing; the driver-visible outcome is the timeout.
TEST_F(BugsTest, WrongPhaseNeverSeesTheSecondCompletion) {
  auto driver = MakeDriver({Bug::kWrongPhase});
  ASSERT_EQ(driver->Probe(), Status::kOk);
  IdentifyResult first = driver->Identify();
  ASSERT_EQ(first.status, Status::kOk);
  EXPECT_EQ(first.id.vid, 0x1B36);
  EXPECT_EQ(driver->admin_queue().cq_phase(), 0);  // the correct driver still expects 1 here
  uint64_t before = device().now_ns();
  IdentifyResult second = driver->Identify();
  EXPECT_EQ(second.status, Status::kTimedOut);
  EXPECT_GE(device().now_ns() - before, 60 * kSecond);
  // The controller did complete it: slot 1 holds it, unreleased, vector 0 pending.
  EXPECT_THAT(device(), FieldIs("ADMIN_CQ_TAIL", 2));
  EXPECT_THAT(device(), FieldIs("IS.V0", 1));
  EXPECT_THAT(TakeViolations(), IsEmpty());
}

// SHN = 01b, then CC.EN = 0 in the next write, while CSTS.SHST is 01b.
TEST_F(BugsTest, ShutdownWithoutWaitResetsDuringShutdownProcessing) {
  auto driver = MakeDriver({Bug::kShutdownWithoutWait});
  ASSERT_EQ(driver->Probe(), Status::kOk);
  ASSERT_EQ(driver->Shutdown(), Status::kOk);
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations,
              ElementsAre(RuleViolation("protocol", "CC", "CC.EN cleared while shutdown processing is occurring",
                                        Rule("reset_during_shutdown"))));
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].value, 0x00464000u);
  EXPECT_THAT(FunctionOf(violations[0]), HasSubstr("ShutdownCtrl"));
  EXPECT_THAT(device(), FieldIs("CSTS.SHST", 0));  // the reset abandoned the shutdown
}

// CC.MPS = CAP.MPSMAX + 1 = 5 (128 KiB pages): unsupported, and the 4 KiB
// aligned admin queues are misaligned for that page size.
TEST_F(BugsTest, BadPageSizeIsOutsideMpsminMpsmax) {
  auto driver = MakeDriver({Bug::kBadPageSize});
  ASSERT_EQ(driver->Probe(), Status::kOk);
  EXPECT_THAT(device(), FieldIs("CC.MPS", 5));
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations,
              ElementsAre(RuleViolation("protocol", "CC", "CC.MPS is outside CAP.MPSMIN..CAP.MPSMAX",
                                        Rule("page_size_unsupported")),
                          RuleViolation("protocol", "CC", "ASQ and ACQ must be aligned to the memory page size",
                                        Rule("admin_queue_misaligned"))));
  for (const emulator::Violation& v : violations) EXPECT_THAT(FunctionOf(v), HasSubstr("EnableCtrl"));
}

}  // namespace
}  // namespace regemu::nvme
