// `kind: counter`: a free-running counter driven by the virtual clock. Every
// `period` of virtual time since reset adds `increment` to the register (or
// one field of it), wrapping at its width. The count is derived from time,
// so a long step costs the same as a short one.
#include <string>

#include "emulator/behaviour.hpp"
#include "regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

struct CounterConfig {
  RegisterId reg = 0;
  uint64_t mask = 0;  // the counting bits, in register position
  unsigned shift = 0;
  uint64_t period_ns = 1;
  uint64_t increment = 1;
};

class CounterBehaviour : public Behaviour {
 public:
  explicit CounterBehaviour(const CounterConfig& config) : config_(config) {}

  std::unique_ptr<Behaviour> Clone() const override { return std::make_unique<CounterBehaviour>(*this); }

  void OnReset(BehaviourContext& context) override { epoch_ns_ = context.now_ns(); }

  void OnClock(BehaviourContext& context, uint64_t from_ns, uint64_t to_ns) override {
    // Period boundaries crossed in (from, to], counted from the reset epoch.
    uint64_t ticks = (to_ns - epoch_ns_) / config_.period_ns - (from_ns - epoch_ns_) / config_.period_ns;
    if (ticks == 0) return;
    uint64_t value = context.Peek(config_.reg);
    uint64_t count = (value & config_.mask) >> config_.shift;
    count += ticks * config_.increment;  // unsigned wrap, then cut to the field
    value = (value & ~config_.mask) | ((count << config_.shift) & config_.mask);
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
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<CounterBehaviour>(config_); }

 private:
  CounterConfig config_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileCounter(const regdb::BehaviourSpec& spec, const Model& model,
                                                 std::string& error) {
  // The config was checked by regdb (CheckCounterConfig); only resolve it.
  const regdb::YamlNode* reg_node = spec.config.Find("register");
  const regdb::YamlNode* period_node = spec.config.Find("period");
  if (!reg_node || !period_node) {
    error = "counter needs 'register' and 'period'";
    return nullptr;
  }
  auto reg = model.FindRegister(reg_node->text);
  if (!reg) {
    error = "unknown register '" + reg_node->text + "'";
    return nullptr;
  }
  const RegisterModel& r = model.registers()[*reg];
  CounterConfig config;
  config.reg = *reg;
  config.mask = r.width_mask;
  if (const regdb::YamlNode* field_node = spec.config.Find("field")) {
    config.mask = 0;
    for (const FieldModel& field : r.fields) {
      if (field.name == field_node->text) config.mask = field.mask;
    }
    if (config.mask == 0) {
      error = "register '" + r.name + "' has no field '" + field_node->text + "'";
      return nullptr;
    }
  }
  while (((config.mask >> config.shift) & 1) == 0) ++config.shift;
  auto period = regdb::ParseDurationNs(period_node->text);
  if (!std::holds_alternative<uint64_t>(period) || std::get<uint64_t>(period) == 0) {
    error = "bad period '" + period_node->text + "'";
    return nullptr;
  }
  config.period_ns = std::get<uint64_t>(period);
  if (const regdb::YamlNode* increment = spec.config.Find("increment")) {
    auto parsed = regdb::ParseUnsigned(increment->text);
    if (!std::holds_alternative<uint64_t>(parsed)) {
      error = "bad increment '" + increment->text + "'";
      return nullptr;
    }
    config.increment = std::get<uint64_t>(parsed);
  }
  return std::make_unique<CounterProgram>(spec.name, config);
}

}  // namespace regemu::emulator
