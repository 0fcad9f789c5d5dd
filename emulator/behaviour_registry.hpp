#pragma once
// The extension point: behaviour kinds defined outside regemu, in a driver
// project's test binary or in a plugin (`regemu run --plugin LIB.so`).
//
// A kind is the same three parts as a built-in one (behaviour.hpp): a check
// that reads its YAML section into a typed config (regdb's SchemaReader
// gives located errors), a compile step that builds its BehaviourProgram
// from that config, and the runtime Behaviour it instantiates per device
// (hooks on reads and writes, timers on the event queue, interrupts,
// violations, all through BehaviourContext). docs/own-device.md walks
// through one.
//
//   regemu::emulator::RegisterBehaviourKind({
//       .name = "my-queue",
//       .check = CheckMyQueueConfig,       // returns std::unique_ptr<regdb::BehaviourConfig>
//       .compile = CompileMyQueue,         // returns std::unique_ptr<BehaviourProgram>
//   });
//
// Register before loading a database that names the kind. A plugin library
// does it from the function it exports as `regemu_plugin_init` (see
// REGEMU_PLUGIN below), which the command line calls after dlopen.

#include <functional>
#include <memory>
#include <string>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_kinds.hpp"

namespace regemu::emulator {

using BehaviourCompile =
    std::function<std::unique_ptr<BehaviourProgram>(const regdb::BehaviourSpec& spec, const Model& model,
                                                    std::string& error)>;

struct BehaviourKindDefinition {
  std::string name;  // the `kind:` word: lower-case letters, digits and '-'
  regdb::BehaviourCheck check;
  BehaviourCompile compile;
};

// Adds the kind process-wide; throws std::invalid_argument when the name is
// taken (a built-in kind, or one registered before), is not a kind name, or
// a part is missing. Not synchronised with loading: register first.
void RegisterBehaviourKind(BehaviourKindDefinition definition);

// The version of the interface a plugin is compiled against: the kinds'
// classes (BehaviourProgram, Behaviour, BehaviourContext, the configs) and
// this registry. It goes up whenever a change would break a plugin built
// before it; a plugin built against another version is refused at load.
// 3: the hooks of one role each (CheckAccess, RouteInterrupt,
// OnInterruptEvent, OnChildInterrupt, Metric) left Behaviour for optional
// interfaces (AccessGate, InterruptRouter, ChildInterrupts, MetricSource).
// 4: AccessRefusal says what a refused read answers (`reads_as`).
inline constexpr unsigned kPluginApiVersion = 4;

// Loads a plugin: dlopen(path), checks the version it was built against
// (its `regemu_plugin_api_version`, which REGEMU_PLUGIN defines), then calls
// its `regemu_plugin_init`. Returns "" when loaded, else why not (the
// loader's message, a version other than kPluginApiVersion, naming both, a
// library without the entry point, or the exception its init threw).
std::string LoadBehaviourPlugin(const std::string& path);

}  // namespace regemu::emulator

// A plugin's entry point: `REGEMU_PLUGIN { RegisterBehaviourKind(...); }`.
// It also exports the plugin interface version the plugin was compiled
// against, which the loader compares with its own.
#define REGEMU_PLUGIN                                                                            \
  extern "C" __attribute__((visibility("default"))) unsigned regemu_plugin_api_version() {       \
    return ::regemu::emulator::kPluginApiVersion;                                                \
  }                                                                                              \
  extern "C" __attribute__((visibility("default"))) void regemu_plugin_init()
