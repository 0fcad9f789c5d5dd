// `kind: counter`: a counter driven by the virtual clock (yaml/README.md
// "kind: counter"). Every tick of an exact rate (counter_clock.hpp) adds
// `increment` to the register (or one field of it), wrapping at its width
// or saturating; an enable bit gates the counting time; comparators match
// at the exact ns the count reaches them, on the device's event queue.
//
// The register is the count: each advance of the clock adds the ticks of
// that advance to what it holds (so a backdoor poke is a new count, the
// phase kept), and a read right after a step sees the exact count.
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/counter_clock.hpp"
#include "regemu/emulator/behaviours/register_env.hpp"
#include "regemu/regdb/behaviour_configs/counter.hpp"

namespace regemu::emulator {
namespace {

using regdb::CounterComparator;
using regdb::CounterConfig;
using regdb::RegisterBits;

// Coverage: the counter's limit (a timestamp read across a wrap goes
// backwards; a saturated one stops), then each comparator's match.
constexpr uint32_t kLimit = 0;
constexpr uint32_t kFirstMatch = 1;

// What every instance of one counter shares.
struct CounterShape {
  CounterConfig config;
  CounterClock clock;
  uint64_t max = 0;        // all-ones of the counting bits, at bit 0
  bool writable = false;   // a frontdoor write can set the count
  std::vector<std::string> verbs;  // per comparator: "<behaviour>.<comparator>"
  std::vector<RegisterId> width_inputs;  // registers the comparators' `width:` expressions read
  // Per comparator: the count's bits a constant (or absent) `width:`
  // compares; 0 for a width that must be evaluated.
  std::vector<uint64_t> fixed_masks;
};

// The count's low `width` bits (0 or above the counter's width: all of them).
uint64_t MaskOfWidth(uint64_t width, uint64_t max) {
  if (width == 0 || width >= 64) return max;
  return max & ((uint64_t{1} << width) - 1);
}

uint64_t BitsOf(BehaviourContext& context, const RegisterBits& target) {
  return target.bits.Get(context.Peek(target.reg));
}

// Replaces the bits of `target` with `value` (cut to them), through Store:
// other behaviours hear of it as of a device write.
void StoreBits(BehaviourContext& context, const RegisterBits& target, uint64_t value) {
  uint64_t reg = context.Peek(target.reg);
  context.Store(target.reg, (reg & ~target.bits.mask) | ((value << target.bits.shift) & target.bits.mask));
}

class CounterBehaviour : public CopyableBehaviour<CounterBehaviour> {
 public:
  explicit CounterBehaviour(const CounterShape& shape) : shape_(&shape), plans_(shape.config.compare.size()) {}

  void OnReset(BehaviourContext& context) override {
    // The queue is empty after a reset: the plans' events are gone.
    for (Plan& plan : plans_) plan.event = 0;
    fraction_ = 0;
    counted_to_ns_ = context.now_ns();
    saturated_ = false;
    PlanAll(context);
  }

  void OnClock(BehaviourContext& context, uint64_t, uint64_t to_ns) override {
    bool enabled = Enabled(context);
    if (plans_.empty()) {  // nothing compares: the count is all there is
      Fold(context, to_ns, enabled);
      return;
    }
    // A backdoor poke of the count, the enable or a comparator tells no
    // hook: the plans are re-made here, at the next advance (a match inside
    // that advance is missed; pokes are for setting up, not for driving).
    bool stale = Count(context) != seen_count_ || enabled != planned_enabled_ || ComparatorMoved(context);
    Fold(context, to_ns, enabled);
    if (stale) PlanAll(context);
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    Changed(context, reg, before, after, /*frontdoor=*/true);
  }
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    Changed(context, reg, before, after, /*frontdoor=*/false);
  }

  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    // Only the event of a comparator's current plan: one cancelled in the
    // instant it fell due (a re-plan by OnClock at that instant) is stale.
    uint32_t i = 0;
    while (i < plans_.size() && !(plans_[i].event != 0 && plans_[i].tag == tag)) ++i;
    if (i == plans_.size()) return;
    Plan& plan = plans_[i];
    plan.event = 0;  // fired
    const CounterComparator& comparator = config().compare[i];
    context.Cover(kFirstMatch + i);
    if (comparator.set) StoreBits(context, *comparator.set, 1);
    if (comparator.periodic && BitsOf(context, *comparator.periodic) != 0) {
      // The reload: the next match comes a period register's worth of ticks
      // later. With `width:` the sum wraps at the bits compared (an event
      // timer's "the value will wrap around through 0" at its width).
      uint64_t next = plan.comparator + BitsOf(context, *comparator.period_register);
      if (comparator.width) next = (plan.comparator & ~plan.mask) | (next & plan.mask);
      StoreBits(context, comparator.value, next);
    }
    if (comparator.signal) context.Signal(shape_->verbs[i]);
    PlanOne(context, i);
  }

 private:
  // The pending match of one comparator.
  struct Plan {
    uint64_t event = 0;       // the device's event id; 0: none pending
    uint64_t tag = 0;         // ours, unique: tells a stale event from the current one
    uint64_t comparator = 0;  // the comparator's bits the plan was made for
    uint64_t mask = 0;        // the count's bits it compared (its `width:`)
  };

  const CounterConfig& config() const { return shape_->config; }

  bool Enabled(BehaviourContext& context) const {
    return !config().enable || BitsOf(context, *config().enable) != 0;
  }
  uint64_t Count(BehaviourContext& context) const { return config().bits.Get(context.Peek(config().reg)); }

  // Brings the count up to `to_ns`: the counting time since the last fold
  // counts if `enabled` (the enable's state over that time).
  void Fold(BehaviourContext& context, uint64_t to_ns, bool enabled) {
    if (to_ns <= counted_to_ns_) return;
    uint64_t ns = to_ns - counted_to_ns_;
    counted_to_ns_ = to_ns;
    if (!enabled) return;  // halted: no counting time, the fraction of a tick kept
    U128 ticks = shape_->clock.Advance(fraction_, ns);
    if (ticks != 0) AddTicks(context, ticks);
  }

  void AddTicks(BehaviourContext& context, U128 ticks) {
    const CounterConfig& c = config();
    uint64_t value = context.Peek(c.reg);
    uint64_t old = c.bits.Get(value);
    // Whether the ticks carry past all-ones (U128: ticks may exceed 2^64).
    bool past = ticks > (shape_->max - old) / c.increment;
    uint64_t count;
    if (c.saturate) {
      count = past ? shape_->max : old + static_cast<uint64_t>(ticks) * c.increment;
      if (past && !saturated_) context.Cover(kLimit);  // once per time it gets stuck
      saturated_ = past;
    } else {
      count = old + static_cast<uint64_t>(ticks) * c.increment;  // modulo 2^64, then cut to the field
      if (past) context.Cover(kLimit);
    }
    context.Poke(c.reg, (value & ~c.bits.mask) | ((count << c.bits.shift) & c.bits.mask));
    seen_count_ = count & shape_->max;
  }

  // Whether a comparator, or what a `width:` reads, is not what the plans
  // were made from.
  bool ComparatorMoved(BehaviourContext& context) const {
    for (size_t i = 0; i < plans_.size(); ++i) {
      if (BitsOf(context, config().compare[i].value) != plans_[i].comparator) return true;
    }
    for (size_t i = 0; i < seen_width_inputs_.size(); ++i) {
      if (context.Peek(shape_->width_inputs[i]) != seen_width_inputs_[i]) return true;
    }
    return false;
  }

  // The count's bits comparator `i` compares: its `width:` now (a value of
  // 0 or above the counter's width compares them all), else all of them.
  uint64_t CompareMask(BehaviourContext& context, size_t i) const {
    if (shape_->fixed_masks[i] != 0) return shape_->fixed_masks[i];
    return MaskOfWidth(config().compare[i].width->Evaluate(RegisterEnv(context)), shape_->max);
  }

  // A hooked register changed, by a frontdoor write or another behaviour's
  // Store, from `before` to `after`.
  void Changed(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after, bool frontdoor) {
    const CounterConfig& c = config();
    bool enable_changed = false;
    bool was_enabled = Enabled(context);
    if (c.enable && reg == c.enable->reg) {
      was_enabled = c.enable->bits.Get(before) != 0;
      enable_changed = was_enabled != (c.enable->bits.Get(after) != 0);
    }
    // Time up to now counts with the enable as it was (the clock has
    // normally been folded to now already; this is for a Store made by a
    // behaviour whose OnClock runs before ours).
    Fold(context, context.now_ns(), was_enabled);
    bool replan = enable_changed;
    if (reg == c.reg && (((before ^ after) & c.bits.mask) != 0 || (frontdoor && shape_->writable))) {
      // The count was set: counting restarts from it, a whole period from now.
      fraction_ = 0;
      saturated_ = false;
      replan = true;
    }
    for (const CounterComparator& comparator : c.compare) {
      if (reg == comparator.value.reg && ((before ^ after) & comparator.value.bits.mask) != 0) replan = true;
    }
    // What a comparator's `width:` reads (a timer's 32-bit mode bit): a change
    // may change the bits it compares.
    for (RegisterId input : shape_->width_inputs) {
      if (reg == input && before != after) replan = true;
    }
    if (replan) PlanAll(context);
  }

  void PlanAll(BehaviourContext& context) {
    seen_count_ = Count(context);
    planned_enabled_ = Enabled(context);
    seen_width_inputs_.resize(shape_->width_inputs.size());
    for (size_t i = 0; i < seen_width_inputs_.size(); ++i) seen_width_inputs_[i] = context.Peek(shape_->width_inputs[i]);
    for (uint32_t i = 0; i < plans_.size(); ++i) PlanOne(context, i);
  }

  // Schedules comparator `i`'s next match, if the count will reach it: the
  // first ns at which the ticks since now carry the count onto (or, with an
  // increment above 1, past) the comparator's value, modulo the width.
  void PlanOne(BehaviourContext& context, uint32_t i) {
    Plan& plan = plans_[i];
    if (plan.event != 0) context.Cancel(plan.event);
    const CounterConfig& c = config();
    uint64_t comparator = BitsOf(context, c.compare[i].value);
    uint64_t mask = CompareMask(context, i);
    plan = Plan{0, 0, comparator, mask};
    if (!Enabled(context)) return;
    uint64_t count = Count(context);
    uint64_t target = comparator & mask;
    U128 distance;
    if (c.saturate) {
      if (target <= count) return;  // a saturating count never comes back to it
      distance = target - count;
    } else {
      // Compared in the low bits only, the count reaches the value once a
      // lap of those bits (2^32 ticks for a 32-bit comparator).
      distance = (target - count) & mask;
      if (distance == 0) distance = U128{mask} + 1;  // equal now: the next match is a lap away
    }
    U128 ticks = (distance + c.increment - 1) / c.increment;
    U128 delay = shape_->clock.NsUntil(fraction_, ticks);
    if (delay > ~uint64_t{0} - context.now_ns()) return;  // beyond the end of virtual time
    plan.tag = next_tag_++;
    plan.event = context.Schedule(static_cast<uint64_t>(delay), plan.tag);
  }

  const CounterShape* shape_;
  uint64_t fraction_ = 0;       // of a tick, over rate.den
  uint64_t counted_to_ns_ = 0;  // the instant the register's count is of
  bool saturated_ = false;      // the last fold lost ticks to saturation
  // What the plans were made from, to notice backdoor pokes (OnClock).
  uint64_t seen_count_ = 0;
  bool planned_enabled_ = false;
  std::vector<uint64_t> seen_width_inputs_;  // per shape_->width_inputs
  uint64_t next_tag_ = 0;
  std::vector<Plan> plans_;  // per comparator
};

class CounterProgram : public BehaviourProgram {
 public:
  CounterProgram(std::string name, CounterShape shape)
      : BehaviourProgram("counter", std::move(name)), shape_(std::move(shape)) {
    for (const CounterComparator& comparator : shape_.config.compare) {
      shape_.verbs.push_back(this->name() + "." + comparator.name);
      if (comparator.width) AddOperandRegisters(*comparator.width, shape_.width_inputs);
      bool fixed = !comparator.width || comparator.width->constant();
      shape_.fixed_masks.push_back(
          fixed ? MaskOfWidth(comparator.width ? comparator.width->max_value() : 64, shape_.max) : 0);
    }
  }

  // The enable and the comparators re-plan the matches; the counter itself
  // when a write or another behaviour can set it.
  std::vector<RegisterId> WriteHooks() const override {
    const CounterConfig& c = shape_.config;
    std::vector<RegisterId> hooks;
    if (shape_.writable || !c.compare.empty()) hooks.push_back(c.reg);
    if (c.enable) hooks.push_back(c.enable->reg);
    for (const CounterComparator& comparator : c.compare) hooks.push_back(comparator.value.reg);
    hooks.insert(hooks.end(), shape_.width_inputs.begin(), shape_.width_inputs.end());
    return hooks;
  }

  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points{{"counter", shape_.config.saturate ? "saturated" : "wrapped"}};
    for (const CounterComparator& comparator : shape_.config.compare) points.push_back({"match", comparator.name});
    return points;
  }

  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<CounterBehaviour>(shape_); }

 private:
  CounterShape shape_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileCounter(const regdb::BehaviourSpec& spec, const Model& model,
                                                 std::string& error) {
  const CounterConfig* config = ConfigOf<CounterConfig>(spec, error);
  if (!config) return nullptr;
  const RegisterModel& reg = model.registers().at(config->reg);
  CounterShape shape{*config, CounterClock(config->rate), config->bits.mask >> config->bits.shift,
                     (model.masks(reg).Writable() & config->bits.mask) != 0, {}, {}, {}};
  return std::make_unique<CounterProgram>(spec.name, std::move(shape));
}

}  // namespace regemu::emulator
