#pragma once
// IGT's i915-perf-reader as the recording tests run it: found on PATH (or
// at $REGEMU_I915_PERF_READER), run with `-r -c COUNTERS FILE`, its
// per-report blocks parsed:
//    report3 = timer
//      GpuTime: 1365333
//      GpuBusy: 75.000018
// (integers as %PRIu64, floats as %f; one block per consecutive report pair).

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace regemu::testing {

inline constexpr const char* kNoReaderMessage =
    "i915-perf-reader is not installed: run tools/setup.sh (Debian package intel-gpu-tools)";

inline std::optional<std::string> FindI915PerfReader() {
  if (const char* path = std::getenv("REGEMU_I915_PERF_READER"); path != nullptr && *path != '\0') return path;
  const char* path_variable = std::getenv("PATH");
  std::stringstream dirs(path_variable != nullptr ? path_variable : "/usr/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::filesystem::path candidate = std::filesystem::path(dir) / "i915-perf-reader";
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
  }
  return std::nullopt;
}

struct ReaderReport {
  std::string reason;                     // "timer", ...
  std::map<std::string, double> values;  // counter -> value
};

struct ReaderRun {
  int exit_code = -1;  // 128 + signal when the reader crashed
  std::string output;  // stdout and stderr
  std::vector<ReaderReport> reports;
};

inline ReaderRun RunI915PerfReader(const std::string& reader, const std::string& file, const std::string& counters) {
  ReaderRun run;
  std::string command = "'" + reader + "' -r -c " + counters + " '" + file + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char chunk[4096];
  size_t n = 0;
  while ((n = fread(chunk, 1, sizeof chunk, pipe)) > 0) run.output.append(chunk, n);
  int status = pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;

  static const std::regex kReportLine(R"(^ report\d+ = (\S+))");
  static const std::regex kValueLine(R"(^   (\w+): (-?[0-9.]+)$)");
  std::stringstream lines(run.output);
  std::string line;
  std::smatch match;
  bool in_report = false;  // a context run's summary block has the same value lines
  while (std::getline(lines, line)) {
    if (std::regex_search(line, match, kReportLine)) {
      run.reports.push_back({match[1], {}});
      in_report = true;
    } else if (in_report && std::regex_match(line, match, kValueLine)) {
      run.reports.back().values[match[1]] = std::stod(match[2]);
    } else {
      in_report = false;
    }
  }
  return run;
}

}  // namespace regemu::testing
