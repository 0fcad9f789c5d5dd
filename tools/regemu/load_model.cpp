#include "tools/regemu/load_model.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace regemu::tools {

std::optional<LoadedModel> LoadModel(const std::string& path, const std::string& command, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    err << "regemu " << command << ": no such file or folder: " << path << "\n";
    return std::nullopt;
  }
  LoadedModel result;
  result.loaded = regdb::LoadAndCheck(path);
  if (result.loaded.diagnostics.has_errors()) {
    err << regdb::FormatDiagnostics(result.loaded.sources, result.loaded.diagnostics);
    err << path << ": " << result.loaded.diagnostics.error_count() << " error(s)\n";
    return std::nullopt;
  }
  emulator::CompileResult compiled = emulator::Compile(result.loaded.database);
  if (!compiled.model) {
    for (const std::string& error : compiled.errors) err << path << ": error: " << error << "\n";
    return std::nullopt;
  }
  result.model = std::move(compiled.model);
  return result;
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
