// `kind: event-counters`: the check of a section (yaml/README.md
// "event-counters"): the event catalog, the slots (expanded from
// `count: N` templates, `{n}` standing for the element's number), the
// offcore response registers, the clocks and the protocol rules.
#include "regemu/regdb/behaviour_configs/event_counters.hpp"

#include <array>
#include <cctype>
#include <algorithm>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

using Config = EventCountersConfig;

std::string Substitute(std::string text, uint32_t n) {
  for (size_t at = text.find("{n}"); at != std::string::npos; at = text.find("{n}", at)) {
    text.replace(at, 3, std::to_string(n));
  }
  return text;
}

class Checker {
 public:
  Checker(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), db_(database), reader_(reader) {}

  std::unique_ptr<BehaviourConfig> Run() {
    static constexpr std::array<std::string_view, 13> kKeys{
        "kind",     "name",  "events",   "slots",   "responses", "rates",    "cycles",
        "cpu_mode", "rules", "steering", "control", "constants", "metrics"};
    if (!reader_.ExpectMap(spec_.yaml, "an event-counters behaviour", kKeys)) return nullptr;
    if (const YamlNode* events = reader_.Required(spec_.yaml, "events", What())) ReadEvents(*events);
    if (const YamlNode* responses = spec_.yaml.Find("responses")) ReadResponses(*responses);
    if (const YamlNode* steering = spec_.yaml.Find("steering")) ReadSteering(*steering);
    if (const YamlNode* control = spec_.yaml.Find("control")) ReadControl(*control);
    if (const YamlNode* slots = reader_.Required(spec_.yaml, "slots", What())) ReadSlots(*slots);
    SetEventDims();
    if (const YamlNode* rates = spec_.yaml.Find("rates")) ReadRates(*rates);
    if (const YamlNode* cycles = spec_.yaml.Find("cycles")) config_->cycles_event = EventNamed(*cycles);
    if (const YamlNode* mode = spec_.yaml.Find("cpu_mode")) {
      config_->starts_in_user_mode = reader_.Choice<bool>(*mode, "cpu_mode", {{"kernel", false}, {"user", true}}).value_or(false);
    }
    if (const YamlNode* rules = spec_.yaml.Find("rules")) ReadRules(*rules);
    if (const YamlNode* constants = spec_.yaml.Find("constants")) ReadConstants(*constants);
    if (const YamlNode* metrics = spec_.yaml.Find("metrics")) ReadMetrics(*metrics);
    return std::move(config_);
  }

 private:
  std::string What() const { return "event-counters behaviour '" + spec_.name + "'"; }

  // ------------------------------------------------------------ catalog

  void ReadEvents(const YamlNode& events) {
    static constexpr std::array<std::string_view, 9> kKeys{"name",    "block", "select", "fixed", "response",
                                                           "same_as", "unit",  "doc",    "ref"};
    if (!reader_.ExpectSequence(events, "events")) return;
    std::vector<std::pair<uint32_t, const YamlNode*>> same_as;  // (event, its same_as)
    for (const YamlNode& node : events.children) {
      if (!reader_.ExpectMap(node, "an event", kKeys)) continue;
      Config::Event event;
      if (const YamlNode* name = reader_.Required(node, "name", "event")) {
        event.name = reader_.Text(*name, "event name").value_or("");
        if (!IsEventName(event.name)) {
          reader_.Error(*name, "event name '" + event.name + "' must be letters, digits, '_' and '.'");
        } else if (!index_.emplace(event.name, static_cast<uint32_t>(config_->events.size())).second) {
          reader_.Error(*name, "event '" + event.name + "' is listed twice");
        }
      }
      if (const YamlNode* block = node.Find("block")) event.block = reader_.Identifier(*block, "block").value_or("");
      if (const YamlNode* select = node.Find("select")) event.select = ReadFieldValues(*select, "select");
      // `fixed: N`: wired to fixed counter N (a slot names it with `event`).
      if (const YamlNode* fixed = node.Find("fixed")) {
        auto counter = reader_.Unsigned(*fixed, "fixed counter number", 0, 63);
        event.fixed = counter.has_value();
        event.fixed_counter = static_cast<uint32_t>(counter.value_or(0));
      }
      if (event.fixed && !event.select.empty()) {
        reader_.Error(node, "event '" + event.name + "' is `fixed` (counted by a slot naming it) and has a `select`");
      }
      if (const YamlNode* response = node.Find("response")) event.response = reader_.Unsigned(*response, "response");
      if (const YamlNode* other = node.Find("same_as")) {
        same_as.emplace_back(static_cast<uint32_t>(config_->events.size()), other);
      }
      if (const YamlNode* unit = node.Find("unit")) event.unit = reader_.Text(*unit, "unit").value_or("");
      if (const YamlNode* doc = node.Find("doc")) event.doc = reader_.Text(*doc, "doc").value_or("");
      if (const YamlNode* ref = node.Find("ref")) event.ref = reader_.Text(*ref, "ref").value_or("");
      config_->events.push_back(std::move(event));
    }
    // Roots: an event `same_as` another counts that one's occurrences.
    for (uint32_t i = 0; i < config_->events.size(); ++i) config_->events[i].root = i;
    for (const auto& [self, node] : same_as) {
      std::optional<uint32_t> target = EventNamed(*node);
      if (!target) continue;
      if (*target == self || HasSameAs(*target, same_as)) {
        reader_.Error(*node, "`same_as` must name another event that is not itself `same_as` one");
        continue;
      }
      config_->events[self].root = *target;
    }
  }

  // Whether `event` is itself `same_as` another (one level only).
  static bool HasSameAs(uint32_t event, const std::vector<std::pair<uint32_t, const YamlNode*>>& same_as) {
    for (const auto& entry : same_as) {
      if (entry.first == event) return true;
    }
    return false;
  }

  static bool IsEventName(std::string_view name) {
    if (name.empty()) return false;
    for (char c : name) {
      if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
    }
    return true;
  }

  std::optional<uint32_t> EventNamed(const YamlNode& node) {
    auto name = reader_.Text(node, "event");
    if (!name) return std::nullopt;
    if (auto it = index_.find(*name); it != index_.end()) return it->second;
    std::vector<std::string_view> names = NamesOf(config_->events);
    reader_.Error(node, What() + " names unknown event '" + *name + "'" + DidYouMean(*name, names));
    return std::nullopt;
  }

  std::vector<std::pair<std::string, uint64_t>> ReadFieldValues(const YamlNode& map, std::string_view what) {
    std::vector<std::pair<std::string, uint64_t>> out;
    if (!map.IsMap()) {
      reader_.Error(map, std::string(what) + " must be a mapping of field names to values");
      return out;
    }
    for (size_t i = 0; i < map.MapSize(); ++i) {
      auto field = reader_.Identifier(map.MapKey(i), "field name");
      auto value = reader_.Unsigned(map.MapValue(i), "field value");
      if (field && value) out.emplace_back(*field, *value);
    }
    return out;
  }

  // -------------------------------------------------------------- slots

  void ReadSlots(const YamlNode& slots) {
    if (!reader_.ExpectSequence(slots, "slots")) return;
    for (const YamlNode& node : slots.children) ReadSlotTemplate(node);
  }

  void ReadSlotTemplate(const YamlNode& node) {
    static constexpr std::array<std::string_view, 23> kKeys{
        "name",   "count",     "start",         "block",  "instances",    "select",   "event",   "counter",
        "counter_write", "views", "width",      "enable", "user",         "kernel",   "edge",    "invert",
        "cmask",  "interrupt", "global_enable", "status", "status_clear", "doc",      "ref"};
    if (!reader_.ExpectMap(node, "a slot", kKeys)) return;
    uint32_t count = 1;
    uint32_t start = 0;
    if (const YamlNode* n = node.Find("count")) count = static_cast<uint32_t>(reader_.Unsigned(*n, "count", 1, 64).value_or(1));
    if (const YamlNode* n = node.Find("start")) start = static_cast<uint32_t>(reader_.Unsigned(*n, "start", 0, 1024).value_or(0));
    const YamlNode* name = reader_.Required(node, "name", "slot");
    if (!name) return;
    auto name_text = reader_.Text(*name, "slot name");
    if (!name_text) return;
    if (count > 1 && name_text->find("{n}") == std::string::npos) {
      reader_.Error(*name, "a slot with `count` needs `{n}` in its name");
      return;
    }
    for (uint32_t i = 0; i < count; ++i) ReadSlot(node, Substitute(*name_text, start + i), start + i, i);
  }

  void ReadSlot(const YamlNode& node, std::string name, uint32_t n, uint32_t element) {
    Config::Slot slot;
    slot.name = std::move(name);
    if (const YamlNode* block = node.Find("block")) slot.block = reader_.Identifier(*block, "block").value_or("");
    if (const YamlNode* instances = node.Find("instances")) slot.dims = ReadDims(*instances, slot);
    for (const Config::Slot& other : config_->slots) {
      if (other.name == slot.name) reader_.Error(*node.Find("name"), "slot '" + slot.name + "' is defined twice");
    }
    const Register* select = nullptr;
    if (const YamlNode* s = node.Find("select")) {
      select = RegisterAt(*s, n);
      if (select) slot.select = db_.IndexOf(*select);
    }
    if (const YamlNode* e = node.Find("event")) {
      const YamlNode* item = e;
      if (e->IsSequence()) {
        if (element >= e->children.size()) {
          reader_.Error(*e, "slot '" + slot.name + "': `event` lists fewer events than `count`");
          item = nullptr;
        } else {
          item = &e->children[element];
        }
      }
      if (item) {
        if (auto event = EventNamed(*item)) {
          slot.fixed_event = *event;
          if (!config_->events[*event].fixed) reader_.Error(*item, "event '" + config_->events[*event].name + "' is not a fixed event (`fixed: N`)");
        }
      }
      if (select) reader_.Error(*e, "slot '" + slot.name + "' has both a `select` register and a fixed `event`");
    } else if (!select) {
      reader_.Error(node, "slot '" + slot.name + "' needs a `select` register or a fixed `event`");
    }
    if (const YamlNode* c = reader_.Required(node, "counter", "slot")) ReadCounter(*c, n, slot);
    if (const YamlNode* w = node.Find("counter_write")) {
      slot.lo.sign_extend_32 =
          reader_.Choice<bool>(*w, "counter_write", {{"full", false}, {"sign-extend-32", true}}).value_or(false);
    }
    if (const YamlNode* views = node.Find("views")) {
      if (reader_.ExpectSequence(*views, "views")) {
        for (const YamlNode& v : views->children) {
          if (const Register* reg = RegisterAt(v, n)) slot.views.push_back({db_.IndexOf(*reg), false});
        }
      }
    }
    unsigned max_width = slot.hi != Config::kNone ? 64 : (slot.lo.reg != Config::kNone ? db_.registers[slot.lo.reg].width : 64);
    slot.width = max_width;
    if (const YamlNode* w = node.Find("width")) slot.width = static_cast<unsigned>(reader_.Unsigned(*w, "width", 1, max_width).value_or(max_width));
    struct Role {
      std::string_view key;
      Config::FieldOf Config::Slot::*member;
    };
    static constexpr std::array<Role, 10> kRoles{{{"enable", &Config::Slot::enable},
                                                  {"user", &Config::Slot::user},
                                                  {"kernel", &Config::Slot::kernel},
                                                  {"edge", &Config::Slot::edge},
                                                  {"invert", &Config::Slot::invert},
                                                  {"cmask", &Config::Slot::cmask},
                                                  {"interrupt", &Config::Slot::interrupt},
                                                  {"global_enable", &Config::Slot::global_enable},
                                                  {"status", &Config::Slot::status},
                                                  {"status_clear", &Config::Slot::status_clear}}};
    for (const Role& role : kRoles) {
      if (const YamlNode* f = node.Find(role.key)) slot.*role.member = FieldAt(*f, n, select, role.key);
    }
    if (slot.status_clear.present() && !slot.status.present()) {
      reader_.Error(*node.Find("status_clear"), "slot '" + slot.name + "' has `status_clear` but no `status`");
    }
    ResolveMatches(slot, select);
    config_->slots.push_back(std::move(slot));
  }

  void ReadCounter(const YamlNode& node, uint32_t n, Config::Slot& slot) {
    if (node.IsMap()) {
      static constexpr std::array<std::string_view, 2> kKeys{"lo", "hi"};
      if (!reader_.ExpectMap(node, "a LO/HI counter pair", kKeys)) return;
      const YamlNode* lo = reader_.Required(node, "lo", "counter pair");
      const YamlNode* hi = reader_.Required(node, "hi", "counter pair");
      if (!lo || !hi) return;
      const Register* lo_reg = RegisterAt(*lo, n);
      const Register* hi_reg = RegisterAt(*hi, n);
      if (!lo_reg || !hi_reg) return;
      if (lo_reg->width != 32 || hi_reg->width != 32) reader_.Error(node, "a LO/HI counter pair is two 32-bit registers");
      slot.lo.reg = db_.IndexOf(*lo_reg);
      slot.hi = db_.IndexOf(*hi_reg);
      return;
    }
    if (const Register* reg = RegisterAt(node, n)) slot.lo.reg = db_.IndexOf(*reg);
  }

  const Register* RegisterAt(const YamlNode& node, uint32_t n) {
    auto text = reader_.Text(node, "register");
    if (!text) return nullptr;
    return RegisterNamedAt(node, Substitute(*text, n), What(), db_, reader_);
  }

  // `FIELD` (of the slot's select register) or `REGISTER.FIELD`.
  Config::FieldOf FieldAt(const YamlNode& node, uint32_t n, const Register* select, std::string_view role) {
    Config::FieldOf out;
    auto text = reader_.Text(node, role);
    if (!text) return out;
    std::string ref = Substitute(*text, n);
    const Register* reg = select;
    std::string field_name = ref;
    if (size_t dot = ref.find('.'); dot != std::string::npos) {
      field_name = ref.substr(dot + 1);
      reg = RegisterNamedAt(node, ref.substr(0, dot), What(), db_, reader_);
      if (!reg) return out;
    } else if (!reg) {
      reader_.Error(node, "`" + std::string(role) + ": " + ref + "` names a field of the select register, and this slot has none; write REGISTER.FIELD");
      return out;
    }
    const Field* field = FieldNamedAt(node, *reg, field_name, reader_);
    if (!field) return out;
    out.reg = db_.IndexOf(*reg);
    out.bits = FieldBits::Of(field->mask());
    return out;
  }

  // Per event, the ways the slot's select picks it (none: it cannot).
  void ResolveMatches(Config::Slot& slot, const Register* select) {
    slot.matches.resize(config_->events.size());
    if (!select) return;
    for (size_t e = 0; e < config_->events.size(); ++e) {
      const Config::Event& event = config_->events[e];
      if (event.fixed || event.select.empty() || event.block != slot.block) continue;
      if (!event.response) {
        if (auto match = MatchOf(*select, event.select)) slot.matches[e].push_back(*match);
        continue;
      }
      // An offcore event: the select's fields that pick a response register
      // (`when`) come from each response entry instead of the catalog.
      for (const Config::Response& response : config_->responses) {
        std::vector<std::pair<std::string, uint64_t>> fields = response.when;
        for (const auto& field : event.select) {
          bool in_when = false;
          for (const auto& w : response.when) in_when |= w.first == field.first;
          if (!in_when) fields.push_back(field);
        }
        if (auto match = MatchOf(*select, fields)) {
          match->response_register = response.reg;
          slot.matches[e].push_back(*match);
        }
      }
    }
  }

  // The (mask, value) selecting `fields` in `select`; none when a field is
  // missing or its value does not fit (the slot cannot count the event).
  static std::optional<Config::Match> MatchOf(const Register& select,
                                              const std::vector<std::pair<std::string, uint64_t>>& fields) {
    Config::Match match;
    for (const auto& [field_name, value] : fields) {
      const Field* field = select.FindField(field_name);
      if (!field || value > (field->mask() >> field->bits.lsb)) return std::nullopt;
      match.mask |= field->mask();
      match.value |= value << field->bits.lsb;
    }
    return match;
  }

  void ReadResponses(const YamlNode& responses) {
    static constexpr std::array<std::string_view, 2> kKeys{"when", "register"};
    if (!reader_.ExpectSequence(responses, "responses")) return;
    for (const YamlNode& node : responses.children) {
      if (!reader_.ExpectMap(node, "a response register", kKeys)) continue;
      Config::Response response;
      if (const YamlNode* when = reader_.Required(node, "when", "response register")) response.when = ReadFieldValues(*when, "when");
      if (const YamlNode* reg = reader_.Required(node, "register", "response register")) {
        if (const Register* r = RegisterAt(*reg, 0)) response.reg = db_.IndexOf(*r);
      }
      config_->responses.push_back(std::move(response));
    }
  }

  Config::Dims ReadDims(const YamlNode& node, const Config::Slot& slot) {
    static constexpr std::array<std::string_view, 2> kKeys{"se", "instance"};
    Config::Dims dims;
    if (!reader_.ExpectMap(node, "slot instances", kKeys)) return dims;
    if (const YamlNode* se = node.Find("se")) dims.se = static_cast<uint32_t>(reader_.Unsigned(*se, "SEs", 1, 256).value_or(1));
    if (const YamlNode* n = node.Find("instance")) {
      dims.instance = static_cast<uint32_t>(reader_.Unsigned(*n, "instances", 1, 256).value_or(1));
    }
    if (dims.count() > 1 && !config_->steering.present()) {
      reader_.Error(node, "slot '" + slot.name + "' has instances but the behaviour has no `steering` register to reach them");
    }
    return dims;
  }

  // `{register: R, se: FIELD, instance: FIELD, se_broadcast: FIELD, instance_broadcast: FIELD}`
  void ReadSteering(const YamlNode& node) {
    static constexpr std::array<std::string_view, 5> kKeys{"register", "se", "instance", "se_broadcast",
                                                           "instance_broadcast"};
    if (!reader_.ExpectMap(node, "steering", kKeys)) return;
    const YamlNode* reg_node = reader_.Required(node, "register", "steering");
    const Register* reg = reg_node ? RegisterAt(*reg_node, 0) : nullptr;
    if (!reg) return;
    Config::Steering& steering = config_->steering;
    steering.reg = db_.IndexOf(*reg);
    struct Role {
      std::string_view key;
      FieldBits Config::Steering::*member;
    };
    static constexpr std::array<Role, 4> kRoles{{{"se", &Config::Steering::se},
                                                 {"instance", &Config::Steering::instance},
                                                 {"se_broadcast", &Config::Steering::se_broadcast},
                                                 {"instance_broadcast", &Config::Steering::instance_broadcast}}};
    for (const Role& role : kRoles) {
      if (const YamlNode* f = reader_.Required(node, role.key, "steering")) {
        Config::FieldOf field = FieldAt(*f, 0, reg, role.key);
        steering.*role.member = field.bits;
      }
    }
  }

  // `{register: R, state: FIELD, sample: FIELD, reset: N, start: N, stop: N}`
  void ReadControl(const YamlNode& node) {
    static constexpr std::array<std::string_view, 6> kKeys{"register", "state", "sample", "reset", "start", "stop"};
    if (!reader_.ExpectMap(node, "control", kKeys)) return;
    const YamlNode* reg_node = reader_.Required(node, "register", "control");
    const Register* reg = reg_node ? RegisterAt(*reg_node, 0) : nullptr;
    if (!reg) return;
    Config::Control& control = config_->control;
    control.reg = db_.IndexOf(*reg);
    if (const YamlNode* f = reader_.Required(node, "state", "control")) control.state = FieldAt(*f, 0, reg, "state").bits;
    if (const YamlNode* f = node.Find("sample")) control.sample = FieldAt(*f, 0, reg, "sample").bits;
    if (const YamlNode* v = node.Find("reset")) control.reset_value = reader_.Unsigned(*v, "reset state").value_or(0);
    if (const YamlNode* v = node.Find("start")) control.start_value = reader_.Unsigned(*v, "start state").value_or(1);
    if (const YamlNode* v = node.Find("stop")) control.stop_value = reader_.Unsigned(*v, "stop state").value_or(2);
  }

  // Every slot of a block has the block's instances; its events get them.
  void SetEventDims() {
    std::unordered_map<std::string, const Config::Slot*> first_of_block;
    for (const Config::Slot& slot : config_->slots) {
      auto [it, inserted] = first_of_block.emplace(slot.block, &slot);
      if (!inserted && !(it->second->dims == slot.dims)) {
        reader_.Error(spec_.yaml, "slots '" + it->second->name + "' and '" + slot.name + "' of block '" + slot.block +
                                      "' have different instances: a block's slots all have the same");
      }
    }
    for (Config::Event& event : config_->events) {
      if (auto it = first_of_block.find(event.block); it != first_of_block.end()) {
        event.dims = it->second->dims;
      } else if (!event.block.empty()) {
        std::vector<std::string_view> blocks;
        for (const auto& [name, slot] : first_of_block) blocks.push_back(name);
        reader_.Error(spec_.yaml, "event '" + event.name + "' is of block '" + event.block + "', which no slot has" +
                                      DidYouMean(event.block, blocks));
      }
    }
    for (const Config::Event& event : config_->events) {
      if (!(event.dims == config_->events[event.root].dims)) {
        reader_.Error(spec_.yaml, "event '" + event.name + "' is `same_as` '" + config_->events[event.root].name +
                                      "', of a block with other instances");
      }
    }
  }

  void ReadConstants(const YamlNode& constants) {
    if (!constants.IsMap()) {
      reader_.Error(constants, "`constants` must map names (CU_NUM, ...) to numbers");
      return;
    }
    for (size_t i = 0; i < constants.MapSize(); ++i) {
      auto name = reader_.Identifier(constants.MapKey(i), "constant name");
      auto value = reader_.Unsigned(constants.MapValue(i), "constant value");
      if (!name || !value) continue;
      if (index_.contains(*name)) {
        reader_.Error(constants.MapKey(i), "constant '" + *name + "' has an event's name");
        continue;
      }
      config_->constants.emplace_back(*name, *value);
    }
  }

  // `metrics: [{name:, expr:, unit:, doc:, ref:}]`, each over events,
  // earlier metrics and constants.
  void ReadMetrics(const YamlNode& metrics) {
    static constexpr std::array<std::string_view, 5> kKeys{"name", "expr", "unit", "doc", "ref"};
    if (!reader_.ExpectSequence(metrics, "metrics")) return;
    for (const YamlNode& node : metrics.children) {
      if (!reader_.ExpectMap(node, "a metric", kKeys)) continue;
      Config::Metric metric;
      const YamlNode* name = reader_.Required(node, "name", "metric");
      const YamlNode* expr = reader_.Required(node, "expr", "metric");
      if (!name || !expr) continue;
      auto name_text = reader_.Identifier(*name, "metric name");
      auto expr_text = reader_.Text(*expr, "metric expression");
      if (!name_text || !expr_text) continue;
      metric.name = *name_text;
      if (index_.contains(metric.name) || MetricIndex(metric.name) || ConstantIndex(metric.name)) {
        reader_.Error(*name, "metric '" + metric.name + "' has the name of an event, a constant or an earlier metric");
        continue;
      }
      metric.expression = *expr_text;
      if (const YamlNode* unit = node.Find("unit")) metric.unit = reader_.Text(*unit, "unit").value_or("");
      if (const YamlNode* doc = node.Find("doc")) metric.doc = reader_.Text(*doc, "doc").value_or("");
      if (const YamlNode* ref = node.Find("ref")) metric.ref = reader_.Text(*ref, "ref").value_or("");
      if (ResolveMetric(*expr, metric)) config_->metrics.push_back(std::move(metric));
    }
  }

  bool ResolveMetric(const YamlNode& expr, Config::Metric& metric) {
    RewrittenExpression rewritten = RewriteAggregates(metric.expression);
    metric.text = rewritten.text;
    std::vector<std::string> known;
    for (const MetricAggregate& aggregate : rewritten.aggregates) {
      auto it = index_.find(aggregate.event);
      if (it == index_.end()) {
        reader_.Error(expr, "metric '" + metric.name + "' reduces unknown event '" + aggregate.event + "'" +
                                DidYouMean(aggregate.event, NamesOf(config_->events)));
        return false;
      }
      const Config::Dims& dims = config_->events[it->second].dims;
      if (aggregate.count == 0 || aggregate.count > dims.instance) {
        reader_.Error(expr, "metric '" + metric.name + "' reduces " + aggregate.event + " over " +
                                std::to_string(aggregate.count) + " instances; its block has " +
                                std::to_string(dims.instance) + " (per SE)");
        return false;
      }
      metric.aggregates.push_back(aggregate);
      metric.aggregate_events.push_back(it->second);
      known.push_back(aggregate.variable);
    }
    // The names the text uses: events (their sum), earlier metrics, constants.
    static const std::regex kName(R"([A-Za-z_][A-Za-z0-9_]*)");
    for (auto it = std::sregex_iterator(metric.text.begin(), metric.text.end(), kName); it != std::sregex_iterator();
         ++it) {
      std::string name = it->str();
      if (std::find(known.begin(), known.end(), name) != known.end()) continue;
      if (auto event = index_.find(name); event != index_.end()) {
        metric.events.push_back(event->second);
      } else if (auto earlier = MetricIndex(name)) {
        metric.metrics.push_back(*earlier);
      } else if (auto constant = ConstantIndex(name)) {
        metric.constants.push_back(*constant);
      } else {
        continue;  // a function name, or unknown: muParser says which below
      }
      known.push_back(name);
    }
    if (!KnownNamesOnly(expr, metric)) return false;
    if (std::optional<MetricSyntaxError> error = CheckExpression(metric.text, known)) {
      reader_.diagnostics().Error(At(expr, rewritten.OriginalPosition(error->position)),
                                  "metric '" + metric.name + "': " + error->message +
                                      " (names: events, earlier metrics, constants; sum/avr/max/min(EVENT,N))");
      return false;
    }
    return true;
  }

  // Every name of the expression as written is an event, an earlier metric,
  // a constant, or muParser's own (a function called, _pi, _e): else an
  // error at its column with the closest name.
  bool KnownNamesOnly(const YamlNode& expr, const Config::Metric& metric) {
    static const std::regex kName(R"([A-Za-z_][A-Za-z0-9_]*)");
    const std::string& text = metric.expression;
    bool ok = true;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), kName); it != std::sregex_iterator(); ++it) {
      auto at = static_cast<size_t>(it->position());
      // The letters of a number: 1e3, 0x1F.
      if (at > 0 && (std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '.')) continue;
      std::string name = it->str();
      if (index_.contains(name) || MetricIndex(name) || ConstantIndex(name) || IsBuiltinConstant(name)) continue;
      size_t next = text.find_first_not_of(" \t", at + name.size());
      bool called = next != std::string::npos && text[next] == '(';
      if (called && (IsBuiltinFunction(name) || name == "avr")) continue;
      std::vector<std::string_view> candidates;
      for (const auto& event : config_->events) candidates.push_back(event.name);
      for (const auto& earlier : config_->metrics) candidates.push_back(earlier.name);
      for (const auto& constant : config_->constants) candidates.push_back(constant.first);
      reader_.diagnostics().Error(At(expr, at), "metric '" + metric.name + "': unknown name '" + name + "'" +
                                                    DidYouMean(name, candidates) +
                                                    " (names: events, earlier metrics, constants)");
      ok = false;
    }
    return ok;
  }

  // Where position `at` of a one-line scalar is in the file; a scalar over
  // several lines lost its layout, so its start.
  static SourceLoc At(const YamlNode& node, size_t at) {
    SourceLoc loc = node.loc;
    if (loc.known() && node.text.find('\n') == std::string::npos) {
      loc.column += static_cast<uint32_t>(at + (node.quoted ? 1 : 0));
    }
    return loc;
  }

  std::optional<uint32_t> MetricIndex(const std::string& name) const {
    for (uint32_t i = 0; i < config_->metrics.size(); ++i) {
      if (config_->metrics[i].name == name) return i;
    }
    return std::nullopt;
  }
  std::optional<uint32_t> ConstantIndex(const std::string& name) const {
    for (uint32_t i = 0; i < config_->constants.size(); ++i) {
      if (config_->constants[i].first == name) return i;
    }
    return std::nullopt;
  }

  void ReadRates(const YamlNode& rates) {
    if (!rates.IsMap()) {
      reader_.Error(rates, "`rates` must map event names to events per microsecond");
      return;
    }
    for (size_t i = 0; i < rates.MapSize(); ++i) {
      std::optional<uint32_t> event = EventNamed(rates.MapKey(i));
      auto per_us = reader_.Unsigned(rates.MapValue(i), "events per microsecond", 0, 1'000'000'000);
      if (event && per_us) config_->rates.emplace_back(*event, *per_us * 1000);
    }
  }

  void ReadRules(const YamlNode& rules) {
    if (!reader_.ExpectSequence(rules, "rules")) return;
    for (const YamlNode& node : rules.children) {
      auto rule = reader_.Choice<int>(node, "rule",
                                      {{"write-while-counting", 0}, {"enable-with-pending-overflow", 1}, {"read-without-sample", 2}});
      if (rule == 0) config_->rule_write_while_counting = true;
      if (rule == 1) config_->rule_enable_with_pending_overflow = true;
      if (rule == 2) config_->rule_read_without_sample = true;
    }
  }

  const BehaviourSpec& spec_;
  const Database& db_;
  SchemaReader& reader_;
  std::unique_ptr<Config> config_ = std::make_unique<Config>();
  std::unordered_map<std::string, uint32_t> index_;
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckEventCountersConfig(const BehaviourSpec& spec, const Database& database,
                                                          SchemaReader& reader) {
  return Checker(spec, database, reader).Run();
}

}  // namespace regemu::regdb
