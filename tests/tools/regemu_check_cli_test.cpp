// `regemu check` as a user runs it: the binary, its exit codes and output.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

namespace fs = std::filesystem;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

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

class RegemuCheckCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("regemu_cli_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs regemu from the source tree so relative database paths work.
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
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path;
  }

  fs::path dir_;
};

TEST_F(RegemuCheckCli, ShippedHaswellDatabaseIsClean) {
  RunResult r = Run("check yaml/hsw");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("yaml/hsw: ok: device 'hsw'"));
  EXPECT_THAT(r.err, IsEmpty());
}

TEST_F(RegemuCheckCli, LiteralSeedTranscriptionIsRejectedForTheA31Collision) {
  RunResult r = Run("check tests/data/hsw_literal");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, AllOf(HasSubstr("error:"), HasSubstr("OAPERF_A31"), HasSubstr("CEC3_1"), HasSubstr("overlaps")));
}

TEST_F(RegemuCheckCli, ErrorsCarryFileLineColumnSourceAndCaret) {
  fs::path bad = Write("bad.yaml",
                       "device: bad\n"
                       "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
                       "registers:\n"
                       "  - {name: A, space: mmio, ofset: 0x10}\n");
  RunResult r = Run("check '" + bad.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr(bad.string() + ":4:28: error: unknown key 'ofset' in a register (did you mean 'offset'?)"));
  EXPECT_THAT(r.err, HasSubstr(" 4 |   - {name: A, space: mmio, ofset: 0x10}\n"
                               "   |                            ^\n"));
}

TEST_F(RegemuCheckCli, JsonReportsEveryDiagnosticWithItsPosition) {
  fs::path bad = Write("dev/device.yaml",
                       "device: bad\n"
                       "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
                       "registers:\n"
                       "  - {name: A, space: mmio, offset: 0x10}\n"
                       "  - {name: B, space: mmio, offset: 0x12, width: 16}\n"
                       "  - {name: C, space: mmoi, offset: 0x20}\n");
  RunResult r = Run("check --json '" + bad.parent_path().string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& db = j.at("databases").at(0);
  EXPECT_FALSE(db.at("ok").get<bool>());
  EXPECT_EQ(db.at("errors").get<int>(), 2);
  const nlohmann::json& diags = db.at("diagnostics");
  ASSERT_EQ(diags.size(), 2u);
  EXPECT_EQ(diags[0].at("line").get<int>(), 6);
  EXPECT_EQ(diags[0].at("column").get<int>(), 22);
  EXPECT_THAT(diags[0].at("message").get<std::string>(), HasSubstr("did you mean 'mmio'"));
  EXPECT_EQ(diags[1].at("line").get<int>(), 5);
  EXPECT_THAT(diags[1].at("message").get<std::string>(), HasSubstr("overlaps register 'A'"));
  EXPECT_EQ(diags[1].at("notes").at(0).at("line").get<int>(), 4);
}

TEST_F(RegemuCheckCli, JsonOfACleanDatabaseCountsItsContents) {
  RunResult r = Run("check --json yaml/hsw");
  EXPECT_EQ(r.exit_code, 0);
  nlohmann::json db = nlohmann::json::parse(r.out).at("databases").at(0);
  EXPECT_TRUE(db.at("ok").get<bool>());
  EXPECT_EQ(db.at("device").get<std::string>(), "hsw");
  EXPECT_GT(db.at("registers").get<int>(), 60);
  EXPECT_TRUE(db.at("diagnostics").empty());
}

TEST_F(RegemuCheckCli, SeveralPathsFailWhenAnyFails) {
  fs::path bad = Write("bad.yaml", "device: 1bad\n");
  RunResult r = Run("check yaml/hsw '" + bad.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("yaml/hsw: ok"));
  EXPECT_THAT(r.err, HasSubstr("is not a C identifier"));
}

TEST_F(RegemuCheckCli, HostileFileIsAnErrorNotACrash) {
  fs::path bomb = Write("lol.yaml",
                        "a: &a [x, x, x, x, x, x, x, x, x]\n"
                        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                        "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                        "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                        "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\n");
  RunResult r = Run("check '" + bomb.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("billion-laughs"));
}

TEST_F(RegemuCheckCli, MissingPathIsAUsageError) {
  RunResult r = Run("check does/not/exist.yaml");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no such file or folder: does/not/exist.yaml"));
}

TEST_F(RegemuCheckCli, MissingArgumentsAndUnknownOptionsAreUsageErrors) {
  EXPECT_EQ(Run("").exit_code, 2);
  EXPECT_EQ(Run("check").exit_code, 2);
  EXPECT_EQ(Run("check --frobnicate yaml/hsw").exit_code, 2);
  EXPECT_EQ(Run("explode").exit_code, 2);
}

TEST_F(RegemuCheckCli, FolderWithoutDeviceYamlIsADatabaseError) {
  Write("empty/readme.txt", "nothing here");
  RunResult r = Run("check '" + (dir_ / "empty").string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("device.yaml"));
}

TEST_F(RegemuCheckCli, HelpAndVersion) {
  RunResult help = Run("--help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, HasSubstr("check"));
  RunResult check_help = Run("check --help");
  EXPECT_EQ(check_help.exit_code, 0);
  EXPECT_THAT(check_help.out, AllOf(HasSubstr("--json"), HasSubstr("PATH")));
  RunResult version = Run("--version");
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_THAT(version.out, HasSubstr("regemu 0."));
  EXPECT_THAT(version.out, Not(IsEmpty()));
}

}  // namespace
