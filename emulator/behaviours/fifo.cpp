// `kind: fifo`: a FIFO inside a device and the outside world it connects to
// (yaml/README.md, "kind: fifo"). Entries come in from a register write
// (push) or an input stream a test feeds (`inject INPUT BYTES...`, paced by
// `arrive`), and leave by a register read (pop) or by draining, one per
// `drain` time, to an output stream or another FIFO. Fields it names (level,
// flags, overrun) follow every change through BehaviourContext::Store, so
// reactions and the interrupt roll-up hear of them.
#include <algorithm>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/counter_clock.hpp"
#include "regemu/emulator/behaviours/register_env.hpp"
#include "regemu/emulator/stream_text.hpp"
#include "regemu/regdb/behaviour_configs/fifo.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::FifoConfig;
using regdb::FifoRate;
using regdb::RegisterBits;

// Timer tags.
constexpr uint64_t kDrainDone = 0, kArrival = 1;
// Coverage points, in CoveragePoints() order.
constexpr uint32_t kPushed = 0, kPopped = 1, kDrained = 2, kOverrun = 3, kCleared = 4;

class FifoProgram : public BehaviourProgram {
 public:
  FifoProgram(std::string name, const FifoConfig& config) : BehaviourProgram("fifo", std::move(name)), config_(config) {
    auto hook = [](std::vector<RegisterId>& hooks, RegisterId reg) {
      if (std::find(hooks.begin(), hooks.end(), reg) == hooks.end()) hooks.push_back(reg);
    };
    if (config_.push) hook(write_hooks_, config_.push->reg);
    for (const regdb::FifoTrigger& trigger : config_.clear) {
      if (trigger.event.empty()) hook(write_hooks_, trigger.reg);
    }
    for (regdb::RegisterIndex reg : config_.watched) hook(write_hooks_, reg);
    if (config_.pop) read_hooks_.push_back(config_.pop->reg);
    for (const regdb::FifoRoute& route : config_.routes) {
      if (!route.stream.empty() && std::find(streams_.begin(), streams_.end(), route.stream) == streams_.end()) {
        streams_.push_back(route.stream);
      }
    }
  }

  const FifoConfig& config() const { return config_; }
  uint32_t StreamIndex(const std::string& stream) const {
    return static_cast<uint32_t>(std::find(streams_.begin(), streams_.end(), stream) - streams_.begin());
  }

  std::vector<RegisterId> ReadHooks() const override { return read_hooks_; }
  std::vector<RegisterId> WriteHooks() const override { return write_hooks_; }
  std::vector<std::string> OutputStreams() const override { return streams_; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    return {{"entries", "pushed"}, {"entries", "popped"}, {"entries", "drained"},
            {"entries", "lost to overrun"}, {"fifo", "cleared"}};
  }
  std::vector<InjectForm> InjectForms() const override {
    uint64_t entry_max = config_.width >= 64 ? ~uint64_t{0} : (uint64_t{1} << config_.width) - 1;
    InjectArgument values = InjectArgument::Bytes("VALUES", entry_max);
    std::vector<InjectForm> forms;
    if (!config_.input.empty()) {
      forms.push_back({config_.input,
                       {InjectArgument::Bytes("BYTES", entry_max),
                        InjectArgument::Word("every").Optional(),
                        InjectArgument::Duration("DURATION")},
                       0, 1,
                       "entries arriving on the input stream: all at once, at the database's pace, or one every DURATION"});
    }
    for (const regdb::FifoTrigger& trigger : config_.clear) {
      if (!trigger.event.empty()) forms.push_back({trigger.event, {}, 0, 0, "empties the FIFO"});
    }
    forms.push_back({name(), {InjectArgument::Word("push"), values}, 1, 1,
                     "entries put in at once, as the FIFO's producer would"});
    forms.push_back({name(), {InjectArgument::Word("clear")}, 0, 0, "empties the FIFO"});
    return forms;
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

 private:
  FifoConfig config_;
  std::vector<RegisterId> read_hooks_;
  std::vector<RegisterId> write_hooks_;
  std::vector<std::string> streams_;
};

// An exact pace: entry k of a run ends at origin + ceil(k * ticks / rate),
// so a string sent back to back at 115200 baud keeps its 86.805... us per
// character without drift; a pace in plain time adds its nanoseconds.
struct Pace {
  uint64_t origin_ns = 0;
  U128 ticks = 0;  // clock ticks since origin
  bool running = false;

  // The delay from now until the next entry is due.
  uint64_t Next(const FifoRate& rate, const regdb::ExpressionEnv& env, uint64_t now_ns) {
    if (!running) {
      origin_ns = now_ns;
      ticks = 0;
      running = true;
    }
    if (rate.time) return rate.time->Evaluate(env);
    ticks += rate.ticks->Evaluate(env);
    uint64_t due = origin_ns + static_cast<uint64_t>(CounterClock(rate.clock).NsUntil(0, ticks));
    return due > now_ns ? due - now_ns : 0;
  }
};

class FifoBehaviour : public CopyableBehaviour<FifoBehaviour> {
 public:
  explicit FifoBehaviour(const FifoProgram& program) : program_(&program) {}

  void OnReset(BehaviourContext& context) override {
    entries_.clear();
    arriving_.clear();
    busy_ = false;
    drain_ = Pace{};
    arrive_ = Pace{};
    arrival_pending_ = false;
    Update(context);
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t after) override {
    const FifoConfig& config = program_->config();
    for (const regdb::FifoTrigger& trigger : config.clear) {
      if (!trigger.event.empty() || trigger.reg != reg) continue;
      Env env(*this, context, after);
      if (!trigger.when || trigger.when->Evaluate(env) != 0) Clear(context);
    }
    if (config.push && config.push->reg == reg) Push(context, config.push->bits.Get(after), true);
    Update(context);
  }

  void BeforeRead(BehaviourContext& context, RegisterId reg) override {
    // A FIFO without `pop:` (a transmit FIFO the device drains) hooks reads
    // of its level registers only: nothing to pop.
    if (!program_->config().pop) return;
    const RegisterBits& pop = *program_->config().pop;
    if (reg != pop.reg || entries_.empty()) return;
    uint64_t head = entries_.front();
    entries_.pop_front();
    context.Cover(kPopped);
    uint64_t value = context.Peek(reg);
    context.Poke(reg, (value & ~pop.bits.mask) | ((head << pop.bits.shift) & pop.bits.mask));
    Update(context);
  }

  void OnTimer(BehaviourContext& context, uint64_t tag) override {
    if (tag == kDrainDone) {
      busy_ = false;
      Deliver(context, shifting_);
      if (entries_.empty()) drain_.running = false;
      StartDrain(context);
    } else if (tag == kArrival) {
      arrival_pending_ = false;
      if (!arriving_.empty()) {
        uint64_t value = arriving_.front();
        arriving_.pop_front();
        Push(context, value, false);
      }
      if (arriving_.empty()) {
        arrive_.running = false;
      } else {
        ScheduleArrival(context);
      }
    }
    Update(context);
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    const FifoConfig& config = program_->config();
    if (!config.input.empty() && verb == config.input) return Arrive(context, args, error);
    for (const regdb::FifoTrigger& trigger : config.clear) {
      if (trigger.event.empty() || verb != trigger.event) continue;
      Clear(context);
      return InjectResult::kDone;
    }
    if (verb != program_->name()) return InjectResult::kNotMine;
    if (args.size() == 1 && args[0] == "clear") {
      Clear(context);
    } else if (!args.empty() && args[0] == "push") {
      std::vector<uint64_t> values;
      if (!ParseEntries(args.subspan(1), values, error)) return Usage(error);
      for (uint64_t value : values) Push(context, value, false);
    } else {
      error = "expected 'push VALUES...' or 'clear'";
      return Usage(error);
    }
    Update(context);
    return InjectResult::kDone;
  }

 private:
  class Env : public regdb::ExpressionEnv {
   public:
    Env(const FifoBehaviour& fifo, BehaviourContext& context, uint64_t value = 0)
        : fifo_(fifo), context_(context), value_(value) {}
    uint64_t Load(uint64_t id) const override {
      if (id == regdb::kFifoLevel) return fifo_.entries_.size();
      if (id == regdb::kFifoDepth) return fifo_.Depth(context_);
      if (id == regdb::kFifoBusy) return fifo_.busy_ ? 1 : 0;
      if (id == regdb::kFifoValue) return value_;
      return PeekOperand(context_, id);
    }

   private:
    const FifoBehaviour& fifo_;
    BehaviourContext& context_;
    uint64_t value_;
  };

  InjectResult Usage(std::string& error) const {
    const FifoConfig& config = program_->config();
    error += "; usage: inject " + program_->name() + " push VALUES... | inject " + program_->name() + " clear";
    if (!config.input.empty()) error += " | inject " + config.input + " BYTES... [every DURATION]";
    return InjectResult::kBadArguments;
  }

  uint64_t Depth(BehaviourContext& context) const {
    Env env(*this, context);
    return program_->config().depth.Evaluate(env);
  }
  bool OverrunReplaces(BehaviourContext& context) const {
    Env env(*this, context);
    return program_->config().overrun_replaces->Evaluate(env) != 0;
  }

  bool ParseEntries(std::span<const std::string> args, std::vector<uint64_t>& values, std::string& error) const {
    return ParseStreamEntries(args, program_->config().width, values, error);
  }

  // `inject INPUT BYTES... [every DURATION]`: entries arriving on the input
  // stream, at the given pace, the database's (`arrive`), or all at once.
  InjectResult Arrive(BehaviourContext& context, std::span<const std::string> args, std::string& error) {
    std::optional<uint64_t> every;
    if (args.size() >= 2 && args[args.size() - 2] == "every") {
      auto parsed = regdb::ParseDurationNs(args.back());
      if (auto* bad = std::get_if<regdb::NumberError>(&parsed)) {
        error = "bad pace '" + args.back() + "': " + bad->message;
        return Usage(error);
      }
      every = std::get<uint64_t>(parsed);
      args = args.first(args.size() - 2);
    }
    std::vector<uint64_t> values;
    if (!ParseEntries(args, values, error)) return Usage(error);
    const FifoConfig& config = program_->config();
    if (!every && !config.arrive) {
      for (uint64_t value : values) Push(context, value, false);
      Update(context);
      return InjectResult::kDone;
    }
    for (uint64_t value : values) arriving_.push_back(value);
    every_ns_ = every.value_or(0);
    if (!arrival_pending_) ScheduleArrival(context);
    return InjectResult::kDone;
  }

  void ScheduleArrival(BehaviourContext& context) {
    uint64_t delay = every_ns_;
    if (delay == 0) {
      Env env(*this, context);
      delay = arrive_.Next(*program_->config().arrive, env, context.now_ns());
    }
    context.Schedule(delay, kArrival);
    arrival_pending_ = true;
  }

  // An entry coming in: from the driver's write (a push into a full FIFO
  // may be a rule), or from the line or another FIFO (lost, as hardware
  // loses it, with the overrun bit set).
  void Push(BehaviourContext& context, uint64_t value, bool by_driver) {
    const FifoConfig& config = program_->config();
    if (entries_.size() >= Depth(context)) {
      context.Cover(kOverrun);
      if (config.overrun) SetBits(context, *config.overrun, 1);
      if (config.overrun_replaces && !entries_.empty() && OverrunReplaces(context)) {
        uint64_t mask = config.width == 64 ? ~uint64_t{0} : (uint64_t{1} << config.width) - 1;
        entries_.back() = value & mask;  // the newest entry gives way; the level stays
        return;
      }
      if (by_driver && !config.overrun_rule.empty()) {
        std::string rule = config.overrun_rule + " [fifo '" + program_->name() + "' holds " +
                           std::to_string(entries_.size()) + " entries: the entry is lost]";
        if (!config.ref.empty()) rule += " (" + config.ref + ")";
        context.ReportViolation(ViolationKind::kProtocol, config.push->reg, std::move(rule));
      }
      return;
    }
    uint64_t mask = config.width == 64 ? ~uint64_t{0} : (uint64_t{1} << config.width) - 1;
    entries_.push_back(value & mask);
    context.Cover(kPushed);
    StartDrain(context);
  }

  void StartDrain(BehaviourContext& context) {
    const FifoConfig& config = program_->config();
    if (!config.drain || busy_ || entries_.empty()) return;
    shifting_ = entries_.front();
    entries_.pop_front();
    busy_ = true;
    Env env(*this, context);
    context.Schedule(drain_.Next(*config.drain, env, context.now_ns()), kDrainDone);
  }

  // A drained entry reaches the first route whose condition holds.
  void Deliver(BehaviourContext& context, uint64_t value) {
    context.Cover(kDrained);
    Env env(*this, context);
    for (const regdb::FifoRoute& route : program_->config().routes) {
      if (route.when && route.when->Evaluate(env) == 0) continue;
      if (!route.stream.empty()) {
        context.Emit(program_->StreamIndex(route.stream), value);
      } else {
        // Another FIFO takes it as pushed; a bus takes it as its next command.
        std::string args[2] = {"push", regdb::Hex(value)};
        context.Signal(route.fifo.empty() ? route.bus : route.fifo, args);
      }
      return;
    }
  }

  void Clear(BehaviourContext& context) {
    entries_.clear();
    context.Cover(kCleared);
    Update(context);
  }

  static void SetBits(BehaviourContext& context, const RegisterBits& bits, uint64_t value) {
    uint64_t before = context.Peek(bits.reg);
    uint64_t after = (before & ~bits.bits.mask) | ((value << bits.bits.shift) & bits.bits.mask);
    if (after != before) context.Store(bits.reg, after);
  }

  // The fields that follow the FIFO: its level and flags.
  void Update(BehaviourContext& context) {
    const FifoConfig& config = program_->config();
    if (config.level) SetBits(context, *config.level, entries_.size());
    Env env(*this, context);
    for (const regdb::FifoFlag& flag : config.flags) SetBits(context, flag.field, flag.when.Evaluate(env) != 0 ? 1 : 0);
  }

  const FifoProgram* program_;
  std::deque<uint64_t> entries_;
  std::deque<uint64_t> arriving_;  // injected on the input stream, not yet arrived
  uint64_t shifting_ = 0;          // the entry draining while busy_
  bool busy_ = false;
  bool arrival_pending_ = false;
  uint64_t every_ns_ = 0;  // the test's pace for arriving_, 0: the database's
  Pace drain_;
  Pace arrive_;
};

std::unique_ptr<Behaviour> FifoProgram::Instantiate() const { return std::make_unique<FifoBehaviour>(*this); }

}  // namespace

std::unique_ptr<BehaviourProgram> CompileFifo(const regdb::BehaviourSpec& spec, const Model&, std::string& error) {
  const FifoConfig* config = ConfigOf<FifoConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<FifoProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
