#include "tools/regemu/coverage_command.hpp"

#include <algorithm>
#include <filesystem>
#include <optional>
#include <ostream>

#include "regemu/emulator/coverage.hpp"
#include "tools/regemu/coverage_report.hpp"

namespace regemu::tools {
namespace {

namespace fs = std::filesystem;

// The files the arguments name: files as given, folders as the *.json
// files directly in them, in name order (a ctest run's folder of per-process files).
std::optional<std::vector<fs::path>> Expand(const std::vector<std::string>& arguments, const char* command,
                                            std::ostream& err, int& status) {
  std::vector<fs::path> files;
  for (const std::string& argument : arguments) {
    std::error_code ec;
    if (!fs::exists(argument, ec)) {
      err << "regemu coverage " << command << ": no such file or folder: " << argument << "\n";
      status = 2;
      return std::nullopt;
    }
    if (!fs::is_directory(argument, ec)) {
      files.emplace_back(argument);
      continue;
    }
    std::vector<fs::path> inside;
    for (const fs::directory_entry& entry : fs::directory_iterator(argument, ec)) {
      if (entry.path().extension() == ".json" && entry.is_regular_file(ec)) inside.push_back(entry.path());
    }
    if (ec) {
      err << "regemu coverage " << command << ": cannot list " << argument << ": " << ec.message() << "\n";
      status = 1;
      return std::nullopt;
    }
    if (inside.empty()) {
      err << "regemu coverage " << command << ": " << argument << " holds no *.json coverage file\n";
      status = 1;
      return std::nullopt;
    }
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  return files;
}

// Every file merged, or nothing when any is bad: a merge that skipped a
// file would under-report. Every bad file is named, not only the first.
std::optional<emulator::CoverageData> Load(const std::vector<std::string>& arguments, const char* command,
                                           std::ostream& err, int& status, size_t& count) {
  std::optional<std::vector<fs::path>> files = Expand(arguments, command, err, status);
  if (!files) return std::nullopt;
  emulator::CoverageData merged;
  bool all_good = true;
  for (const fs::path& file : *files) {
    emulator::CoverageData data;
    std::string error;
    if (!emulator::ReadCoverageFile(file, data, error)) {
      err << "regemu coverage " << command << ": " << error << "\n";
      all_good = false;
      continue;
    }
    emulator::MergeInto(merged, data);
  }
  if (!all_good) {
    status = 1;
    return std::nullopt;
  }
  count = files->size();
  return merged;
}

}  // namespace

int RunCoverageMerge(const CoverageMergeOptions& options, std::ostream& out, std::ostream& err) {
  int status = 0;
  size_t count = 0;
  std::optional<emulator::CoverageData> merged = Load(options.files, "merge", err, status, count);
  if (!merged) return status;
  if (options.output == "-") {
    out << emulator::CoverageJson(*merged);
    return 0;
  }
  std::string error;
  if (!emulator::WriteCoverageFile(options.output, *merged, error)) {
    err << "regemu coverage merge: " << error << "\n";
    return 1;
  }
  err << "regemu coverage merge: " << count << " file(s), " << merged->processes << " process(es), "
      << merged->models.size() << " model(s) into " << options.output << "\n";
  return 0;
}

int RunCoverageReport(const CoverageReportOptions& options, std::ostream& out, std::ostream& err) {
  int status = 0;
  size_t count = 0;
  std::optional<emulator::CoverageData> merged = Load(options.files, "report", err, status, count);
  if (!merged) return status;
  if (options.json) {
    PrintCoverageJson(*merged, out);
  } else {
    PrintCoverageTable(*merged, out);
  }
  return 0;
}

}  // namespace regemu::tools
