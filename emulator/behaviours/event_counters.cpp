// `kind: event-counters`: a block of event-counter slots (yaml/README.md
// "event-counters"). Events come from outside on the virtual clock:
//   inject event NAME COUNT        COUNT occurrences now
//   inject event-rate NAME PER_US  occurrences at a rate from now (0 stops)
//   inject cpu-mode user|kernel    the privilege level the filters see
// A slot counts while its enable, its global enable and its privilege
// filter (user/kernel bits against the CPU mode) all allow it, through its
// CMASK/INV/EDGE filter (event_counting.hpp). A count passing the
// counter's width wraps, sets the slot's status bit and, with the slot's
// interrupt bit set, asserts the interrupt output until software clears
// the status (its status_clear bit). Counts are brought up to date after
// every clock advance, so reads need no hook.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "emulator/behaviour.hpp"
#include "emulator/behaviours/event_counting.hpp"
#include "regdb/behaviour_configs/event_counters.hpp"
#include "regdb/numbers.hpp"
#include "regdb/spelling.hpp"

namespace regemu::emulator {
namespace {

using Config = regdb::EventCountersConfig;
constexpr uint32_t kNoEvent = ~uint32_t{0};
constexpr uint64_t kMilli = 1000;
// A billion events per microsecond (a thousand per picosecond) is beyond any
// counter's event; the bound keeps the clock arithmetic in 64 bits.
constexpr uint64_t kMaxRateMilli = uint64_t{1'000'000'000} * kMilli;

uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// "12", "0.5", "2.125": events per microsecond, in thousandths.
std::optional<uint64_t> ParseMilli(std::string_view text) {
  size_t dot = text.find('.');
  std::string_view whole = text.substr(0, dot);
  std::string_view fraction = dot == std::string_view::npos ? std::string_view{} : text.substr(dot + 1);
  if (whole.empty() || fraction.size() > 3 || (dot != std::string_view::npos && fraction.empty())) return std::nullopt;
  uint64_t units = 0;
  auto [end, error] = std::from_chars(whole.data(), whole.data() + whole.size(), units);
  if (error != std::errc{} || end != whole.data() + whole.size() || units > kMaxRateMilli / kMilli) return std::nullopt;
  uint64_t milli = units * kMilli;
  uint64_t scale = 100;
  for (char c : fraction) {
    if (c < '0' || c > '9') return std::nullopt;
    milli += static_cast<uint64_t>(c - '0') * scale;
    scale /= 10;
  }
  return milli <= kMaxRateMilli ? std::optional<uint64_t>(milli) : std::nullopt;
}

// What the program shares with its devices: the config and lookups.
struct Shared {
  Config config;
  std::unordered_map<std::string, uint32_t> event_index;
  std::vector<RegisterId> write_hooks;
};

class EventCountersBehaviour : public CopyableBehaviour<EventCountersBehaviour> {
 public:
  explicit EventCountersBehaviour(const Shared& shared)
      : shared_(&shared),
        config_(&shared.config),
        rates_(shared.config.events.size(), 0),
        remainders_(shared.config.events.size(), 0),
        occurrences_(shared.config.events.size(), 0),
        selected_(shared.config.slots.size(), kNoEvent),
        filters_(shared.config.slots.size()) {}

  void OnReset(BehaviourContext& context) override {
    std::fill(rates_.begin(), rates_.end(), 0);
    std::fill(remainders_.begin(), remainders_.end(), 0);
    for (const auto& [event, milli] : config_->rates) rates_[config_->events[event].root] = milli;
    std::fill(filters_.begin(), filters_.end(), CycleFilterState{});
    user_mode_ = config_->starts_in_user_mode;
    Reselect(context);
    UpdateInterrupt(context);
  }

  void OnClock(BehaviourContext& context, uint64_t from_ns, uint64_t to_ns) override {
    uint64_t ns = to_ns - from_ns;
    bool any = false;
    for (size_t e = 0; e < rates_.size(); ++e) {
      occurrences_[e] = 0;
      if (rates_[e] == 0) continue;
      // rate milli-events/us * ns = events * 1e6: whole events, the rest
      // carried. Split at whole milliseconds so that the product fits
      // (rates are at most kMaxRateMilli, below 2^40).
      uint64_t part = rates_[e] * (ns % 1'000'000) + remainders_[e];
      occurrences_[e] = rates_[e] * (ns / 1'000'000) + part / 1'000'000;
      remainders_[e] = part % 1'000'000;
      any = true;
    }
    if (!any) return;
    uint64_t cycles = config_->cycles_event ? occurrences_[config_->events[*config_->cycles_event].root] : 0;
    bool overflowed = false;
    for (size_t s = 0; s < config_->slots.size(); ++s) {
      uint32_t root = selected_[s];
      if (root == kNoEvent || !Counting(context, s)) continue;
      CycleFilter filter = Filter(context, s);
      // With a threshold, cycles without the event count too (INV).
      if (occurrences_[root] == 0 && (filter.counts_occurrences() || cycles == 0)) continue;
      uint64_t counts = FilteredCount(filter, occurrences_[root], cycles, filters_[s]);
      overflowed |= Add(context, s, counts);
    }
    if (overflowed) UpdateInterrupt(context);
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    bool counter_written = false;
    for (size_t s = 0; s < config_->slots.size(); ++s) {
      const Config::Slot& slot = config_->slots[s];
      const Config::View* view = ViewOf(slot, reg);
      bool is_hi = slot.hi == reg;
      if (view == nullptr && !is_hi) continue;
      counter_written = true;
      if (config_->rule_write_while_counting && Counting(context, s)) {
        context.ReportViolation(ViolationKind::kProtocol, reg,
                                "counter " + context.model().registers()[reg].name + " (slot " + slot.name +
                                    ") written while it counts: disable it first (clear its enable, or its global "
                                    "enable) (Intel SDM 18.2: clear EN before writing IA32_PMCx; Linux sets the period "
                                    "with the PMU disabled)");
      }
      uint64_t count = Count(context, s);
      if (is_hi) {
        count = (count & 0xFFFF'FFFF) | (after << 32);
      } else if (slot.hi != Config::kNone) {
        count = (count & ~uint64_t{0xFFFF'FFFF}) | (after & 0xFFFF'FFFF);
      } else if (view->sign_extend_32) {
        count = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(after))));
      } else {
        count = after;
      }
      SetCount(context, s, count & WidthMask(slot.width));
    }
    if (counter_written) return;

    bool is_status_clear = false;
    for (const Config::Slot& slot : config_->slots) {
      if (slot.status_clear.reg != reg) continue;
      is_status_clear = true;
      if (slot.status_clear.bits.Get(after) != 0) SetField(context, slot.status, 0);
    }
    if (is_status_clear) {
      // A command, not a setting: it reads 0 again (as under KVM).
      context.Poke(reg, 0);
      UpdateInterrupt(context);
      return;
    }

    // A control register: selects, enables, privilege bits, responses.
    if (config_->rule_enable_with_pending_overflow) CheckPendingOverflow(context, reg, before);
    Reselect(context);
    UpdateInterrupt(context);
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb == "cpu-mode") {
      if (args.size() != 1 || (args[0] != "user" && args[0] != "kernel")) {
        error = "usage: inject cpu-mode user|kernel";
        return InjectResult::kBadArguments;
      }
      user_mode_ = args[0] == "user";
      return InjectResult::kDone;
    }
    if (verb != "event" && verb != "event-rate") return InjectResult::kNotMine;
    std::string usage = verb == "event" ? "usage: inject event NAME COUNT" : "usage: inject event-rate NAME PER_US (0 stops)";
    if (args.size() != 2) {
      error = "expected an event name and a number; " + usage;
      return InjectResult::kBadArguments;
    }
    auto it = shared_->event_index.find(args[0]);
    if (it == shared_->event_index.end()) {
      std::vector<std::string_view> names;
      names.reserve(config_->events.size());
      for (const Config::Event& event : config_->events) names.push_back(event.name);
      error = "no event '" + args[0] + "' in the catalog" + regdb::DidYouMean(args[0], names) + "; " + usage;
      return InjectResult::kBadArguments;
    }
    uint32_t root = config_->events[it->second].root;
    if (verb == "event-rate") {
      std::optional<uint64_t> milli = ParseMilli(args[1]);
      if (!milli) {
        error = "bad rate '" + args[1] + "' (events per microsecond, up to 3 decimals); " + usage;
        return InjectResult::kBadArguments;
      }
      rates_[root] = *milli;
      return InjectResult::kDone;
    }
    auto count = regdb::ParseUnsigned(args[1]);
    if (!std::holds_alternative<uint64_t>(count)) {
      error = "bad count '" + args[1] + "'; " + usage;
      return InjectResult::kBadArguments;
    }
    bool overflowed = false;
    for (size_t s = 0; s < config_->slots.size(); ++s) {
      if (selected_[s] != root || !Counting(context, s)) continue;
      overflowed |= Add(context, s, FilteredBurst(Filter(context, s), std::get<uint64_t>(count), filters_[s]));
    }
    if (overflowed) UpdateInterrupt(context);
    return InjectResult::kDone;
  }

 private:
  static const Config::View* ViewOf(const Config::Slot& slot, RegisterId reg) {
    if (slot.lo.reg == reg) return &slot.lo;
    for (const Config::View& view : slot.views) {
      if (view.reg == reg) return &view;
    }
    return nullptr;
  }

  static uint64_t Field(BehaviourContext& context, const Config::FieldOf& field) {
    return field.present() ? field.bits.Get(context.Peek(field.reg)) : 0;
  }
  static void SetField(BehaviourContext& context, const Config::FieldOf& field, uint64_t value) {
    if (!field.present()) return;
    uint64_t reg = context.Peek(field.reg);
    context.Poke(field.reg, (reg & ~field.bits.mask) | ((value << field.bits.shift) & field.bits.mask));
  }

  // Whether slot `s` counts now; `override_reg` reads as `override_value`
  // (the value before a write, for what the write changed).
  bool Counting(BehaviourContext& context, size_t s, RegisterId override_reg = ~RegisterId{0},
                uint64_t override_value = 0) const {
    const Config::Slot& slot = config_->slots[s];
    auto bit = [&](const Config::FieldOf& field, bool absent) {
      if (!field.present()) return absent;
      uint64_t value = field.reg == override_reg ? override_value : context.Peek(field.reg);
      return field.bits.Get(value) != 0;
    };
    if (!bit(slot.enable, true) || !bit(slot.global_enable, true)) return false;
    if (!slot.user.present() && !slot.kernel.present()) return true;
    return user_mode_ ? bit(slot.user, false) : bit(slot.kernel, false);
  }

  CycleFilter Filter(BehaviourContext& context, size_t s) const {
    const Config::Slot& slot = config_->slots[s];
    return {Field(context, slot.cmask), Field(context, slot.invert) != 0, Field(context, slot.edge) != 0};
  }

  uint64_t Count(BehaviourContext& context, size_t s) const {
    const Config::Slot& slot = config_->slots[s];
    uint64_t lo = context.Peek(slot.lo.reg);
    if (slot.hi == Config::kNone) return lo & WidthMask(slot.width);
    return ((context.Peek(slot.hi) << 32) | (lo & 0xFFFF'FFFF)) & WidthMask(slot.width);
  }

  void SetCount(BehaviourContext& context, size_t s, uint64_t count) {
    const Config::Slot& slot = config_->slots[s];
    if (slot.hi != Config::kNone) {
      context.Poke(slot.lo.reg, count & 0xFFFF'FFFF);
      context.Poke(slot.hi, count >> 32);
    } else {
      context.Poke(slot.lo.reg, count);
    }
    for (const Config::View& view : slot.views) context.Poke(view.reg, count);
  }

  // Adds `counts`; true when the count wrapped (the status bit is set).
  bool Add(BehaviourContext& context, size_t s, uint64_t counts) {
    if (counts == 0) return false;
    const Config::Slot& slot = config_->slots[s];
    uint64_t mask = WidthMask(slot.width);
    uint64_t before = Count(context, s);
    uint64_t room = mask - before;  // counts before the wrap
    SetCount(context, s, (before + counts) & mask);
    if (counts <= room) return false;
    SetField(context, slot.status, 1);
    return true;
  }

  // Which catalog event (its root) each slot's select picks now.
  void Reselect(BehaviourContext& context) {
    for (size_t s = 0; s < config_->slots.size(); ++s) {
      const Config::Slot& slot = config_->slots[s];
      selected_[s] = kNoEvent;
      if (slot.select == Config::kNone) {
        selected_[s] = config_->events[slot.fixed_event].root;
        continue;
      }
      uint64_t select = context.Peek(slot.select);
      for (size_t e = 0; e < slot.matches.size() && selected_[s] == kNoEvent; ++e) {
        for (const Config::Match& match : slot.matches[e]) {
          if ((select & match.mask) != match.value) continue;
          if (match.response_register != Config::kNone &&
              context.Peek(match.response_register) != *config_->events[e].response) {
            continue;
          }
          selected_[s] = config_->events[e].root;
          break;
        }
      }
    }
  }

  void UpdateInterrupt(BehaviourContext& context) {
    bool asserted = false;
    for (const Config::Slot& slot : config_->slots) {
      asserted |= Field(context, slot.status) != 0 && Field(context, slot.interrupt) != 0;
    }
    context.SetInterrupt(asserted);
  }

  // A slot starting to count (this write turned it on) while its overflow
  // status, with its interrupt enabled, was never cleared: the driver
  // re-armed without acknowledging (Linux acks GLOBAL_STATUS through
  // GLOBAL_OVF_CTRL in every PMI before re-enabling).
  void CheckPendingOverflow(BehaviourContext& context, RegisterId reg, uint64_t before) {
    for (size_t s = 0; s < config_->slots.size(); ++s) {
      const Config::Slot& slot = config_->slots[s];
      if (Field(context, slot.status) == 0 || Field(context, slot.interrupt) == 0) continue;
      if (Counting(context, s, reg, before) || !Counting(context, s)) continue;
      const auto& regs = context.model().registers();
      context.ReportViolation(
          ViolationKind::kProtocol, reg,
          "slot " + slot.name + " starts counting with its overflow unacknowledged (" + regs[slot.status.reg].name +
              " bit " + std::to_string(slot.status.bits.shift) + " still set" +
              (slot.status_clear.present() ? "; clear it through " + regs[slot.status_clear.reg].name : std::string()) +
              "): its next overflow raises no new interrupt");
    }
  }

  const Shared* shared_;
  const Config* config_;
  std::vector<uint64_t> rates_;        // per root event: milli-events per microsecond
  std::vector<uint64_t> remainders_;   // per root event: carried fraction, in 1e-6 events
  std::vector<uint64_t> occurrences_;  // per root event: scratch for one clock step
  std::vector<uint32_t> selected_;     // per slot: the root event its select picks, or kNoEvent
  std::vector<CycleFilterState> filters_;
  bool user_mode_ = false;
};

class EventCountersProgram : public BehaviourProgram {
 public:
  EventCountersProgram(std::string name, const Config& config)
      : BehaviourProgram("event-counters", std::move(name)) {
    shared_.config = config;
    for (uint32_t e = 0; e < config.events.size(); ++e) shared_.event_index.emplace(config.events[e].name, e);
    std::vector<RegisterId>& hooks = shared_.write_hooks;
    auto hook = [&](RegisterId reg) {
      if (reg != Config::kNone && std::find(hooks.begin(), hooks.end(), reg) == hooks.end()) hooks.push_back(reg);
    };
    for (const Config::Slot& slot : config.slots) {
      hook(slot.select);
      hook(slot.lo.reg);
      hook(slot.hi);
      for (const Config::View& view : slot.views) hook(view.reg);
      for (const Config::FieldOf* field : {&slot.enable, &slot.user, &slot.kernel, &slot.edge, &slot.invert,
                                           &slot.cmask, &slot.interrupt, &slot.global_enable, &slot.status_clear}) {
        hook(field->reg);
      }
    }
    for (const Config::Response& response : config.responses) hook(response.reg);
  }

  std::vector<RegisterId> WriteHooks() const override { return shared_.write_hooks; }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<EventCountersBehaviour>(shared_); }

 private:
  Shared shared_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileEventCounters(const regdb::BehaviourSpec& spec, const Model&,
                                                       std::string& error) {
  const Config* config = ConfigOf<Config>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<EventCountersProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
