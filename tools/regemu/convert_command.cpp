#include "tools/regemu/convert_command.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>

#include "regemu/regdb/loader.hpp"
#include "tools/convert/svd_reader.hpp"
#include "tools/convert/svd_writer.hpp"
#include "tools/convert/svd_yaml_writer.hpp"

namespace regemu::tools {

namespace {

namespace fs = std::filesystem;

bool WriteFile(const fs::path& path, const std::string& text, std::ostream& err) {
  std::error_code ec;
  if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) err << "regemu convert: cannot write " << path.string() << "\n";
  return static_cast<bool>(file);
}

int ConvertSvd(const std::string& input, const std::string& output, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!fs::is_regular_file(input, ec)) {
    err << "regemu convert: no such file: " << input << "\n";
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  convert::SvdReadResult read = convert::ReadSvdFile(input);
  err << regdb::FormatDiagnostics(read.sources, read.diagnostics);
  if (!read.device) {
    err << "regemu convert: " << input << ": " << read.diagnostics.error_count() << " error(s); nothing written\n";
    return 1;
  }
  std::map<std::string, std::string> files =
      convert::WriteDatabaseYaml(*read.device, fs::path(input).filename().string());
  // Files of an earlier conversion that this one no longer has would stay
  // included by nothing, but confuse a reader: the folder is this device's.
  fs::path folder(output);
  if (fs::exists(folder / "peripherals", ec)) {
    for (const fs::directory_entry& entry : fs::directory_iterator(folder / "peripherals", ec)) {
      std::string relative = "peripherals/" + entry.path().filename().string();
      if (entry.path().extension() == ".yaml" && !files.count(relative)) fs::remove(entry.path(), ec);
    }
  }
  for (const auto& [relative, text] : files) {
    if (!WriteFile(folder / relative, text, err)) return 2;
  }
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  out << (folder / "device.yaml").string() << ": device '" << read.device->name << "', "
      << read.device->peripherals.size() << " peripheral(s), " << read.device->RegisterCount() << " register(s), "
      << read.device->FieldCount() << " field(s) (" << elapsed.count() << " ms)\n";
  return 0;
}

int ConvertToSvd(const std::string& database, const std::string& output, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!fs::exists(database, ec)) {
    err << "regemu convert: no such file or folder: " << database << "\n";
    return 2;
  }
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(database);
  err << regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
  if (loaded.diagnostics.has_errors()) {
    err << "regemu convert: " << database << ": " << loaded.diagnostics.error_count()
        << " error(s); nothing written\n";
    return 1;
  }
  convert::SvdExport exported = convert::WriteSvd(loaded.database);
  for (const std::string& left_out : exported.left_out) err << "regemu convert: left out: " << left_out << "\n";
  if (output == "-") {
    out << exported.text;
  } else if (!WriteFile(output, exported.text, err)) {
    return 2;
  }
  err << (output == "-" ? "<stdout>" : output) << ": device '" << loaded.database.device << "', "
      << exported.registers << " register(s) as CMSIS-SVD 1.3, " << exported.left_out.size()
      << " thing(s) left out\n";
  return 0;
}

}  // namespace

int RunConvert(const ConvertOptions& options, std::ostream& out, std::ostream& err) {
  if (options.to == "svd") {
    if (options.inputs.size() != 1) {
      err << "regemu convert --to svd: give exactly one database (a file or a device folder)\n";
      return 2;
    }
    return ConvertToSvd(options.inputs[0], options.output, out, err);
  }
  if (options.inputs.size() != 2 || options.inputs[0] != "svd") {
    err << "regemu convert: say what to convert: `regemu convert svd FILE -o DIR`, or `regemu convert --to svd DB -o "
           "FILE`\n";
    return 2;
  }
  return ConvertSvd(options.inputs[1], options.output, out, err);
}

}  // namespace regemu::tools
