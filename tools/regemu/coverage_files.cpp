#include "tools/regemu/coverage_files.hpp"

#include <algorithm>
#include <filesystem>
#include <ostream>

namespace regemu::tools {
namespace {

namespace fs = std::filesystem;

// The files the arguments name: files as given, folders as the *.json
// files directly in them, in name order (a ctest run's folder of per-process files).
std::optional<std::vector<fs::path>> Expand(const std::vector<std::string>& arguments, std::string_view command,
                                            std::ostream& err, int& status) {
  std::vector<fs::path> files;
  for (const std::string& argument : arguments) {
    std::error_code ec;
    if (!fs::exists(argument, ec)) {
      err << command << ": no such file or folder: " << argument << "\n";
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
      err << command << ": cannot list " << argument << ": " << ec.message() << "\n";
      status = 1;
      return std::nullopt;
    }
    if (inside.empty()) {
      err << command << ": " << argument << " holds no *.json coverage file\n";
      status = 1;
      return std::nullopt;
    }
    std::sort(inside.begin(), inside.end());
    files.insert(files.end(), inside.begin(), inside.end());
  }
  return files;
}

}  // namespace

std::optional<emulator::CoverageData> LoadCoverageFiles(const std::vector<std::string>& arguments,
                                                        std::string_view command, std::ostream& err, int& status,
                                                        size_t& count) {
  std::optional<std::vector<fs::path>> files = Expand(arguments, command, err, status);
  if (!files) return std::nullopt;
  emulator::CoverageData merged;
  bool all_good = true;
  for (const fs::path& file : *files) {
    emulator::CoverageData data;
    std::string error;
    if (!emulator::ReadCoverageFile(file, data, error)) {
      err << command << ": " << error << "\n";
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


}  // namespace regemu::tools
