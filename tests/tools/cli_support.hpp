#pragma once
// Running the regemu binary as a user does, for the command-line tests:
// from the source tree (so relative paths in its output are stable), with
// stdout and stderr captured.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace regemu::testing_support {

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

inline std::string Slurp(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// A shell command run from REGEMU_SOURCE_DIR, its stdout and stderr captured.
inline CliResult RunShell(const std::string& command) {
  namespace fs = std::filesystem;
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  // The process id keeps test runs of several checkouts on one machine apart.
  fs::path dir = fs::temp_directory_path() / ("regemu_cli_" + std::string(info->test_suite_name()) + "_" +
                                              info->name() + "_" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path out = dir / "stdout.txt";
  fs::path err = dir / "stderr.txt";
  std::string line =
      "cd '" + std::string(REGEMU_SOURCE_DIR) + "' && " + command + " >'" + out.string() + "' 2>'" + err.string() + "'";
  int status = std::system(line.c_str());
  CliResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = Slurp(out);
  result.err = Slurp(err);
  fs::remove_all(dir);
  return result;
}

// `regemu ARGS` from REGEMU_SOURCE_DIR; ARGS is shell text.
inline CliResult RunRegemu(const std::string& args) { return RunShell("'" + std::string(REGEMU_BINARY) + "' " + args); }

// IGT's intel_reg on PATH (Debian's intel-gpu-tools, tools/setup.sh), or none:
// the tests that read images with it skip with kNoIntelRegMessage.
inline constexpr const char* kNoIntelRegMessage =
    "intel_reg is not installed: run tools/setup.sh (Debian package intel-gpu-tools)";
inline std::optional<std::string> FindIntelReg() {
  const char* path_variable = std::getenv("PATH");
  std::stringstream dirs(path_variable != nullptr ? path_variable : "/usr/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::filesystem::path candidate = std::filesystem::path(dir) / "intel_reg";
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

}  // namespace regemu::testing_support
