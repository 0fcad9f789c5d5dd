// `kind: counter`: a free-running counter driven by the virtual clock. Every
// `period` of virtual time since reset adds `increment` to the register (or
// one field of it), wrapping at its width. The count is derived from time,
// so a long step costs the same as a short one.
#include <string>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/counter.hpp"

namespace regemu::emulator {
namespace {

using regdb::CounterConfig;

// Coverage: a counter's one path a driver must handle is its wrap (a
// timestamp or cycle count read across it goes backwards).
constexpr uint32_t kWrapped = 0;

class CounterBehaviour : public CopyableBehaviour<CounterBehaviour> {
 public:
  explicit CounterBehaviour(const CounterConfig& config) : config_(config) {}

  void OnReset(BehaviourContext& context) override { epoch_ns_ = context.now_ns(); }

  void OnClock(BehaviourContext& context, uint64_t from_ns, uint64_t to_ns) override {
    // Period boundaries crossed in (from, to], counted from the reset epoch.
    uint64_t ticks = (to_ns - epoch_ns_) / config_.period_ns - (from_ns - epoch_ns_) / config_.period_ns;
    if (ticks == 0) return;
    uint64_t value = context.Peek(config_.reg);
    const regdb::FieldBits& bits = config_.bits;
    uint64_t old = bits.Get(value);
    if (config_.increment != 0 && ticks > ((bits.mask >> bits.shift) - old) / config_.increment) {
      context.Cover(kWrapped);
    }
    uint64_t count = old + ticks * config_.increment;  // unsigned wrap, then cut to the field
    value = (value & ~bits.mask) | ((count << bits.shift) & bits.mask);
    context.Poke(config_.reg, value);
  }

 private:
  CounterConfig config_;
  uint64_t epoch_ns_ = 0;
};

class CounterProgram : public BehaviourProgram {
 public:
  CounterProgram(std::string name, const CounterConfig& config)
      : BehaviourProgram("counter", std::move(name)), config_(config) {}
  std::vector<CoveragePoint> CoveragePoints() const override { return {{"counter", "wrapped"}}; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<CounterBehaviour>(config_); }

 private:
  CounterConfig config_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileCounter(const regdb::BehaviourSpec& spec, const Model&, std::string& error) {
  const CounterConfig* config = ConfigOf<CounterConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<CounterProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
