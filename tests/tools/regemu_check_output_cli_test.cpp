// What `regemu check` prints and in which order: the diagnostics before the
// summary, in a terminal and in a pipe, and acknowledged warnings on lines of
// their own (yaml/README.md "Acknowledging a warning").
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/tools/cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using regemu::testing_support::CliResult;
using regemu::testing_support::RunShell;

class RegemuCheckOutputCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("regemu_check_output_" +
                                        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) +
                                        "_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }

  std::string Regemu() const { return "'" + std::string(REGEMU_BINARY) + "'"; }

  fs::path dir_;
};

constexpr const char* kBadDatabase =
    "device: bad\n"
    "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
    "registers:\n"
    "  - {name: A, space: mmio, ofset: 0x10}\n";

// A pipe: stdout is block-buffered there, so without care the summary could
// land anywhere among the diagnostics.
TEST_F(RegemuCheckOutputCli, InAPipeTheSummaryFollowsTheDiagnostics) {
  std::string bad = Write("bad.yaml", kBadDatabase);
  CliResult r = RunShell(Regemu() + " check '" + bad + "' 2>&1 | cat");
  size_t diagnostic = r.out.find("error: unknown key 'ofset'");
  size_t summary = r.out.find(": 2 error(s)");
  ASSERT_NE(diagnostic, std::string::npos) << r.out;
  ASSERT_NE(summary, std::string::npos) << r.out;
  EXPECT_LT(diagnostic, summary) << r.out;
}

// A terminal (a pseudo-terminal from util-linux `script`): stdout and stderr
// both go to it, in the order they are written.
TEST_F(RegemuCheckOutputCli, InATerminalTheSummaryFollowsTheDiagnostics) {
  if (RunShell("command -v script").exit_code != 0) GTEST_SKIP() << "util-linux `script` is not installed";
  std::string bad = Write("bad.yaml", kBadDatabase);
  std::string typescript = (dir_ / "typescript").string();
  CliResult r = RunShell("script -qec \"" + Regemu() + " check '" + bad + "'\" '" + typescript + "'");
  EXPECT_EQ(r.exit_code, 1);
  std::string text = regemu::testing_support::Slurp(typescript);
  size_t diagnostic = text.find("error: unknown key 'ofset'");
  size_t summary = text.find(": 2 error(s)");
  ASSERT_NE(diagnostic, std::string::npos) << text;
  ASSERT_NE(summary, std::string::npos) << text;
  EXPECT_LT(diagnostic, summary) << text;
}

constexpr const char* kAcknowledgedDatabase =
    "device: d\n"
    "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
    "registers:\n"
    "  - {name: CNT, space: mmio, offset: 0x0, width: 64, access: rw}\n"
    "behaviours:\n"
    "  - kind: counter\n"
    "    register: CNT\n"
    "    period: 1ns\n"
    "    acknowledge: [{warning: counter-not-volatile, reason: \"the driver never writes CNT\"}]\n";

TEST_F(RegemuCheckOutputCli, AnAcknowledgedWarningIsALineOfItsOwnNotAWarning) {
  std::string db = Write("ack.yaml", kAcknowledgedDatabase);
  CliResult r = RunShell(Regemu() + " check '" + db + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  EXPECT_THAT(r.out, HasSubstr(db + ":7:15: acknowledged warning [counter-not-volatile]: counter behaviour "
                                    "'counter' drives CNT"));
  EXPECT_THAT(r.out, HasSubstr("(reason: the driver never writes CNT)\n" + db + ": ok: device 'd'"));
}

TEST_F(RegemuCheckOutputCli, JsonListsAcknowledgedWarningsApart) {
  std::string db = Write("ack.yaml", kAcknowledgedDatabase);
  CliResult r = RunShell(Regemu() + " check --json '" + db + "'");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json report = nlohmann::json::parse(r.out).at("databases").at(0);
  EXPECT_EQ(report.at("warnings").get<int>(), 0);
  EXPECT_TRUE(report.at("diagnostics").empty());
  ASSERT_EQ(report.at("acknowledged").size(), 1u);
  const nlohmann::json& a = report.at("acknowledged").at(0);
  EXPECT_EQ(a.at("code").get<std::string>(), "counter-not-volatile");
  EXPECT_EQ(a.at("reason").get<std::string>(), "the driver never writes CNT");
  EXPECT_EQ(a.at("line").get<int>(), 7);
  EXPECT_EQ(a.at("acknowledged_at").at("line").get<int>(), 9);
}

TEST_F(RegemuCheckOutputCli, AWarningShowsItsCodeInTextAndJson) {
  std::string db = Write("warn.yaml",
                         "device: d\n"
                         "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
                         "registers:\n"
                         "  - {name: CNT, space: mmio, offset: 0x0, width: 64, access: rw}\n"
                         "behaviours:\n"
                         "  - {kind: counter, register: CNT, period: 1ns}\n");
  CliResult text = RunShell(Regemu() + " check '" + db + "'");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_THAT(text.err, HasSubstr("mark it volatile [counter-not-volatile]\n"));
  EXPECT_THAT(text.out, Not(HasSubstr("acknowledged")));
  CliResult json = RunShell(Regemu() + " check --json '" + db + "'");
  const nlohmann::json report = nlohmann::json::parse(json.out).at("databases").at(0);
  EXPECT_EQ(report.at("warnings").get<int>(), 1);
  EXPECT_EQ(report.at("diagnostics").at(0).at("code").get<std::string>(), "counter-not-volatile");
  EXPECT_TRUE(report.at("acknowledged").empty());
}

}  // namespace
