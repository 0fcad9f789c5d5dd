#include "tools/regemu/convert_command.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>

#include "regemu/regdb/loader.hpp"
#include "tools/convert/amdgpu_reader.hpp"
#include "tools/convert/amdgpu_yaml_writer.hpp"
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

// Files of an earlier conversion that this one no longer has would stay
// included by nothing, but confuse a reader: the folder is this device's.
void RemoveStaleFiles(const fs::path& folder, const std::string& subfolder,
                      const std::map<std::string, std::string>& files) {
  std::error_code ec;
  if (!fs::exists(folder / subfolder, ec)) return;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder / subfolder, ec)) {
    std::string relative = subfolder + "/" + entry.path().filename().string();
    if (entry.path().extension() == ".yaml" && !files.count(relative)) fs::remove(entry.path(), ec);
  }
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
  fs::path folder(output);
  RemoveStaleFiles(folder, "peripherals", files);
  for (const auto& [relative, text] : files) {
    if (!WriteFile(folder / relative, text, err)) return 2;
  }
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  out << (folder / "device.yaml").string() << ": device '" << read.device->name << "', "
      << read.device->peripherals.size() << " peripheral(s), " << read.device->RegisterCount() << " register(s), "
      << read.device->FieldCount() << " field(s) (" << elapsed.count() << " ms)\n";
  return 0;
}

// "gc_9_4_2_offset.h" → "gc_9_4_2".
std::string DeviceNameOf(const fs::path& offsets) {
  std::string stem = offsets.stem().string();
  if (size_t at = stem.rfind("_offset"); at != std::string::npos && at > 0) stem.resize(at);
  return stem;
}

int ConvertAmdgpu(const ConvertOptions& options, std::ostream& out, std::ostream& err) {
  const std::string& offsets = options.inputs[1];
  const std::string& masks = options.inputs[2];
  std::error_code ec;
  for (const std::string& input : {offsets, masks}) {
    if (!fs::is_regular_file(input, ec)) {
      err << "regemu convert: no such file: " << input << "\n";
      return 2;
    }
  }
  if (options.bases.empty()) {
    err << "regemu convert amdgpu: give the IP's segment bases in dwords, --bases 0x2000,0xA000,... "
           "(docs/import-amdgpu.md)\n";
    return 2;
  }
  std::string bases_error;
  std::optional<std::vector<uint64_t>> bases = convert::ParseAmdgpuBases(options.bases, bases_error);
  if (!bases) {
    err << "regemu convert amdgpu: --bases: " << bases_error << "\n";
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  convert::AmdgpuReadResult read = convert::ReadAmdgpuHeaderFiles(offsets, masks, *bases);
  err << regdb::FormatDiagnostics(read.sources, read.diagnostics);
  if (!read.map) {
    err << "regemu convert: " << offsets << ", " << masks << ": " << read.diagnostics.error_count()
        << " error(s); nothing written\n";
    return 1;
  }
  convert::AmdgpuSource source{options.device.empty() ? DeviceNameOf(offsets) : options.device,
                               fs::path(offsets).filename().string(), fs::path(masks).filename().string(), *bases};
  std::map<std::string, std::string> files = convert::WriteAmdgpuDatabaseYaml(*read.map, source);
  fs::path folder(options.output);
  RemoveStaleFiles(folder, "registers", files);
  for (const auto& [relative, text] : files) {
    if (!WriteFile(folder / relative, text, err)) return 2;
  }
  auto elapsed = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
  out << (folder / "device.yaml").string() << ": device '" << source.device << "', " << read.map->registers.size()
      << " register(s), " << read.map->FieldCount() << " field(s), every field rw (" << elapsed.count() << " ms)\n";
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
  if (options.inputs.size() == 3 && options.inputs[0] == "amdgpu") return ConvertAmdgpu(options, out, err);
  if (options.inputs.size() != 2 || options.inputs[0] != "svd") {
    err << "regemu convert: say what to convert: `regemu convert svd FILE -o DIR`, `regemu convert amdgpu OFFSET_H "
           "SH_MASK_H --bases B0,B1,... -o DIR`, or `regemu convert --to svd DB -o FILE`\n";
    return 2;
  }
  return ConvertSvd(options.inputs[1], options.output, out, err);
}

}  // namespace regemu::tools
