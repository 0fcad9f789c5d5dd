#include "tools/regemu/device_inputs.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <ostream>
#include <utility>

namespace regemu::tools {
namespace {

// Reads at most `max_bytes` of `in` into `text`, in chunks so that a small
// script does not pay for the limit's worth of memory.
bool ReadAll(std::string_view command, std::istream& in, const std::string& name, size_t max_bytes, std::string& text,
             std::ostream& err) {
  std::string buffer;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    buffer.append(chunk, static_cast<size_t>(in.gcount()));
    if (buffer.size() > max_bytes) {
      err << command << ": " << name << ": the script is larger than " << max_bytes << " bytes\n";
      return false;
    }
  }
  if (in.bad()) {
    err << command << ": cannot read " << name << "\n";
    return false;
  }
  text = std::move(buffer);
  return true;
}

}  // namespace

bool DatabaseExists(std::string_view command, const std::string& path, std::ostream& err) {
  std::error_code ec;
  if (std::filesystem::exists(path, ec)) return true;
  err << command << ": no such file or folder: " << path << "\n";
  return false;
}

CompiledDatabase CompileDatabase(const std::string& path, std::ostream& err) {
  CompiledDatabase result{regdb::LoadAndCheck(path), nullptr};
  if (result.loaded.diagnostics.has_errors()) {
    err << regdb::FormatDiagnostics(result.loaded.sources, result.loaded.diagnostics);
    err << path << ": " << result.loaded.diagnostics.error_count() << " error(s)\n";
    return result;
  }
  emulator::CompileResult compiled = emulator::Compile(result.loaded.database);
  for (const std::string& error : compiled.errors) err << path << ": error: " << error << "\n";
  result.model = std::move(compiled.model);
  return result;
}

bool ReadScript(std::string_view command, const std::string& path, size_t max_bytes, std::string& text,
                std::ostream& err) {
  if (path == "-") return ReadAll(command, std::cin, kStdinName, max_bytes, text, err);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    err << command << ": no such script file: " << path << "\n";
    return false;
  }
  if (std::filesystem::is_directory(path, ec)) {
    err << command << ": the script is a folder: " << path << "\n";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err << command << ": cannot read " << path << "\n";
    return false;
  }
  return ReadAll(command, in, path, max_bytes, text, err);
}

std::optional<OpenedInput> OpenInput(const std::string& path, const std::string& command, std::ostream& err) {
  if (path == "-") return OpenedInput(std::shared_ptr<std::istream>(&std::cin, [](std::istream*) {}), "<stdin>");
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    err << "regemu " << command << ": no such file: " << path << "\n";
    return std::nullopt;
  }
  if (std::filesystem::is_directory(path, ec)) {
    err << "regemu " << command << ": " << path << " is a folder, not a file\n";
    return std::nullopt;
  }
  auto file = std::make_shared<std::ifstream>(path, std::ios::binary);
  if (!*file) {
    err << "regemu " << command << ": cannot read " << path << "\n";
    return std::nullopt;
  }
  return OpenedInput(std::move(file), path);
}

}  // namespace regemu::tools
