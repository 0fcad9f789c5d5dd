// A behaviour kind to copy: `kind: read-counter` counts the frontdoor reads
// of one register into another. The three parts every kind has, in one
// file (docs/extending.md walks through them):
//   1. the check: the only reader of the behaviour's YAML, reporting each
//      mistake at its line and column, into a typed config;
//   2. the program: built once per model from the config, it says which
//      registers to hook and which `inject` verbs the kind takes;
//   3. the behaviour: the per-device state and its hooks.
// Built as a plugin (`regemu --plugin libread_counter.so run ...`), or linked
// into a test binary that calls RegisterReadCounterKind() itself.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/behaviour_registry.hpp"

namespace read_counter {

using regemu::emulator::Behaviour;
using regemu::emulator::BehaviourContext;
using regemu::emulator::BehaviourProgram;
using regemu::emulator::InjectArgument;
using regemu::emulator::InjectForm;
using regemu::emulator::InjectResult;
using regemu::emulator::Model;
using regemu::emulator::RegisterId;

// 1. The config: plain resolved data, no YAML.
struct ReadCounterConfig : regemu::regdb::BehaviourConfig {
  regemu::regdb::RegisterIndex watched = 0;
  regemu::regdb::RegisterIndex count = 0;
};

std::unique_ptr<regemu::regdb::BehaviourConfig> CheckReadCounter(const regemu::regdb::BehaviourSpec& spec,
                                                                  const regemu::regdb::Database& database,
                                                                  regemu::regdb::SchemaReader& reader) {
  static constexpr std::array<std::string_view, 5> kKeys{"kind", "name", "doc", "watched", "count"};
  if (!reader.ExpectMap(spec.yaml, "a read-counter behaviour", kKeys)) return nullptr;
  // Unknown names are reported at their column, with the closest register.
  const auto* watched = regemu::regdb::ResolveRegisterKey(spec, "watched", true, database, reader);
  const auto* count = regemu::regdb::ResolveRegisterKey(spec, "count", true, database, reader);
  if (!watched || !count) return nullptr;
  auto config = std::make_unique<ReadCounterConfig>();
  config->watched = database.IndexOf(*watched);
  config->count = database.IndexOf(*count);
  return config;
}

// 3. The behaviour: a copy of its members is its whole state, so snapshots
// and restores need nothing more (CopyableBehaviour).
class ReadCounter : public regemu::emulator::CopyableBehaviour<ReadCounter> {
 public:
  // Both are the program's, which outlives every device of its model.
  ReadCounter(const ReadCounterConfig& config, const std::string& name) : config_(&config), name_(&name) {}

  // After a frontdoor read of a register the program hooks: the count goes
  // up, through the backdoor (Poke), and the read returns what it read.
  uint64_t AfterRead(BehaviourContext& context, RegisterId reg, uint64_t value) override {
    if (reg == config_->watched) context.Poke(config_->count, context.Peek(config_->count) + 1);
    return value;
  }

  // `inject NAME clear` (as the program's InjectForms declares): the count
  // starts again. `args` lives for this call only.
  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != *name_) return InjectResult::kNotMine;
    if (args.size() != 1 || args[0] != "clear") {
      error = "usage: inject " + *name_ + " clear";
      return InjectResult::kBadArguments;
    }
    context.Poke(config_->count, 0);
    return InjectResult::kDone;
  }

 private:
  const ReadCounterConfig* config_;
  const std::string* name_;
};

// 2. The program.
class ReadCounterProgram : public BehaviourProgram {
 public:
  ReadCounterProgram(std::string name, const ReadCounterConfig& config)
      : BehaviourProgram("read-counter", std::move(name)), config_(config) {}

  std::vector<RegisterId> ReadHooks() const override { return {static_cast<RegisterId>(config_.watched)}; }
  std::vector<InjectForm> InjectForms() const override {
    return {{name(), {InjectArgument::Word("clear")}, 0, 0, "the count starts again from 0"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<ReadCounter>(config_, name()); }

 private:
  ReadCounterConfig config_;
};

std::unique_ptr<BehaviourProgram> CompileReadCounter(const regemu::regdb::BehaviourSpec& spec, const Model&,
                                                     std::string& error) {
  const auto* config = regemu::emulator::ConfigOf<ReadCounterConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<ReadCounterProgram>(spec.name, *config);
}

void RegisterReadCounterKind() {
  regemu::emulator::RegisterBehaviourKind({
      .name = "read-counter",
      .check = CheckReadCounter,
      .compile = CompileReadCounter,
  });
}

}  // namespace read_counter

// The plugin's entry point: `regemu --plugin` calls it after dlopen, once
// it has checked the plugin version this file was compiled against.
REGEMU_PLUGIN { read_counter::RegisterReadCounterKind(); }
