// `kind: counter`: a counter driven by the virtual clock (yaml/README.md
// "kind: counter"). Every tick of an exact rate (counter_clock.hpp) moves
// the register (or one field of it, or its low `width` bits) by `increment`,
// up or down, wrapping, saturating, or at a limit reloading or stopping; an
// enable gates the counting time; the limit event and comparators fire at
// the exact ns the count reaches them, on the device's event queue.
//
// The register is the count: each advance of the clock adds the ticks of
// that advance to what it holds (so a backdoor poke is a new count, the
// phase kept), and a read right after a step sees the exact count. Rate,
// width, enable, limit and stop are expressions over registers; the counter
// hooks what they read, folds the count up to the instant with the old
// values when one changes, and re-plans with the new.
#include <numeric>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/counter_clock.hpp"
#include "regemu/emulator/behaviours/register_env.hpp"
#include "regemu/regdb/behaviour_configs/counter.hpp"

namespace regemu::emulator {
namespace {

using regdb::CountDirection;
using regdb::CounterComparator;
using regdb::CounterConfig;
using regdb::RegisterBits;
using regdb::TickRate;

// Coverage: the counter's limit (a timestamp read across a wrap goes
// backwards; a saturated one stops; a timer's count ran out), then each
// comparator's match.
constexpr uint32_t kLimit = 0;
constexpr uint32_t kFirstMatch = 1;

// What every instance of one counter shares.
struct CounterShape {
  CounterConfig config;
  uint64_t max = 0;        // all-ones of the counting bits, at bit 0
  bool writable = false;   // a frontdoor write can set the count
  std::vector<std::string> verbs;  // per comparator: "<behaviour>.<comparator>"
  std::string limit_verb;          // "<behaviour>.limit"
  // Registers the expressions read (rate, width, enable, limit, stop,
  // reload, comparators' widths): a change re-plans.
  std::vector<RegisterId> inputs;
  // Per comparator: the count's bits a constant (or absent) `width:`
  // compares; 0 for a width that must be evaluated.
  std::vector<uint64_t> fixed_masks;
};

// The low `width` bits of `max` (0 or 64 and above: all of them).
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

// The device's registers as they were before a write: `reg` as `before`.
class EnvBefore : public regdb::ExpressionEnv {
 public:
  EnvBefore(const BehaviourContext& context, RegisterId reg, uint64_t before)
      : context_(context), reg_(reg), before_(before) {}
  uint64_t Load(uint64_t id) const override {
    RegisterId reg = regdb::OperandRegister(id);
    if (reg != reg_) return PeekOperand(context_, id);
    return context_.model().registers()[reg].OperandValue(id, before_);
  }

 private:
  const BehaviourContext& context_;
  RegisterId reg_;
  uint64_t before_;
};

// The rate with its scale applied, in lowest terms (the check proved it
// fits: scale >= 1, and num or den times it below 2^64).
TickRate ScaledRate(const regdb::CounterRate& rate, uint64_t scale) {
  TickRate scaled = rate.base;
  if (rate.divides) {
    scaled.den *= scale;
  } else {
    scaled.num *= scale;
  }
  uint64_t divisor = std::gcd(scaled.num, scaled.den);
  return TickRate{scaled.num / divisor, scaled.den / divisor};
}

class CounterBehaviour : public CopyableBehaviour<CounterBehaviour> {
 public:
  explicit CounterBehaviour(const CounterShape& shape)
      : shape_(&shape), clock_(shape.config.rate.base), plans_(shape.config.compare.size() + 1) {}

  void OnReset(BehaviourContext& context) override {
    // The queue is empty after a reset: the plans' events are gone.
    for (Plan& plan : plans_) plan.event = 0;
    RestartPhase();
    counted_to_ns_ = context.now_ns();
    saturated_ = false;
    stopped_ = false;
    Refresh(context);
    PlanAll(context);
  }

  void OnClock(BehaviourContext& context, uint64_t, uint64_t to_ns) override {
    bool enabled = Enabled(context);
    if (!shape_->config.at_limit && config().compare.empty() && shape_->inputs.empty()) {
      Fold(context, to_ns, enabled);  // nothing to plan or follow: the count is all there is
      return;
    }
    // A backdoor poke of the count or of what the expressions read tells no
    // hook: the plans are re-made here, at the next advance (a match inside
    // that advance is missed; pokes are for setting up, not for driving).
    bool inputs_moved = InputsMoved(context);
    bool stale = inputs_moved || Count(context) != seen_count_ || enabled != planned_enabled_ ||
                 ComparatorMoved(context);
    Fold(context, to_ns, enabled);
    if (inputs_moved) Refresh(context);
    if (stale) PlanAll(context);
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    Changed(context, reg, before, after, /*frontdoor=*/true);
  }
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    Changed(context, reg, before, after, /*frontdoor=*/false);
  }

  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    // Only the event of a current plan: one cancelled in the instant it fell
    // due (a re-plan by OnClock at that instant) is stale.
    uint32_t i = 0;
    while (i < plans_.size() && !(plans_[i].event != 0 && plans_[i].tag == tag)) ++i;
    if (i == plans_.size()) return;
    plans_[i].event = 0;  // fired
    if (i == LimitPlan()) {
      ReachedLimit(context);
      return;
    }
    Plan& plan = plans_[i];
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
  // A pending event: a comparator's match, or (the last) the limit's.
  struct Plan {
    uint64_t event = 0;       // the device's event id; 0: none pending
    uint64_t tag = 0;         // ours, unique: tells a stale event from the current one
    uint64_t comparator = 0;  // the comparator's bits the plan was made for
    uint64_t mask = 0;        // the count's bits it compared (its `width:`)
  };

  const CounterConfig& config() const { return shape_->config; }
  uint32_t LimitPlan() const { return static_cast<uint32_t>(plans_.size() - 1); }
  bool down() const { return config().direction == CountDirection::kDown; }

  bool Holds(BehaviourContext& context, const std::optional<regdb::Expression>& expression) const {
    return expression && expression->Evaluate(RegisterEnv(context)) != 0;
  }
  bool Enabled(BehaviourContext& context) const {
    return !stopped_ && (!config().enable || Holds(context, config().enable));
  }
  uint64_t Count(BehaviourContext& context) const { return config().bits.Get(context.Peek(config().reg)) & mask_; }

  // The count after the limit's next tick: the reload, or the other end.
  uint64_t AfterLimit(BehaviourContext& context) const {
    const auto& reload = config().at_limit->reload;
    if (reload) return reload->Evaluate(RegisterEnv(context)) & mask_;
    return down() ? mask_ : (limit_ + 1) & mask_;
  }
  // Ticks from `count` until the count arrives at the limit (0: it is there).
  uint64_t TicksToLimit(uint64_t count) const { return (down() ? count - limit_ : limit_ - count) & mask_; }
  uint64_t Moved(uint64_t count, uint64_t ticks) const {
    return (down() ? count - ticks * config().increment : count + ticks * config().increment) & mask_;
  }

  // Re-reads what the expressions say: the rate (a change restarts the
  // tick in progress: its fraction is of the old period), the width, the
  // limit, and the stop.
  void Refresh(BehaviourContext& context) {
    const CounterConfig& c = config();
    RegisterEnv env(context);
    if (c.rate.scale) {
      uint64_t scale = c.rate.scale->Evaluate(env);
      if (scale != scale_) {
        scale_ = scale;
        clock_ = CounterClock(ScaledRate(c.rate, scale));
        RestartPhase();
      }
    }
    mask_ = c.width ? MaskOfWidth(c.width->Evaluate(env), shape_->max) : shape_->max;
    limit_ = c.limit ? c.limit->Evaluate(env) & mask_ : (down() ? 0 : mask_);
    if (stopped_ && !Holds(context, c.at_limit->stop)) stopped_ = false;  // a one-shot turned periodic
    seen_inputs_.resize(shape_->inputs.size());
    for (size_t i = 0; i < seen_inputs_.size(); ++i) seen_inputs_[i] = context.Peek(shape_->inputs[i]);
  }

  // A tick starts from nothing: the next is a whole period away (and with
  // `read_at_tick: old`, shows 1 ns after its instant).
  void RestartPhase() {
    fraction_ = 0;
    lag_ = config().read_at_tick == regdb::ReadAtTick::kOld;
  }

  bool InputsMoved(BehaviourContext& context) const {
    for (size_t i = 0; i < seen_inputs_.size(); ++i) {
      if (context.Peek(shape_->inputs[i]) != seen_inputs_[i]) return true;
    }
    return false;
  }

  // Brings the count up to `to_ns`: the counting time since the last fold
  // counts if `enabled` (the enable's state over that time).
  void Fold(BehaviourContext& context, uint64_t to_ns, bool enabled) {
    if (to_ns <= counted_to_ns_) return;
    uint64_t ns = to_ns - counted_to_ns_;
    counted_to_ns_ = to_ns;
    if (!enabled) return;  // halted: no counting time, the fraction of a tick kept
    U128 ticks = clock_.Advance(fraction_, ns, lag_);
    if (ticks != 0) AddTicks(context, ticks);
  }

  void AddTicks(BehaviourContext& context, U128 ticks) {
    const CounterConfig& c = config();
    uint64_t value = context.Peek(c.reg);
    uint64_t old = c.bits.Get(value) & mask_;
    uint64_t count;
    if (c.at_limit) {
      count = AdvanceToLimit(context, old, ticks);
    } else if (down()) {
      // Whether the ticks borrow past 0 (U128: ticks may exceed 2^64).
      if (ticks > old / c.increment) context.Cover(kLimit);
      count = Moved(old, static_cast<uint64_t>(ticks));
    } else {
      // Whether the ticks carry past all-ones.
      bool past = ticks > (mask_ - old) / c.increment;
      if (c.saturate) {
        count = past ? mask_ : old + static_cast<uint64_t>(ticks) * c.increment;
        if (past && !saturated_) context.Cover(kLimit);  // once per time it gets stuck
        saturated_ = past;
      } else {
        count = Moved(old, static_cast<uint64_t>(ticks));  // modulo 2^64, then cut to the width
        if (past) context.Cover(kLimit);
      }
    }
    // Only the bits counted change: those above the width keep what they
    // hold (an SP804's VALUE in 16-bit mode keeps its top half).
    uint64_t counted = (mask_ << c.bits.shift) & c.bits.mask;
    context.Poke(c.reg, (value & ~counted) | ((count << c.bits.shift) & counted));
    seen_count_ = count;
  }

  // `ticks` ticks of a count with a limit, which the limit's event normally
  // cuts into steps that end at the limit: a tick from the limit loads what
  // AfterLimit says, every other tick moves the count by one. Ticks past
  // the limit (events missed after a poke, or several ticks in one ns) go
  // round the cycle they would have gone, stopping where `stop` holds.
  uint64_t AdvanceToLimit(BehaviourContext& context, uint64_t count, U128 ticks) {
    if (count == limit_) {
      count = AfterLimit(context);
      --ticks;
    }
    U128 to_limit = TicksToLimit(count);
    if (ticks <= to_limit) return Moved(count, static_cast<uint64_t>(ticks));
    context.Cover(kLimit);
    if (Holds(context, config().at_limit->stop)) return limit_;
    ticks -= to_limit;  // now at the limit, `ticks` more to go
    uint64_t next = AfterLimit(context);
    U128 cycle = U128{TicksToLimit(next)} + 1;
    ticks %= cycle;
    if (ticks == 0) return limit_;
    return Moved(next, static_cast<uint64_t>(ticks - 1));
  }

  // The count arrived at its limit: `set`, the stop, the signal, the next plan.
  void ReachedLimit(BehaviourContext& context) {
    const auto& event = *config().at_limit;
    context.Cover(kLimit);
    for (const RegisterBits& bits : event.set) StoreBits(context, bits, 1);
    if (Holds(context, event.stop)) stopped_ = true;
    if (event.signal) context.Signal(shape_->limit_verb);
    PlanAll(context);
  }

  // Whether a comparator is not what the plans were made from.
  bool ComparatorMoved(BehaviourContext& context) const {
    for (size_t i = 0; i + 1 < plans_.size(); ++i) {
      if (BitsOf(context, config().compare[i].value) != plans_[i].comparator) return true;
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
    bool input = false;
    for (RegisterId each : shape_->inputs) input = input || each == reg;
    // Time up to now counts with the enable as it was (the clock has
    // normally been folded to now already; this is for a Store made by a
    // behaviour whose OnClock runs before ours).
    bool was_enabled = input ? !stopped_ && (!c.enable || c.enable->Evaluate(EnvBefore(context, reg, before)) != 0)
                             : Enabled(context);
    Fold(context, context.now_ns(), was_enabled);
    bool replan = input && before != after;
    if (reg == c.reg && (((before ^ after) & c.bits.mask) != 0 || (frontdoor && shape_->writable))) {
      // The count was set: counting goes on from it, a whole period from
      // now unless `write_phase: keep` keeps the tick in progress.
      if (c.write_phase == regdb::WritePhase::kRestart) RestartPhase();
      saturated_ = false;
      stopped_ = false;
      replan = true;
    }
    for (const CounterComparator& comparator : c.compare) {
      if (reg == comparator.value.reg && ((before ^ after) & comparator.value.bits.mask) != 0) replan = true;
    }
    if (input && before != after) Refresh(context);
    if (replan) PlanAll(context);
  }

  void PlanAll(BehaviourContext& context) {
    seen_count_ = Count(context);
    planned_enabled_ = Enabled(context);
    for (uint32_t i = 0; i < LimitPlan(); ++i) PlanOne(context, i);
    PlanLimit(context);
  }

  // Schedules `ticks` ticks from now as plan `i`'s event, unless that is
  // beyond the end of virtual time.
  void ScheduleAfterTicks(BehaviourContext& context, Plan& plan, U128 ticks) {
    U128 delay = clock_.NsUntil(fraction_, ticks, lag_);
    if (delay > ~uint64_t{0} - context.now_ns()) return;
    plan.tag = next_tag_++;
    plan.event = context.Schedule(static_cast<uint64_t>(delay), plan.tag);
  }

  // The next arrival at the limit: from the limit itself, its next tick
  // loads AfterLimit and the count goes on from there.
  void PlanLimit(BehaviourContext& context) {
    Plan& plan = plans_[LimitPlan()];
    if (plan.event != 0) context.Cancel(plan.event);
    plan = Plan{};
    if (!config().at_limit || !planned_enabled_) return;
    uint64_t count = seen_count_;
    U128 ticks = count == limit_ ? U128{TicksToLimit(AfterLimit(context))} + 1 : U128{TicksToLimit(count)};
    ScheduleAfterTicks(context, plan, ticks);
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
    ScheduleAfterTicks(context, plan, (distance + c.increment - 1) / c.increment);
  }

  const CounterShape* shape_;
  CounterClock clock_;          // at the rate the scale gives now
  uint64_t scale_ = 0;          // the scale clock_ is at (0: the constant rate)
  uint64_t mask_ = 0;           // the bits counted now (`width:`)
  uint64_t limit_ = 0;          // the limit now, cut to mask_
  uint64_t fraction_ = 0;       // of a tick, over the rate's den
  bool lag_ = false;            // the phase's first tick still shows 1 ns late (read_at_tick: old)
  uint64_t counted_to_ns_ = 0;  // the instant the register's count is of
  bool saturated_ = false;      // the last fold lost ticks to saturation
  bool stopped_ = false;        // at its limit with `stop` holding: no counting
  // What the plans were made from, to notice backdoor pokes (OnClock).
  uint64_t seen_count_ = 0;
  bool planned_enabled_ = false;
  std::vector<uint64_t> seen_inputs_;  // per shape_->inputs
  uint64_t next_tag_ = 0;
  std::vector<Plan> plans_;  // per comparator, then the limit's
};

class CounterProgram : public BehaviourProgram {
 public:
  CounterProgram(std::string name, CounterShape shape)
      : BehaviourProgram("counter", std::move(name)), shape_(std::move(shape)) {
    const CounterConfig& c = shape_.config;
    for (const CounterComparator& comparator : c.compare) {
      shape_.verbs.push_back(this->name() + "." + comparator.name);
      if (comparator.width) AddOperandRegisters(*comparator.width, shape_.inputs);
      bool fixed = !comparator.width || comparator.width->constant();
      shape_.fixed_masks.push_back(
          fixed ? MaskOfWidth(comparator.width ? comparator.width->max_value() : 64, shape_.max) : 0);
    }
    shape_.limit_verb = this->name() + ".limit";
    for (const auto* expression : {&c.rate.scale, &c.width, &c.enable, &c.limit}) {
      if (*expression) AddOperandRegisters(**expression, shape_.inputs);
    }
    if (c.at_limit) {
      if (c.at_limit->reload) AddOperandRegisters(*c.at_limit->reload, shape_.inputs);
      if (c.at_limit->stop) AddOperandRegisters(*c.at_limit->stop, shape_.inputs);
    }
  }

  // What the expressions read and the comparators re-plan; the counter
  // itself when a write or another behaviour can set it.
  std::vector<RegisterId> WriteHooks() const override {
    const CounterConfig& c = shape_.config;
    std::vector<RegisterId> hooks;
    if (shape_.writable || !c.compare.empty() || c.at_limit) hooks.push_back(c.reg);
    for (const CounterComparator& comparator : c.compare) hooks.push_back(comparator.value.reg);
    hooks.insert(hooks.end(), shape_.inputs.begin(), shape_.inputs.end());
    return hooks;
  }

  std::vector<CoveragePoint> CoveragePoints() const override {
    const CounterConfig& c = shape_.config;
    std::vector<CoveragePoint> points{{"counter", c.saturate ? "saturated" : c.at_limit ? "limit" : "wrapped"}};
    for (const CounterComparator& comparator : c.compare) points.push_back({"match", comparator.name});
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
  CounterShape shape{*config, config->bits.mask >> config->bits.shift,
                     (model.masks(reg).Writable() & config->bits.mask) != 0, {}, {}, {}, {}};
  return std::make_unique<CounterProgram>(spec.name, std::move(shape));
}

}  // namespace regemu::emulator
