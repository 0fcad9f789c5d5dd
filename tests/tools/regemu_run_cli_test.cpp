// `regemu run` as a user runs it: the binary, its exit codes and output.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::StartsWith;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// CTRL is read/write, STATUS read-only with reset 1.
constexpr const char* kSmallDb = R"(device: small
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - {name: CTRL, space: mmio, offset: 0x0}
  - {name: STATUS, space: mmio, offset: 0x4, access: ro, reset: 0x1}
)";

class RegemuRunCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("regemu_run_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = Write("small.yaml", kSmallDb).string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs regemu from the source tree so relative paths work.
  RunResult Run(const std::string& args) {
    fs::path out = dir_ / "stdout.txt";
    fs::path err = dir_ / "stderr.txt";
    std::string command = "cd '" + std::string(REGEMU_SOURCE_DIR) + "' && '" + std::string(REGEMU_BINARY) + "' " +
                          args + " >'" + out.string() + "' 2>'" + err.string() + "'";
    int status = std::system(command.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = Slurp(out);
    result.err = Slurp(err);
    return result;
  }

  fs::path Write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  // `run` on the small database with an inline script.
  RunResult RunSmall(const std::string& script, const std::string& flags = "") {
    fs::path path = Write("test.script", script);
    return Run("run " + flags + (flags.empty() ? "" : " ") + "'" + db_ + "' '" + path.string() + "'");
  }

  fs::path dir_;
  std::string db_;
};

// ------------------------------------------------------- the Haswell demo

TEST_F(RegemuRunCli, HaswellOaBufferSetupPasses) {
  RunResult r = Run("run yaml/hsw tests/scripts/hsw_oa_buffer_setup.script");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  EXPECT_THAT(r.out, AllOf(StartsWith("expect32 mmio 0x2360 0x00000000  # t=0ns seq=1 OACONTROL\n"),
                           HasSubstr("expect-violation mbz\nwrite32 mmio 0x2368 0x01000021"),
                           HasSubstr("write32 mmio 0x2360 0x00000175"),
                           HasSubstr("tests/scripts/hsw_oa_buffer_setup.script:38: announced violation: mbz: "
                                     "write32 mmio 0x2368 (OASTATUS2.RESERVED_5)"),
                           HasSubstr("read32 OACONTROL = 0x00000175"),
                           HasSubstr("peek32 mmio 0x23b0 (OABUFFER) = 0x01000000"),
                           HasSubstr("PASS tests/scripts/hsw_oa_buffer_setup.script: "),
                           HasSubstr(" 0 failed; 1 violation(s): 1 announced, 0 not announced (strict)\n")));
}

TEST_F(RegemuRunCli, HaswellOaBufferSetupWithTheMistakeUnannouncedFails) {
  RunResult r = Run("run yaml/hsw tests/scripts/hsw_oa_buffer_setup_bad.script");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("tests/scripts/hsw_oa_buffer_setup_bad.script:38: error: violation not "
                                     "announced by expect-violation: mbz: write32 mmio 0x2368 "
                                     "(OASTATUS2.RESERVED_5) value 0x01000021: must-be-zero bits 0x20 written as 1"),
                           HasSubstr("the accesses before it:"), HasSubstr("FAIL "),
                           HasSubstr("0 announced, 1 not announced (strict)")));
  // Lenient: recorded and printed, not failing.
  RunResult lenient = Run("run --lenient yaml/hsw tests/scripts/hsw_oa_buffer_setup_bad.script");
  EXPECT_EQ(lenient.exit_code, 0) << lenient.out;
  EXPECT_THAT(lenient.out, AllOf(HasSubstr("violation (recorded, not failing): mbz"), HasSubstr("(lenient)")));
}

// ------------------------------------------------------------- exit codes

TEST_F(RegemuRunCli, AFailedExpectationExitsOneAndNamesItsLine) {
  RunResult r = RunSmall("write32 CTRL 0x5\nexpect32 CTRL 0x6\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, AllOf(HasSubstr("test.script:2:1: error: expectation failed: CTRL read 0x00000005, expected "
                                     "0x00000006\n 2 | expect32 CTRL 0x6\n   | ^\n"),
                           HasSubstr("1 failed")));
  EXPECT_THAT(r.err, IsEmpty());
}

TEST_F(RegemuRunCli, AnUnannouncedViolationExitsOneUnlessLenient) {
  EXPECT_EQ(RunSmall("write32 STATUS 0\n").exit_code, 1);
  EXPECT_EQ(RunSmall("write32 STATUS 0\n", "--lenient").exit_code, 0);
  EXPECT_EQ(RunSmall("expect-violation read-only\nwrite32 STATUS 0\n").exit_code, 0);
}

TEST_F(RegemuRunCli, AScriptErrorExitsTwoBeforeAnythingRuns) {
  RunResult r = RunSmall("write32 CTRL 1\nwirte32 CTRL 1\nread32 STATSU\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("test.script:2:1: error: unknown command 'wirte32' (did you mean 'write32'?)"),
                           HasSubstr("test.script:3:8: error: unknown register or space 'STATSU' (did you mean "
                                     "'STATUS'?)")));
  EXPECT_THAT(r.out, IsEmpty());
}

TEST_F(RegemuRunCli, AnInjectNoBehaviourTakesIsAScriptErrorBeforeAnythingRuns) {
  RunResult r = RunSmall("write32 CTRL 1\ninject frob\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("test.script:2:8: error: no behaviour of device 'small' handles 'inject frob'"));
  EXPECT_THAT(r.out, IsEmpty()) << "nothing ran";
}

TEST_F(RegemuRunCli, AnInjectWithBadArgumentsStopsTheRunWhereItIs) {
  fs::path script = Write("irq.script", "write16 PCICMD 0x6\ninject pci-request 7\n");
  RunResult r = Run("run yaml/icl '" + script.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("irq.script:2:8: error: inject pci-request: pci-request takes 0"));
  EXPECT_THAT(r.out, HasSubstr("write16 config 0x4 0x0006"));  // the trace up to the error
}

TEST_F(RegemuRunCli, ADatabaseErrorExitsTwoWithItsDiagnostics) {
  fs::path bad = Write("bad.yaml", "device: bad\nspaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
                                   "registers:\n  - {name: A, space: mmio, ofset: 0x10}\n");
  fs::path script = Write("ok.script", "reset\n");
  RunResult r = Run("run '" + bad.string() + "' '" + script.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr(bad.string() + ":4:28: error: unknown key 'ofset'"), HasSubstr(": 2 error(s)")));
}

TEST_F(RegemuRunCli, UsageErrorsExitTwo) {
  fs::path script = Write("ok.script", "reset\n");
  EXPECT_EQ(Run("run").exit_code, 2);
  EXPECT_EQ(Run("run yaml/hsw").exit_code, 2);
  EXPECT_EQ(Run("run --frobnicate yaml/hsw '" + script.string() + "'").exit_code, 2);
  RunResult no_db = Run("run does/not/exist '" + script.string() + "'");
  EXPECT_EQ(no_db.exit_code, 2);
  EXPECT_THAT(no_db.err, HasSubstr("no such file or folder: does/not/exist"));
  RunResult no_script = Run("run yaml/hsw does/not/exist.script");
  EXPECT_EQ(no_script.exit_code, 2);
  EXPECT_THAT(no_script.err, HasSubstr("no such script file: does/not/exist.script"));
  RunResult bad_cost = Run("run --access-cost 10 yaml/hsw '" + script.string() + "'");
  EXPECT_EQ(bad_cost.exit_code, 2);
  EXPECT_THAT(bad_cost.err, HasSubstr("--access-cost: expected a duration with a unit"));
  EXPECT_EQ(Run("run --trace-capacity -1 yaml/hsw '" + script.string() + "'").exit_code, 2);
}

TEST_F(RegemuRunCli, BinaryScriptIsACleanScriptError) {
  RunResult r = RunSmall(std::string("reset\n\x7f" "ELF\x02\x01\x01\x00\x00\n", 15));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("test.script:2:1: error: unexpected byte 0x7f"));
}

// ----------------------------------------------------------- stdin, fields

TEST_F(RegemuRunCli, ADashReadsTheScriptFromStandardInput) {
  fs::path script = Write("in.script", "write32 CTRL 5\nexpect32 CTRL 5\nread32 STATUS\n");
  RunResult r = Run("run '" + db_ + "' - < '" + script.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("write32 mmio 0x0 0x00000005"),
                           HasSubstr("<stdin>:3: read32 STATUS = 0x00000001\n"),
                           HasSubstr("PASS <stdin>: 3 command(s), 1 check(s)")));
  // Errors name <stdin> and the line.
  fs::path bad = Write("bad.script", "reset\nexpect32 CTRL.EN 1\n");
  RunResult error = Run("run '" + db_ + "' - < '" + bad.string() + "'");
  EXPECT_EQ(error.exit_code, 2);
  EXPECT_THAT(error.err, HasSubstr("<stdin>:2:15: error: register 'CTRL' has no fields: name the whole register"));
  // Nothing on standard input is an empty script.
  EXPECT_EQ(Run("run '" + db_ + "' - < /dev/null").exit_code, 0);
}

TEST_F(RegemuRunCli, FieldsByNameWithEnumeratedValuesInFailures) {
  // RING_CTL.REPORT is enumerated (NO_REPORT, REPORT_64K, REPORT_128K).
  RunResult r = Run("run yaml/icl tests/scripts/icl_ring_setup_fields.script");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  fs::path script = Write("ring.script", "write16 PCICMD.MSE 1\nwrite32 FORCEWAKE_RENDER_GEN9.KERNEL 1\nstep 1us\n"
                                         "write32 RCS0_RING_CTL.REPORT 2\nexpect32 RCS0_RING_CTL.REPORT 1\n"
                                         "expect32 RCS0_RING_CTL 0x1\n");
  RunResult failed = Run("run yaml/icl '" + script.string() + "'");
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_THAT(failed.out, AllOf(HasSubstr("ring.script:5:1: error: expectation failed: RCS0_RING_CTL.REPORT read "
                                          "2(REPORT_128K), expected 1(REPORT_64K) (RCS0_RING_CTL = 0x00000004)"),
                                HasSubstr("ring.script:6:1: error: expectation failed: RCS0_RING_CTL read 0x00000004, "
                                          "expected 0x00000001: REPORT=2(REPORT_128K), expected 0(NO_REPORT); "
                                          "RING_VALID=0, expected 1")));
}

TEST_F(RegemuRunCli, QuietPrintsOnlyFailuresAndTheResult) {
  RunResult passed = RunSmall("write32 CTRL 5\nread32 CTRL\nexpect-violation read-only\nwrite32 STATUS 0\n", "--quiet");
  EXPECT_EQ(passed.exit_code, 0);
  EXPECT_THAT(passed.out, StartsWith("PASS "));
  EXPECT_EQ(std::count(passed.out.begin(), passed.out.end(), '\n'), 1) << passed.out;

  RunResult failed = RunSmall("write32 CTRL 5\nexpect32 CTRL 6\nwrite32 STATUS 0\nread32 CTRL\n", "--quiet");
  EXPECT_EQ(failed.exit_code, 1);
  // No trace (its lines start a line; a violation's context indents them), no values.
  EXPECT_THAT(failed.out, AllOf(StartsWith((dir_ / "test.script").string() + ":2:1: error: expectation failed: CTRL "
                                                                            "read 0x00000005"),
                                HasSubstr("test.script:3: error: violation not announced by expect-violation: "
                                          "read-only"),
                                HasSubstr("\nFAIL "), Not(HasSubstr("\nwrite32 mmio")),
                                Not(HasSubstr("read32 CTRL ="))));
  EXPECT_THAT(failed.err, IsEmpty());
}

TEST_F(RegemuRunCli, ThePrintedTraceCollapsesPolls) {
  RunResult r = Run("run yaml/icl tests/scripts/icl_ring_setup_fields.script");
  EXPECT_THAT(r.out, HasSubstr("expect32 mmio 0xd84 0x00000000  # t=0ns seq=9 FORCEWAKE_ACK_RENDER_GEN9: polled 5 "
                               "times, the last at t=400ns\nstep 500ns  # the poll's waits, seq=10..18\n"
                               "expect32 mmio 0xd84 0x00000001  # t=500ns seq=19"));
  // ...and the collapsed trace still replays.
  std::string trace = r.out.substr(0, r.out.find("\n\n") + 1);
  RunResult replay = Run("run yaml/icl '" + Write("replay.script", trace).string() + "'");
  EXPECT_EQ(replay.exit_code, 0) << replay.out << replay.err;
}

// ---------------------------------------------------------------- options

TEST_F(RegemuRunCli, AccessCostMovesVirtualTime) {
  RunResult r = RunSmall("write32 CTRL 1\nexpect32 CTRL 1\n", "--access-cost 10ns");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("expect32 mmio 0x0 0x00000001  # t=10ns seq=2 CTRL\n"));
}

TEST_F(RegemuRunCli, ASmallTraceSaysWhatItDropped) {
  RunResult r = RunSmall("write32 CTRL 1\nwrite32 CTRL 2\nwrite32 CTRL 3\n", "--trace-capacity 2");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, AllOf(StartsWith("# trace: the first 1 of 3 entries are not shown (--trace-capacity 2)\n"
                                      "write32 mmio 0x0 0x00000002"),
                           Not(HasSubstr("0x00000001  #"))));
  EXPECT_THAT(RunSmall("reset\n", "--trace-capacity 0").out, StartsWith("# trace: off"));
}

TEST_F(RegemuRunCli, ThePrintedTraceReplaysToTheSameTrace) {
  RunResult first = RunSmall("write32 CTRL 0x5\nexpect-violation read-only\nwrite32 STATUS 0\nstep 1us\n"
                             "poll32 CTRL 5 timeout 1us\nreset\nread32 CTRL\n",
                             "--access-cost 3ns");
  ASSERT_EQ(first.exit_code, 0) << first.out;
  std::string trace = first.out.substr(0, first.out.find("\n\n") + 1);
  fs::path replay = Write("replay.script", trace);
  RunResult second = Run("run --access-cost 3ns '" + db_ + "' '" + replay.string() + "'");
  EXPECT_EQ(second.exit_code, 0) << second.out;
  EXPECT_EQ(second.out.substr(0, second.out.find("\n\n") + 1), trace);
}

TEST_F(RegemuRunCli, HelpNamesTheOptionsAndTheTraceDefault) {
  RunResult help = Run("run --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, AllOf(HasSubstr("--lenient"), HasSubstr("--quiet"), HasSubstr("- reads stdin"),
                              HasSubstr("--trace-capacity"), HasSubstr("65536"),
                              HasSubstr("--access-cost"), HasSubstr("--oa-recording"),
                              HasSubstr("--oa-metric-set"), HasSubstr("SCRIPT")));
  EXPECT_THAT(Run("--help").out, AllOf(HasSubstr("check"), HasSubstr("run")));
  // `check` keeps working next to `run`.
  EXPECT_EQ(Run("check yaml/hsw").exit_code, 0);
}

// ---------------------------------------------------------- --oa-recording
// (a recording itself: tests/tools/oa_recording_*_test.cpp)

TEST_F(RegemuRunCli, OaRecordingNeedsADatabaseWithAnOaUnit) {
  fs::path recording = dir_ / "out.i915perf";
  RunResult r = RunSmall("write32 CTRL 1\n", "--oa-recording '" + recording.string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("regemu run: --oa-recording: the database has no oa-unit behaviour"));
  EXPECT_THAT(r.out, IsEmpty()) << "nothing ran";
  EXPECT_FALSE(fs::exists(recording));
}

TEST_F(RegemuRunCli, OaMetricSetMustBeANameTheReaderCanMatch) {
  RunResult empty = RunSmall("write32 CTRL 1\n", "--oa-recording x.i915perf --oa-metric-set ''");
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_THAT(empty.err, HasSubstr("regemu run: --oa-metric-set: the metric set name must be printable ASCII of 1 "
                                   "to 255 bytes"));
  RunResult alone = RunSmall("write32 CTRL 1\n", "--oa-metric-set RenderBasic");
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_THAT(alone.err, HasSubstr("--oa-metric-set requires --oa-recording"));
}

TEST_F(RegemuRunCli, OaRecordingThatCannotBeWrittenExitsTwoBeforeTheScriptRuns) {
  RunResult r = Run("run --oa-recording '" + (dir_ / "no_such_folder" / "oa.i915perf").string() +
                    "' yaml/icl tests/scripts/icl_oa_recording.script");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("regemu run: --oa-recording: cannot write "));
  EXPECT_THAT(r.out, IsEmpty());
}

TEST_F(RegemuRunCli, OaRecordingWithoutAReportIsAnErrorAndLeavesNoFile) {
  fs::path recording = dir_ / "oa.i915perf";
  RunResult r = Run("run --oa-recording '" + recording.string() + "' yaml/icl tests/scripts/icl_forcewake_get_put.script");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("PASS tests/scripts/icl_forcewake_get_put.script")) << "the script's own report stays";
  EXPECT_THAT(r.err, HasSubstr(recording.string() + ": the OA unit wrote no report into its buffer"));
  EXPECT_FALSE(fs::exists(recording)) << "i915-perf-reader would crash on it";
}

// i915-perf-reader reads each sample as 256 bytes, whatever its record says.
TEST_F(RegemuRunCli, OaRecordingOfA64ByteFormatIsAnError) {
  fs::path script = Write("a12.script", R"(write16 PCICMD 0x0006
write32 FORCEWAKE_RENDER_GEN9 0x00010001
write32 FORCEWAKE_GT_GEN9 0x00010001
poll32 FORCEWAKE_ACK_RENDER_GEN9 0x1 mask 0x1 timeout 50ms
poll32 FORCEWAKE_ACK_GT_GEN9 0x1 mask 0x1 timeout 50ms
write32 OACTXCONTROL 0x00000037
write32 OASTATUS 0x00000000
write32 OAHEADPTR 0x01000000
write32 OABUFFER_UDW 0x00000000
write32 OABUFFER 0x01000039
write32 OATAILPTR 0x01000000
write32 OACONTROL 0x00000001
step 3ms
)");
  fs::path recording = dir_ / "oa.i915perf";
  RunResult r = Run("run --oa-recording '" + recording.string() + "' yaml/icl '" + script.string() + "'");
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("the OA unit wrote a 64-byte report (format A12, C4_B8) at "));
  EXPECT_THAT(r.err, HasSubstr("i915-perf-reader decodes only 256-byte reports (format A32u40_A4u32_B8_C8)"));
  EXPECT_FALSE(fs::exists(recording));
}

TEST_F(RegemuRunCli, OaRecordingOfAMetricSetWithoutAKnownUuidSaysWhatTheReaderWillDo) {
  fs::path recording = dir_ / "oa.i915perf";
  RunResult r = Run("run --oa-recording '" + recording.string() +
                    "' --oa-metric-set MemoryReads yaml/icl tests/scripts/icl_oa_recording.script");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("note: regemu knows no uuid of metric set 'MemoryReads' on device 0x8a52: "
                               "i915-perf-reader will warn of a different HW configuration"));
  EXPECT_THAT(r.out, HasSubstr("oa-recording: " + recording.string() + ": 43 report(s)"));
  EXPECT_TRUE(fs::exists(recording));
}

}  // namespace
