// `kind: interrupts`: the interrupt roll-up (yaml/README.md, "kind:
// interrupts"), run by InterruptRollup. Outputs are recomputed after every
// frontdoor write of a register a source names, after another behaviour
// stores into one (a reaction raising a status bit: BehaviourContext::Store),
// and at reset.
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/interrupt_rollup.hpp"
#include "regemu/regdb/behaviour_configs/interrupts.hpp"

namespace regemu::emulator {
namespace {

using regdb::InterruptsConfig;

class InterruptsProgram : public BehaviourProgram {
 public:
  InterruptsProgram(std::string name, const InterruptsConfig& config)
      : BehaviourProgram("interrupts", std::move(name)),
        config_(config),
        hooks_(InterruptRollup::Inputs(config_)),
        lines_(InterruptRollup::LineNames(config_)) {}

  const InterruptsConfig& config() const { return config_; }
  std::vector<RegisterId> WriteHooks() const override { return hooks_; }
  std::vector<std::string> OutputLines() const override { return lines_; }
  std::string InterruptParent() const override { return config_.interrupt_parent; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (const regdb::InterruptSource& source : config_.sources) points.push_back({"sources raised", source.name});
    return points;
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

 private:
  InterruptsConfig config_;
  std::vector<RegisterId> hooks_;
  std::vector<std::string> lines_;
};

class InterruptsBehaviour : public CopyableBehaviour<InterruptsBehaviour> {
 public:
  explicit InterruptsBehaviour(const InterruptsProgram& program) : rollup_(program.config()) {}

  void OnReset(BehaviourContext& context) override {
    rollup_.Clear();
    rollup_.Update(context, true);
  }
  void AfterWrite(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override { rollup_.Update(context, true); }
  void OnStore(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override { rollup_.Update(context, true); }

 private:
  InterruptRollup rollup_;
};

std::unique_ptr<Behaviour> InterruptsProgram::Instantiate() const {
  return std::make_unique<InterruptsBehaviour>(*this);
}

}  // namespace

std::unique_ptr<BehaviourProgram> CompileInterrupts(const regdb::BehaviourSpec& spec, const Model&,
                                                    std::string& error) {
  const InterruptsConfig* config = ConfigOf<InterruptsConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<InterruptsProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
