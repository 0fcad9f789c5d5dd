#include "tests/fuzz/shipped_devices.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "regdb/loader.hpp"

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
    for (const char* name : {"hsw", "bdw", "icl"}) {
      std::filesystem::path path = YamlDir() / name;
      regdb::LoadedDatabase database = regdb::LoadAndCheck(path);
      emulator::CompileResult compiled;
      if (!database.diagnostics.has_errors()) compiled = emulator::Compile(database.database);
      if (!compiled.model) {
        std::fprintf(stderr, "fuzz: %s does not load (set REGEMU_FUZZ_YAML_DIR to a folder holding hsw/, bdw/ and icl/)\n",
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

}  // namespace regemu::fuzz
