#include "tools/regemu/header_command.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>

#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "tools/headergen/backends.hpp"

namespace regemu::tools {

namespace {

// Writes `text` to `path` ("-": `out`, stdout). A regular file is rewritten
// only when its text changes, so an unchanged database does not make the
// build recompile every includer. Anything else (/dev/stdout, a pipe, a
// terminal) is only written: reading it back to compare would block, as the
// reader would wait for the end of what this process is about to write.
bool WriteOutput(const std::string& path_text, const std::string& text, std::ostream& out, std::ostream& err) {
  if (path_text == "-") {
    out << text << std::flush;
    return static_cast<bool>(out);
  }
  std::filesystem::path path(path_text);
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream old;
    old << in.rdbuf();
    if (in && old.str() == text) return true;
  }
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

// A path as a depfile spells it: make and Ninja read a space or '#' after
// a backslash as part of the name, and '$' doubled.
std::string DepfilePath(const std::string& path) {
  std::string escaped;
  for (char c : path) {
    if (c == ' ' || c == '#') escaped += '\\';
    if (c == '$') escaped += '$';
    escaped += c;
  }
  return escaped;
}

// `target: every file the loader read`, absolute, so the build reruns the
// header command when any of them changes (an overlay's include of an
// imported map in another folder: yaml/mi200 over yaml/gc_9_4_2).
std::string Depfile(const std::string& target, const regdb::SourceSet& sources) {
  std::error_code ec;
  std::string text = DepfilePath(std::filesystem::absolute(target, ec).lexically_normal().string()) + ":";
  for (uint32_t id = 1; id < sources.size(); ++id) {  // 0 is the SourceSet's "<none>"
    std::filesystem::path path = std::filesystem::absolute(sources.file(id).path, ec).lexically_normal();
    text += " \\\n  " + DepfilePath(path.string());
  }
  return text + "\n";
}

}  // namespace

int RunHeader(const HeaderOptions& options, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(options.database, ec)) {
    err << "regemu header: no such file or folder: " << options.database << "\n";
    return 2;
  }
  if (!options.depfile.empty() && options.output == "-") {
    err << "regemu header: --depfile needs the header in a file (-o FILE), not on stdout\n";
    return 2;
  }
  if (!options.selftest.empty() && options.output == "-") {
    // The self-test includes the header by its file name.
    err << "regemu header: --selftest needs the header in a file (-o FILE), not on stdout\n";
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

  if (!options.prefix.empty() && !regdb::IsIdentifier(options.prefix)) {
    err << "regemu header: --prefix '" << options.prefix
        << "' is not a C identifier (letters, digits and '_', not starting with a digit)\n";
    return 2;
  }
  if (options.changed_only) {
    // An overlay's registers without the import's thousands (yaml/mi200
    // over the 3529 registers of yaml/gc_9_4_2): the header a driver of the
    // overlay's registers includes, at the cost of its registers only.
    std::erase_if(loaded.database.registers, [](const regdb::Register& reg) { return !reg.changed_by_overlay; });
    if (loaded.database.registers.empty()) {
      err << "regemu header: --changed-only: no overlay change in " << options.database
          << " names a register (it is for an overlay's `changes:`)\n";
      return 1;
    }
  }
  headergen::DeviceView view = headergen::BuildDeviceView(loaded.database);
  if (!options.prefix.empty()) view.c_prefix = options.prefix + "_";
  std::ostringstream header;
  bool cpp = options.lang == "c++";
  if (cpp) {
    headergen::CppBackend(view).Run(header);
  } else {
    headergen::CBackend(view).Run(header);
  }
  if (!WriteOutput(options.output, header.str(), out, err)) return 2;
  if (!options.selftest.empty()) {
    std::ostringstream selftest;
    std::string include = std::filesystem::path(options.output).filename().string();
    headergen::SelfTestBackend(
        view, cpp ? headergen::SelfTestBackend::Lang::kCpp : headergen::SelfTestBackend::Lang::kC, include)
        .Run(selftest);
    if (!WriteOutput(options.selftest, selftest.str(), out, err)) return 2;
  }
  if (!options.depfile.empty() && !WriteOutput(options.depfile, Depfile(options.output, loaded.sources), out, err)) {
    return 2;
  }
  // On stderr, so that `-o -` leaves nothing but the header on stdout.
  err << (options.output == "-" ? "<stdout>" : options.output) << ": device '" << loaded.database.device << "', "
      << view.placed.size() << " register(s)\n";
  return 0;
}

}  // namespace regemu::tools
