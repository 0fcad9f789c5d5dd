// `kind: event-counters`: a block of event-counter slots (yaml/README.md
// "event-counters"). Events come from outside on the virtual clock:
//   inject event NAME COUNT [se S] [instance I]        COUNT occurrences now
//   inject event-rate NAME PER_US [se S] [instance I]  at a rate from now (0 stops)
//   inject cpu-mode user|kernel                        the privilege the filters see
// An event of a block with instances (SEs x instances) is spread evenly
// over the instances named (all by default). A slot counts while its
// enable, its global enable, the control state (START) and its privilege
// filter allow, through its CMASK/INV/EDGE filter (event_counting.hpp). A
// count passing the counter's width wraps, sets the slot's status bit and,
// with its interrupt bit set, asserts the interrupt output until software
// clears the status.
//
// Where the counts live: a slot with one instance and no sampling
// ("direct", a CPU PMU counter) counts in its registers, so a backdoor
// poke presets it. Otherwise ("banked") the behaviour keeps each
// instance's select, live count and sampled count; the registers show the
// instance the steering register picks, and with sampling the counter
// registers show the last sample, not the live count.
#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/event_counting.hpp"
#include "regemu/regdb/behaviour_configs/event_counters.hpp"
#include "regemu/regdb/metric_expression.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::emulator {
namespace {

using Config = regdb::EventCountersConfig;
constexpr uint32_t kNoEvent = ~uint32_t{0};
constexpr uint32_t kNoInstance = ~uint32_t{0};
constexpr uint64_t kMilli = 1000;
// A billion events per microsecond (a thousand per picosecond) is beyond any
// counter's event; the bound keeps the clock arithmetic in 64 bits.
constexpr uint64_t kMaxRateMilli = uint64_t{1'000'000'000} * kMilli;

uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// "12", "0.5", "2.125": events per microsecond, at most three decimals,
// in thousandths.
std::optional<uint64_t> ParseMilli(std::string_view text) {
  size_t dot = text.find('.');
  if (dot != std::string_view::npos && text.size() - dot - 1 > 3) return std::nullopt;
  auto micros = regdb::ParseDecimalMicros(text);
  if (!std::holds_alternative<uint64_t>(micros) || std::get<uint64_t>(micros) / kMilli > kMaxRateMilli) {
    return std::nullopt;
  }
  return std::get<uint64_t>(micros) / kMilli;
}

// Share `j` of `total` split over `n`: the remainder goes to the first.
uint64_t Share(uint64_t total, uint64_t n, uint64_t j) { return total / n + (j < total % n ? 1 : 0); }

// A set of instances of a block: SEs [se_first, se_end) x instances [first, end).
struct InstanceRange {
  uint32_t se_first = 0, se_end = 1, first = 0, end = 1;
  uint32_t size() const { return (se_end - se_first) * (end - first); }
  template <typename F>
  void ForEach(const Config::Dims& dims, F f) const {
    for (uint32_t se = se_first; se < se_end; ++se) {
      for (uint32_t i = first; i < end; ++i) f(se * dims.instance + i);
    }
  }
};

// Coverage: a profiler's or PMU driver's paths through the counters: each
// slot overflowing (the wrap its overflow handling is for), the global
// control's reset, start and sample, the overflow interrupt asserted and
// an overflow acknowledged. Only what the block has is a point; slots come
// first, in config order.
constexpr uint32_t kNoPoint = ~uint32_t{0};
struct CounterPoints {
  uint32_t reset = kNoPoint, start = kNoPoint, sample = kNoPoint;
  uint32_t interrupt = kNoPoint, acknowledged = kNoPoint;
};

CounterPoints MakePoints(const Config& config, std::vector<CoveragePoint>& list) {
  CounterPoints points;
  auto add = [&](uint32_t& index, const char* group, const char* name) {
    index = static_cast<uint32_t>(list.size());
    list.push_back({group, name});
  };
  for (const Config::Slot& slot : config.slots) list.push_back({"slots overflowed", slot.name});
  if (config.control.present()) {
    add(points.reset, "control", "reset");
    add(points.start, "control", "start");
    if (config.control.sample.mask != 0) add(points.sample, "control", "sample");
  }
  auto any = [&](auto field) {
    return std::any_of(config.slots.begin(), config.slots.end(),
                       [&](const Config::Slot& slot) { return (slot.*field).present(); });
  };
  if (any(&Config::Slot::interrupt)) add(points.interrupt, "overflow", "interrupt asserted");
  if (any(&Config::Slot::status_clear)) add(points.acknowledged, "overflow", "acknowledged");
  return points;
}

void Cover(BehaviourContext& context, uint32_t point) {
  if (point != kNoPoint) context.Cover(point);
}

// What the program shares with its devices: the config and lookups.
struct Shared {
  Config config;
  std::unordered_map<std::string, uint32_t> event_index;
  std::vector<RegisterId> write_hooks;
  std::vector<RegisterId> read_hooks;
  std::vector<bool> banked;  // per slot
  bool latched = false;      // counter registers show samples (control.sample)
  std::vector<CoveragePoint> point_list;
  CounterPoints points;
};

class EventCountersBehaviour : public CopyableBehaviour<EventCountersBehaviour>, public MetricSource {
 public:
  explicit EventCountersBehaviour(const Shared& shared) : shared_(&shared), config_(&shared.config) {
    for (const Config::Event& event : config_->events) {
      uint32_t n = event.dims.count();
      rates_.emplace_back(n, 0);
      remainders_.emplace_back(n, 0);
      occurrences_.emplace_back(n, 0);
      window_.emplace_back(n, 0);
    }
    for (const Config::Slot& slot : config_->slots) {
      uint32_t n = slot.dims.count();
      slots_.push_back(SlotState{std::vector<uint64_t>(n, 0), std::vector<uint64_t>(n, 0),
                                 std::vector<uint64_t>(n, 0), std::vector<uint32_t>(n, kNoEvent),
                                 std::vector<CycleFilterState>(n)});
    }
  }

  void OnReset(BehaviourContext& context) override {
    for (auto& rates : rates_) std::fill(rates.begin(), rates.end(), 0);
    for (auto& occurrences : occurrences_) std::fill(occurrences.begin(), occurrences.end(), 0);
    rated_.clear();
    for (auto& remainders : remainders_) std::fill(remainders.begin(), remainders.end(), 0);
    for (auto& window : window_) std::fill(window.begin(), window.end(), 0);
    for (const auto& [event, milli] : config_->rates) SetRate(config_->events[event].root, milli, AllOf(event));
    for (size_t s = 0; s < slots_.size(); ++s) {
      SlotState& state = slots_[s];
      std::fill(state.live.begin(), state.live.end(), 0);
      std::fill(state.sampled.begin(), state.sampled.end(), 0);
      std::fill(state.filters.begin(), state.filters.end(), CycleFilterState{});
      state.shown = kNoInstance;  // the registers hold their reset values
      uint64_t select = config_->slots[s].select == Config::kNone ? 0 : context.Peek(config_->slots[s].select);
      std::fill(state.select.begin(), state.select.end(), select);
    }
    user_mode_ = config_->starts_in_user_mode;
    interrupt_ = false;
    started_ = false;
    sampled_since_start_ = false;
    Reselect(context);
    UpdateInterrupt(context);
  }

  void OnClock(BehaviourContext& context, uint64_t from_ns, uint64_t to_ns) override {
    if (rated_.empty()) return;
    uint64_t ns = to_ns - from_ns;
    for (uint32_t e : rated_) {
      for (size_t k = 0; k < rates_[e].size(); ++k) {
        occurrences_[e][k] = 0;
        uint64_t rate = rates_[e][k];
        if (rate == 0) continue;
        // rate milli-events/us * ns = events * 1e6: whole events, the rest
        // carried. Split at whole milliseconds so that the product fits.
        uint64_t part = rate * (ns % 1'000'000) + remainders_[e][k];
        occurrences_[e][k] = rate * (ns / 1'000'000) + part / 1'000'000;
        remainders_[e][k] = part % 1'000'000;
      }
    }
    if (InWindow(context)) {
      for (uint32_t e : rated_) {
        for (size_t k = 0; k < window_[e].size(); ++k) window_[e][k] += occurrences_[e][k];
      }
    }
    // occurrences_ of a root without a rate stay 0 (SetRate, OnReset).
    uint64_t cycles = config_->cycles_event ? occurrences_[config_->events[*config_->cycles_event].root][0] : 0;
    bool overflowed = false;
    for (size_t s = 0; s < slots_.size(); ++s) {
      for (uint32_t k = 0; k < slots_[s].selected.size(); ++k) {
        uint32_t root = slots_[s].selected[k];
        if (root == kNoEvent) continue;
        uint64_t occurred = occurrences_[root][k];
        if ((occurred == 0 && cycles == 0) || !Counting(context, s, k)) continue;
        CycleFilter filter = Filter(context, s, k);
        // With a threshold, cycles without the event count too (INV).
        if (occurred == 0 && filter.counts_occurrences()) continue;
        overflowed |= Add(context, s, k, FilteredCount(filter, occurred, cycles, slots_[s].filters[k]));
      }
    }
    if (overflowed) UpdateInterrupt(context);
  }

  void BeforeRead(BehaviourContext& context, RegisterId reg) override {
    if (!config_->rule_read_without_sample || !started_ || sampled_since_start_) return;
    const auto& regs = context.model().registers();
    context.ReportViolation(ViolationKind::kProtocol, reg,
                            regs[reg].name + " read with no sample since counting started: it shows the counts "
                                             "latched by the last sample (" +
                                regs[config_->control.reg].name +
                                " with its sample bit set, or EVENT_WRITE PERFCOUNTER_SAMPLE), not the live ones");
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    if (config_->steering.present() && reg == config_->steering.reg) {
      // Only what slots with instances show depends on the steering, and
      // only where it now names another instance.
      for (size_t s = 0; s < slots_.size(); ++s) {
        const Config::Slot& slot = config_->slots[s];
        if (slot.dims.count() > 1 && Shown(context, slot.dims).value_or(kNoInstance) != slots_[s].shown) Show(context, s);
      }
      return;
    }
    if (config_->control.present() && reg == config_->control.reg) {
      Control(context, before, after);
      return;
    }
    if (CounterWritten(context, reg, after)) return;
    if (SelectWritten(context, reg, after)) return;

    bool is_status_clear = false;
    for (const Config::Slot& slot : config_->slots) {
      if (slot.status_clear.reg != reg) continue;
      is_status_clear = true;
      if (slot.status_clear.bits.Get(after) == 0) continue;
      if (Field(context, slot.status) != 0) Cover(context, shared_->points.acknowledged);
      SetField(context, slot.status, 0);
    }
    if (is_status_clear) {
      // A command, not a setting: it reads 0 again (as under KVM).
      context.Poke(reg, 0);
      UpdateInterrupt(context);
      return;
    }

    // Enables, privilege bits, unbanked selects, response registers: only
    // the last two change which event a slot counts.
    if (config_->rule_enable_with_pending_overflow) CheckPendingOverflow(context, reg, before);
    bool response = std::any_of(config_->responses.begin(), config_->responses.end(),
                                [&](const Config::Response& r) { return r.reg == reg; });
    for (size_t s = 0; s < slots_.size(); ++s) {
      if (response || config_->slots[s].select == reg) ReselectSlot(context, s);
    }
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
    std::string usage = verb == "event" ? "usage: inject event NAME COUNT [se S] [instance I]"
                                        : "usage: inject event-rate NAME PER_US [se S] [instance I] (0 stops)";
    if (args.size() < 2 || args.size() % 2 != 0 || args.size() > 6) {
      error = "expected an event name, a number and optional `se S` / `instance I`; " + usage;
      return InjectResult::kBadArguments;
    }
    auto it = shared_->event_index.find(args[0]);
    if (it == shared_->event_index.end()) {
      error = "no event '" + args[0] + "' in the catalog" + regdb::DidYouMean(args[0], regdb::NamesOf(config_->events)) +
              "; " + usage;
      return InjectResult::kBadArguments;
    }
    uint32_t root = config_->events[it->second].root;
    std::optional<InstanceRange> range = InjectRange(it->second, args.subspan(2), error);
    if (!range) {
      error += "; " + usage;
      return InjectResult::kBadArguments;
    }
    if (verb == "event-rate") {
      std::optional<uint64_t> milli = ParseMilli(args[1]);
      if (!milli) {
        error = "bad rate '" + args[1] + "' (events per microsecond, up to 3 decimals); " + usage;
        return InjectResult::kBadArguments;
      }
      SetRate(root, *milli, *range);
      return InjectResult::kDone;
    }
    auto count = regdb::ParseUnsigned(args[1]);
    if (!std::holds_alternative<uint64_t>(count)) {
      error = "bad count '" + args[1] + "'; " + usage;
      return InjectResult::kBadArguments;
    }
    Burst(context, root, std::get<uint64_t>(count), *range);
    return InjectResult::kDone;
  }

  // Metrics, in catalog order up to NAME: each from the events counted in
  // the window (control START; since reset without a control), per the
  // profilers: a plain event is its sum over instances; sum/avr/max/min(X,N)
  // reduce X[i] for i < N, X[i] summed over the SEs.
  std::optional<double> Metric(BehaviourContext&, std::string_view name, std::string& error) override {
    auto target = std::find_if(config_->metrics.begin(), config_->metrics.end(),
                               [&](const Config::Metric& metric) { return metric.name == name; });
    if (target == config_->metrics.end()) return std::nullopt;
    if (parsed_.empty()) {
      // Each metric's variables, in the order their values are given below.
      for (const Config::Metric& metric : config_->metrics) {
        std::vector<std::string> names;
        for (uint32_t e : metric.events) names.push_back(config_->events[e].name);
        for (const regdb::MetricAggregate& aggregate : metric.aggregates) names.push_back(aggregate.variable);
        for (uint32_t m : metric.metrics) names.push_back(config_->metrics[m].name);
        for (uint32_t c : metric.constants) names.push_back(config_->constants[c].first);
        parsed_.emplace_back(metric.text, std::move(names));
      }
    }
    std::vector<double> values;
    values.reserve(config_->metrics.size());
    std::vector<double> variables;
    for (auto it = config_->metrics.begin(); it <= target; ++it) {
      const Config::Metric& metric = *it;
      variables.clear();
      for (uint32_t e : metric.events) variables.push_back(WindowSum(e));
      for (size_t a = 0; a < metric.aggregates.size(); ++a) {
        variables.push_back(Reduce(metric.aggregates[a], metric.aggregate_events[a]));
      }
      for (uint32_t m : metric.metrics) variables.push_back(values[m]);
      for (uint32_t c : metric.constants) variables.push_back(static_cast<double>(config_->constants[c].second));
      std::optional<double> value =
          parsed_[static_cast<size_t>(it - config_->metrics.begin())].Evaluate(variables, error);
      if (!value) {
        error = "metric " + metric.name + ": " + error;
        return std::nullopt;
      }
      values.push_back(*value);
    }
    return values.back();
  }

 private:
  double WindowSum(uint32_t event) const {
    const std::vector<uint64_t>& counts = window_[config_->events[event].root];
    double sum = 0;
    for (uint64_t count : counts) sum += static_cast<double>(count);
    return sum;
  }

  double Reduce(const regdb::MetricAggregate& aggregate, uint32_t event) const {
    const std::vector<uint64_t>& counts = window_[config_->events[event].root];
    const Config::Dims& dims = config_->events[event].dims;
    double result = 0;
    for (uint32_t i = 0; i < aggregate.count; ++i) {
      double x = 0;  // instance i, summed over the SEs
      for (uint32_t se = 0; se < dims.se; ++se) x += static_cast<double>(counts[se * dims.instance + i]);
      switch (aggregate.reduction) {
        case regdb::MetricReduction::kSum:
        case regdb::MetricReduction::kAvr: result += x; break;
        case regdb::MetricReduction::kMax: result = i == 0 ? x : std::max(result, x); break;
        case regdb::MetricReduction::kMin: result = i == 0 ? x : std::min(result, x); break;
      }
    }
    return aggregate.reduction == regdb::MetricReduction::kAvr ? result / aggregate.count : result;
  }

  struct SlotState {
    std::vector<uint64_t> live;       // banked: per instance
    std::vector<uint64_t> sampled;    // banked: per instance, the last sample
    std::vector<uint64_t> select;     // banked: per instance, the select register's value
    std::vector<uint32_t> selected;   // per instance: the root event the select picks, or kNoEvent
    std::vector<CycleFilterState> filters;
    uint32_t shown = kNoInstance;     // banked: the instance the registers show (set by Show)
  };

  // ------------------------------------------------------------ instances

  InstanceRange AllOf(uint32_t event) const {
    const Config::Dims& dims = config_->events[event].dims;
    return {0, dims.se, 0, dims.instance};
  }

  // `se S` / `instance I` after an inject's name and number.
  std::optional<InstanceRange> InjectRange(uint32_t event, std::span<const std::string> args, std::string& error) const {
    const Config::Dims& dims = config_->events[event].dims;
    InstanceRange range = AllOf(event);
    for (size_t i = 0; i + 1 < args.size(); i += 2) {
      auto value = regdb::ParseUnsigned(args[i + 1]);
      bool is_se = args[i] == "se";
      if (!is_se && args[i] != "instance") {
        error = "expected `se S` or `instance I`, got '" + args[i] + "'";
        return std::nullopt;
      }
      uint32_t limit = is_se ? dims.se : dims.instance;
      if (!std::holds_alternative<uint64_t>(value) || std::get<uint64_t>(value) >= limit) {
        error = "bad " + args[i] + " '" + args[i + 1] + "': " + config_->events[event].name + " has " +
                std::to_string(limit) + " (" + (is_se ? "SEs" : "instances per SE") + ")";
        return std::nullopt;
      }
      uint32_t n = static_cast<uint32_t>(std::get<uint64_t>(value));
      (is_se ? range.se_first : range.first) = n;
      (is_se ? range.se_end : range.end) = n + 1;
    }
    return range;
  }

  // The instances a banked access reaches now (steering), or nothing when
  // the steering register names one the slot's block does not have.
  std::optional<InstanceRange> Targets(BehaviourContext& context, const Config::Dims& dims) const {
    if (!config_->steering.present()) return InstanceRange{0, dims.se, 0, dims.instance};
    uint64_t value = context.Peek(config_->steering.reg);
    const Config::Steering& st = config_->steering;
    InstanceRange range{0, dims.se, 0, dims.instance};
    if (dims.se > 1 && st.se_broadcast.Get(value) == 0) {
      uint64_t se = st.se.Get(value);
      if (se >= dims.se) return std::nullopt;
      range.se_first = static_cast<uint32_t>(se);
      range.se_end = range.se_first + 1;
    }
    if (dims.instance > 1 && st.instance_broadcast.Get(value) == 0) {
      uint64_t instance = st.instance.Get(value);
      if (instance >= dims.instance) return std::nullopt;
      range.first = static_cast<uint32_t>(instance);
      range.end = range.first + 1;
    }
    return range;
  }

  // The instance the registers show: the first of the targets.
  std::optional<uint32_t> Shown(BehaviourContext& context, const Config::Dims& dims) const {
    std::optional<InstanceRange> range = Targets(context, dims);
    if (!range) return std::nullopt;
    return range->se_first * dims.instance + range->first;
  }

  void ReportBadSteering(BehaviourContext& context, RegisterId reg, const Config::Slot& slot) {
    const auto& regs = context.model().registers();
    context.ReportViolation(ViolationKind::kProtocol, reg,
                            regs[config_->steering.reg].name + " (" +
                                regdb::HexPadded(context.Peek(config_->steering.reg), regs[config_->steering.reg].width) +
                                ") names an SE or instance block " + slot.block + " does not have (it has " +
                                std::to_string(slot.dims.se) + " SE(s) x " + std::to_string(slot.dims.instance) +
                                " instance(s)): the access reaches no counter");
  }

  // ------------------------------------------------------------ counting

  bool InWindow(BehaviourContext& context) const {
    return !config_->control.present() ||
           config_->control.state.Get(context.Peek(config_->control.reg)) == config_->control.start_value;
  }

  // A field of the slot: from instance k's banked select when it is one of
  // the select register's fields.
  uint64_t Field(BehaviourContext& context, size_t s, uint32_t k, const Config::FieldOf& field) const {
    if (!field.present()) return 0;
    const Config::Slot& slot = config_->slots[s];
    uint64_t value = field.reg == slot.select && shared_->banked[s] ? slots_[s].select[k] : context.Peek(field.reg);
    return field.bits.Get(value);
  }
  static uint64_t Field(BehaviourContext& context, const Config::FieldOf& field) {
    return field.present() ? field.bits.Get(context.Peek(field.reg)) : 0;
  }
  static void SetField(BehaviourContext& context, const Config::FieldOf& field, uint64_t value) {
    if (!field.present()) return;
    uint64_t reg = context.Peek(field.reg);
    context.Poke(field.reg, (reg & ~field.bits.mask) | ((value << field.bits.shift) & field.bits.mask));
  }

  // Whether instance k of slot s counts now; `override_reg` reads as
  // `override_value` (the value before a write, for what the write changed).
  bool Counting(BehaviourContext& context, size_t s, uint32_t k, RegisterId override_reg = ~RegisterId{0},
                uint64_t override_value = 0) const {
    const Config::Slot& slot = config_->slots[s];
    auto bit = [&](const Config::FieldOf& field, bool absent) {
      if (!field.present()) return absent;
      if (field.reg == override_reg) return field.bits.Get(override_value) != 0;
      return Field(context, s, k, field) != 0;
    };
    if (!bit(slot.enable, true) || !bit(slot.global_enable, true) || !InWindow(context)) return false;
    if (!slot.user.present() && !slot.kernel.present()) return true;
    return user_mode_ ? bit(slot.user, false) : bit(slot.kernel, false);
  }

  CycleFilter Filter(BehaviourContext& context, size_t s, uint32_t k) const {
    const Config::Slot& slot = config_->slots[s];
    return {Field(context, s, k, slot.cmask), Field(context, s, k, slot.invert) != 0,
            Field(context, s, k, slot.edge) != 0};
  }

  void SetRate(uint32_t root, uint64_t milli, const InstanceRange& range) {
    const Config::Dims& dims = config_->events[root].dims;
    uint32_t j = 0;
    uint32_t n = range.size();
    range.ForEach(dims, [&](uint32_t k) { rates_[root][k] = Share(milli, n, j++); });
    bool rated = std::any_of(rates_[root].begin(), rates_[root].end(), [](uint64_t rate) { return rate != 0; });
    auto it = std::find(rated_.begin(), rated_.end(), root);
    if (rated && it == rated_.end()) rated_.push_back(root);
    if (!rated && it != rated_.end()) {
      rated_.erase(it);
      std::fill(occurrences_[root].begin(), occurrences_[root].end(), 0);
    }
  }

  void Burst(BehaviourContext& context, uint32_t root, uint64_t count, const InstanceRange& range) {
    const Config::Dims& dims = config_->events[root].dims;
    bool window = InWindow(context);
    bool overflowed = false;
    uint32_t j = 0;
    uint32_t n = range.size();
    range.ForEach(dims, [&](uint32_t k) {
      uint64_t share = Share(count, n, j++);
      if (window) window_[root][k] += share;
      for (size_t s = 0; s < slots_.size(); ++s) {
        if (k >= slots_[s].selected.size() || slots_[s].selected[k] != root || !Counting(context, s, k)) continue;
        overflowed |= Add(context, s, k, FilteredBurst(Filter(context, s, k), share, slots_[s].filters[k]));
      }
    });
    if (overflowed) UpdateInterrupt(context);
  }

  // ------------------------------------------------------------- counts

  uint64_t Count(BehaviourContext& context, size_t s, uint32_t k) const {
    const Config::Slot& slot = config_->slots[s];
    if (shared_->banked[s]) return slots_[s].live[k];
    uint64_t lo = context.Peek(slot.lo.reg);
    if (slot.hi == Config::kNone) return lo & WidthMask(slot.width);
    return ((context.Peek(slot.hi) << 32) | (lo & 0xFFFF'FFFF)) & WidthMask(slot.width);
  }

  void ShowValue(BehaviourContext& context, const Config::Slot& slot, uint64_t count) {
    if (slot.hi != Config::kNone) {
      context.Poke(slot.lo.reg, count & 0xFFFF'FFFF);
      context.Poke(slot.hi, count >> 32);
    } else {
      context.Poke(slot.lo.reg, count);
    }
    for (const Config::View& view : slot.views) context.Poke(view.reg, count);
  }

  // What the registers of a banked slot show: the steered instance's select
  // and count (its last sample, with sampling).
  void Show(BehaviourContext& context, size_t s) {
    if (!shared_->banked[s]) return;
    const Config::Slot& slot = config_->slots[s];
    std::optional<uint32_t> k = Shown(context, slot.dims);
    slots_[s].shown = k.value_or(kNoInstance);
    uint64_t count = 0;
    if (k) count = shared_->latched ? slots_[s].sampled[*k] : slots_[s].live[*k];
    ShowValue(context, slot, count);
    if (slot.select != Config::kNone && k) context.Poke(slot.select, slots_[s].select[*k]);
  }
  void ShowAll(BehaviourContext& context) {
    for (size_t s = 0; s < slots_.size(); ++s) Show(context, s);
  }

  void SetCount(BehaviourContext& context, size_t s, uint32_t k, uint64_t count) {
    if (!shared_->banked[s]) {
      ShowValue(context, config_->slots[s], count);
      return;
    }
    slots_[s].live[k] = count;
  }

  // Adds `counts` to instance k; true when the count wrapped (the status bit is set).
  bool Add(BehaviourContext& context, size_t s, uint32_t k, uint64_t counts) {
    if (counts == 0) return false;
    const Config::Slot& slot = config_->slots[s];
    uint64_t mask = WidthMask(slot.width);
    uint64_t before = Count(context, s, k);
    uint64_t room = mask - before;  // counts before the wrap
    SetCount(context, s, k, (before + counts) & mask);
    if (shared_->banked[s] && !shared_->latched) Show(context, s);
    if (counts <= room) return false;
    context.Cover(static_cast<uint32_t>(s));  // the slot's point
    SetField(context, slot.status, 1);
    return slot.status.present();
  }

  // ------------------------------------------------------------- writes

  // A write of one of a slot's counter registers: sets the count of the
  // instances it reaches.
  bool CounterWritten(BehaviourContext& context, RegisterId reg, uint64_t after) {
    bool written = false;
    for (size_t s = 0; s < slots_.size(); ++s) {
      const Config::Slot& slot = config_->slots[s];
      const Config::View* view = ViewOf(slot, reg);
      bool is_hi = slot.hi == reg;
      if (view == nullptr && !is_hi) continue;
      written = true;
      std::optional<InstanceRange> targets = Targets(context, slot.dims);
      if (!targets) {
        ReportBadSteering(context, reg, slot);
        Show(context, s);
        continue;
      }
      targets->ForEach(slot.dims, [&](uint32_t k) {
        if (config_->rule_write_while_counting && Counting(context, s, k)) {
          context.ReportViolation(ViolationKind::kProtocol, reg,
                                  "counter " + context.model().registers()[reg].name + " (slot " + slot.name +
                                      ") written while it counts: disable it first (clear its enable, or its global "
                                      "enable) (Intel SDM 18.2: clear EN before writing IA32_PMCx; Linux sets the "
                                      "period with the PMU disabled)");
        }
        uint64_t count = Count(context, s, k);
        if (is_hi) {
          count = (count & 0xFFFF'FFFF) | (after << 32);
        } else if (slot.hi != Config::kNone) {
          count = (count & ~uint64_t{0xFFFF'FFFF}) | (after & 0xFFFF'FFFF);
        } else if (view->sign_extend_32) {
          count = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(static_cast<uint32_t>(after))));
        } else {
          count = after;
        }
        count &= WidthMask(slot.width);
        SetCount(context, s, k, count);
        if (shared_->banked[s]) slots_[s].sampled[k] = count;
      });
      Show(context, s);
    }
    return written;
  }

  static const Config::View* ViewOf(const Config::Slot& slot, RegisterId reg) {
    if (slot.lo.reg == reg) return &slot.lo;
    for (const Config::View& view : slot.views) {
      if (view.reg == reg) return &view;
    }
    return nullptr;
  }

  // A write of a banked slot's select register: the instances it reaches take it.
  bool SelectWritten(BehaviourContext& context, RegisterId reg, uint64_t after) {
    bool written = false;
    for (size_t s = 0; s < slots_.size(); ++s) {
      const Config::Slot& slot = config_->slots[s];
      if (slot.select != reg || !shared_->banked[s]) continue;
      written = true;
      std::optional<InstanceRange> targets = Targets(context, slot.dims);
      if (!targets) {
        ReportBadSteering(context, reg, slot);
      } else {
        targets->ForEach(slot.dims, [&](uint32_t k) { slots_[s].select[k] = after; });
      }
      ReselectSlot(context, s);
      Show(context, s);
    }
    return written;
  }

  // The global control: DISABLE_AND_RESET zeroes every count, START counts,
  // STOP keeps; the sample bit latches the live counts.
  void Control(BehaviourContext& context, uint64_t before, uint64_t after) {
    const Config::Control& control = config_->control;
    uint64_t state = control.state.Get(after);
    if (state == control.reset_value) {
      Cover(context, shared_->points.reset);
      for (SlotState& slot : slots_) {
        std::fill(slot.live.begin(), slot.live.end(), 0);
        std::fill(slot.sampled.begin(), slot.sampled.end(), 0);
      }
      for (auto& window : window_) std::fill(window.begin(), window.end(), 0);
      started_ = false;
      sampled_since_start_ = false;
    } else if (state == control.start_value && control.state.Get(before) != control.start_value) {
      Cover(context, shared_->points.start);
      started_ = true;
      sampled_since_start_ = false;
    }
    if (control.sample.mask != 0 && control.sample.Get(after) != 0) {
      Cover(context, shared_->points.sample);
      for (SlotState& slot : slots_) slot.sampled = slot.live;
      sampled_since_start_ = true;
    }
    ShowAll(context);
  }

  // ---------------------------------------------------------- selection

  void ReselectSlot(BehaviourContext& context, size_t s) {
    const Config::Slot& slot = config_->slots[s];
    SlotState& state = slots_[s];
    for (uint32_t k = 0; k < state.selected.size(); ++k) {
      state.selected[k] = kNoEvent;
      if (slot.select == Config::kNone) {
        state.selected[k] = config_->events[slot.fixed_event].root;
        continue;
      }
      uint64_t select = shared_->banked[s] ? state.select[k] : context.Peek(slot.select);
      for (size_t e = 0; e < slot.matches.size() && state.selected[k] == kNoEvent; ++e) {
        for (const Config::Match& match : slot.matches[e]) {
          if ((select & match.mask) != match.value) continue;
          if (match.response_register != Config::kNone &&
              context.Peek(match.response_register) != *config_->events[e].response) {
            continue;
          }
          state.selected[k] = config_->events[e].root;
          break;
        }
      }
    }
  }
  void Reselect(BehaviourContext& context) {
    for (size_t s = 0; s < slots_.size(); ++s) ReselectSlot(context, s);
  }

  // --------------------------------------------------- interrupt, rules

  void UpdateInterrupt(BehaviourContext& context) {
    bool asserted = false;
    for (const Config::Slot& slot : config_->slots) {
      asserted |= Field(context, slot.status) != 0 && Field(context, slot.interrupt) != 0;
    }
    if (asserted && !interrupt_) Cover(context, shared_->points.interrupt);
    interrupt_ = asserted;
    context.SetInterrupt(asserted);
  }

  // A slot starting to count (this write turned it on) while its overflow
  // status, with its interrupt enabled, was never cleared: the driver
  // re-armed without acknowledging (Linux acks GLOBAL_STATUS through
  // GLOBAL_OVF_CTRL in every PMI before re-enabling).
  void CheckPendingOverflow(BehaviourContext& context, RegisterId reg, uint64_t before) {
    for (size_t s = 0; s < slots_.size(); ++s) {
      const Config::Slot& slot = config_->slots[s];
      if (Field(context, slot.status) == 0 || Field(context, s, 0, slot.interrupt) == 0) continue;
      if (Counting(context, s, 0, reg, before) || !Counting(context, s, 0)) continue;
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
  // Per root event, per instance:
  std::vector<std::vector<uint64_t>> rates_;        // milli-events per microsecond
  std::vector<std::vector<uint64_t>> remainders_;   // carried fraction, in 1e-6 events
  std::vector<std::vector<uint64_t>> occurrences_;  // scratch for one clock step
  std::vector<std::vector<uint64_t>> window_;       // occurrences while counting (control START), for metrics
  std::vector<regdb::ParsedMetric> parsed_;  // each metric parsed once, on the first Metric() (none: not yet)
  std::vector<uint32_t> rated_;                     // the root events with a rate (few): what a clock step counts
  std::vector<SlotState> slots_;
  bool user_mode_ = false;
  bool interrupt_ = false;            // the output as last driven, for coverage of its rising edge
  bool started_ = false;              // control: START since the last reset
  bool sampled_since_start_ = false;  // control: a sample since then
};

class EventCountersProgram : public BehaviourProgram {
 public:
  EventCountersProgram(std::string name, const Config& config)
      : BehaviourProgram("event-counters", std::move(name)) {
    shared_.config = config;
    shared_.latched = config.control.present() && config.control.sample.mask != 0;
    for (uint32_t e = 0; e < config.events.size(); ++e) shared_.event_index.emplace(config.events[e].name, e);
    auto hook = [](std::vector<RegisterId>& hooks, RegisterId reg) {
      if (reg != Config::kNone && std::find(hooks.begin(), hooks.end(), reg) == hooks.end()) hooks.push_back(reg);
    };
    std::vector<RegisterId>& writes = shared_.write_hooks;
    for (const Config::Slot& slot : config.slots) {
      bool banked = slot.dims.count() > 1 || shared_.latched;
      shared_.banked.push_back(banked);
      hook(writes, slot.select);
      hook(writes, slot.lo.reg);
      hook(writes, slot.hi);
      for (const Config::View& view : slot.views) hook(writes, view.reg);
      for (const Config::FieldOf* field : {&slot.enable, &slot.user, &slot.kernel, &slot.edge, &slot.invert,
                                           &slot.cmask, &slot.interrupt, &slot.global_enable, &slot.status_clear}) {
        hook(writes, field->reg);
      }
      if (shared_.latched && config.rule_read_without_sample) {
        hook(shared_.read_hooks, slot.lo.reg);
        hook(shared_.read_hooks, slot.hi);
      }
    }
    for (const Config::Response& response : config.responses) hook(writes, response.reg);
    hook(writes, config.steering.reg);
    hook(writes, config.control.reg);
    shared_.points = MakePoints(config, shared_.point_list);
  }

  std::vector<RegisterId> WriteHooks() const override { return shared_.write_hooks; }
  std::vector<RegisterId> ReadHooks() const override { return shared_.read_hooks; }
  std::vector<CoveragePoint> CoveragePoints() const override { return shared_.point_list; }
  std::vector<InjectForm> InjectForms() const override {
    std::vector<std::string> events;
    for (const auto& event : shared_.config.events) events.push_back(event.name);
    auto counted = [&](std::string verb, InjectArgument amount, std::string doc) {
      return InjectForm{std::move(verb),
                        {InjectArgument::Choice("NAME", events),
                         std::move(amount),
                         InjectArgument::Word("se").Optional(),
                         InjectArgument::Number("S"),
                         InjectArgument::Word("instance").Optional(),
                         InjectArgument::Number("I")},
                        0, 0,
                        std::move(doc)};
    };
    return {counted("event", InjectArgument::Number("COUNT"),
                    "COUNT occurrences of event NAME now, over its instances or the one given"),
            counted("event-rate", InjectArgument::Fraction("PER_US", kMaxRateMilli),
                    "event NAME from now on at PER_US per microsecond of virtual time (0 stops it)"),
            {"cpu-mode",
             {InjectArgument::Choice("", {"user", "kernel"})},
             0, 0,
             "the privilege the counted events happen at, for the counters' user and kernel filters"}};
  }
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
