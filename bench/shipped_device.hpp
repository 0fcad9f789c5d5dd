#pragma once
// What the device benchmarks share: a shipped database compiled once per
// process, and a device without the costs a benchmark does not measure
// (the lock, the trace), strict so that a violation shows in a counter.
#include <map>
#include <memory>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {

// yaml/NAME from the source tree, or nullptr when it does not load.
inline const std::shared_ptr<const emulator::Model>& ShippedModel(const std::string& name) {
  static std::map<std::string, std::shared_ptr<const emulator::Model>> models;
  auto [it, fresh] = models.try_emplace(name);
  if (fresh) {
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/" + name);
    if (!loaded.diagnostics.has_errors()) it->second = emulator::Compile(loaded.database).model;
  }
  return it->second;
}

inline emulator::DeviceOptions QuietOptions() {
  emulator::DeviceOptions options;
  options.thread_safe = false;
  options.trace_capacity = 0;
  return options;
}

}  // namespace regemu::bench
