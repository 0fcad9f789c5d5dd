#include "fakes/device_test.hpp"

#include <mutex>
#include <stdexcept>

#include "regdb/diagnostics.hpp"
#include "regdb/loader.hpp"

namespace regemu::fakes {

std::filesystem::path ShippedDatabase(std::string_view name) {
  std::filesystem::path source = std::filesystem::path(REGEMU_YAML_DIR) / std::string(name);
  std::error_code error;
  if (std::filesystem::exists(source, error)) return source;
  return std::filesystem::path(REGEMU_INSTALLED_YAML_DIR) / std::string(name);
}

std::shared_ptr<const emulator::Model> CompileDatabase(const std::filesystem::path& path) {
  static std::mutex mutex;
  static std::map<std::filesystem::path, std::shared_ptr<const emulator::Model>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(path);
  if (loaded.diagnostics.has_errors()) {
    throw std::runtime_error("regemu: the database " + path.string() + " has errors:\n" +
                             FormatDiagnostics(loaded.sources, loaded.diagnostics));
  }
  emulator::CompileResult compiled = emulator::Compile(loaded.database);
  if (!compiled.model) {
    std::string text = "regemu: the database " + path.string() + " does not compile:";
    for (const std::string& error : compiled.errors) text += "\n  " + error;
    throw std::runtime_error(text);
  }
  cache.emplace(path, compiled.model);
  return compiled.model;
}

emulator::Device& DeviceTest::LoadDevice(const std::filesystem::path& path, emulator::DeviceOptions options) {
  buses_.clear();
  device_ = std::make_unique<emulator::Device>(CompileDatabase(path), std::move(options));
  return *device_;
}

emulator::Device& DeviceTest::device() {
  if (!device_) throw std::logic_error("DeviceTest: call LoadDevice() before device()");
  return *device_;
}

FakeMmioBus& DeviceTest::bus(std::string_view space) {
  auto it = buses_.find(space);
  if (it == buses_.end()) {
    it = buses_.emplace(std::string(space), std::make_unique<FakeMmioBus>(device(), space)).first;
  }
  return *it->second;
}

std::vector<emulator::Violation> DeviceTest::TakeViolations() {
  std::vector<emulator::Violation> violations = device().violations();
  device().ClearViolations();
  return violations;
}

void DeviceTest::TearDown() {
  if (!device_) return;
  for (const emulator::Violation& violation : device_->violations()) {
    if (!violation.fails) continue;
    ADD_FAILURE() << "driver violation on device '" << device_->model().device() << "':\n"
                  << violation.Describe(device_->model());
  }
  size_t kept = device_->violations().size();
  if (device_->violation_count() > kept) {
    ADD_FAILURE() << (device_->violation_count() - kept) << " more violation(s) past DeviceOptions::max_violations";
  }
}

}  // namespace regemu::fakes
