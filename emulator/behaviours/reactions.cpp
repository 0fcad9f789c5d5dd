// `kind: reactions`: a device's behaviour said as data (yaml/README.md,
// "kind: reactions"). A trigger (a frontdoor write or read, a field
// changing, an injected event) with an optional condition runs actions:
// set registers and fields from expressions, act later on the device's
// event queue, cancel what another reaction scheduled, report a violation
// (a rule), send a message, write memory.
//
// Within one trigger every condition is evaluated against the state the
// trigger left, before any action runs, so rules see what the driver did
// and not what a reaction made of it; then the matching reactions act in
// the order the database lists them. A set that changes a field triggers
// the reactions watching it at once, in the same instant, up to a bound: a
// chain that does not settle is stopped as an `unmodelled` violation (a
// database mistake, not the driver's).
#include <algorithm>
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/register_env.hpp"
#include "regemu/emulator/device_internal.hpp"
#include "regemu/regdb/behaviour_configs/reactions.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::Reaction;
using regdb::ReactionAction;
using regdb::ReactionsConfig;
using regdb::ReactionTarget;
using regdb::ReactionTriggerKind;

// Nested triggers (a set triggering a reaction whose set triggers ...) one
// instant may hold before the chain counts as not settling.
constexpr int kMaxChainDepth = 32;

constexpr uint32_t kNoReaction = ~uint32_t{0};

// A list that lives on the stack up to N items, the common case (a write
// triggers a reaction or two, a set stores a value or two), and spills to
// the heap beyond: the write path of a register with reactions allocates
// nothing. The inline slots are left uninitialised (only the first size_
// are ever read): zeroing them cost more than the rest of a small set.
template <typename T, size_t N>
class ShortList {
 public:
  void push_back(T value) {
    if (size_ < N) [[likely]] {
      inline_[size_] = value;
    } else {
      if (!spilled_) spilled_.emplace(inline_, inline_ + N);
      spilled_->push_back(value);
    }
    ++size_;
  }
  bool empty() const { return size_ == 0; }
  T back() const { return size_ <= N ? inline_[size_ - 1] : spilled_->back(); }
  std::span<const T> items() const {
    return size_ <= N ? std::span<const T>(inline_, size_) : std::span<const T>(*spilled_);
  }

 private:
  T inline_[N];
  std::optional<std::vector<T>> spilled_;  // engaged only past N: cheaper to build and drop than an empty vector
  size_t size_ = 0;
};

// One action compiled for the access path: what a constant folds to and
// where a set lands, looked up once at load rather than on every write.
struct Step {
  ReactionAction::Op op = ReactionAction::Op::kSet;
  bool constant = false;  // kSet of one target, kAfter: the value or delay is `value`, known at load
  const ReactionTarget* target = nullptr;  // kSet of one target: where (null: several, see `action`)
  uint64_t value = 0;
  uint32_t index = 0;  // kAfter: its slot in ReactionsProgram::afters(); kCancel: the reaction it cancels
  // The action compiled: its expressions and texts. The config is shared
  // and immutable, so the pointer stays good for the program's life.
  const ReactionAction* action = nullptr;
};

// A delayed action's event tag says which reaction started it (bits 63:48,
// for `cancel`), which `after` it is (47:32, for OnTimer), and which of the
// behaviour's captures holds the trigger's values it uses (31:0; 0: it uses
// none). The device's queue is then the only record of what is pending
// beside the captures, which are part of the behaviour's copyable state:
// snapshots and restores keep the two together.
constexpr uint32_t kMaxTagField = 0xFFFF;
constexpr uint64_t AfterTag(uint32_t reaction, uint32_t slot, uint32_t capture = 0) {
  return (uint64_t{reaction} << 48) | (uint64_t{slot} << 32) | capture;
}
constexpr uint32_t TagReaction(uint64_t tag) { return static_cast<uint32_t>(tag >> 48); }
constexpr uint32_t TagSlot(uint64_t tag) { return static_cast<uint32_t>(tag >> 32) & kMaxTagField; }
constexpr uint32_t TagCapture(uint64_t tag) { return static_cast<uint32_t>(tag); }

// Whether an expression reads what only the trigger knows.
bool ReadsOccasion(const regdb::Expression& expression) {
  for (uint64_t id : expression.operands()) {
    if (id == regdb::kValueOperand || id == regdb::kBeforeOperand || id == regdb::kWrittenOperand ||
        (id & regdb::kArgOperand) != 0) {
      return true;
    }
  }
  return false;
}

// Whether delayed actions read the trigger's values, at any depth.
bool ActionsReadOccasion(const std::vector<ReactionAction>& actions) {
  for (const ReactionAction& action : actions) {
    for (const auto& [target, value] : action.sets) {
      if (ReadsOccasion(value)) return true;
    }
    if (ReadsOccasion(action.delay) || ReadsOccasion(action.address) || ReadsOccasion(action.value) ||
        ActionsReadOccasion(action.then)) {
      return true;
    }
  }
  return false;
}

// One trigger target of one reaction, flattened for the access path: what
// a register's accesses test, in one contiguous list per register, without
// reaching through the reaction and its trigger for each.
// Fields are compared in place (masked, not shifted): a field is 0 exactly
// when its masked bits are, and `to:` is kept shifted into the field.
struct Watch {
  uint32_t reaction = 0;
  ReactionTriggerKind kind = ReactionTriggerKind::kWrite;
  bool has_to = false;  // kChange with `to:`
  uint64_t mask = 0;
  uint64_t to_bits = 0;  // `to:` in the field's place
  std::span<const Step> steps;  // the reaction's actions, compiled (the program's, immutable)
};

class ReactionsProgram : public BehaviourProgram {
 public:
  ReactionsProgram(std::string name, std::shared_ptr<const ReactionsConfig> config, const Model& model)
      : BehaviourProgram("reactions", std::move(name)), config_(std::move(config)) {
    const auto& reactions = config_->reactions;
    steps_.reserve(reactions.size());
    for (uint32_t i = 0; i < reactions.size(); ++i) steps_.push_back(CompileSteps(reactions[i].actions, i));
    watches_.resize(model.registers().size());
    // In the database's order: a register's watches list each reaction's
    // targets together, and reactions in order (Triggered relies on both).
    for (uint32_t i = 0; i < reactions.size(); ++i) {
      const regdb::ReactionTrigger& trigger = reactions[i].trigger;
      for (const ReactionTarget& target : trigger.targets) {
        if (reactions[i].when) watches_[target.reg].conditional = true;
        watches_[target.reg].list.push_back(Watch{i, trigger.kind, trigger.to.has_value(), target.bits.mask,
                                             (trigger.to.value_or(0) << target.bits.shift) & target.bits.mask,
                                             steps_[i]});
        auto& hooks = trigger.kind == ReactionTriggerKind::kRead ? read_hooks_ : write_hooks_;
        if (std::find(hooks.begin(), hooks.end(), target.reg) == hooks.end()) hooks.push_back(target.reg);
      }
    }
  }

  const ReactionsConfig& config() const { return *config_; }
  // The triggers that test register `reg`, and whether a reaction among
  // them has a condition (`when`).
  struct Watches {
    std::vector<Watch> list;
    bool conditional = false;
  };
  const Watches& watches(RegisterId reg) const { return watches_[reg]; }
  std::span<const Step> steps(uint32_t reaction) const { return steps_[reaction]; }
  // A delayed action: the reaction that started it and what it then does.
  struct After {
    uint32_t reaction = 0;
    std::vector<Step> then;
    bool captures = false;  // its actions read the trigger's values: they are kept until it runs
  };
  const std::vector<After>& afters() const { return afters_; }

  std::vector<RegisterId> ReadHooks() const override { return read_hooks_; }
  std::vector<RegisterId> WriteHooks() const override { return write_hooks_; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (const Reaction& reaction : config_->reactions) {
      points.push_back({reaction.rule ? "rules broken" : "reactions fired", reaction.name});
    }
    return points;
  }
  // Each event a reaction is triggered by, with its arguments (the first
  // reaction naming an event gives them, as Inject takes them).
  std::vector<InjectForm> InjectForms() const override {
    std::vector<InjectForm> forms;
    for (const Reaction& reaction : config_->reactions) {
      const regdb::ReactionTrigger& trigger = reaction.trigger;
      if (trigger.kind != ReactionTriggerKind::kEvent) continue;
      for (const std::string& event : trigger.events) {
        bool known = std::any_of(forms.begin(), forms.end(), [&](const InjectForm& form) { return form.verb == event; });
        if (known) continue;
        forms.push_back(EventForm(event, reaction));
      }
    }
    return forms;
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

  // `inject EVENT ...` as reaction `reaction` declares its arguments. A
  // word argument shows its words (on|off), a number its name as usage
  // writes what the user fills in (BIT).
  static std::string UsageName(std::string name) {
    for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return name;
  }
  static InjectForm EventForm(const std::string& event, const Reaction& reaction) {
    InjectForm form{event, {}, 0, 0, "the hardware event that reaction '" + reaction.name + "' follows"};
    for (const regdb::EventArgument& arg : reaction.trigger.args) {
      std::vector<std::string> words;
      for (const auto& word : arg.words) words.push_back(word.first);
      InjectArgument argument = words.empty() ? InjectArgument::Number(UsageName(arg.name), 0, arg.max)
                                              : InjectArgument::Choice("", std::move(words));
      argument.optional = arg.fallback.has_value();
      form.arguments.push_back(std::move(argument));
    }
    return form;
  }

 private:
  std::vector<Step> CompileSteps(const std::vector<ReactionAction>& actions, uint32_t reaction) {
    std::vector<Step> steps;
    for (const ReactionAction& action : actions) {
      Step step{action.op};
      step.action = &action;
      switch (action.op) {
        case ReactionAction::Op::kSet:
          if (action.sets.size() == 1) {
            const auto& [target, value] = action.sets.front();
            step.target = &target;
            step.constant = value.constant();
            if (step.constant) step.value = value.Evaluate(kNoOperands);
          }
          break;
        case ReactionAction::Op::kAfter: {
          step.constant = action.delay.constant();
          if (step.constant) step.value = action.delay.Evaluate(kNoOperands);
          step.index = static_cast<uint32_t>(afters_.size());
          afters_.push_back(After{reaction, {}, ActionsReadOccasion(action.then)});
          std::vector<Step> then = CompileSteps(action.then, reaction);  // may add afters
          afters_[step.index].then = std::move(then);
          break;
        }
        case ReactionAction::Op::kCancel: step.index = action.reaction; break;
        default: break;
      }
      steps.push_back(step);
    }
    return steps;
  }

  // What a constant expression is evaluated against: it loads nothing.
  struct NoOperands : regdb::ExpressionEnv {
    uint64_t Load(uint64_t) const override { return 0; }
  };
  static inline const NoOperands kNoOperands{};

  std::shared_ptr<const ReactionsConfig> config_;
  std::vector<std::vector<Step>> steps_;  // per reaction: its actions
  std::vector<After> afters_;              // every `after`, at any depth: a delayed action's tag names one
  std::vector<Watches> watches_;           // per register
  std::vector<RegisterId> read_hooks_;
  std::vector<RegisterId> write_hooks_;
};

// What a trigger hands to conditions and actions.
struct Occasion {
  uint64_t value = 0;   // the access's value: the register after a write, what a read returned
  uint64_t before = 0;  // the register before the write
  uint64_t written = 0;  // what the write wrote, before the register's policies
  std::span<const uint64_t> args;
  RegisterId reg = kNoRegister;  // the register the trigger concerns, for violations
};

class Env : public regdb::ExpressionEnv {
 public:
  Env(BehaviourContext& context, const Occasion& occasion) : context_(context), occasion_(occasion) {}

  uint64_t Load(uint64_t id) const override {
    if (id == regdb::kValueOperand) return occasion_.value;
    if (id == regdb::kBeforeOperand) return occasion_.before;
    if (id == regdb::kWrittenOperand) return occasion_.written;
    if (id == regdb::kNowOperand) return context_.now_ns();
    if ((id & regdb::kArgOperand) != 0) {
      size_t i = id & ~regdb::kArgOperand;
      return i < occasion_.args.size() ? occasion_.args[i] : 0;
    }
    return PeekOperand(context_, id);
  }

 private:
  BehaviourContext& context_;
  const Occasion& occasion_;
};

class ReactionsBehaviour : public CopyableBehaviour<ReactionsBehaviour> {
 public:
  explicit ReactionsBehaviour(const ReactionsProgram& program) : program_(&program) {}

  void OnReset(BehaviourContext&) override {
    depth_ = 0;
    captures_.clear();  // the queue's events are gone with it
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    Occasion occasion{after, before, context.WrittenValue(reg).value_or(after), {}, reg};
    Triggered(context, reg, before, after, /*access=*/ReactionTriggerKind::kWrite, occasion);
  }

  uint64_t AfterRead(BehaviourContext& context, RegisterId reg, uint64_t value) override {
    Occasion occasion{value, value, value, {}, reg};
    uint64_t now = context.Peek(reg);
    Triggered(context, reg, now, now, ReactionTriggerKind::kRead, occasion);
    return value;
  }

  // Another behaviour changed a register a reaction watches (a counter's
  // match raising a status bit): change, rise and fall triggers see it.
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    Occasion occasion{after, before, after, {}, reg};
    Triggered(context, reg, before, after, ReactionTriggerKind::kChange, occasion);
  }

  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    const auto& afters = program_->afters();
    if (TagSlot(tag) >= afters.size()) return;
    const ReactionsProgram::After& after = afters[TagSlot(tag)];
    Occasion occasion;
    Capture captured;
    if (uint32_t id = TagCapture(tag); id != 0) {
      auto it = captures_.find(id);
      if (it != captures_.end()) {
        captured = std::move(it->second);
        captures_.erase(it);
        occasion = Occasion{captured.value, captured.before, captured.written, captured.args, captured.reg};
      }
    }
    depth_ = 0;
    RunActions(context, after.then, after.reaction, occasion);
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    const auto& reactions = program_->config().reactions;
    std::vector<uint32_t> matched;
    for (uint32_t i = 0; i < reactions.size(); ++i) {
      const auto& trigger = reactions[i].trigger;
      if (trigger.kind != ReactionTriggerKind::kEvent) continue;
      for (const std::string& event : trigger.events) {
        if (event == verb) {
          matched.push_back(i);
          break;
        }
      }
    }
    if (matched.empty()) return InjectResult::kNotMine;
    std::vector<uint64_t> values;
    const Reaction& first = reactions[matched.front()];
    if (!ParseArguments(verb, first.trigger.args, args, values, error)) {
      error += "; usage: inject " + InjectUsage(ReactionsProgram::EventForm(std::string(verb), first));
      return InjectResult::kBadArguments;
    }
    Occasion occasion;
    occasion.args = values;
    depth_ = 0;
    Fire(context, matched, occasion);
    return InjectResult::kDone;
  }

 private:
  // An event's arguments as its first reaction declares them: numbers up
  // to their max, words by their index, defaults for those left off.
  static bool ParseArguments(std::string_view verb, const std::vector<regdb::EventArgument>& declared,
                             std::span<const std::string> args, std::vector<uint64_t>& values, std::string& error) {
    size_t required = 0;
    while (required < declared.size() && !declared[required].fallback) ++required;
    if (args.size() < required || args.size() > declared.size()) {
      error = "inject " + std::string(verb) + " takes " +
              (required == declared.size() ? std::to_string(required)
                                           : std::to_string(required) + " to " + std::to_string(declared.size())) +
              " argument(s)";
      for (const regdb::EventArgument& arg : declared) error += " " + arg.name;
      error += ", not " + std::to_string(args.size());
      return false;
    }
    for (size_t i = 0; i < declared.size(); ++i) {
      const regdb::EventArgument& arg = declared[i];
      if (i >= args.size()) {
        values.push_back(*arg.fallback);
        continue;
      }
      if (!arg.words.empty()) {
        auto it = std::find_if(arg.words.begin(), arg.words.end(), [&](const auto& w) { return w.first == args[i]; });
        if (it == arg.words.end()) {
          error = "expected ";
          for (size_t w = 0; w < arg.words.size(); ++w) {
            error += (w == 0 ? "" : w + 1 == arg.words.size() ? " or " : ", ") + ("'" + arg.words[w].first + "'");
          }
          error += ", got '" + args[i] + "'";
          return false;
        }
        values.push_back(it->second);
        continue;
      }
      auto parsed = regdb::ParseUnsigned(args[i]);
      if (auto* bad = std::get_if<regdb::NumberError>(&parsed)) {
        error = "bad " + arg.name + " '" + args[i] + "': " + bad->message;
        return false;
      }
      if (std::get<uint64_t>(parsed) > arg.max) {
        error = "bad " + arg.name + " '" + args[i] + "' (0.." + std::to_string(arg.max) + ")";
        return false;
      }
      values.push_back(std::get<uint64_t>(parsed));
    }
    return true;
  }

  static bool Hit(const Watch& watch, uint64_t before, uint64_t after, ReactionTriggerKind access) {
    uint64_t was = before & watch.mask;
    uint64_t now = after & watch.mask;
    switch (watch.kind) {
      case ReactionTriggerKind::kWrite:
      case ReactionTriggerKind::kRead: return watch.kind == access;
      case ReactionTriggerKind::kChange: return was != now && (!watch.has_to || now == watch.to_bits);
      case ReactionTriggerKind::kRise: return was == 0 && now != 0;
      case ReactionTriggerKind::kFall: return was != 0 && now == 0;
      case ReactionTriggerKind::kEvent: return false;
    }
    return false;
  }

  // Register `reg` went from `before` to `after` (or was accessed): the
  // reactions it triggers, conditions first, then their actions.
  [[gnu::always_inline]] void Triggered(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after,
                                        ReactionTriggerKind access, const Occasion& occasion) {
    const ReactionsProgram::Watches& watches = program_->watches(reg);
    if (!watches.conditional) {
      // No condition to evaluate first: each reaction hit acts as it is
      // found. The same order and result as below, as whether a watch hits
      // depends only on `before` and `after`, which actions do not change.
      uint32_t fired = kNoReaction;
      for (const Watch& watch : watches.list) {
        // A reaction with several targets in this register fires once.
        if (watch.reaction == fired || !Hit(watch, before, after, access)) continue;
        fired = watch.reaction;
        ContextFastPath::Cover(context, fired);
        RunActions(context, watch.steps, fired, occasion);
      }
      return;
    }
    TriggeredWithConditions(context, reg, before, after, access, occasion);
  }

  // Out of line: its lists would give every caller of Triggered a large frame.
  [[gnu::noinline]] void TriggeredWithConditions(BehaviourContext& context, RegisterId reg, uint64_t before,
                                                 uint64_t after, ReactionTriggerKind access,
                                                 const Occasion& occasion) {
    ShortList<uint32_t, 8> matched;
    for (const Watch& watch : program_->watches(reg).list) {
      if (!matched.empty() && matched.back() == watch.reaction) continue;
      if (Hit(watch, before, after, access)) matched.push_back(watch.reaction);
    }
    if (!matched.empty()) Fire(context, matched.items(), occasion);
  }

  [[gnu::always_inline]] void Fire(BehaviourContext& context, std::span<const uint32_t> candidates,
                                   const Occasion& occasion) {
    const auto& reactions = program_->config().reactions;
    Env env(context, occasion);
    ShortList<uint32_t, 8> firing;
    for (uint32_t i : candidates) {
      if (reactions[i].when && reactions[i].when->Evaluate(env) == 0) continue;
      firing.push_back(i);
    }
    for (uint32_t i : firing.items()) {
      ContextFastPath::Cover(context, i);
      RunActions(context, program_->steps(i), i, occasion);
    }
  }

  [[gnu::always_inline]] void RunActions(BehaviourContext& context, std::span<const Step> steps, uint32_t reaction,
                                         const Occasion& occasion) {
    for (const Step& step : steps) Run(context, step, reaction, occasion);
  }

  // The common steps inline; the rest out of line (RunOther), so that
  // their lists and strings do not widen the frame of every write.
  [[gnu::always_inline]] void Run(BehaviourContext& context, const Step& step, uint32_t reaction,
                                  const Occasion& occasion) {
    if (step.op == ReactionAction::Op::kAfter) {
      uint64_t delay = step.constant ? step.value : step.action->delay.Evaluate(Env(context, occasion));
      uint32_t capture = program_->afters()[step.index].captures ? Keep(occasion, reaction) : 0;
      ContextFastPath::Schedule(context, delay, AfterTag(reaction, step.index, capture));
    } else if (step.op == ReactionAction::Op::kSet && step.target != nullptr) {
      uint64_t value =
          step.constant ? step.value : step.action->sets.front().second.Evaluate(Env(context, occasion));
      Set(context, *step.target, value, reaction);
    } else if (step.op == ReactionAction::Op::kCancel) {
      ContextFastPath::CancelWhere(context, [cancelled = step.index](uint64_t tag) { return TagReaction(tag) == cancelled; });
      if (!captures_.empty()) std::erase_if(captures_, [&](const auto& kept) { return kept.second.reaction == step.index; });
    } else {
      RunOther(context, *step.action, reaction, occasion);
    }
  }

  [[gnu::noinline]] void RunOther(BehaviourContext& context, const ReactionAction& action, uint32_t reaction,
                                  const Occasion& occasion) {
    Env env(context, occasion);
    switch (action.op) {
      case ReactionAction::Op::kSet: {
        // Several targets: every value first, from the state before any of them is stored.
        ShortList<uint64_t, 8> values;
        for (const auto& [target, value] : action.sets) values.push_back(value.Evaluate(env));
        for (size_t i = 0; i < action.sets.size(); ++i) Set(context, action.sets[i].first, values.items()[i], reaction);
        return;
      }
      case ReactionAction::Op::kViolation: Violate(context, action, Owner(reaction), occasion); return;
      case ReactionAction::Op::kMessage: context.SendMessage(action.address.Evaluate(env), action.value.Evaluate(env)); return;
      case ReactionAction::Op::kWriteMemory: WriteMemory(context, action, Owner(reaction), env); return;
      case ReactionAction::Op::kAfter:
      case ReactionAction::Op::kCancel: return;  // Run's own
    }
  }

  const Reaction& Owner(uint32_t reaction) const { return program_->config().reactions[reaction]; }

  // Out of Run's way, as Violate and StopChain are: building their messages
  // would make every action pay for the strings' stack frame.
  [[gnu::noinline]] void WriteMemory(BehaviourContext& context, const ReactionAction& action, const Reaction& owner,
                                     const Env& env) {
    uint64_t address = action.address.Evaluate(env);
    uint64_t value = action.value.Evaluate(env);
    uint8_t bytes[8];
    for (unsigned b = 0; b < action.width / 8; ++b) bytes[b] = static_cast<uint8_t>(value >> (8 * b));
    const SpaceModel& space = context.model().spaces()[action.space];
    if (address > space.size || action.width / 8 > space.size - address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, static_cast<SpaceId>(action.space), 0,
                                "reaction '" + owner.name + "' writes memory at " + regdb::Hex(address) +
                                    ", past the end of space '" + space.name + "'");
      return;
    }
    context.WriteMemory(static_cast<SpaceId>(action.space), address, std::span<const uint8_t>(bytes, action.width / 8));
  }

  [[gnu::always_inline]] void Set(BehaviourContext& context, const ReactionTarget& target, uint64_t value,
                                  uint32_t reaction) {
    uint64_t before = context.Peek(target.reg);
    uint64_t after = (before & ~target.bits.mask) | ((value << target.bits.shift) & target.bits.mask);
    if (after == before) return;
    context.Store(target.reg, after);
    if (depth_ >= kMaxChainDepth) {
      StopChain(context, target, reaction);
      return;
    }
    ++depth_;
    Chain(context, target.reg, before, after);
    --depth_;
  }

  // What a set's change triggers. The one call in the chain Triggered ->
  // RunActions -> Run -> Set -> Triggered that is not inlined (it is
  // recursive), so that a write's own reactions run without a call.
  [[gnu::noinline]] void Chain(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) {
    Occasion occasion{after, before, after, {}, reg};
    Triggered(context, reg, before, after, ReactionTriggerKind::kChange, occasion);
  }

  [[gnu::noinline]] void StopChain(BehaviourContext& context, const ReactionTarget& target, uint32_t reaction) {
    context.ReportViolationAt(ViolationKind::kUnmodelled, context.model().registers()[target.reg].space,
                              context.model().registers()[target.reg].offset,
                              "reactions did not settle in one instant: reaction '" + Owner(reaction).name + "' set " +
                                  target.text + " after " + std::to_string(kMaxChainDepth) +
                                  " chained reactions; stopped there (a loop in the database's reactions)");
  }

  [[gnu::noinline]] void Violate(BehaviourContext& context, const ReactionAction& action, const Reaction& owner,
                                 const Occasion& occasion) {
    std::string rule = action.text;
    if (!action.ref.empty()) rule += " (" + action.ref + ")";
    rule += " [" + std::string(owner.rule ? "rule" : "reaction") + " '" + owner.name + "' of '" + program_->name() + "'";
    if (owner.when) rule += ", when " + owner.when->text();
    rule += "]";
    ViolationKind kind = ViolationKindFromName(action.violation_kind).value_or(ViolationKind::kProtocol);
    if (occasion.reg != kNoRegister) {
      context.ReportViolation(kind, occasion.reg, std::move(rule));
    } else {
      context.ReportViolationAt(kind, 0, 0, std::move(rule));
    }
  }

  // The trigger's values a delayed action will read, until it runs.
  struct Capture {
    uint64_t value = 0;
    uint64_t before = 0;
    uint64_t written = 0;
    std::vector<uint64_t> args;
    RegisterId reg = kNoRegister;
    uint32_t reaction = 0;  // whose `cancel` drops it
  };

  [[gnu::noinline]] uint32_t Keep(const Occasion& occasion, uint32_t reaction) {
    if (++last_capture_ == 0) ++last_capture_;  // 0 is "none"
    captures_[last_capture_] = Capture{occasion.value, occasion.before, occasion.written,
                                       {occasion.args.begin(), occasion.args.end()}, occasion.reg, reaction};
    return last_capture_;
  }

  const ReactionsProgram* program_;
  int depth_ = 0;
  std::map<uint32_t, Capture> captures_;
  uint32_t last_capture_ = 0;
};

std::unique_ptr<Behaviour> ReactionsProgram::Instantiate() const { return std::make_unique<ReactionsBehaviour>(*this); }

}  // namespace

std::unique_ptr<BehaviourProgram> CompileReactions(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error) {
  const auto* checked = ConfigOf<ReactionsConfig>(spec, error);
  if (!checked) return nullptr;
  // A delayed action's tag holds its reaction and its `after` in 16 bits each.
  size_t afters = 0;
  auto count = [&](const auto& self, const std::vector<ReactionAction>& actions) -> void {
    for (const ReactionAction& action : actions) {
      if (action.op == ReactionAction::Op::kAfter) ++afters;
      self(self, action.then);
    }
  };
  for (const regdb::Reaction& reaction : checked->reactions) count(count, reaction.actions);
  if (checked->reactions.size() > kMaxTagField || afters > kMaxTagField) {
    error = "more than " + std::to_string(kMaxTagField) + " reactions or delayed actions in one behaviour";
    return nullptr;
  }
  auto config = std::static_pointer_cast<const ReactionsConfig>(spec.config);
  return std::make_unique<ReactionsProgram>(spec.name, std::move(config), model);
}

}  // namespace regemu::emulator
