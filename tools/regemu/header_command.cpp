#include "tools/regemu/header_command.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "regemu/regdb/loader.hpp"
#include "tools/headergen/backends.hpp"

namespace regemu::tools {

namespace {

// Writes `text` to `path` unless it already holds exactly that, so an
// unchanged database does not make the build recompile every includer.
bool WriteIfChanged(const std::filesystem::path& path, const std::string& text, std::ostream& err) {
  {
    std::ifstream in(path, std::ios::binary);
    if (in) {
      std::stringstream old;
      old << in.rdbuf();
      if (old.str() == text) return true;
    }
  }
  std::error_code ec;
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    err << "regemu header: cannot write " << path.string() << "\n";
    return false;
  }
  return true;
}

}  // namespace

int RunHeader(const HeaderOptions& options, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(options.database, ec)) {
    err << "regemu header: no such file or folder: " << options.database << "\n";
    return 2;
  }
  regdb::LoadedDatabase loaded =
      options.no_check ? regdb::LoadDatabase(options.database) : regdb::LoadAndCheck(options.database);
  err << regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
  if (loaded.diagnostics.has_errors() && !options.no_check) {
    err << "regemu header: " << options.database << ": " << loaded.diagnostics.error_count()
        << " error(s); no header written\n";
    return 1;
  }
  if (loaded.database.device.empty()) {
    err << "regemu header: " << options.database << ": no device name\n";
    return 1;
  }

  headergen::DeviceView view = headergen::BuildDeviceView(loaded.database);
  std::ostringstream header;
  bool cpp = options.lang == "c++";
  if (cpp) {
    headergen::CppBackend(view).Run(header);
  } else {
    headergen::CBackend(view).Run(header);
  }
  if (!WriteIfChanged(options.output, header.str(), err)) return 2;
  if (!options.selftest.empty()) {
    std::ostringstream selftest;
    std::string include = std::filesystem::path(options.output).filename().string();
    headergen::SelfTestBackend(
        view, cpp ? headergen::SelfTestBackend::Lang::kCpp : headergen::SelfTestBackend::Lang::kC, include)
        .Run(selftest);
    if (!WriteIfChanged(options.selftest, selftest.str(), err)) return 2;
  }
  out << options.output << ": device '" << loaded.database.device << "', " << view.placed.size() << " register(s)\n";
  return 0;
}

}  // namespace regemu::tools
