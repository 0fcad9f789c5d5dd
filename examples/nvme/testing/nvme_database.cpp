#include "examples/nvme/testing/nvme_database.hpp"

#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

#include "regemu/fakes/device_test.hpp"

namespace regemu::nvme::testing {

namespace {

std::string FirstLine(const std::string& text) {
  std::string::size_type newline = text.find('\n', text.find('\n') + 1);  // the header, then the first error
  return text.substr(0, newline);
}

// `- name: foo-bar` (a reaction or rule) becomes `- name: foo_bar`.
std::string WithIdentifierNames(const std::string& text) {
  static const std::regex kHyphenatedName(R"((^\s*- name: )([A-Za-z0-9_]+(?:-[A-Za-z0-9_]+)+)\s*$)");
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    std::smatch match;
    if (std::regex_match(line, match, kHyphenatedName)) {
      std::string name = match[2].str();
      for (char& c : name) c = c == '-' ? '_' : c;
      line = match[1].str() + name;
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

NvmeDatabase LoadableNvmeDatabase(const std::filesystem::path& shipped) {
  try {
    fakes::CompileDatabase(shipped);
    return {shipped, ""};
  } catch (const std::runtime_error& error) {
    NvmeDatabase database;
    database.problem = FirstLine(error.what());
    database.path = std::filesystem::temp_directory_path() / ("regemu-nvme-" + std::to_string(::getpid()));
    std::filesystem::create_directories(database.path);
    for (const auto& entry : std::filesystem::directory_iterator(shipped)) {
      if (entry.path().extension() != ".yaml") continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      std::ofstream(database.path / entry.path().filename()) << WithIdentifierNames(text.str());
    }
    // Compiled once per process and cached by path (fakes::CompileDatabase):
    // the files are not needed after this.
    std::error_code ignored;
    try {
      fakes::CompileDatabase(database.path);
    } catch (...) {
      std::filesystem::remove_all(database.path, ignored);
      throw;
    }
    std::filesystem::remove_all(database.path, ignored);
    return database;
  }
}

}  // namespace regemu::nvme::testing
