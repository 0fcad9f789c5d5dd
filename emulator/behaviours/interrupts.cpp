// `kind: interrupts`: the interrupt roll-up (yaml/README.md, "kind:
// interrupts"). A source is pending while its status field is not 0, its
// enable (if any) is not 0 and its mask (if any) is 0; an output is the OR
// of its sources. Outputs are recomputed after every frontdoor write of a
// register a source names, after another behaviour stores into one (a
// reaction raising a status bit: BehaviourContext::Store), and at reset.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/interrupts.hpp"

namespace regemu::emulator {
namespace {

using regdb::InterruptsConfig;
using regdb::RegisterBits;

class InterruptsProgram : public BehaviourProgram {
 public:
  InterruptsProgram(std::string name, const InterruptsConfig& config)
      : BehaviourProgram("interrupts", std::move(name)), config_(config) {
    auto add = [&](const RegisterBits& bits) {
      if (std::find(hooks_.begin(), hooks_.end(), bits.reg) == hooks_.end()) hooks_.push_back(bits.reg);
    };
    for (const regdb::InterruptSource& source : config_.sources) {
      add(source.status);
      if (source.enable) add(*source.enable);
      if (source.mask) add(*source.mask);
    }
    for (const regdb::InterruptOutput& output : config_.outputs) {
      if (!output.line.empty()) lines_.push_back(output.line);
    }
  }

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
  explicit InterruptsBehaviour(const InterruptsProgram& program) : program_(&program) {}

  void OnReset(BehaviourContext& context) override {
    pending_.assign(program_->config().sources.size(), 0);
    Update(context);
  }
  void AfterWrite(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override { Update(context); }
  void OnStore(BehaviourContext& context, RegisterId, uint64_t, uint64_t) override { Update(context); }

 private:
  static uint64_t Bits(BehaviourContext& context, const RegisterBits& bits) {
    return bits.bits.Get(context.Peek(bits.reg));
  }

  void Update(BehaviourContext& context) {
    const InterruptsConfig& config = program_->config();
    for (size_t i = 0; i < config.sources.size(); ++i) {
      const regdb::InterruptSource& source = config.sources[i];
      bool pending = Bits(context, source.status) != 0 && (!source.enable || Bits(context, *source.enable) != 0) &&
                     (!source.mask || Bits(context, *source.mask) == 0);
      if (pending && pending_[i] == 0) context.Cover(static_cast<uint32_t>(i));
      pending_[i] = pending ? 1 : 0;
    }
    uint32_t line = 0;
    for (const regdb::InterruptOutput& output : config.outputs) {
      bool asserted = false;
      for (uint32_t s : output.sources) asserted = asserted || pending_[s] != 0;
      if (output.line.empty()) {
        context.SetInterrupt(asserted);
      } else {
        context.SetLine(line++, asserted);
      }
    }
  }

  const InterruptsProgram* program_;
  std::vector<uint8_t> pending_;
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
