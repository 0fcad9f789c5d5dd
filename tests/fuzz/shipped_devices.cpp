#include "tests/fuzz/shipped_devices.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "regemu/regdb/loader.hpp"

namespace regemu::fuzz {
namespace {

// Where the databases are: REGEMU_FUZZ_YAML_DIR; else regemu_yaml/ next
// to the binary (.clusterfuzzlite/build.sh puts them there: runners have
// the binaries, not the source tree); else the source tree built from.
std::filesystem::path YamlDir() {
  if (const char* dir = std::getenv("REGEMU_FUZZ_YAML_DIR")) return dir;
  std::error_code error;
  std::filesystem::path beside = std::filesystem::read_symlink("/proc/self/exe", error).parent_path() / "regemu_yaml";
  if (!error && std::filesystem::is_directory(beside, error)) return beside;
  return std::filesystem::path(REGEMU_SOURCE_DIR) / "yaml";
}

}  // namespace

const std::vector<ShippedDevice>& ShippedDevices() {
  static const std::vector<ShippedDevice> devices = [] {
    std::vector<ShippedDevice> loaded;
    for (const char* name : {"hsw", "bdw", "icl", "nvme", "hpet", "uart16550", "dw_i2c", "cmsdk_apb"}) {
      std::filesystem::path path = YamlDir() / name;
      regdb::LoadedDatabase database = regdb::LoadAndCheck(path);
      emulator::CompileResult compiled;
      if (!database.diagnostics.has_errors()) compiled = emulator::Compile(database.database);
      if (!compiled.model) {
        std::fprintf(stderr, "fuzz: %s does not load (set REGEMU_FUZZ_YAML_DIR to a folder holding hsw/, bdw/, icl/, nvme/, hpet/, uart16550/, dw_i2c/ and cmsdk_apb/)\n",
                     path.c_str());
        std::abort();
      }
      loaded.push_back({name, std::string("yaml/") + name, compiled.model,
                        std::make_shared<const regdb::Database>(std::move(database.database))});
    }
    return loaded;
  }();
  return devices;
}

const ShippedDevice& ShippedDeviceNamed(std::string_view name) {
  for (const ShippedDevice& shipped : ShippedDevices()) {
    if (shipped.name == name) return shipped;
  }
  std::fprintf(stderr, "fuzz: no shipped database '%.*s' (there are hsw, bdw, icl, nvme, hpet, uart16550, dw_i2c and cmsdk_apb)\n", static_cast<int>(name.size()),
               name.data());
  std::abort();
}

std::vector<std::string_view> NamesFromEnvironment(const char* variable) {
  std::vector<std::string_view> names;
  const char* list = std::getenv(variable);
  std::string_view rest = list == nullptr ? std::string_view() : std::string_view(list);
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    if (std::string_view name = rest.substr(0, comma); !name.empty()) names.push_back(name);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return names;
}

}  // namespace regemu::fuzz
