// What main.cpp decides itself: an unknown subcommand is a usage error that
// names the nearest subcommand, and `regemu run --help` points at the script language page (docs/scripts.md)
// where it is installed beside the tool, else at the source tree's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "tests/tools/cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;
using regemu::testing_support::RunShell;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(RegemuMainCli, AnUnknownSubcommandSuggestsTheNearest) {
  CliResult r = RunRegemu("shwo yaml/icl");
  EXPECT_EQ(r.exit_code, RunRegemu("check").exit_code);  // as other usage errors: 2
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("regemu: unknown subcommand 'shwo' (did you mean 'show'?)"));
  EXPECT_THAT(RunRegemu("decod yaml/icl PCICMD 1").err, HasSubstr("(did you mean 'decode'?)"));
  CliResult far = RunRegemu("xyzzy");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_THAT(far.err, HasSubstr("unknown subcommand 'xyzzy'"));
  EXPECT_THAT(far.err, Not(HasSubstr("did you mean")));
}

TEST(RegemuMainCli, RunHelpNamesTheSourceScriptsPageFromTheBuildTree) {
  CliResult r = RunRegemu("run --help");
  ASSERT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("(the language: " + std::string(REGEMU_SOURCE_DIR) + "/docs/scripts.md)"));
}

// A copy of the tool in PREFIX/bin finds PREFIX/share/doc/regemu/docs/scripts.md.
TEST(RegemuMainCli, RunHelpNamesTheInstalledScriptsPage) {
  fs::path prefix = fs::temp_directory_path() / ("regemu_main_cli_prefix_" + std::to_string(getpid()));
  fs::remove_all(prefix);
  fs::create_directories(prefix / "bin");
  fs::create_directories(prefix / "share/doc/regemu/docs");
  fs::copy_file(REGEMU_BINARY, prefix / "bin/regemu");
  std::string regemu = "'" + (prefix / "bin/regemu").string() + "'";

  CliResult without = RunShell(regemu + " run --help");
  EXPECT_THAT(without.out, HasSubstr(std::string(REGEMU_SOURCE_DIR) + "/docs/scripts.md"));
  std::ofstream(prefix / "share/doc/regemu/docs/scripts.md") << "# Scripts\n";
  CliResult with = RunShell(regemu + " run --help");
  EXPECT_THAT(with.out, HasSubstr("(the language: " + (prefix / "share/doc/regemu/docs/scripts.md").string() + ")"));
  fs::remove_all(prefix);
}

// The version is written once, in CMakeLists.txt's project(); the tool and
// the changelog say the same.
TEST(RegemuMainCli, VersionIsTheProjectVersion) {
  std::string cmake = regemu::testing_support::Slurp(fs::path(REGEMU_SOURCE_DIR) / "CMakeLists.txt");
  std::smatch match;
  ASSERT_TRUE(std::regex_search(cmake, match, std::regex(R"(project\(regemu VERSION ([0-9]+\.[0-9]+\.[0-9]+))")));
  const std::string version = match[1];
  CliResult r = RunRegemu("--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "regemu " + version + "\n");
  EXPECT_THAT(regemu::testing_support::Slurp(fs::path(REGEMU_SOURCE_DIR) / "CHANGELOG.md"),
              HasSubstr("\n## [" + version + "]"));
}

}  // namespace
