#pragma once
// Helpers for emulator tests: compile an inline YAML database into a Model
// and instantiate a Device from it, look spaces and registers up by name, and
// print violation kinds readably when a matcher fails.

#include <map>
#include <optional>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/violation.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::emulator {

// gtest prints kinds and outcomes by name instead of as bytes.
inline void PrintTo(ViolationKind kind, std::ostream* os) { *os << ViolationKindName(kind); }
inline void PrintTo(TraceOutcome outcome, std::ostream* os) {
  constexpr const char* kNames[] = {"ok", "reserved", "alias", "unclaimed", "violation", "dropped"};
  *os << kNames[static_cast<size_t>(outcome)];
}
inline void PrintTo(TraceOp op, std::ostream* os) {
  constexpr const char* kNames[] = {"read", "write", "peek", "poke", "step", "reset"};
  *os << kNames[static_cast<size_t>(op)];
}

namespace testing_support {

// Loads, checks and compiles `yaml`; a database error or a compile error
// throws with the rendered diagnostics, so the test reports them.
inline std::shared_ptr<const Model> CompileYaml(const std::string& yaml) {
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(yaml);
  if (loaded.diagnostics.has_errors()) {
    throw std::runtime_error("the test database has errors:\n" + regdb::testing_support::Rendered(loaded));
  }
  CompileResult compiled = Compile(loaded.database);
  if (!compiled.model) {
    std::string text = "the test database does not compile:";
    for (const std::string& error : compiled.errors) text += "\n  " + error;
    throw std::runtime_error(text);
  }
  return compiled.model;
}

// Loads, checks and compiles the database at `path` (a shipped device folder)
// once per test binary; errors throw, as in CompileYaml.
inline std::shared_ptr<const Model> CompileDatabaseAt(const std::string& path) {
  static std::map<std::string, std::shared_ptr<const Model>> cache;
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(path);
  if (loaded.diagnostics.has_errors()) {
    throw std::runtime_error(path + " has errors:\n" + regdb::testing_support::Rendered(loaded));
  }
  CompileResult compiled = Compile(loaded.database);
  if (!compiled.model) throw std::runtime_error(path + " does not compile");
  return cache.emplace(path, compiled.model).first->second;
}

inline std::unique_ptr<Device> MakeDevice(const std::string& yaml, DeviceOptions options = {}) {
  return std::make_unique<Device>(CompileYaml(yaml), std::move(options));
}

inline SpaceId SpaceNamed(const Model& model, std::string_view name) {
  auto id = model.FindSpace(name);
  if (!id) throw std::invalid_argument("no space '" + std::string(name) + "'");
  return *id;
}

inline RegisterId RegisterNamed(const Model& model, std::string_view name) {
  auto id = model.FindRegister(name);
  if (!id) throw std::invalid_argument("no register '" + std::string(name) + "'");
  return *id;
}

// The coverage points of behaviour `behaviour` (DeviceOptions::coverage),
// every declared one, as "group/name" -> hits.
inline std::map<std::string, uint64_t> PointHits(const Device& device, std::string_view behaviour) {
  std::optional<ModelCoverage> coverage = device.Coverage();
  if (!coverage) throw std::logic_error("the device was made without DeviceOptions::coverage");
  auto it = coverage->behaviours.find(behaviour);
  if (it == coverage->behaviours.end()) throw std::invalid_argument("no behaviour '" + std::string(behaviour) + "'");
  std::map<std::string, uint64_t> hits;
  for (const PointCoverage& point : it->second.points) hits[point.group + "/" + point.name] = point.hits;
  return hits;
}

// The kinds of the recorded violations, in order.
inline std::vector<ViolationKind> Kinds(const Device& device) {
  std::vector<ViolationKind> kinds;
  for (const Violation& v : device.violations()) kinds.push_back(v.kind);
  return kinds;
}

}  // namespace testing_support
}  // namespace regemu::emulator
