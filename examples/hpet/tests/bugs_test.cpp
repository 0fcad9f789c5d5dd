// Each deliberate driver bug and exactly what regemu reports for it: the
// violation kind, the register, the spec's sentence, the database rule and
// the driver function that made the access, and what the bug does to the
// interrupts; then the test takes the violations (the fixture would fail on
// any left over). kNoTooLateCheck breaks no register rule: the event that
// never comes shows it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <vector>

#include "examples/hpet/tests/hpet_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::hpet {
namespace {

using fakes::FieldIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr uint64_t kSecondNs = 1'000'000'000;

class BugsTest : public HpetTest {};

// On resume (hpet_resume_counter) the counter runs: resetting it without
// hpet_stop_counter writes both halves of MAIN_CNT while it counts.
TEST_F(BugsTest, CounterResetWhileRunningIsReportedAtBothHalves) {
  auto hpet = MakeDriver({Bug::kCounterResetWhileRunning});
  ASSERT_EQ(hpet->Enable(), Status::kOk);  // at boot the sanitizing stopped it: no mistake yet
  EXPECT_THAT(TakeViolations(), IsEmpty());
  Run(1'000'000);
  hpet->ResumeCounter();
  const char* kHalted = "writes to the main counter should only be done while it is halted";
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations,
              ElementsAre(RuleViolation("protocol", "MAIN_CNT", kHalted, Rule("main_counter_written_while_running")),
                          RuleViolation("protocol", "MAIN_CNT", kHalted, Rule("main_counter_written_while_running"))));
  ASSERT_EQ(violations.size(), 2u);
  EXPECT_THAT(FunctionOf(violations[0]), HasSubstr("ResetCounter"));
  EXPECT_EQ(violations[0].offset, 0xF0u);
  EXPECT_EQ(violations[1].offset, 0xF4u);
}

// The same resume, bug-free: stop, reset, start, no violation.
TEST_F(BugsTest, TheCleanResumeStopsTheCounterFirst) {
  auto hpet = MakeDriver();
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  Run(1'000'000);
  hpet->ResumeCounter();
  EXPECT_LT(hpet->ReadCounter(), 100u);  // reset, and counting again
}

// The periodic tick on channel 1: TYPE_CNF does not take (no
// PER_INT_CAP), so the timer is one-shot, and its second comparator write
// (the period, for a periodic timer) moves its only event. One interrupt
// on IRQ8 (timer 1 in LegacyReplacement mode) instead of 1000.
TEST_F(BugsTest, PeriodicOnAOneShotChannelTicksOnce) {
  auto hpet = MakeDriver({Bug::kPeriodicOnOneShotChannel});
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  ASSERT_EQ(hpet->TickChannel(), 1u);
  hpet->SetPeriodic(hpet->TickChannel(), 1000);
  std::vector<emulator::Violation> violations = TakeViolations();
  EXPECT_THAT(violations, ElementsAre(RuleViolation("protocol", "T1_CONF",
                                                    "set on a timer without periodic capability",
                                                    Rule("t1_periodic_not_capable"))));
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_THAT(FunctionOf(violations[0]), HasSubstr("SetPeriodic"));
  EXPECT_THAT(device(), FieldIs("T1_CONF.TYPE_CNF", 0));
  Run(kSecondNs);
  EXPECT_EQ(Edges("IRQ8"), 1u);
  EXPECT_EQ(Edges("IRQ0"), 0u);
}

// Without the read-back after the comparator write, an event passed during
// an SMI is reported as programmed: no -ETIME, no retry, and the event never
// comes (the clean driver's retry brings it: DriverTest). No violation: the
// device did what it was told.
TEST_F(BugsTest, NoTooLateCheckLosesTheEvent) {
  auto hpet = MakeDriver({Bug::kNoTooLateCheck});
  ASSERT_EQ(hpet->Enable(), Status::kOk);
  hpet->SetOneShot(0);
  Smi(0, 20'000);
  EXPECT_EQ(hpet->ProgramEvent(0, hpet->clockevent().min_delta_ns), Status::kOk);
  Run(kSecondNs);
  EXPECT_EQ(Edges("IRQ0"), 0u);
  EXPECT_THAT(TakeViolations(), IsEmpty());
}

}  // namespace
}  // namespace regemu::hpet
