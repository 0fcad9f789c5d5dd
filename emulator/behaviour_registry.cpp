// The ONE registration table of runtime behaviours, generated from
// regdb/behaviour_kinds.def: each row's RuntimeName names Compile<RuntimeName>.
#include "regemu/emulator/behaviour_registry.hpp"

#include <dlfcn.h>

#include <array>
#include <deque>
#include <stdexcept>

namespace regemu::emulator {

#define REGDB_BEHAVIOUR(id, name, runtime) \
  std::unique_ptr<BehaviourProgram> Compile##runtime(const regdb::BehaviourSpec&, const Model&, std::string&);
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR

namespace {

using Compiler = std::unique_ptr<BehaviourProgram> (*)(const regdb::BehaviourSpec&, const Model&, std::string&);

constexpr std::array<Compiler, regdb::kBehaviourKindCount> kCompilers{
#define REGDB_BEHAVIOUR(id, name, runtime) &Compile##runtime,
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
};

struct AddedCompiler {
  std::string name;
  BehaviourCompile compile;
};

std::deque<AddedCompiler>& AddedCompilers() {
  static std::deque<AddedCompiler> compilers;
  return compilers;
}

}  // namespace

void RegisterBehaviourKind(BehaviourKindDefinition definition) {
  if (!definition.compile) throw std::invalid_argument("behaviour kind '" + definition.name + "' has no compile step");
  std::string error = regdb::AddBehaviourKind(definition.name, std::move(definition.check));
  if (!error.empty()) throw std::invalid_argument(error);
  AddedCompilers().push_back(AddedCompiler{std::move(definition.name), std::move(definition.compile)});
}

std::string LoadBehaviourPlugin(const std::string& path) {
  // RTLD_GLOBAL: a plugin's typeinfo and the kinds it registers are the
  // process's, as if linked in.
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (library == nullptr) {
    const char* why = dlerror();
    return "cannot load plugin '" + path + "': " + (why ? why : "unknown error");
  }
  // The version first: a plugin built against other classes would run
  // into them as soon as it registered a kind.
  using Version = unsigned (*)();
  auto version = reinterpret_cast<Version>(dlsym(library, "regemu_plugin_api_version"));
  if (version == nullptr) {
    dlclose(library);
    return "plugin '" + path + "' was built against a regemu without plugin versions (before version 1); this regemu "
           "takes plugin version " + std::to_string(kPluginApiVersion) + ": rebuild the plugin against it";
  }
  if (unsigned built = version(); built != kPluginApiVersion) {
    dlclose(library);
    return "plugin '" + path + "' was built against plugin version " + std::to_string(built) +
           "; this regemu takes plugin version " + std::to_string(kPluginApiVersion) + ": rebuild the plugin against it";
  }
  using Init = void (*)();
  auto init = reinterpret_cast<Init>(dlsym(library, "regemu_plugin_init"));
  if (init == nullptr) return "plugin '" + path + "' has no regemu_plugin_init (define it with REGEMU_PLUGIN)";
  try {
    init();
  } catch (const std::exception& e) {
    return "plugin '" + path + "': regemu_plugin_init failed: " + e.what();
  }
  return "";
}

std::unique_ptr<BehaviourProgram> CompileBehaviour(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error) {
  auto kind = regdb::BehaviourKindFromName(spec.kind);
  const AddedCompiler* added = nullptr;
  if (!kind) {
    for (const AddedCompiler& each : AddedCompilers()) {
      if (each.name == spec.kind) added = &each;
    }
    if (added == nullptr) {
      error = "unknown behaviour kind '" + spec.kind + "'";
      return nullptr;
    }
  }
  if (!spec.config) {
    error = "its configuration was not checked (regdb::CheckDatabase), or the check refused it";
    return nullptr;
  }
  if (added != nullptr) {
    std::unique_ptr<BehaviourProgram> program = added->compile(spec, model, error);
    if (!program && error.empty()) error = "behaviour kind '" + spec.kind + "' did not compile and did not say why";
    return program;
  }
  return kCompilers[static_cast<size_t>(*kind)](spec, model, error);
}

}  // namespace regemu::emulator
