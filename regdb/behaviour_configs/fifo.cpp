// `kind: fifo`: the check of a FIFO and the streams it connects to
// (yaml/README.md, "kind: fifo").
#include "regemu/regdb/behaviour_configs/fifo.hpp"

#include <algorithm>
#include <array>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 18> kKeys{"kind",  "name",  "depth",    "width",        "push",  "input",
                                                 "arrive", "pop",  "drain",    "to",           "level", "flags",
                                                 "overrun", "overrun_rule", "overrun_replaces", "clear", "doc",    "ref"};
constexpr std::array<std::string_view, 3> kRateKeys{"clock", "ticks", "doc"};
constexpr std::array<std::string_view, 5> kRouteKeys{"stream", "fifo", "bus", "when", "doc"};
constexpr std::array<std::string_view, 3> kFlagKeys{"field", "when", "doc"};
constexpr std::array<std::string_view, 4> kClearKeys{"write", "event", "when", "doc"};
// A FIFO deeper than this is a memory, not a FIFO.
constexpr uint64_t kMaxDepth = 1u << 16;

// What a FIFO's expressions may name: registers and fields, and by place
// `level`, `depth`, `busy` and (in a clear condition) `value`.
class FifoScope : public RegisterScope {
 public:
  enum class Names : uint8_t { kRegisters, kState, kWrite };
  FifoScope(const Database& database, Names names) : RegisterScope(database), names_(names) {}

  std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
    if (names_ != Names::kRegisters) {
      if (name == "level") return ExpressionOperand{kFifoLevel, 32, ExpressionType::kNumber};
      if (name == "depth") return ExpressionOperand{kFifoDepth, 32, ExpressionType::kNumber};
      if (name == "busy") return ExpressionOperand{kFifoBusy, 1, ExpressionType::kNumber};
    }
    if (names_ == Names::kWrite && name == "value") return ExpressionOperand{kFifoValue, 64, ExpressionType::kNumber};
    return RegisterScope::Resolve(name);
  }

  std::vector<std::string> Candidates(std::string_view name) const override {
    std::vector<std::string> names = RegisterScope::Candidates(name);
    if (names_ != Names::kRegisters) names.insert(names.end(), {"level", "depth", "busy"});
    if (names_ == Names::kWrite) names.emplace_back("value");
    return names;
  }

 private:
  Names names_;
};

class FifoChecker {
 public:
  FifoChecker(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader), what_("fifo behaviour '" + spec.name + "'") {}

  std::unique_ptr<BehaviourConfig> Check() {
    if (!reader_.ExpectMap(spec_.yaml, "a fifo behaviour", kKeys)) return nullptr;
    auto config = std::make_unique<FifoConfig>();
    config_ = config.get();
    if (const YamlNode* ref = spec_.yaml.Find("ref")) config->ref = reader_.Text(*ref, "ref").value_or("");
    FifoScope registers(database_, FifoScope::Names::kRegisters);
    FifoScope state(database_, FifoScope::Names::kState);
    FifoScope write(database_, FifoScope::Names::kWrite);

    if (const YamlNode* depth = reader_.Required(spec_.yaml, "depth", what_)) {
      if (auto expression = Number(*depth, registers, "`depth` of " + what_)) {
        if (expression->constant() && (expression->max_value() == 0 || expression->max_value() > kMaxDepth)) {
          reader_.Error(*depth, "`depth` of " + what_ + " is " + std::to_string(expression->max_value()) +
                                    ": a FIFO holds 1 to " + std::to_string(kMaxDepth) + " entries");
        } else {
          Watch(*expression);
          config->depth = std::move(*expression);
        }
      }
    }
    if (const YamlNode* width = spec_.yaml.Find("width")) config->width = reader_.Width(*width, "width").value_or(8);
    if (const YamlNode* push = spec_.yaml.Find("push")) config->push = Bits(*push, "`push` of " + what_);
    if (const YamlNode* input = spec_.yaml.Find("input")) config->input = database_.ScopedName(reader_.Identifier(*input, "input").value_or(""));
    if (const YamlNode* arrive = spec_.yaml.Find("arrive")) {
      if (config->input.empty()) reader_.Error(*arrive, "`arrive` of " + what_ + " paces an `input` stream: name one");
      config->arrive = Rate(*arrive, registers, "`arrive` of " + what_);
    }
    if (const YamlNode* pop = spec_.yaml.Find("pop")) config->pop = Bits(*pop, "`pop` of " + what_);
    if (const YamlNode* drain = spec_.yaml.Find("drain")) config->drain = Rate(*drain, registers, "`drain` of " + what_);
    if (const YamlNode* to = spec_.yaml.Find("to")) {
      if (!spec_.yaml.Find("drain")) reader_.Error(*to, "`to` of " + what_ + " says where drained entries go: give `drain`");
      ReadRoutes(*to, registers);
    } else if (config->drain) {
      reader_.Error(*spec_.yaml.Find("drain"), what_ + " drains entries but has no `to:` saying where they go");
    }
    if (!config->push && config->input.empty() && !FedByAnother()) {
      reader_.Error(spec_.yaml, what_ + " has no way in: give `push: REGISTER` or `input: STREAM`, or name it in "
                                        "another fifo's `to: [{fifo: " + spec_.name + "}]` or an i2c-bus's `receive:`");
    }
    if (!config->pop && !config->drain) {
      reader_.Error(spec_.yaml, what_ + " has no way out: give `pop: REGISTER` or `drain:` with `to:`");
    }
    if (const YamlNode* level = spec_.yaml.Find("level")) config->level = Bits(*level, "`level` of " + what_);
    if (const YamlNode* flags = spec_.yaml.Find("flags"); flags && reader_.ExpectSequence(*flags, "flags")) {
      for (const YamlNode& item : flags->children) ReadFlag(item, state);
    }
    if (const YamlNode* overrun = spec_.yaml.Find("overrun")) config->overrun = Bits(*overrun, "`overrun` of " + what_);
    if (const YamlNode* replaces = spec_.yaml.Find("overrun_replaces")) {
      if (auto expression = Number(*replaces, registers, "`overrun_replaces` of " + what_)) {
        Watch(*expression);
        config->overrun_replaces = std::move(*expression);
      }
    }
    if (const YamlNode* rule = spec_.yaml.Find("overrun_rule")) {
      config->overrun_rule = reader_.Text(*rule, "overrun_rule").value_or("");
      if (!config->push) reader_.Error(*rule, "`overrun_rule` of " + what_ + " is about the driver's `push`: give one");
    }
    if (const YamlNode* clear = spec_.yaml.Find("clear"); clear && reader_.ExpectSequence(*clear, "clear")) {
      for (const YamlNode& item : clear->children) ReadClear(item, write);
    }
    return config;
  }

 private:
  std::optional<Expression> Typed(const YamlNode& node, const ExpressionScope& scope, const std::string& what,
                                  ExpressionType type) {
    return ParseTypedExpression(node, scope, reader_, what, type, "86us, 16 * DLL * 542ns");
  }
  std::optional<Expression> Number(const YamlNode& node, const ExpressionScope& scope, const std::string& what) {
    return Typed(node, scope, what, ExpressionType::kNumber);
  }

  // Whether another behaviour delivers into this FIFO: a fifo draining
  // into it, or an i2c-bus receiving into it (their own checks resolve the
  // names; this only looks for this FIFO's).
  bool FedByAnother() const {
    for (const BehaviourSpec& other : database_.behaviours) {
      if (&other == &spec_) continue;
      if (other.kind == "i2c-bus") {
        if (const YamlNode* receive = other.yaml.Find("receive"); receive && receive->text == spec_.name) return true;
      } else if (other.kind == "fifo") {
        const YamlNode* to = other.yaml.Find("to");
        if (to == nullptr || !to->IsSequence()) continue;
        for (const YamlNode& route : to->children) {
          const YamlNode* fifo = route.IsMap() ? route.Find("fifo") : nullptr;
          if (fifo && fifo->text == spec_.name) return true;
        }
      }
    }
    return false;
  }

  std::optional<RegisterBits> Bits(const YamlNode& node, const std::string& what) {
    return ResolveRegisterBits(node, what, database_, reader_);
  }

  // The registers an expression reads: their writes recompute the flags.
  void Watch(const Expression& expression) {
    for (uint64_t id : expression.operands()) {
      if ((id & kFifoNameOperand) != 0 && !IsFieldOperand(id)) continue;
      RegisterIndex reg = OperandRegister(id);
      auto& watched = config_->watched;
      if (std::find(watched.begin(), watched.end(), reg) == watched.end()) watched.push_back(reg);
    }
  }

  std::optional<FifoRate> Rate(const YamlNode& node, const ExpressionScope& scope, const std::string& what) {
    FifoRate rate;
    if (!node.IsMap()) {
      rate.time = Typed(node, scope, what, ExpressionType::kTime);
      if (!rate.time) return std::nullopt;
      return rate;
    }
    if (!reader_.ExpectMap(node, what, kRateKeys)) return std::nullopt;
    const YamlNode* clock = reader_.Required(node, "clock", what);
    const YamlNode* ticks = reader_.Required(node, "ticks", what);
    if (!clock || !ticks) return std::nullopt;
    auto text = reader_.Text(*clock, "clock");
    if (!text) return std::nullopt;
    // A frequency (1.8432MHz) or a period (542ns): the unit says which.
    bool hertz = text->ends_with("Hz");
    auto parsed = hertz ? ParseTickFrequency(*text) : ParseTickPeriod(*text);
    if (auto* error = std::get_if<NumberError>(&parsed)) {
      reader_.Error(*clock, "`clock` of " + what + ": " + error->message);
      return std::nullopt;
    }
    rate.clock = std::get<TickRate>(parsed);
    rate.ticks = Number(*ticks, scope, "`ticks` of " + what);
    if (!rate.ticks) return std::nullopt;
    return rate;
  }

  void ReadRoutes(const YamlNode& node, const ExpressionScope& scope) {
    if (!reader_.ExpectSequence(node, "to")) return;
    for (const YamlNode& item : node.children) {
      if (!reader_.ExpectMap(item, "a route", kRouteKeys)) continue;
      FifoRoute route;
      route.loc = item.loc;
      const YamlNode* stream = item.Find("stream");
      const YamlNode* fifo = item.Find("fifo");
      const YamlNode* bus = item.Find("bus");
      if ((stream != nullptr) + (fifo != nullptr) + (bus != nullptr) != 1) {
        reader_.Error(item, "a route of " + what_ + " goes to one `stream:`, one `fifo:` or one `bus:`");
        continue;
      }
      if (bus) {
        route.bus = database_.ScopedName(reader_.Identifier(*bus, "bus").value_or(""));
        CheckBehaviourNamed(*bus, route.bus, "i2c-bus", "bus");
      }
      if (stream) route.stream = database_.ScopedName(reader_.Identifier(*stream, "stream").value_or(""));
      if (fifo) {
        route.fifo = database_.ScopedName(reader_.Identifier(*fifo, "fifo").value_or(""));
        CheckFifoNamed(*fifo, route.fifo);
      }
      if (const YamlNode* when = item.Find("when")) {
        route.when = Number(*when, scope, "`when` of a route of " + what_);
        if (!route.when) continue;
      }
      config_->routes.push_back(std::move(route));
    }
  }

  void CheckFifoNamed(const YamlNode& node, const std::string& name) { CheckBehaviourNamed(node, name, "fifo", "fifo"); }

  // `name` must be a behaviour of `kind` (another than this one).
  void CheckBehaviourNamed(const YamlNode& node, const std::string& name, std::string_view kind, std::string_view what) {
    if (name.empty()) return;
    std::vector<std::string_view> names;
    for (const BehaviourSpec& other : database_.behaviours) {
      if (other.kind != kind) continue;
      if (other.name == name) {
        if (&other == &spec_) reader_.Error(node, what_ + " cannot drain into itself");
        return;
      }
      names.push_back(other.name);
    }
    reader_.Error(node, what_ + " drains into unknown " + std::string(what) + " '" + name + "'" + DidYouMean(name, names));
  }

  void ReadFlag(const YamlNode& item, const ExpressionScope& scope) {
    if (!reader_.ExpectMap(item, "a flag", kFlagKeys)) return;
    const YamlNode* field = reader_.Required(item, "field", "flag");
    const YamlNode* when = reader_.Required(item, "when", "flag");
    if (!field || !when) return;
    auto bits = Bits(*field, "`field` of a flag of " + what_);
    auto condition = Number(*when, scope, "`when` of a flag of " + what_);
    if (!bits || !condition) return;
    Watch(*condition);
    config_->flags.push_back({*bits, std::move(*condition)});
  }

  void ReadClear(const YamlNode& item, const ExpressionScope& scope) {
    if (!reader_.ExpectMap(item, "a clear trigger", kClearKeys)) return;
    if (const YamlNode* event = item.Find("event")) {
      // A hardware event: another behaviour's signal (an i2c-bus's NAME.nack).
      if (item.Find("write") || item.Find("when")) {
        reader_.Error(item, "a clear trigger of " + what_ + " is a `write:` (with an optional `when:`) or an `event:`");
        return;
      }
      auto text = reader_.Text(*event, "event");
      if (!text || text->empty()) return;
      FifoTrigger trigger;
      trigger.event = *text;
      config_->clear.push_back(std::move(trigger));
      return;
    }
    const YamlNode* write = reader_.Required(item, "write", "clear trigger");
    if (!write) return;
    const Register* reg = RegisterNamedAt(*write, write->text, "`clear` of " + what_, database_, reader_);
    if (!reg) return;
    FifoTrigger trigger{database_.IndexOf(*reg), std::nullopt, {}};
    if (const YamlNode* when = item.Find("when")) {
      trigger.when = Number(*when, scope, "`when` of a clear trigger of " + what_);
      if (!trigger.when) return;
    }
    config_->clear.push_back(std::move(trigger));
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::string what_;
  FifoConfig* config_ = nullptr;
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckFifoConfig(const BehaviourSpec& spec, const Database& database,
                                                 SchemaReader& reader) {
  return FifoChecker(spec, database, reader).Check();
}

std::vector<std::string> FifoConfig::OutputStreams() const {
  std::vector<std::string> streams;
  for (const FifoRoute& route : routes) {
    if (!route.stream.empty() && std::find(streams.begin(), streams.end(), route.stream) == streams.end()) {
      streams.push_back(route.stream);
    }
  }
  return streams;
}

}  // namespace regemu::regdb
