// A real driver's capture carried through the tools as a user would: the
// example driver's mmiotrace (tests/data/traces, written by
// examples/i915_mini/capture) imported into a script that `regemu run`
// passes, replayed clean, and snapshotted after the driver's probe for IGT's
// intel_reg, which reads back the values the device holds.
#include <stdlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using regemu::testing_support::CliResult;
using regemu::testing_support::FindIntelReg;
using regemu::testing_support::kNoIntelRegMessage;
using regemu::testing_support::RunRegemu;
using regemu::testing_support::RunShell;
using ::testing::HasSubstr;

const std::string kTraces = std::string(REGEMU_SOURCE_DIR) + "/tests/data/traces/";

// What `regemu run` printed for a `peek32 NAME` line: "... = 0x80000000".
std::string PeekedValue(const std::string& run_output, const std::string& name) {
  std::smatch match;
  std::regex line("peek32 " + name + "[^\\n]*?(0x[0-9a-f]{8})");
  if (!std::regex_search(run_output, match, line)) return "(not printed)";
  return match[1];
}

class CaptureChainCli : public ::testing::Test {
 protected:
  CaptureChainCli() {
    std::string pattern = (fs::temp_directory_path() / "regemu-capture-chain-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~CaptureChainCli() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }

  fs::path dir_;
};

TEST_F(CaptureChainCli, ImportedCaptureOfTheExampleDriverPassesRunAndReplaysClean) {
  std::string script = Path("i915_mini.script");
  CliResult import = RunRegemu("import yaml/icl '" + kTraces + "i915_mini.mmiotrace' -o '" + script + "'");
  ASSERT_EQ(import.exit_code, 0) << import.err;
  EXPECT_THAT(import.err, HasSubstr("94 lines, 25 reads, 54 writes, 0 outside the database, 11 markers, 0 malformed"));
  CliResult run = RunRegemu("run --quiet yaml/icl '" + script + "'");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("PASS"));
  CliResult replay = RunRegemu("replay yaml/icl '" + kTraces + "i915_mini.mmiotrace'");
  EXPECT_EQ(replay.exit_code, 0) << replay.out;
  EXPECT_THAT(replay.out, HasSubstr("result: 0 gap range(s), 0 mistake(s), 0 violation(s)"));
}

// The issue's own check: intel_reg --mmio decodes a snapshot of yaml/icl
// taken after the example driver's run, and GEN11_GFX_MSTR_IRQ and a ring
// register read back what the device holds (the backdoor's peek).
TEST_F(CaptureChainCli, IntelRegReadsTheSnapshotAfterTheExampleDriversRun) {
  std::optional<std::string> intel_reg = FindIntelReg();
  if (!intel_reg) GTEST_SKIP() << kNoIntelRegMessage;
  std::string script = Path("probe.script");
  ASSERT_EQ(RunRegemu("import yaml/icl '" + kTraces + "i915_mini.mmiotrace' -o '" + script + "'").exit_code, 0);

  std::string peeks = Path("peeks.script");
  std::ofstream(peeks) << std::ifstream(script).rdbuf() << "peek32 GEN11_GFX_MSTR_IRQ\npeek32 RCS0_RING_START\n";
  CliResult run = RunRegemu("run yaml/icl '" + peeks + "'");
  ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
  std::string master = PeekedValue(run.out, "GEN11_GFX_MSTR_IRQ");
  std::string ring_start = PeekedValue(run.out, "RCS0_RING_START");
  // The driver left the master interrupt enabled and the render ring at 1 MiB.
  EXPECT_EQ(master, "0x80000000");
  EXPECT_EQ(ring_start, "0x00100000");

  std::string image = Path("icl.bin");
  CliResult snapshot = RunRegemu("snapshot yaml/icl '" + script + "' -o '" + image + "'");
  ASSERT_EQ(snapshot.exit_code, 0) << snapshot.err;
  CliResult read = RunShell("'" + *intel_reg + "' --mmio='" + image + "' --devid=0x8a52 read 0x190010 0x2038");
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_THAT(read.out, HasSubstr("(0x00190010): " + master));
  EXPECT_THAT(read.out, HasSubstr("(0x00002038): " + ring_start));
}

TEST_F(CaptureChainCli, DiffOfTheExampleDriverWithAndWithoutABugShowsExactlyTheChangedAccess) {
  CliResult same = RunRegemu("diff --db yaml/icl '" + kTraces + "i915_mini.mmiotrace' '" + kTraces +
                             "i915_mini.mmiotrace'");
  EXPECT_EQ(same.exit_code, 0) << same.out << same.err;
  EXPECT_THAT(same.out, HasSubstr("the same steps"));

  CliResult diff = RunRegemu("diff --db yaml/icl '" + kTraces + "i915_mini.mmiotrace' '" + kTraces +
                             "i915_mini_write-mchbar-mirror.mmiotrace'");
  EXPECT_EQ(diff.exit_code, 1) << diff.out << diff.err;
  std::string changed;
  std::istringstream lines(diff.out);
  for (std::string line; std::getline(lines, line);) {
    if ((line[0] == '+' || line[0] == '-') && line.rfind("+++", 0) != 0 && line.rfind("---", 0) != 0) {
      changed += line + "\n";
    }
  }
  EXPECT_EQ(changed,
            "+write32 RP_STATE_CAP via MCHBAR_MIRROR 0x00060b0b  # i915_mini_write-mchbar-mirror.mmiotrace:94\n");
}

}  // namespace
