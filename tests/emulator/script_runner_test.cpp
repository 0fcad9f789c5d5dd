// Running scripts: expectations, polling in virtual time, announced and
// unannounced violations in strict and lenient mode, and the replay of a
// rendered trace.
#include <algorithm>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/emulator/trace.hpp"
#include "tests/emulator/script_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using script_testing::Ran;
using script_testing::TestModel;

MATCHER_P2(FailureAt, line, message_matcher, "a failure at line " + std::to_string(line)) {
  return arg.loc.line == static_cast<uint32_t>(line) &&
         ::testing::ExplainMatchResult(message_matcher, arg.message, result_listener);
}


Ran RunText(const std::string& text, RunOptions options = {}, DeviceOptions device_options = {}) {
  Ran ran;
  ran.script = ParseScript(text, "test.script", *TestModel());
  EXPECT_TRUE(ran.script.ok()) << ran.script.FormatErrors();
  ran.device = std::make_unique<Device>(TestModel(), std::move(device_options));
  ran.result = RunScript(ran.script, *ran.device, options);
  return ran;
}

size_t Count(const std::vector<TraceEntry>& trace, TraceOp op) {
  return static_cast<size_t>(
      std::count_if(trace.begin(), trace.end(), [&](const TraceEntry& e) { return e.op == op; }));
}

// -------------------------------------------------------------- expectations

TEST(ScriptRunner, ExpectationsThatHoldPass) {
  Ran ran = RunText(
      "expect32 STATUS 0x1\n"
      "write32 CTRL 0x101\n"
      "expect32 CTRL 0x101\n"
      "expect8 CTRL 0x01          # the low byte\n"
      "expect32 CTRL 0x100 mask 0xff00\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.result.checks, 4u);
  EXPECT_EQ(ran.result.commands_run, 5u);
}

TEST(ScriptRunner, AFailedExpectationNamesItsLineAndTheRunGoesOn) {
  Ran ran = RunText(
      "expect32 STATUS 0x2\n"
      "write32 CTRL 0x1\n"
      "expect32 CTRL 0x0 mask 0x1\n");
  EXPECT_FALSE(ran.result.passed());
  EXPECT_THAT(ran.result.failures,
              ElementsAre(FailureAt(1, "expectation failed: STATUS read 0x00000001, expected 0x00000002"),
                          FailureAt(3, "expectation failed: CTRL read 0x00000001, expected 0x00000000 under mask "
                                       "0x00000001: EN=1, expected 0")));
  EXPECT_EQ(ran.result.commands_run, 3u);
  EXPECT_EQ(FormatScriptFailure(ran.script, ran.result.failures[0]),
            "test.script:1:1: error: expectation failed: STATUS read 0x00000001, expected 0x00000002\n"
            " 1 | expect32 STATUS 0x2\n"
            "   | ^\n");
}

TEST(ScriptRunner, ReadsAndPeeksPrintTheirValuesAndOnlyReadsHaveSideEffects) {
  // CLEAR is clear-on-read with reset 0xff.
  Ran ran = RunText("peek32 CLEAR\nread32 CLEAR\npeek32 CLEAR\nread32 mmio 0x18\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.values,
              ElementsAre(Field(&ScriptValue::text, "peek32 CLEAR = 0x000000ff"),
                          Field(&ScriptValue::text, "read32 CLEAR = 0x000000ff"),
                          Field(&ScriptValue::text, "peek32 CLEAR = 0x00000000"),
                          Field(&ScriptValue::text, "read32 mmio 0x18 (CLEAR) = 0x00000000")));
  EXPECT_EQ(ran.result.values[1].loc.line, 2u);
}

TEST(ScriptRunner, PokeSetsStateBehindTheDriversBackWithoutViolations) {
  Ran ran = RunText("poke32 STATUS 0x5\nexpect32 STATUS 0x5\npoke8 mmio 0x11 0xab\nexpect32 CTRL 0xab00\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.violations, IsEmpty());
}

TEST(ScriptRunner, RestoreBringsBackWhatSnapshotSavedAndLaterSnapshotsReplaceIt) {
  Ran ran = RunText(
      "write32 CTRL 0x100\n"
      "snapshot\n"
      "write32 CTRL 0x200\n"
      "read32 CLEAR\n"        // clears CLEAR (reset 0xff)
      "restore\n"
      "expect32 CTRL 0x100\n"
      "expect32 CLEAR 0xff\n"  // the read's clearing undone too
      "write32 CTRL 0x300\n"
      "snapshot\n"
      "write32 CTRL 0x400\n"
      "restore\n"
      "expect32 CTRL 0x300\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.result.checks, 3u);
}

TEST(ScriptRunner, RestoreWithoutASnapshotStopsTheRun) {
  Ran ran = RunText("write32 CTRL 0x100\nrestore\nexpect32 CTRL 0x100\n");
  ASSERT_TRUE(ran.result.error.has_value());
  EXPECT_THAT(*ran.result.error, FailureAt(2, HasSubstr("restore without a snapshot")));
  EXPECT_EQ(ran.result.commands_run, 2u);
}

TEST(ScriptRunner, ExpectIrqComparesTheInterruptOutput) {
  EXPECT_TRUE(RunText("expect-irq 0\n").result.passed());
  Ran ran = RunText("expect-irq 1\n");
  EXPECT_THAT(ran.result.failures,
              ElementsAre(FailureAt(1, "expected the interrupt output asserted, but it is deasserted")));
}

// ---------------------------------------------------------------- violations

TEST(ScriptRunner, AnUnannouncedViolationFailsAStrictRun) {
  Ran ran = RunText("write32 STATUS 0x0\n");
  EXPECT_FALSE(ran.result.passed());
  EXPECT_THAT(ran.result.failures, IsEmpty());
  EXPECT_EQ(ran.result.unannounced_failing, 1u);
  ASSERT_THAT(ran.result.violations, SizeIs(1));
  EXPECT_EQ(ran.result.violations[0].violation.kind, ViolationKind::kReadOnly);
  EXPECT_FALSE(ran.result.violations[0].announced);
  EXPECT_EQ(ran.result.violations[0].loc.line, 1u);
}

TEST(ScriptRunner, AnAnnouncedViolationPasses) {
  Ran ran = RunText("expect-violation read-only\nwrite32 STATUS 0\nexpect32 STATUS 1\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  ASSERT_THAT(ran.result.violations, SizeIs(1));
  EXPECT_TRUE(ran.result.violations[0].announced);
  EXPECT_EQ(ran.result.violations[0].loc.line, 2u);
  EXPECT_EQ(ran.result.checks, 2u);
}

TEST(ScriptRunner, AnAnnouncedViolationThatDoesNotHappenIsAFailedExpectation) {
  Ran ran = RunText("expect-violation mbz\nwrite32 CTRL 0x1\n");
  EXPECT_FALSE(ran.result.passed());
  EXPECT_THAT(ran.result.failures,
              ElementsAre(FailureAt(1, "expected a 'mbz' violation from line 2 (write32), but it recorded none")));
}

TEST(ScriptRunner, AViolationOfAnotherKindIsBothAFailureAndUnannounced) {
  Ran ran = RunText("expect-violation mbz\nwrite32 STATUS 0\n");
  EXPECT_THAT(ran.result.failures, ElementsAre(FailureAt(1, HasSubstr("but it recorded read-only"))));
  EXPECT_EQ(ran.result.unannounced_failing, 1u);
}

TEST(ScriptRunner, AnAnnouncementCoversOnlyTheNextCommand) {
  Ran ran = RunText("expect-violation read-only\nwrite32 STATUS 0\nwrite32 STATUS 0\n");
  EXPECT_EQ(ran.result.unannounced_failing, 1u);
  ASSERT_THAT(ran.result.violations, SizeIs(2));
  EXPECT_TRUE(ran.result.violations[0].announced);
  EXPECT_FALSE(ran.result.violations[1].announced);
  EXPECT_EQ(ran.result.violations[1].loc.line, 3u);
}

TEST(ScriptRunner, SeveralKindsCanBeAnnouncedForOneCommand) {
  // One write that changes read-only STATUS... and nothing else: the mbz
  // announcement is unmet.
  Ran ran = RunText("expect-violation read-only\nexpect-violation mbz\nwrite32 STATUS 0\n");
  EXPECT_THAT(ran.result.failures, ElementsAre(FailureAt(2, HasSubstr("'mbz' violation from line 3"))));
  EXPECT_EQ(ran.result.unannounced_failing, 0u);
}

TEST(ScriptRunner, LenientRunsRecordViolationsWithoutFailing) {
  RunOptions lenient;
  lenient.policy = ViolationPolicy::Lenient();
  Ran ran = RunText("write32 STATUS 0x0\nwrite32 CTRL 0x20\n", lenient);
  EXPECT_TRUE(ran.result.passed());
  EXPECT_THAT(ran.result.violations, SizeIs(2));
  EXPECT_FALSE(ran.result.violations[0].violation.fails);
  // Announcements are still checked.
  EXPECT_FALSE(RunText("expect-violation mbz\nwrite32 CTRL 0x1\n", lenient).result.passed());
}

TEST(ScriptRunner, TheDeviceKeepsTheRunsPolicyAfterwards) {
  Ran ran = RunText("expect-violation read-only\nwrite32 STATUS 0\n");
  ASSERT_TRUE(ran.result.passed());
  ran.device->WriteRegister(*TestModel()->FindRegister("STATUS"), 0);
  EXPECT_EQ(ran.device->failing_violation_count(), 1u);
}

TEST(ScriptRunner, AnAnnouncedViolationTheDeviceNoLongerKeepsIsReported) {
  DeviceOptions keep_one;
  keep_one.max_violations = 1;
  RunOptions lenient;
  lenient.policy = ViolationPolicy::Lenient();
  Ran ran = RunText("write32 STATUS 0\nexpect-violation read-only\nwrite32 STATUS 0\n", lenient, keep_one);
  EXPECT_THAT(ran.result.failures, ElementsAre(FailureAt(2, HasSubstr("no longer keeps"))));
}

// ---------------------------------------------------------------------- time

TEST(ScriptRunner, StepDrivesTheCounterAndResetRestartsIt) {
  // COUNT adds 1 every 100ns of virtual time since reset.
  Ran ran = RunText(
      "step 250ns\n"
      "expect32 COUNT 2\n"
      "reset\n"
      "expect32 COUNT 0\n"
      "step 100ns\n"
      "expect32 COUNT 1\n"
      "step 1us\n"
      "expect32 COUNT 11\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.device->now_ns(), 1350u);
}

TEST(ScriptRunner, PollReadsEveryTenNanosecondsUntilTheValueArrives) {
  Ran ran = RunText("poll32 COUNT 5 timeout 1us\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.device->now_ns(), 500u);
  std::vector<TraceEntry> trace = ran.device->Trace();
  EXPECT_EQ(Count(trace, TraceOp::kRead), 51u);  // t = 0, 10, ..., 500
  EXPECT_EQ(Count(trace, TraceOp::kStep), 50u);
  EXPECT_EQ(trace.back().value, 5u);
}

TEST(ScriptRunner, PollThatNeverMatchesFailsWhenTheTimeoutHasPassed) {
  Ran ran = RunText("poll32 COUNT 0x1000 timeout 1us\nexpect32 COUNT 10\n");
  EXPECT_THAT(ran.result.failures,
              ElementsAre(FailureAt(1, "poll timed out after 1000ns of virtual time and 101 read(s): COUNT read "
                                       "0x0000000a, expected 0x00001000")));
  EXPECT_EQ(ran.device->now_ns(), 1000u);
}

TEST(ScriptRunner, PollMatchingAtOnceReadsOnce) {
  Ran ran = RunText("poll32 STATUS 1 mask 1 timeout 1ms\n");
  EXPECT_TRUE(ran.result.passed());
  EXPECT_EQ(ran.device->access_count(), 1u);
  EXPECT_EQ(ran.device->now_ns(), 0u);
}

TEST(ScriptRunner, PollWithZeroTimeoutReadsOnce) {
  Ran ran = RunText("poll32 COUNT 1 timeout 0ns\n");
  EXPECT_THAT(ran.result.failures, ElementsAre(FailureAt(1, HasSubstr("after 0ns of virtual time and 1 read(s)"))));
}

TEST(ScriptRunner, TheAccessCostCountsTowardsThePollInterval) {
  DeviceOptions slow;
  slow.access_cost_ns = 30;  // longer than the 10ns interval: no extra steps
  Ran ran = RunText("poll32 COUNT 2 timeout 1us\n", {}, slow);
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  std::vector<TraceEntry> trace = ran.device->Trace();
  EXPECT_EQ(Count(trace, TraceOp::kStep), 0u);
  EXPECT_EQ(Count(trace, TraceOp::kRead), 8u);  // t = 0, 30, ..., 210
  EXPECT_EQ(trace.back().time_ns, 210u);
}

TEST(ScriptRunner, ALongTimeoutPollsAtACoarserIntervalSoOnePollStaysBounded) {
  DeviceOptions big_trace;
  big_trace.trace_capacity = 0;
  Ran ran = RunText("poll32 COUNT 0xffffffff timeout 1s\n", {}, big_trace);
  EXPECT_THAT(ran.result.failures,
              ElementsAre(FailureAt(1, HasSubstr("after 1000000000ns of virtual time and 10001 read(s)"))));
}

TEST(ScriptRunner, TimePastTwoToTheSixtyFourIsAScriptError) {
  Ran ran = RunText("step 18446744073s\nstep 18446744073s\nreset\n");
  ASSERT_TRUE(ran.result.error.has_value());
  EXPECT_EQ(ran.result.error->loc.line, 2u);
  EXPECT_EQ(ran.result.error->message, "virtual time would pass 2^64 ns");
  EXPECT_EQ(ran.result.commands_run, 2u);
  EXPECT_FALSE(ran.result.passed());
}

// ------------------------------------------------------------------- inject

// (An inject no behaviour takes is a parse error: script_parser_test.cpp.)
TEST(ScriptRunner, AnInjectWithBadArgumentsStopsTheRunAtItsVerb) {
  std::shared_ptr<const Model> model = script_testing::InjectModel();
  Script script = ParseScript("reset\ninject gt_iir 99\nwrite32 IER 1\n", "test.script", *model);
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  Device device(model);
  RunResult result = RunScript(script, device);
  ASSERT_TRUE(result.error.has_value());
  EXPECT_EQ(result.error->loc.line, 2u);
  EXPECT_EQ(result.error->loc.column, 8u);
  EXPECT_THAT(result.error->message,
              AllOf(HasSubstr("inject gt_iir: bad bit '99' (0..31)"), HasSubstr("usage: inject gt_iir BIT [on|off]")));
  EXPECT_EQ(result.commands_run, 2u);
  EXPECT_EQ(device.PeekRegister(*model->FindRegister("IER")), 0u);
  EXPECT_FALSE(result.passed());
}

// ------------------------------------------------------------------ poll-step

TEST(ScriptRunner, PollStepSetsTheIntervalOfLaterPolls) {
  // COUNT adds 1 every 100ns: read every 30ns, 4 arrives at t=400 and is read at 420.
  Ran ran = RunText("poll-step 30ns\npoll32 COUNT 4 timeout 1us\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.device->now_ns(), 420u);
  EXPECT_EQ(Count(ran.device->Trace(), TraceOp::kRead), 15u);  // t = 0, 30, ..., 420
}

TEST(ScriptRunner, AnExplicitPollStepIsKeptForLongTimeouts) {
  // Without a poll-step, a 100ms timeout polls every 10us (10,000 reads)
  // and misses COUNT = 20 (t = 2us); with one, it polls every 1us.
  DeviceOptions no_trace;
  no_trace.trace_capacity = 0;
  Ran coarse = RunText("poll32 COUNT 20 timeout 100ms\n", {}, no_trace);
  EXPECT_THAT(coarse.result.failures, ElementsAre(FailureAt(1, HasSubstr("and 10001 read(s)"))));
  Ran fine = RunText("poll-step 1us\npoll32 COUNT 20 timeout 100ms\n", {}, no_trace);
  EXPECT_TRUE(fine.result.passed()) << fine.Failures();
  EXPECT_EQ(fine.device->now_ns(), 2'000u);
}

TEST(ScriptRunner, EachPollListsItsTraceEntries) {
  Ran ran = RunText("write32 CTRL 1\npoll32 COUNT 2 timeout 1us\npoll32 STATUS 1 timeout 1us\n");
  ASSERT_TRUE(ran.result.passed()) << ran.Failures();
  ASSERT_THAT(ran.result.polls, SizeIs(2));
  EXPECT_EQ(ran.result.polls[0].loc.line, 2u);
  EXPECT_EQ(ran.result.polls[0].first_sequence, 2u);   // after the write
  EXPECT_EQ(ran.result.polls[0].last_sequence, 42u);   // 21 reads, 20 steps
  EXPECT_EQ(ran.result.polls[1].first_sequence, 43u);
  EXPECT_EQ(ran.result.polls[1].last_sequence, 43u);   // matched at once
}

// -------------------------------------------------------------------- dump

TEST(ScriptRunner, DumpPrintsEveryRegisterWithItsFieldsByTheBackdoor) {
  // CLEAR is clear-on-read: a dump must not clear it, nor show in the trace.
  Ran ran = RunText("write32 CTRL 0x1201\ndump mmio\ndump\nexpect32 CLEAR 0xff\n");
  ASSERT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.device->access_count(), 2u) << "the write and the expect only";
  ASSERT_THAT(ran.result.values, SizeIs(2));
  EXPECT_EQ(ran.result.values[0].loc.line, 2u);
  EXPECT_EQ(ran.result.values[0].text,
            "dump mmio: 6 register(s)\n"
            "  mmio 0x10 CTRL   = 0x00001201  HI=0x12 RSVD=0 EN=1\n"
            "  mmio 0x14 STATUS = 0x00000001\n"
            "  mmio 0x18 CLEAR  = 0x000000ff\n"
            "  mmio 0x20 SMALL  = 0x0000\n"
            "  mmio 0x30 COUNT  = 0x00000000\n"
            "  mmio 0x40 WIDE   = 0x0000000000000000");
  EXPECT_THAT(ran.result.values[1].text,
              AllOf(HasSubstr("dump: 7 register(s)\n  mmio 0x10 CTRL     = 0x00001201  HI=0x12 RSVD=0 EN=1\n"),
                    HasSubstr("\n  msr  0x10 PERF_CTL = 0x0000000000000000")));
  EXPECT_THAT(ran.result.violations, IsEmpty());
}

TEST(ScriptRunner, DumpNamesEnumeratedValuesFromTheDatabase) {
  const script_testing::CompiledDevice& fields = script_testing::FieldDevice();
  Script script = ParseScript("dump aux\nwrite32 UART_CTL.MODE 1\ndump mmio\n", "test.script", *fields.model);
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  Device device(fields.model);
  RunResult result = RunScript(script, device, {.database = &fields.loaded.database});
  ASSERT_THAT(result.values, SizeIs(2));
  EXPECT_EQ(result.values[0].text, "dump aux: 1 register(s)\n  aux 0x0 AUX_CTL = 0x00000000  ON=0");
  EXPECT_THAT(result.values[1].text,
              HasSubstr("  mmio 0x0  UART_CTL = 0x00000004  DIV=0 RXCOUNT=0 NACK=0 ERR=0 RSVD=0 MODE=1(SLOW) "
                        "ENABLE=0\n"));
}

// ------------------------------------------------------------- trace rendering

TEST(ScriptRunner, ThePrintedTraceCollapsesAPollsIdenticalReads) {
  Ran ran = RunText("poll-step 20ns\npoll32 COUNT 2 timeout 1us\nread32 STATUS\nread32 STATUS\n");
  ASSERT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(RenderRunTrace(*TestModel(), ran.device->Trace(), ran.result.polls),
            "expect32 mmio 0x30 0x00000000  # t=0ns seq=1 COUNT: polled 5 times, the last at t=80ns\n"
            "step 100ns  # the poll's waits, seq=2..10\n"
            "expect32 mmio 0x30 0x00000001  # t=100ns seq=11 COUNT: polled 5 times, the last at t=180ns\n"
            "step 100ns  # the poll's waits, seq=12..20\n"
            "expect32 mmio 0x30 0x00000002  # t=200ns seq=21 COUNT\n"
            // Reads outside polls stay one line each.
            "expect32 mmio 0x14 0x00000001  # t=200ns seq=22 STATUS\n"
            "expect32 mmio 0x14 0x00000001  # t=200ns seq=23 STATUS\n");
}

TEST(ScriptRunner, ACollapsedTraceReplaysToTheSameTimeAndState) {
  DeviceOptions options;
  options.access_cost_ns = 7;
  Ran first = RunText("poll32 COUNT 3 timeout 1us\nwrite32 CTRL 0x100\npoll32 COUNT 0x100 timeout 250ns\n", {},
                      options);
  ASSERT_THAT(first.result.failures, SizeIs(1));  // the second poll times out
  std::string trace = RenderRunTrace(*TestModel(), first.device->Trace(), first.result.polls);
  // Reads take 7ns, so the 10ns interval is 7ns of access and a 3ns step.
  EXPECT_THAT(trace, AllOf(HasSubstr("seq=1 COUNT: polled 10 times, the last at t=90ns\nstep 93ns  # the poll's waits, "
                                     "seq=2..20\nexpect32 mmio 0x30 0x00000001  # t=100ns seq=21 COUNT"),
                           HasSubstr("COUNT: polled 7 times, the last at t=564ns\nstep 60ns  # the poll's waits, "
                                     "seq=102..113\n")));
  Ran replay = RunText(trace, {}, options);
  EXPECT_TRUE(replay.result.passed()) << replay.Failures();
  EXPECT_EQ(replay.device->now_ns(), first.device->now_ns());
  EXPECT_EQ(replay.device->PeekRegister(*TestModel()->FindRegister("CTRL")), 0x100u);
  EXPECT_LT(replay.device->access_count(), first.device->access_count() / 4);
}

// ------------------------------------------------------------------- replay

TEST(ScriptRunner, ARenderedTraceReplaysToTheSameTraceByteForByte) {
  DeviceOptions options;
  options.access_cost_ns = 5;
  Ran first = RunText(
      "write32 CTRL 0x101\n"
      "read32 CTRL\n"
      "expect-violation mbz\n"
      "write32 CTRL 0x20\n"
      "expect-violation read-only\n"
      "write32 STATUS 0x0\n"
      "expect-violation unclaimed\n"
      "read8 mmio 0x100\n"
      "expect-violation alignment\n"
      "write32 mmio 0x12 1\n"
      "poll32 COUNT 3 timeout 1us\n"
      "step 1us\n"
      "read32 CLEAR\n"
      "reset\n"
      "write16 SMALL 0xbeef\n"
      "expect16 SMALL 0xbeef\n"
      "write8 mmio 0x21 0x12\n"
      "read64 msr 0x10\n",
      {}, options);
  ASSERT_TRUE(first.result.passed()) << first.Failures();
  std::string trace = RenderTrace(*TestModel(), first.device->Trace());
  ASSERT_THAT(trace, AllOf(HasSubstr("expect-violation mbz\nwrite32 mmio 0x10 0x00000020"), HasSubstr("step ")));

  Ran replay = RunText(trace, {}, options);
  EXPECT_TRUE(replay.result.passed()) << replay.Failures();
  EXPECT_EQ(RenderTrace(*TestModel(), replay.device->Trace()), trace);
}

// ------------------------------------------------------------------ expect-msi

// A PCI function whose MSI the script enables; `inject pci-request` is its
// interrupt source (yaml/README.md "kind: pci-config").
Ran RunOnMsiDevice(const std::string& text) {
  static const std::shared_ptr<const Model> model = script_testing::CompileYaml(R"(device: f
spaces:
  - {name: config, kind: pci-config, size: 0x100}
registers:
  - {name: CMD, space: config, offset: 0x04, width: 16}
  - {name: MC, space: config, offset: 0x42, width: 16}
  - {name: MA, space: config, offset: 0x44, width: 32}
  - {name: MD, space: config, offset: 0x48, width: 16}
behaviours:
  - {kind: pci-config, command: CMD, msi: {control: MC, address: MA, data: MD}}
)");
  Ran ran;
  ran.script = ParseScript(text, "test.script", *model);
  EXPECT_TRUE(ran.script.ok()) << ran.script.FormatErrors();
  ran.device = std::make_unique<Device>(model);
  ran.result = RunScript(ran.script, *ran.device);
  return ran;
}

constexpr const char* kEnableMsi =
    "write16 CMD 0x4\nwrite32 MA 0xFEE00000\nwrite16 MD 0x21\nwrite16 MC 0x1\n";

TEST(ScriptRunner, ExpectMsiChecksEachMessageOnceInOrder) {
  Ran ran = RunOnMsiDevice(std::string(kEnableMsi) +
                           "inject pci-request 1\ninject pci-request 0\n"
                           "write16 MC 0x0\nwrite16 MD 0x22\nwrite16 MC 0x1\ninject pci-request 1\n"
                           "expect-msi 0xFEE00000 0x21\nexpect-msi 0xFEE00000 0x22\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.result.checks, 2u);
}

TEST(ScriptRunner, ExpectMsiFailsOnAnotherMessageOrNone) {
  Ran ran = RunOnMsiDevice(std::string(kEnableMsi) + "expect-msi 0xFEE00000 0x21\ninject pci-request 1\n"
                                                     "expect-msi 0xFEE00000 0x20\nexpect-msi 0xFEE00000 0x21\n");
  EXPECT_THAT(ran.result.failures,
              ElementsAre(FailureAt(5, "expected a message writing 0x21 to 0xfee00000, but the device sent no message "
                                       "since the last one checked"),
                          FailureAt(7, "expected a message writing 0x20 to 0xfee00000, but message 1 wrote 0x21 to "
                                       "0xfee00000"),
                          FailureAt(8, HasSubstr("no message since the last one checked"))));
}

}  // namespace
}  // namespace regemu::emulator
