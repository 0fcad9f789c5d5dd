// `regemu import DB TRACE` and `regemu replay DB TRACE` as a user runs them,
// on the committed samples (tests/data/traces/): the script import writes
// passes `regemu run` strictly for the clean capture; malformed lines are
// reported as FILE:LINE: error:; replay's JSON; and the exit codes (0 clean,
// 1 findings, 2 errors).
#include <stdlib.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/tools/cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;
using regemu::testing_support::Slurp;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

const std::string kClean = "tests/data/traces/i915_mini.mmiotrace";
const std::string kBug = "tests/data/traces/i915_mini_write-mchbar-mirror.mmiotrace";
const std::string kEveryRecord = "tests/data/traces/every_record.mmiotrace";
const std::string kHswOa = "tests/data/traces/hsw_oa_open.i915_reg_rw";

class RegemuImportReplayCli : public ::testing::Test {
 protected:
  RegemuImportReplayCli() {
    std::string pattern = (fs::temp_directory_path() / "regemu-import-replay-cli-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }
  ~RegemuImportReplayCli() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(Path(name), std::ios::binary) << text;
    return Path(name);
  }

  fs::path dir_;
};

// ------------------------------------------------------------------ import

// The whole way: a real driver's capture becomes a script that a fresh
// device runs strictly, every expectation and rule holding.
TEST_F(RegemuImportReplayCli, TheCleanCapturesScriptPassesRegemuRun) {
  std::string script = Path("i915_mini.script");
  CliResult imported = RunRegemu("import yaml/icl " + kClean + " -o '" + script + "'");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  EXPECT_EQ(imported.out, "");
  EXPECT_THAT(imported.err, HasSubstr("regemu import: " + kClean + " (mmiotrace): 94 lines, 25 reads, 54 writes, "
                                      "0 outside the database, 11 markers, 0 malformed; "));
  EXPECT_THAT(imported.err, HasSubstr(" -> " + script + "\n"));
  std::string text = Slurp(script);
  EXPECT_THAT(text, StartsWith("# regemu import of " + kClean + " for device icl\n"));
  EXPECT_THAT(text, HasSubstr("expect32 mmio 0x9140 0x000e00fa  # line 23 GEN11_GT_VEBOX_VDBOX_DISABLE\n"));
  EXPECT_THAT(text, HasSubstr("write32 mmio 0x2038 0x00100000  # line 24 RCS0_RING_START\n"));

  CliResult run = RunRegemu("run yaml/icl '" + script + "'");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_THAT(run.out, HasSubstr("PASS " + script + ": "));
  EXPECT_THAT(run.out, HasSubstr(" 0 failed; 0 violation(s)"));
  EXPECT_THAT(run.out, HasSubstr("(strict)"));
}

// The bug's capture imports alike; its script fails where the driver broke the rule.
TEST_F(RegemuImportReplayCli, TheBugCapturesScriptFailsRegemuRun) {
  std::string script = Path("bug.script");
  CliResult imported = RunRegemu("import yaml/icl " + kBug + " -o '" + script + "'");
  ASSERT_EQ(imported.exit_code, 0) << imported.err;
  CliResult run = RunRegemu("run yaml/icl '" + script + "'");
  EXPECT_EQ(run.exit_code, 1) << run.out << run.err;
  EXPECT_THAT(run.out + run.err, HasSubstr("alias-write"));
}

// Malformed lines are said where they are, the way every regemu
// diagnostic starts, and skipped; the import still succeeds.
TEST_F(RegemuImportReplayCli, MalformedLinesAreReportedByFileAndLine) {
  CliResult r = RunRegemu("import yaml/icl " + kEveryRecord);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(kEveryRecord + ":24: error: bad access width '3' (1, 2, 4 or 8 bytes) (skipped)\n"));
  EXPECT_THAT(r.err, HasSubstr(kEveryRecord + ":25: error: value 0x100000000 does not fit in 4 byte(s) (skipped)\n"));
  EXPECT_THAT(r.err, HasSubstr(kEveryRecord + ":26: error: unknown mmiotrace record 'this' (skipped)\n"));
  EXPECT_THAT(r.err, HasSubstr(kEveryRecord + ":27: error: an access record has 8 fields"));
  EXPECT_THAT(r.err, HasSubstr("1 UNKNOWN record(s) (accesses mmiotrace could not decode), first at line 21\n"));
  EXPECT_THAT(r.err, HasSubstr("the tracer lost 3 event(s): the capture is incomplete\n"));
  EXPECT_THAT(r.err, HasSubstr("1 outside the database, 1 markers, 4 malformed; "));
  // The script goes to stdout; what is not an access is a comment.
  EXPECT_THAT(r.out, HasSubstr("# line 6: MARK i915 probe\n"));
  EXPECT_THAT(r.out, HasSubstr("# line 22: WARNING: the tracer lost 3 events here\n"));
  EXPECT_THAT(r.out, HasSubstr("# line 23: R32 0xfee000b0 0x00000000 is in no space of the database\n"));
  EXPECT_THAT(r.out, HasSubstr("expect16 mmio 0x203a 0x0010  # line 16 RCS0_RING_START\n"));
  EXPECT_THAT(r.out, HasSubstr("read64 mmio 0x2358  # line 17 RCS0_RING_TIMESTAMP\n"));
}

TEST_F(RegemuImportReplayCli, NoValuesGivesPlainReads) {
  CliResult r = RunRegemu("import yaml/icl " + kClean + " --no-values");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("read32 mmio 0x9140  # line 23 GEN11_GT_VEBOX_VDBOX_DISABLE\n"));
  EXPECT_THAT(r.out, HasSubstr("read32 mmio 0x2038  # line 25 RCS0_RING_START\n"));
  EXPECT_THAT(r.out, Not(HasSubstr("expect")));
  EXPECT_THAT(r.out, HasSubstr("step "));
}

TEST_F(RegemuImportReplayCli, NoTimeGivesNoSteps) {
  CliResult r = RunRegemu("import yaml/icl " + kClean + " --no-time");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, Not(HasSubstr("step ")));
}

// An i915_reg_rw capture from standard input, with --format given.
TEST_F(RegemuImportReplayCli, ImportsI915RegRwFromStdin) {
  CliResult r = RunRegemu("import yaml/hsw - --format i915 < " + kHswOa);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("write32 mmio 0x2360 0x00000435  # line 94 OACONTROL\n"));
  EXPECT_THAT(r.out, HasSubstr("write32 mmio 0x44008 0x00000001  # line 82 (nothing decodes here)\n"));
  EXPECT_THAT(r.err, HasSubstr("regemu import: <stdin> (i915_reg_rw): 100 lines, 13 reads, 76 writes"));
}

// ------------------------------------------------------------------ replay

TEST_F(RegemuImportReplayCli, ReplayOfTheCleanCaptureExitsZero) {
  CliResult r = RunRegemu("replay yaml/icl " + kClean);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("regemu replay: " + kClean + " (mmiotrace, 94 lines) against yaml/icl\n"));
  EXPECT_THAT(r.out, HasSubstr("result: 0 gap range(s), 0 mistake(s), 0 violation(s); 0 malformed line(s)\n"));
  EXPECT_EQ(r.err, "");
}

TEST_F(RegemuImportReplayCli, ReplayJsonHasGapsMistakesAndViolations) {
  CliResult clean = RunRegemu("replay yaml/icl " + kClean + " --json");
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  nlohmann::json j = nlohmann::json::parse(clean.out);
  EXPECT_EQ(j["capture"], kClean);
  EXPECT_EQ(j["format"], "mmiotrace");
  EXPECT_EQ(j["lines"], 94);
  EXPECT_TRUE(j["gaps"].is_array());
  EXPECT_TRUE(j["gaps"].empty());
  EXPECT_TRUE(j["mistakes"].is_array());
  EXPECT_TRUE(j["violations"].is_array());
  EXPECT_EQ(j["mistake_count"], 0);
  EXPECT_EQ(j["violation_count"], 0);
  EXPECT_EQ(j["clean"], true);
  EXPECT_EQ(j["accesses"]["reads"], 25);
  EXPECT_EQ(j["accesses"]["writes"], 54);
  EXPECT_GT(j["accesses"]["hardware_events"].get<int>(), 0);

  CliResult bug = RunRegemu("replay yaml/icl " + kBug + " --json");
  ASSERT_EQ(bug.exit_code, 1) << bug.err;
  nlohmann::json b = nlohmann::json::parse(bug.out);
  ASSERT_EQ(b["violations"].size(), 1u);
  EXPECT_EQ(b["violations"][0]["line"], 94);
  EXPECT_EQ(b["violations"][0]["kind"], "alias-write");
  EXPECT_EQ(b["violations"][0]["register"], "RP_STATE_CAP");
  EXPECT_EQ(b["violation_count"], 1);
  EXPECT_EQ(b["clean"], false);

  CliResult hsw = RunRegemu("replay yaml/hsw " + kHswOa + " --json");
  ASSERT_EQ(hsw.exit_code, 1) << hsw.err;
  nlohmann::json h = nlohmann::json::parse(hsw.out);
  ASSERT_EQ(h["gaps"].size(), 3u);
  EXPECT_EQ(h["gaps"][0]["space"], "mmio");
  EXPECT_EQ(h["gaps"][0]["range"], "0x44008-0x4402b");
  EXPECT_EQ(h["gaps"][0]["first"], 0x44008);
  EXPECT_EQ(h["gaps"][0]["end"], 0x4402c);
  EXPECT_EQ(h["gaps"][0]["addresses"], 3);
  EXPECT_EQ(h["gaps"][0]["reads"], 3);
  EXPECT_EQ(h["gaps"][0]["writes"], 3);
  EXPECT_EQ(h["gaps"][0]["first_line"], 76);
  EXPECT_EQ(h["gaps"][1]["range"], "0x70040-0x70043");
  EXPECT_EQ(h["gaps"][2]["range"], "0xc400c-0xc400f");
}

// Mistakes in the text report: the table and one line per mistake, by line.
TEST_F(RegemuImportReplayCli, ReplayListsMistakesAndExitsOne) {
  std::string clean = Slurp(std::string(REGEMU_SOURCE_DIR) + "/" + kClean);
  const std::string from = "R 4 0.000008 1 0xa0009140 0xe00fa 0x0 0\n";
  size_t at = clean.find(from);
  ASSERT_NE(at, std::string::npos);
  std::string altered = clean;
  altered.replace(at, from.size(), "R 4 0.000008 1 0xa0009140 0xe00fb 0x0 0\n");
  std::string path = Write("altered.mmiotrace", altered);
  CliResult r = RunRegemu("replay yaml/icl '" + path + "'");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Database mistakes (hardware answered what the model cannot produce): 1\n"));
  EXPECT_THAT(r.out, HasSubstr(path + ":23: GEN11_GT_VEBOX_VDBOX_DISABLE: read-only bit(s) 0x1 read 0x1"));
  EXPECT_THAT(r.out, HasSubstr("result: 0 gap range(s), 1 mistake(s), 0 violation(s)"));
}

// A malformed line is not a finding: replay says where it is on stderr and goes on.
TEST_F(RegemuImportReplayCli, ReplayReportsMalformedLinesOnStderr) {
  std::string path = Write("short.mmiotrace",
                           "VERSION 20070824\n"
                           "PCIDEV 0010 80868a52 10 a0000004 0 0 0 0 0 0 1000000 0 0 0 0 0 0 i915\n"
                           "R 4 0.000100 1 0xa0145998 0x60b16 0x0 0\n"
                           "R 5 0.000100 1 0xa0145998 0x60b16 0x0 0\n");
  CliResult r = RunRegemu("replay yaml/icl '" + path + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, path + ":4: error: bad access width '5' (1, 2, 4 or 8 bytes)\n");
  EXPECT_THAT(r.out, HasSubstr("; 1 malformed line(s)\n"));
}

// -------------------------------------------------------------- exit code 2

TEST_F(RegemuImportReplayCli, AMissingCaptureExitsTwo) {
  for (const char* command : {"import", "replay"}) {
    SCOPED_TRACE(command);
    CliResult r = RunRegemu(std::string(command) + " yaml/icl tests/data/traces/no-such.mmiotrace");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "regemu " + std::string(command) + ": no such file: tests/data/traces/no-such.mmiotrace\n");
    EXPECT_EQ(r.out, "");
  }
}

TEST_F(RegemuImportReplayCli, AMissingDatabaseExitsTwo) {
  CliResult r = RunRegemu("replay yaml/no-such-device " + kClean);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no such file or folder: yaml/no-such-device"));
}

TEST_F(RegemuImportReplayCli, ABadMapExitsTwo) {
  CliResult no_equals = RunRegemu("replay yaml/icl " + kClean + " --map mmio");
  EXPECT_EQ(no_equals.exit_code, 2);
  EXPECT_EQ(no_equals.err, "regemu replay: --map 'mmio': want SPACE=BASE, e.g. mmio=0xa0000000\n");

  CliResult bad_base = RunRegemu("import yaml/icl " + kClean + " --map mmio=0xzz");
  EXPECT_EQ(bad_base.exit_code, 2);
  EXPECT_THAT(bad_base.err, StartsWith("regemu import: --map 'mmio=0xzz': "));
  EXPECT_EQ(bad_base.out, "");
}

TEST_F(RegemuImportReplayCli, AnUnknownSpaceInMapExitsTwoWithADidYouMean) {
  CliResult r = RunRegemu("replay yaml/icl " + kClean + " --map mmo=0xa0000000");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "regemu replay: --map names unknown space 'mmo' (did you mean 'mmio'?)\n");
  EXPECT_EQ(r.out, "");

  // import removes the script it had opened.
  std::string script = Path("never.script");
  CliResult imported = RunRegemu("import yaml/icl " + kClean + " -o '" + script + "' --map mchbr=0");
  EXPECT_EQ(imported.exit_code, 2);
  EXPECT_EQ(imported.err, "regemu import: --map names unknown space 'mchbr' (did you mean 'mchbar'?)\n");
  EXPECT_FALSE(fs::exists(script));
}

TEST_F(RegemuImportReplayCli, ABadDeviceExitsTwo) {
  for (const char* device : {"8086-8a52", "8086:8a5", "808:8a52", "xxxx:8a52", "8086:8a52:0"}) {
    SCOPED_TRACE(device);
    CliResult r = RunRegemu("replay yaml/icl " + kClean + " --device " + device);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "regemu replay: --device " + std::string(device) + ": want VVVV:DDDD in hex, e.g. 8086:8a52\n");
  }
}

TEST_F(RegemuImportReplayCli, ABadFormatExitsTwo) {
  CliResult r = RunRegemu("replay yaml/icl " + kClean + " --format pcap");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--format"));
}

// A given --device that matches picks that device; it still replays clean.
TEST_F(RegemuImportReplayCli, AGoodDeviceAndMapStillReplayClean) {
  CliResult device = RunRegemu("replay yaml/icl " + kClean + " --device 8086:8a52");
  EXPECT_EQ(device.exit_code, 0) << device.out << device.err;
  CliResult map = RunRegemu("replay yaml/icl " + kClean + " --map mmio=0xa0000000");
  EXPECT_EQ(map.exit_code, 0) << map.out << map.err;
  EXPECT_THAT(map.out, HasSubstr("mmio = 0xa0000000 (--map)"));
}

}  // namespace
