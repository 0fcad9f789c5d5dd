// The ONE registration table of runtime behaviours, generated from
// regdb/behaviour_kinds.def: each row's RuntimeName names Compile<RuntimeName>.
#include <array>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_kinds.hpp"

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

}  // namespace

std::unique_ptr<BehaviourProgram> CompileBehaviour(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error) {
  auto kind = regdb::BehaviourKindFromName(spec.kind);
  if (!kind) {
    error = "unknown behaviour kind '" + spec.kind + "'";
    return nullptr;
  }
  if (!spec.config) {
    error = "its configuration was not checked (regdb::CheckDatabase), or the check refused it";
    return nullptr;
  }
  return kCompilers[static_cast<size_t>(*kind)](spec, model, error);
}

}  // namespace regemu::emulator
