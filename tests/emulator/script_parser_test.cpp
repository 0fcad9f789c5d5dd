// The script parser: every command, every error at its line and column, and
// hostile input turned into clean errors.
#include <cstdint>
#include <iterator>
#include <random>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/script/script.hpp"
#include "tests/emulator/script_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using regdb::testing_support::ErrorAt;
using script_testing::Parse;
using script_testing::TestModel;

RegisterId Reg(std::string_view name) { return *TestModel()->FindRegister(name); }
SpaceId Space(std::string_view name) { return *TestModel()->FindSpace(name); }

// The one error of a one-line script.
regdb::Diagnostic OnlyError(const std::string& text) {
  Script script = Parse(text);
  EXPECT_EQ(script.diagnostics.error_count(), 1u) << script.FormatErrors();
  return script.diagnostics.all().empty() ? regdb::Diagnostic{} : script.diagnostics.all().front();
}

// ------------------------------------------------------------------ commands

TEST(ScriptParser, AccessCommandsByRegisterName) {
  Script script = Parse(
      "write32 CTRL 0x101\n"
      "read32 STATUS\n"
      "expect32 CTRL 0x1 mask 0x1\n"
      "poll32 COUNT 5 timeout 1us\n"
      "peek16 SMALL\n"
      "poke64 WIDE 0xffff_ffff_ffff_ffff\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  ASSERT_THAT(script.commands, SizeIs(6));
  const ScriptCommand& write = script.commands[0];
  EXPECT_EQ(write.op, ScriptOp::kWrite);
  EXPECT_EQ(write.loc.line, 1u);
  EXPECT_EQ(write.width, 32u);
  EXPECT_EQ(write.target.space, Space("mmio"));
  EXPECT_EQ(write.target.offset, 0x10u);
  EXPECT_EQ(write.target.reg, Reg("CTRL"));
  EXPECT_EQ(write.target.display, "CTRL");
  EXPECT_EQ(write.value, 0x101u);
  EXPECT_EQ(script.commands[1].op, ScriptOp::kRead);
  EXPECT_EQ(script.commands[1].loc.line, 2u);
  const ScriptCommand& expect = script.commands[2];
  EXPECT_EQ(expect.op, ScriptOp::kExpect);
  EXPECT_EQ(expect.value, 1u);
  EXPECT_EQ(expect.mask, 1u);
  const ScriptCommand& poll = script.commands[3];
  EXPECT_EQ(poll.op, ScriptOp::kPoll);
  EXPECT_EQ(poll.value, 5u);
  EXPECT_EQ(poll.mask, 0xFFFF'FFFFu);  // all N bits when no mask is given
  EXPECT_EQ(poll.timeout_ns, 1000u);
  EXPECT_EQ(script.commands[4].op, ScriptOp::kPeek);
  EXPECT_EQ(script.commands[4].width, 16u);
  EXPECT_EQ(script.commands[5].op, ScriptOp::kPoke);
  EXPECT_EQ(script.commands[5].value, ~uint64_t{0});
}

TEST(ScriptParser, SpaceAndOffsetNameTheRegisterThatDecodesThere) {
  Script script = Parse("write32 mmio 0x14 0x1\nread8 mmio 0x100\nread64 msr 0x10\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_EQ(script.commands[0].target.offset, 0x14u);
  EXPECT_EQ(script.commands[0].target.reg, Reg("STATUS"));
  EXPECT_EQ(script.commands[0].target.display, "mmio 0x14 (STATUS)");
  EXPECT_EQ(script.commands[1].target.reg, kNoRegister);  // nothing decodes: a frontdoor access may still try
  EXPECT_EQ(script.commands[1].target.display, "mmio 0x100");
  EXPECT_EQ(script.commands[2].target.space, Space("msr"));
  EXPECT_EQ(script.commands[2].target.reg, Reg("PERF_CTL"));
}

TEST(ScriptParser, ANarrowerAccessByNameTakesTheRegistersLowBytes) {
  Script script = Parse("write8 CTRL 0xff\nexpect16 CTRL 0x1\nread32 PERF_CTL\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_EQ(script.commands[0].width, 8u);
  EXPECT_EQ(script.commands[0].target.offset, 0x10u);
  EXPECT_EQ(script.commands[1].mask, 0xFFFFu);
  EXPECT_EQ(script.commands[2].target.offset, 0x10u);
}

TEST(ScriptParser, TimeResetInjectAndExpectations) {
  Script script = ParseScript(
      "step 500ns\n"
      "step 2us\n"
      "step 3ms\n"
      "step 1s\n"
      "reset\n"
      "inject gt_iir rcs0 0x0001\n"
      "expect-irq 1\n"
      "expect-irq 0\n"
      "expect-violation read-only\n"
      "write32 ISR 0\n",
      "test.script", *script_testing::InjectModel());
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  ASSERT_THAT(script.commands, SizeIs(10));
  EXPECT_EQ(script.commands[0].value, 500u);
  EXPECT_EQ(script.commands[1].value, 2'000u);
  EXPECT_EQ(script.commands[2].value, 3'000'000u);
  EXPECT_EQ(script.commands[3].value, 1'000'000'000u);
  EXPECT_EQ(script.commands[4].op, ScriptOp::kReset);
  const ScriptCommand& inject = script.commands[5];
  EXPECT_EQ(inject.op, ScriptOp::kInject);
  EXPECT_EQ(inject.verb, "gt_iir");  // its arguments are checked when it runs
  EXPECT_THAT(inject.args, ElementsAre("rcs0", "0x0001"));
  EXPECT_EQ(inject.verb_loc.column, 8u);
  EXPECT_EQ(script.commands[6].value, 1u);
  EXPECT_EQ(script.commands[7].value, 0u);
  EXPECT_EQ(script.commands[8].op, ScriptOp::kExpectViolation);
  EXPECT_EQ(script.commands[8].violation, ViolationKind::kReadOnly);
}

TEST(ScriptParser, SnapshotAndRestoreTakeNoOperands) {
  Script script = Parse("snapshot\nrestore   # back\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  ASSERT_THAT(script.commands, SizeIs(2));
  EXPECT_EQ(script.commands[0].op, ScriptOp::kSnapshot);
  EXPECT_EQ(script.commands[1].op, ScriptOp::kRestore);
  EXPECT_EQ(ScriptCommandName(script.commands[1]), "restore");

  Script bad = Parse("snapshot now\nrestore 1\n");
  EXPECT_THAT(bad.FormatErrors(), HasSubstr("test.script:1:10: error: unexpected 'now' (usage: snapshot)"));
  EXPECT_THAT(bad.FormatErrors(), HasSubstr("test.script:2:9: error: unexpected '1' (usage: restore)"));
}

TEST(ScriptParser, CommentsBlankLinesTabsAndCrLfAreAccepted) {
  Script script = Parse(
      "# a comment line\n"
      "\n"
      "   \t \n"
      "\twrite32\tCTRL   0x1   # trailing comment with any bytes: \xff\x01 µs\r\n"
      "reset#comment right after\r\n"
      "read32 CTRL");  // no final newline
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  ASSERT_THAT(script.commands, SizeIs(3));
  EXPECT_EQ(script.commands[0].loc.line, 4u);
  EXPECT_EQ(script.commands[0].loc.column, 2u);
  EXPECT_EQ(script.commands[1].loc.line, 5u);
  EXPECT_EQ(script.commands[2].loc.line, 6u);
}

TEST(ScriptParser, NumbersInHexBinaryDecimalWithSeparators) {
  Script script = Parse("write32 CTRL 0b1_0000_0001\nwrite32 CTRL 257\nwrite32 CTRL 0X101\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  for (const ScriptCommand& command : script.commands) EXPECT_EQ(command.value, 0x101u);
}

TEST(ScriptParser, TraceLinesAsRenderedParse) {
  // The shapes RenderTraceEntry produces, comments included.
  Script script = Parse(
      "write32 mmio 0x10 0x00000001  # t=0ns seq=1 CTRL\n"
      "expect32 mmio 0x14 0x00000001  # t=0ns seq=2 STATUS\n"
      "expect-violation mbz\n"
      "write32 mmio 0x10 0x00000020  # t=0ns seq=3 CTRL\n"
      "expect8 mmio 0x100 0x00  # t=0ns seq=4 (unclaimed)\n"
      "step 500ns  # t=0ns seq=5\n"
      "reset  # t=500ns seq=6\n"
      "expect64 msr 0x10 0x0000000000000000  # t=500ns seq=7 PERF_CTL\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_THAT(script.commands, SizeIs(8));
}

TEST(ScriptParser, SeveralExpectViolationLinesAnnounceForTheSameCommand) {
  Script script = Parse("expect-violation read-only\nexpect-violation mbz\n# between\nwrite32 mmio 0x10 0\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_THAT(script.commands, SizeIs(3));
}

TEST(ScriptParser, CommandNamesAsWritten) {
  Script script = Parse("poke16 SMALL 1\nexpect-irq 0\nexpect-violation mbz\nwrite32 CTRL 0x20\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_EQ(ScriptCommandName(script.commands[0]), "poke16");
  EXPECT_EQ(ScriptCommandName(script.commands[1]), "expect-irq");
  EXPECT_EQ(ScriptCommandName(script.commands[2]), "expect-violation");
}

// -------------------------------------------------------------------- errors

TEST(ScriptParserErrors, UnknownCommandSuggestsTheClosestOne) {
  EXPECT_THAT(OnlyError("reset\n  wirte32 CTRL 1\n"),
              ErrorAt(2, 3, "unknown command 'wirte32' (did you mean 'write32'?)"));
  EXPECT_THAT(OnlyError("expect-irg 1\n"), ErrorAt(1, 1, "unknown command 'expect-irg' (did you mean 'expect-irq'?)"));
  EXPECT_THAT(OnlyError("frobnicate\n"), ErrorAt(1, 1, "unknown command 'frobnicate'"));
}

TEST(ScriptParserErrors, AccessCommandsNeedOneOfTheFourWidths) {
  EXPECT_THAT(OnlyError("write CTRL 1\n"),
              ErrorAt(1, 1, "'write' needs an access width: write8, write16, write32 or write64"));
  EXPECT_THAT(OnlyError("read12 CTRL\n"), ErrorAt(1, 5, "access width '12' is not 8, 16, 32 or 64"));
}

TEST(ScriptParserErrors, UnknownRegisterSuggestsTheClosestName) {
  EXPECT_THAT(OnlyError("write32 CTLR 1\n"), ErrorAt(1, 9, "unknown register or space 'CTLR' (did you mean 'CTRL'?)"));
  EXPECT_THAT(OnlyError("read32 mmoi 0x10\n"),
              ErrorAt(1, 8, "unknown register or space 'mmoi' (did you mean 'mmio'?)"));
  EXPECT_THAT(OnlyError("read32 status\n"),
              ErrorAt(1, 8, "unknown register or space 'status' (did you mean 'STATUS'?)"));
}

TEST(ScriptParserErrors, AnAccessByNameMustNotBeWiderThanTheRegister) {
  EXPECT_THAT(OnlyError("write64 CTRL 0\n"),
              ErrorAt(1, 9, AllOf(HasSubstr("register 'CTRL' is 32 bits wide"), HasSubstr("'mmio 0x10'"))));
  EXPECT_THAT(OnlyError("read32 SMALL\n"), ErrorAt(1, 8, HasSubstr("'SMALL' is 16 bits wide")));
}

TEST(ScriptParserErrors, ValuesMustBeNumbersThatFitTheWidth) {
  EXPECT_THAT(OnlyError("write8 mmio 0x10 0x100\n"), ErrorAt(1, 18, "VALUE 0x100 does not fit in 8 bits"));
  EXPECT_THAT(OnlyError("write16 SMALL 65536\n"), ErrorAt(1, 15, "VALUE 0x10000 does not fit in 16 bits"));
  EXPECT_THAT(OnlyError("write32 CTRL 0xZZ\n"),
              ErrorAt(1, 14, "bad VALUE: '0xZZ' is not a number: 'Z' is not a hexadecimal digit"));
  EXPECT_THAT(OnlyError("write32 CTRL 0x1_0000_0000_0000_0000\n"),
              ErrorAt(1, 14, HasSubstr("does not fit in 64 bits")));
  EXPECT_THAT(OnlyError("write32 mmio 0x1__0 1\n"), ErrorAt(1, 14, "bad OFFSET: '0x1__0' has '__' in it"));
  EXPECT_THAT(OnlyError("expect32 CTRL 1 mask 0x1_0000_0000\n"),
              ErrorAt(1, 22, "mask 0x100000000 does not fit in 32 bits"));
}

TEST(ScriptParserErrors, MissingOperandsPointJustPastTheLine) {
  EXPECT_THAT(OnlyError("write32 CTRL\n"),
              ErrorAt(1, 13, "missing VALUE (usage: writeN REG VALUE)"));
  EXPECT_THAT(OnlyError("read32\n"),
              ErrorAt(1, 7, "missing REG (a register name or SPACE OFFSET) (usage: readN REG)"));
  EXPECT_THAT(OnlyError("read32 mmio   # no offset\n"), ErrorAt(1, 12, "missing OFFSET (usage: readN REG)"));
  EXPECT_THAT(OnlyError("poll-step\n"), ErrorAt(1, 10, HasSubstr("missing DURATION")));
  EXPECT_THAT(OnlyError("inject\n"), ErrorAt(1, 7, "missing VERB (usage: inject VERB ARGS...)"));
  EXPECT_THAT(OnlyError("expect-violation\n"), ErrorAt(1, 17, HasSubstr("missing KIND")));
  EXPECT_THAT(OnlyError("expect32 CTRL 1 mask\n"), ErrorAt(1, 21, HasSubstr("missing mask")));
}

TEST(ScriptParserErrors, ExtraWordsAreErrors) {
  EXPECT_THAT(OnlyError("reset now\n"), ErrorAt(1, 7, "unexpected 'now' (usage: reset)"));
  EXPECT_THAT(OnlyError("write32 CTRL 1 2\n"), ErrorAt(1, 16, "unexpected '2' (usage: writeN REG VALUE)"));
  EXPECT_THAT(OnlyError("expect32 CTRL 1 timeout 1us\n"),
              ErrorAt(1, 17, "unexpected 'timeout' (usage: expectN REG VALUE [mask M])"));
  EXPECT_THAT(OnlyError("step 1us 2us\n"), ErrorAt(1, 10, HasSubstr("unexpected '2us'")));
  EXPECT_THAT(OnlyError("expect-irq 1 0\n"), ErrorAt(1, 14, HasSubstr("unexpected '0'")));
}

TEST(ScriptParserErrors, ExpectAndPollOptions) {
  EXPECT_THAT(OnlyError("expect32 CTRL 0x3 mask 0x1\n"),
              ErrorAt(1, 15, "VALUE 0x3 has bits outside mask 0x1: they would never be compared"));
  EXPECT_THAT(OnlyError("expect32 CTRL 1 mask 1 mask 1\n"), ErrorAt(1, 24, "'mask' is given twice"));
  EXPECT_THAT(OnlyError("poll32 COUNT 1 mask 1\n"),
              ErrorAt(1, 22, "missing 'timeout DURATION' (usage: pollN REG VALUE [mask M] timeout DURATION)"));
  EXPECT_THAT(OnlyError("poll32 COUNT 1 timeout 1us timeout 2us\n"), ErrorAt(1, 28, "'timeout' is given twice"));
  // Options may come in either order.
  EXPECT_TRUE(Parse("poll32 COUNT 1 timeout 1us mask 1\n").ok());
}

TEST(ScriptParserErrors, DurationsNeedAUnit) {
  EXPECT_THAT(OnlyError("step 5\n"),
              ErrorAt(1, 6, "bad duration: expected a duration with a unit (ns, us, ms, s), got '5'"));
  EXPECT_THAT(OnlyError("step 5min\n"), ErrorAt(1, 6, HasSubstr("bad duration")));
  EXPECT_THAT(OnlyError("poll32 COUNT 1 timeout forever\n"), ErrorAt(1, 24, HasSubstr("bad duration")));
  EXPECT_THAT(OnlyError("step 99999999999999999999s\n"), ErrorAt(1, 6, HasSubstr("does not fit in 64 bits")));
  EXPECT_THAT(OnlyError("step 18446744074s\n"), ErrorAt(1, 6, HasSubstr("is too long")));
}

TEST(ScriptParserErrors, ExpectIrqTakesZeroOrOne) {
  EXPECT_THAT(OnlyError("expect-irq 2\n"), ErrorAt(1, 12, "expect-irq takes 0 (deasserted) or 1 (asserted), not '2'"));
}

TEST(ScriptParser, ExpectMsiTakesAnAddressAndData) {
  Script script = Parse("expect-msi 0xFEE00000 0x4021\nexpect-msi 0x1_0000_0000 0\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  ASSERT_THAT(script.commands, SizeIs(2));
  EXPECT_EQ(script.commands[0].op, ScriptOp::kExpectMsi);
  EXPECT_EQ(script.commands[0].address, 0xFEE00000u);
  EXPECT_EQ(script.commands[0].value, 0x4021u);
  EXPECT_EQ(script.commands[1].address, uint64_t{1} << 32);
  EXPECT_EQ(ScriptCommandName(script.commands[0]), "expect-msi");
}

TEST(ScriptParserErrors, ExpectMsiNeedsTwoNumbers) {
  EXPECT_THAT(OnlyError("expect-msi 0xFEE00000\n"), ErrorAt(1, 22, HasSubstr("DATA")));
  EXPECT_THAT(OnlyError("expect-msi lapic 1\n"), ErrorAt(1, 12, HasSubstr("bad ADDRESS")));
  EXPECT_THAT(OnlyError("expect-msi 1 2 3\n"), ErrorAt(1, 16, HasSubstr("unexpected '3'")));
  EXPECT_THAT(OnlyError("expect-mis 1 2\n"), ErrorAt(1, 1, HasSubstr("did you mean 'expect-msi'?")));
}

TEST(ScriptParserErrors, ViolationKinds) {
  EXPECT_THAT(OnlyError("expect-violation mbx\nwrite32 CTRL 0\n"),
              ErrorAt(1, 18, "unknown violation kind 'mbx' (did you mean 'mbz'?)"));
  EXPECT_THAT(OnlyError("expect-violation everything\nwrite32 CTRL 0\n"),
              ErrorAt(1, 18, AllOf(HasSubstr("unknown violation kind 'everything' (kinds: read-only write-only mbz"),
                                   HasSubstr("unmodelled)"))));
  EXPECT_THAT(OnlyError("expect-violation mbz\nexpect-violation mbz\nwrite32 CTRL 0x20\n"),
              ErrorAt(2, 18, "violation kind 'mbz' is already announced for the next command"));
}

TEST(ScriptParserErrors, ExpectViolationNeedsACommandAfterIt) {
  EXPECT_THAT(OnlyError("write32 CTRL 0\nexpect-violation mbz\n# nothing follows\n\n"),
              ErrorAt(2, 1, "expect-violation must be followed by the command that records the violation"));
}

TEST(ScriptParserErrors, BackdoorAccessesMustStayInTheirSpace) {
  EXPECT_THAT(OnlyError("peek32 mmio 0x1000\n"),
              ErrorAt(1, 8, "'mmio 0x1000' lies outside space 'mmio' (size 0x1000)"));
  EXPECT_THAT(OnlyError("peek64 mmio 0xffc\n"), ErrorAt(1, 8, HasSubstr("lies outside space 'mmio'")));
  EXPECT_THAT(OnlyError("poke64 msr 0x100 1\n"), ErrorAt(1, 8, HasSubstr("lies outside space 'msr'")));
  EXPECT_THAT(OnlyError("poke32 mmio 0x100 1\n"),
              ErrorAt(1, 8, "no register holds 'mmio 0x100': a poke sets register state (or memory-space bytes), and there is none there"));
  // Frontdoor accesses may go anywhere: the device reports what they break.
  EXPECT_TRUE(Parse("read32 mmio 0xffffffffffffffff\nwrite32 mmio 0x100 1\npeek32 mmio 0x100\n").ok());
}

TEST(ScriptParserErrors, EveryErrorIsReportedInLineOrder) {
  Script script = Parse(
      "write32 CTRL 1\n"
      "wirte32 CTRL 1\n"
      "read32 NOPE\n"
      "step 5\n"
      "reset\n");
  EXPECT_THAT(script.diagnostics.all(),
              ElementsAre(ErrorAt(2, 1, HasSubstr("wirte32")), ErrorAt(3, 8, HasSubstr("NOPE")),
                          ErrorAt(4, 6, HasSubstr("duration"))));
}

TEST(ScriptParserErrors, RenderedLikeCompilerDiagnosticsWithTheLineAndACaret) {
  Script script = Parse("reset\nwrite32 CTLR 1\n");
  EXPECT_EQ(script.FormatErrors(),
            "test.script:2:9: error: unknown register or space 'CTLR' (did you mean 'CTRL'?)\n"
            " 2 | write32 CTLR 1\n"
            "   |         ^\n");
}

// ------------------------------------------------------------ hostile input

// ------------------------------------------------------- inject, dump, poll-step

Script ParseInject(const std::string& text) {
  return ParseScript(text, "test.script", *script_testing::InjectModel());
}

TEST(ScriptParserInject, AVerbNoBehaviourTakesIsAnErrorBeforeAnythingRuns) {
  Script script = ParseInject("write32 IER 1\ninject frob 1 2\ninject gt_irr 3\ninject gt_iir 3\n");
  EXPECT_THAT(script.diagnostics.all(),
              ElementsAre(ErrorAt(2, 8, "no behaviour of device 'i' handles 'inject frob'"),
                          ErrorAt(3, 8, "no behaviour of device 'i' handles 'inject gt_irr' (did you mean "
                                        "'gt_iir'?)")));
}

TEST(ScriptParserInject, ABehaviourThatTakesNoVerbIsNamed) {
  Script script = ParseInject("inject ticker 1\n");
  EXPECT_THAT(script.diagnostics.all(),
              ElementsAre(ErrorAt(1, 8, "no behaviour of device 'i' handles 'inject ticker': behaviour 'ticker' "
                                        "(counter) takes no inject verb named after it")));
  // A device without behaviours takes none.
  EXPECT_THAT(OnlyError("inject frob\n"), ErrorAt(1, 8, "no behaviour of device 't' handles 'inject frob'"));
}

TEST(ScriptParserInject, ArgumentsAreLeftToTheRun) {
  Script script = ParseInject("inject gt_iir\ninject gt_iir 99 sideways\n");
  EXPECT_TRUE(script.ok()) << script.FormatErrors();
}

TEST(ScriptParser, DumpTakesAnOptionalSpace) {
  Script script = Parse("dump\ndump msr   # one space\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_EQ(script.commands[0].op, ScriptOp::kDump);
  EXPECT_FALSE(script.commands[0].dump_space.has_value());
  EXPECT_EQ(script.commands[1].dump_space, Space("msr"));
  EXPECT_THAT(OnlyError("dump mimo\n"), ErrorAt(1, 6, "unknown space 'mimo' (did you mean 'mmio'?) (dump takes a "
                                                       "space, or nothing for every space)"));
  EXPECT_THAT(OnlyError("dump mmio msr\n"), ErrorAt(1, 11, "unexpected 'msr' (usage: dump [SPACE])"));
}

TEST(ScriptParser, PollStepGivesEachLaterPollItsInterval) {
  Script script = Parse("poll32 COUNT 1 timeout 1us\npoll-step 2us\npoll32 COUNT 1 timeout 1ms\n"
                        "poll-step 5ns\npoll32 COUNT 1 timeout 1ms\n");
  ASSERT_TRUE(script.ok()) << script.FormatErrors();
  EXPECT_EQ(script.commands[0].poll_step_ns, 0u);  // the runner's default
  EXPECT_EQ(script.commands[1].op, ScriptOp::kPollStep);
  EXPECT_EQ(script.commands[1].value, 2'000u);
  EXPECT_EQ(script.commands[2].poll_step_ns, 2'000u);
  EXPECT_EQ(script.commands[4].poll_step_ns, 5u);
}

TEST(ScriptParserErrors, PollStepNeedsADurationAndBoundsThePollsReads) {
  EXPECT_THAT(OnlyError("poll-step 0ns\n"), ErrorAt(1, 11, "the poll step must be at least 1ns"));
  EXPECT_THAT(OnlyError("poll-step 10\n"), ErrorAt(1, 11, HasSubstr("bad duration")));
  EXPECT_THAT(OnlyError("poll-step\n"), ErrorAt(1, 10, "missing DURATION (usage: poll-step DURATION)"));
  Script script = Parse("poll-step 1ns\npoll32 COUNT 1 timeout 1ms\n", {.max_poll_reads = 1000});
  EXPECT_THAT(script.diagnostics.all(),
              ElementsAre(ErrorAt(2, 1, "this poll may read 1000001 times (its timeout every 1ns, the poll-step of "
                                        "line 1); at most 1000: set a longer poll-step or a shorter timeout")));
  EXPECT_TRUE(Parse("poll-step 1us\npoll32 COUNT 1 timeout 999us\n", {.max_poll_reads = 1000}).ok());
}

TEST(ScriptParserHostile, BinaryBytesOutsideCommentsAreErrorsWithTheirColumn) {
  EXPECT_THAT(OnlyError(std::string("write32 CTRL 1\x00\n", 16)),
              ErrorAt(1, 15, "unexpected byte 0x0: commands are ASCII text (anything may follow '#')"));
  EXPECT_THAT(OnlyError("reset\nread32 \xff\xfe\n"), ErrorAt(2, 8, HasSubstr("unexpected byte 0xff")));
  EXPECT_THAT(OnlyError("reset\rreset\n"), ErrorAt(1, 6, HasSubstr("unexpected byte 0xd")));
}

TEST(ScriptParserHostile, ALineLongerThanTheLimitIsOneError) {
  ScriptLimits limits;
  limits.max_line_length = 100;
  Script script = Parse("reset\nwrite32 CTRL " + std::string(10'000, '1') + "\nreset\n", limits);
  EXPECT_THAT(script.diagnostics.all(),
              ElementsAre(ErrorAt(2, 101, "line is longer than 100 characters before its comment")));
  EXPECT_THAT(script.commands, SizeIs(2));
}

TEST(ScriptParserHostile, CommentsMayBeAnyLength) {
  ScriptLimits limits;
  limits.max_line_length = 100;
  Script script = Parse("reset  # " + std::string(10'000, 'x') + "\n", limits);
  EXPECT_TRUE(script.ok()) << script.FormatErrors();
}

TEST(ScriptParserHostile, LongNamesAndNumbersUpToTheLimitAreCleanErrors) {
  std::string name(4000, 'A');
  EXPECT_THAT(OnlyError("read32 " + name + "\n"), ErrorAt(1, 8, "unknown register or space '" + name + "'"));
  EXPECT_THAT(OnlyError("write32 CTRL 0x" + std::string(4000, 'f') + "\n"),
              ErrorAt(1, 14, HasSubstr("does not fit in 64 bits")));
}

TEST(ScriptParserHostile, AnOversizedScriptIsRefusedWhole) {
  ScriptLimits limits;
  limits.max_bytes = 1000;
  Script script = Parse(std::string(1001, '#'), limits);
  ASSERT_EQ(script.diagnostics.error_count(), 1u);
  EXPECT_EQ(script.FormatErrors(), "test.script: error: the script is 1001 bytes; the limit is 1000\n");
}

TEST(ScriptParserHostile, ErrorsPastTheLimitAreCountedNotKept) {
  std::string text;
  for (int i = 0; i < 500; ++i) text += "wirte32 CTRL 1\n";
  Script script = Parse(text);
  EXPECT_EQ(script.diagnostics.error_count(), 500u);
  EXPECT_THAT(script.diagnostics.all(), SizeIs(regdb::Diagnostics::kDefaultErrorLimit));
  EXPECT_THAT(script.FormatErrors(), HasSubstr("450 more error(s) not shown"));
}

TEST(ScriptParserHostile, RandomBytesNeverThrow) {
  // Fixed seed: deterministic. Mixes script words with arbitrary bytes.
  std::mt19937_64 random(42);
  const char* words[] = {"write32 ", "read8 ", "CTRL ", "mmio ", "0x10 ", "poll16 ", "mask ",
                         "timeout ", "1us ", "expect-violation ", "mbz ", "#", "\n", "\r\n",
                         "step ", "inject ", "\t", "0b2 ", "99999999999999999999 ", "CTRL.EN ",
                         "CTRL.", ".HI ", "dump ", "poll-step "};
  for (int round = 0; round < 300; ++round) {
    std::string text;
    for (int i = 0; i < 60; ++i) {
      if (random() % 3 == 0) {
        text += static_cast<char>(random() % 256);
      } else {
        text += words[random() % std::size(words)];
      }
    }
    Script script;
    EXPECT_NO_THROW(script = Parse(text));
    EXPECT_NO_THROW(script.FormatErrors());
  }
}

}  // namespace
}  // namespace regemu::emulator
