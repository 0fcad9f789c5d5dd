// `kind: counter`: the check of a counter's section (yaml/README.md
// "kind: counter"), the only reader of its YAML.
#include "regemu/regdb/behaviour_configs/counter.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 16> kKeys{
    "kind",     "name",    "register",  "field", "period", "increment", "frequency",   "enable",
    "saturate", "compare", "direction", "width", "limit",  "at_limit",  "write_phase", "read_at_tick"};
constexpr std::array<std::string_view, 4> kLimitKeys{"set", "signal", "reload", "stop"};
constexpr std::array<std::string_view, 7> kComparatorKeys{"name",     "register", "set",   "signal",
                                                          "periodic", "period_register", "width"};

// A counter changes its bits behind the driver's back: unless they are `hw`
// or marked `volatile: true`, the driver's own writes would race it and
// generated headers would not mark the register volatile. Legal, but almost
// always a slip. `volatile: true` on a writable counter says the author knows
// (HPET's main counter, written while halted), so it draws no warning; `hw`
// implies volatile, so only the flag needs looking at.
void WarnUnlessHardwareDriven(const BehaviourSpec& spec, const Register& reg, const Field* field,
                              SchemaReader& reader) {
  auto warn = [&](std::string_view what, Access access) {
    reader.diagnostics().Warning(WarningCode::kCounterNotVolatile, spec.yaml.Find(field ? "field" : "register")->loc,
                                 "counter behaviour '" + spec.name + "' drives " + std::string(what) +
                                     ", whose access is '" + std::string(AccessName(access)) +
                                     "', not 'hw', and which is not 'volatile: true': the driver's writes race "
                                     "the counter and headers do not mark it volatile");
  };
  if (reg.is_volatile) return;
  if (field) {
    if (!field->is_volatile) warn(reg.name + "." + field->name, field->access);
    return;
  }
  uint64_t covered = 0;
  for (const Field& each : reg.fields) {
    covered |= each.mask();
    if (!each.is_volatile && each.access != Access::kRsvd) {
      warn(reg.name + "." + each.name, each.access);
      return;
    }
  }
  if ((covered & reg.width_mask()) != reg.width_mask() && reg.default_access != Access::kHw &&
      (reg.fields.empty() || reg.default_access != Access::kRsvd)) {
    warn(reg.name, reg.default_access);
  }
}

// `RATE` or `RATE / EXPR` / `RATE * EXPR`: the constant and the rest of
// the text (the operator and the expression), at its column.
struct RateText {
  std::string constant;
  char op = 0;  // '/', '*', or 0 for a constant rate
  size_t expression_column = 0;
};

RateText SplitRate(std::string_view text) {
  RateText split;
  size_t end = text.find_first_of(" \t/*");
  split.constant = std::string(text.substr(0, end));
  if (end == std::string_view::npos) return split;
  size_t op = text.find_first_not_of(" \t", end);
  if (op == std::string_view::npos) return split;
  if (text[op] != '/' && text[op] != '*') {  // not a scaled rate: the constant's own error says what is wrong
    split.constant = std::string(text);
    return split;
  }
  split.op = text[op];
  split.expression_column = std::min(text.size(), text.find_first_not_of(" \t", op + 1));
  return split;
}

// The expression after a rate's operator, as a node of its own at its
// column, so its errors point into the user's text.
YamlNode ScaleNode(const YamlNode& node, size_t column) {
  YamlNode scale = node;
  scale.text = node.text.substr(column);
  scale.loc.column += static_cast<uint32_t>(column + (node.quoted ? 1 : 0));
  scale.quoted = false;  // its column is the expression's own now
  return scale;
}

// Exactly one of `period:` and `frequency:`, each a constant or a constant
// scaled by a number expression (`25MHz / (CONTROL.PRESCALE == 2 ? 256 :
// 1)`), which may never be 0 and must keep the rate's fraction in 64 bits.
void ReadRate(const BehaviourSpec& spec, const Database& database, SchemaReader& reader, CounterRate& rate) {
  const YamlNode* period = spec.yaml.Find("period");
  const YamlNode* frequency = spec.yaml.Find("frequency");
  if (period && frequency) {
    reader.Error(*frequency, "counter behaviour '" + spec.name +
                                 "' has both 'period' and 'frequency': give one (they say the same thing)")
        .notes.push_back(Note{period->loc, "the period is here"});
    return;
  }
  if (!period && !frequency) {
    reader.Error(spec.yaml,
                 "counter behaviour '" + spec.name + "' has neither 'period' nor 'frequency' (one is required)");
    return;
  }
  const YamlNode& node = period ? *period : *frequency;
  std::string_view what = period ? "period" : "frequency";
  auto text = reader.Text(node, what);
  if (!text) return;
  RateText split = SplitRate(*text);
  auto parsed = period ? ParseTickPeriod(split.constant) : ParseTickFrequency(split.constant);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    reader.Error(node, std::string(what) + ": " + error->message);
    return;
  }
  rate.base = std::get<TickRate>(parsed);
  if (split.op == 0) return;
  std::string scale_what = std::string(what) + " of counter behaviour '" + spec.name + "'";
  YamlNode scale_node = ScaleNode(node, split.expression_column);
  auto scale = ParseTypedExpression(scale_node, RegisterScope(database), reader, scale_what, ExpressionType::kNumber);
  if (!scale) return;
  if (scale->min_value() == 0) {
    reader.Error(scale_node, scale_what + ": '" + scale->text() + "' can be 0, and a counter's rate cannot (" +
                                 (scale->constant() ? "it is 0" : "give each case a value of at least 1") + ")");
    return;
  }
  // A frequency divided (or a period multiplied) grows the fraction's
  // denominator; the other way its numerator. Both must stay below 2^64.
  bool divides = (split.op == '/') == (frequency != nullptr);
  uint64_t grown = divides ? rate.base.den : rate.base.num;
  if (scale->max_value() > ~uint64_t{0} / grown) {
    reader.Error(scale_node, scale_what + ": '" + scale->text() + "' can reach " + std::to_string(scale->max_value()) +
                                 ", past what a 64-bit rate fraction holds at this " + std::string(what));
    return;
  }
  rate.scale = std::move(*scale);
  rate.divides = divides;
}

class ComparatorReader {
 public:
  // `counter`: the resolved counter, or null when its register is unknown
  // (the comparators are still checked, all but their overlap with it).
  ComparatorReader(const BehaviourSpec& spec, const CounterConfig* counter, bool saturate, const Database& database,
                   SchemaReader& reader)
      : spec_(spec), counter_(counter), saturate_(saturate), database_(database), reader_(reader) {}

  void ReadAll(const YamlNode& list, std::vector<CounterComparator>& out) {
    if (!reader_.ExpectSequence(list, "compare")) return;
    // Every name, also of comparators with other mistakes: a second T0 is a
    // mistake whatever is wrong with the first.
    std::vector<std::pair<std::string, const YamlNode*>> seen;
    for (const YamlNode& item : list.children) {
      CounterComparator comparator;
      bool ok = Read(item, comparator);
      if (comparator.name.empty()) continue;
      const YamlNode* name = item.Find("name");
      auto first = std::find_if(seen.begin(), seen.end(), [&](const auto& s) { return s.first == comparator.name; });
      if (first != seen.end()) {
        reader_.Error(*name, What(comparator.name) + " is defined twice")
            .notes.push_back(Note{first->second->loc, "first defined here"});
        continue;
      }
      seen.emplace_back(comparator.name, name);
      if (ok) out.push_back(std::move(comparator));
    }
  }

 private:
  std::string What(std::string_view name) const {
    return "comparator '" + std::string(name) + "' of counter behaviour '" + spec_.name + "'";
  }

  bool Read(const YamlNode& item, CounterComparator& out) {
    if (!reader_.ExpectMap(item, "a counter comparator", kComparatorKeys)) return false;
    bool ok = false;
    std::string unnamed = "a comparator of counter behaviour '" + spec_.name + "'";
    if (const YamlNode* name = reader_.Required(item, "name", unnamed)) {
      auto text = reader_.Identifier(*name, "comparator name");
      ok = text.has_value();
      if (text) out.name = *text;
    }
    std::string what = ok ? What(out.name) : unnamed;
    if (const YamlNode* value = reader_.Required(item, "register", what)) {
      auto bits = Bits(*value, what);
      ok = bits && ok;
      if (bits) out.value = *bits;
    } else {
      ok = false;
    }
    auto optional_bits = [&](std::string_view key, std::optional<RegisterBits>& into) {
      const YamlNode* node = item.Find(key);
      if (!node) return;
      into = Bits(*node, what + " (" + std::string(key) + ")");
      ok = into.has_value() && ok;
    };
    optional_bits("set", out.set);
    optional_bits("periodic", out.periodic);
    optional_bits("period_register", out.period_register);
    if (const YamlNode* signal = item.Find("signal")) {
      auto flag = reader_.Bool(*signal, "signal");
      ok = flag.has_value() && ok;
      out.signal = flag.value_or(true);
    }
    // A reload needs an amount, and an amount without the bit that turns
    // reloading on would never be used.
    const YamlNode* periodic = item.Find("periodic");
    const YamlNode* period_register = item.Find("period_register");
    if (periodic && !period_register) {
      reader_.Error(*periodic, what + " has 'periodic' but no 'period_register' (the amount a match adds)");
      ok = false;
    }
    if (period_register && !periodic) {
      reader_.Error(*period_register,
                    what + " has 'period_register' but no 'periodic' (the bit that turns reloading on)");
      ok = false;
    }
    if (const YamlNode* width = item.Find("width")) {
      out.width = Width(*width, what);
      ok = out.width.has_value() && ok;
    }
    return ok;
  }

  // `width:`: a number expression; a constant one is 1 to the counter's width.
  std::optional<Expression> Width(const YamlNode& node, const std::string& what) {
    if (saturate_) {
      reader_.Error(node, what + " has 'width', but the counter saturates: a saturating count never wraps, so its "
                                 "low bits have no lap to match in");
      return std::nullopt;
    }
    auto width = ParseTypedExpression(node, RegisterScope(database_), reader_, "width of " + what,
                                      ExpressionType::kNumber);
    if (!width) return std::nullopt;
    unsigned counter_bits = counter_ ? static_cast<unsigned>(std::popcount(counter_->bits.mask)) : 64;
    if (width->constant() && (width->max_value() < 1 || width->max_value() > counter_bits)) {
      reader_.Error(node, "width of " + what + " is " + std::to_string(width->max_value()) +
                              ": the bits compared are 1 to the counter's width (" + std::to_string(counter_bits) +
                              ")");
      return std::nullopt;
    }
    return width;
  }

  // REGISTER or REGISTER.FIELD; never the counting bits themselves.
  std::optional<RegisterBits> Bits(const YamlNode& node, const std::string& what) {
    auto bits = ResolveRegisterBits(node, what, database_, reader_);
    if (bits && counter_ && bits->reg == counter_->reg && (bits->bits.mask & counter_->bits.mask) != 0) {
      reader_.Error(node, what + ": '" + bits->text + "' overlaps the counter's own bits");
      return std::nullopt;
    }
    return bits;
  }

  const BehaviourSpec& spec_;
  const CounterConfig* counter_;
  bool saturate_;
  const Database& database_;
  SchemaReader& reader_;
};


// `REG` or `REG.FIELD` alone: the form every behaviour names bits in.
bool IsRegisterBitsName(std::string_view text) {
  size_t dot = text.find('.');
  if (dot == std::string_view::npos) return IsIdentifier(text);
  return IsIdentifier(text.substr(0, dot)) && IsFieldName(text.substr(dot + 1));
}

// An expression of the counter's over the device's state: `what` names it
// in messages. An expression that reads the counting bits themselves is
// refused: the counter would decide its own rate, enable or width.
std::optional<Expression> CounterExpression(const YamlNode& node, const std::string& what, ExpressionType type,
                                            const CounterConfig* counter, const Database& database,
                                            SchemaReader& reader) {
  auto expression = ParseTypedExpression(node, RegisterScope(database), reader, what, type);
  if (!expression || !counter) return expression;
  for (uint64_t id : expression->operands()) {
    if (OperandRegister(id) != counter->reg) continue;
    const Register& reg = database.registers[counter->reg];
    uint64_t read = IsFieldOperand(id) ? reg.fields[OperandField(id)].mask() : reg.width_mask();
    if ((read & counter->bits.mask) == 0) continue;
    std::string name = IsFieldOperand(id) ? reg.name + "." + reg.fields[OperandField(id)].name : reg.name;
    reader.Error(node, what + ": '" + name + "' overlaps the counter's own bits");
    return std::nullopt;
  }
  return expression;
}

// `enable:` as REGISTER.FIELD (resolved as every behaviour names bits, with
// the same messages) or any expression (`CTRL.EN && !CTRL.SELEXTEN`).
void ReadEnable(const BehaviourSpec& spec, const YamlNode& node, CounterConfig& config, bool resolved,
                const Database& database, SchemaReader& reader) {
  std::string what = "enable of counter behaviour '" + spec.name + "'";
  if (node.IsScalar() && IsRegisterBitsName(node.text) && !database.FindLet(node.text)) {
    auto bits = ResolveRegisterBits(node, what, database, reader);
    if (!bits) return;
    if (resolved && bits->reg == config.reg && (bits->bits.mask & config.bits.mask) != 0) {
      reader.Error(node, what + ": '" + bits->text + "' overlaps the counter's own bits");
      return;
    }
  }
  config.enable = CounterExpression(node, what, ExpressionType::kNumber, resolved ? &config : nullptr, database, reader);
}

// `width:`: the low bits counted, 1 to the counting bits' width in every case.
void ReadWidth(const BehaviourSpec& spec, const YamlNode& node, CounterConfig& config, bool resolved,
               const Database& database, SchemaReader& reader) {
  std::string what = "width of counter behaviour '" + spec.name + "'";
  auto width = CounterExpression(node, what, ExpressionType::kNumber, resolved ? &config : nullptr, database, reader);
  if (!width) return;
  unsigned bits = resolved ? static_cast<unsigned>(std::popcount(config.bits.mask)) : 64;
  if (width->min_value() < 1 || width->max_value() > bits) {
    std::string range = width->constant() ? "is " + std::to_string(width->max_value())
                                          : "can be " + std::to_string(width->min_value() < 1 ? width->min_value()
                                                                                             : width->max_value());
    reader.Error(node, what + " " + range + ": a counter counts 1 to " + std::to_string(bits) +
                           " bits (the width of its " + (spec.yaml.Find("field") ? "field" : "register") + ")");
    return;
  }
  config.width = std::move(width);
}

// `at_limit:` {set, signal, reload, stop}.
std::optional<CounterLimitEvent> ReadLimitEvent(const BehaviourSpec& spec, const YamlNode& node,
                                                const CounterConfig& config, bool resolved, const Database& database,
                                                SchemaReader& reader) {
  if (!reader.ExpectMap(node, "a counter's at_limit", kLimitKeys)) return std::nullopt;
  std::string what = "at_limit of counter behaviour '" + spec.name + "'";
  CounterLimitEvent event;
  bool ok = true;
  if (const YamlNode* set = node.Find("set")) {
    std::vector<const YamlNode*> items;
    if (set->IsSequence()) {
      for (const YamlNode& item : set->children) items.push_back(&item);
    } else {
      items.push_back(set);
    }
    for (const YamlNode* item : items) {
      auto bits = ResolveRegisterBits(*item, what + " (set)", database, reader);
      if (bits && resolved && bits->reg == config.reg && (bits->bits.mask & config.bits.mask) != 0) {
        reader.Error(*item, what + " (set): '" + bits->text + "' overlaps the counter's own bits");
        bits.reset();
      }
      ok = bits.has_value() && ok;
      if (bits) event.set.push_back(*bits);
    }
  }
  if (const YamlNode* signal = node.Find("signal")) {
    auto flag = reader.Bool(*signal, "signal");
    ok = flag.has_value() && ok;
    event.signal = flag.value_or(true);
  }
  const CounterConfig* counter = resolved ? &config : nullptr;
  if (const YamlNode* reload = node.Find("reload")) {
    event.reload = CounterExpression(*reload, "reload of counter behaviour '" + spec.name + "'",
                                     ExpressionType::kNumber, nullptr, database, reader);
    ok = event.reload.has_value() && ok;
  }
  if (const YamlNode* stop = node.Find("stop")) {
    event.stop = CounterExpression(*stop, "stop of counter behaviour '" + spec.name + "'", ExpressionType::kNumber,
                                   counter, database, reader);
    ok = event.stop.has_value() && ok;
  }
  if (!ok) return std::nullopt;
  return event;
}

// What the new keys cannot be combined with, each at the key that is one too many.
void CheckCombinations(const BehaviourSpec& spec, const CounterConfig& config, SchemaReader& reader) {
  const YamlNode& yaml = spec.yaml;
  std::string what = "counter behaviour '" + spec.name + "'";
  bool down = config.direction == CountDirection::kDown;
  if (const YamlNode* saturate = yaml.Find("saturate"); saturate && config.saturate) {
    if (down) {
      reader.Error(*saturate, what + " counts down and saturates: a down counter stops at 0 with "
                                     "'at_limit: {stop: 1}'");
    } else if (const YamlNode* at_limit = yaml.Find("at_limit")) {
      reader.Error(*at_limit, what + " saturates and has 'at_limit': a saturating count never reaches a limit "
                                     "event's next tick (say 'stop' in at_limit instead)");
    }
  }
  if (const YamlNode* at_limit = yaml.Find("at_limit"); at_limit && config.increment != 1) {
    reader.Error(*at_limit, what + " has 'at_limit' and an increment of " + std::to_string(config.increment) +
                                ": a limit is arrived at one tick at a time (increment 1)");
  }
  if (const YamlNode* limit = yaml.Find("limit"); limit && !yaml.Find("at_limit")) {
    reader.Error(*limit, what + " has 'limit' but no 'at_limit': the limit is where at_limit's event and reload "
                                "happen");
  }
  if (const YamlNode* compare = yaml.Find("compare"); compare && (down || yaml.Find("at_limit") ||
                                                                  yaml.Find("width"))) {
    reader.Error(*compare, what + " has comparators and " +
                               (down ? std::string("counts down") : yaml.Find("width") ? "a 'width'" : "'at_limit'") +
                               ": comparators match on a free-running up counter (use at_limit for the end of "
                               "a count)");
  }
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckCounterConfig(const BehaviourSpec& spec, const Database& database,
                                                    SchemaReader& reader) {
  if (!reader.ExpectMap(spec.yaml, "a counter behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<CounterConfig>();
  bool resolved = false;
  if (const Register* reg = ResolveRegisterKey(spec, "register", /*required=*/true, database, reader)) {
    config->reg = database.IndexOf(*reg);
    config->bits = FieldBits::Of(reg->width_mask());
    const Field* field = ResolveFieldKey(spec, "field", *reg, reader);
    if (field) config->bits = FieldBits::Of(field->mask());
    resolved = field || !spec.yaml.Find("field");
    // With an enable, the driver halts the counter before writing it (as
    // timer drivers do with a main counter), so a writable counter is the
    // design, not a slip.
    if (resolved && !spec.yaml.Find("enable")) WarnUnlessHardwareDriven(spec, *reg, field, reader);
  }
  ReadRate(spec, database, reader, config->rate);
  if (const YamlNode* increment = spec.yaml.Find("increment")) {
    config->increment = reader.Unsigned(*increment, "increment", 1).value_or(1);
  }
  if (const YamlNode* direction = spec.yaml.Find("direction")) {
    config->direction = reader
                            .Choice<CountDirection>(*direction, "counter direction",
                                                    {{"up", CountDirection::kUp}, {"down", CountDirection::kDown}})
                            .value_or(CountDirection::kUp);
  }
  if (const YamlNode* width = spec.yaml.Find("width")) ReadWidth(spec, *width, *config, resolved, database, reader);
  if (const YamlNode* enable = spec.yaml.Find("enable")) {
    ReadEnable(spec, *enable, *config, resolved, database, reader);
  }
  if (const YamlNode* saturate = spec.yaml.Find("saturate")) {
    config->saturate = reader.Bool(*saturate, "saturate").value_or(false);
  }
  if (const YamlNode* limit = spec.yaml.Find("limit")) {
    config->limit = CounterExpression(*limit, "limit of counter behaviour '" + spec.name + "'",
                                      ExpressionType::kNumber, resolved ? config.get() : nullptr, database, reader);
  }
  if (const YamlNode* at_limit = spec.yaml.Find("at_limit")) {
    config->at_limit = ReadLimitEvent(spec, *at_limit, *config, resolved, database, reader);
  }
  if (const YamlNode* phase = spec.yaml.Find("write_phase")) {
    config->write_phase = reader
                              .Choice<WritePhase>(*phase, "write_phase",
                                                  {{"restart", WritePhase::kRestart}, {"keep", WritePhase::kKeep}})
                              .value_or(WritePhase::kRestart);
  }
  if (const YamlNode* read = spec.yaml.Find("read_at_tick")) {
    config->read_at_tick = reader
                               .Choice<ReadAtTick>(*read, "read_at_tick",
                                                   {{"new", ReadAtTick::kNew}, {"old", ReadAtTick::kOld}})
                               .value_or(ReadAtTick::kNew);
  }
  CheckCombinations(spec, *config, reader);
  if (const YamlNode* compare = spec.yaml.Find("compare")) {
    ComparatorReader(spec, resolved ? config.get() : nullptr, config->saturate, database, reader)
        .ReadAll(*compare, config->compare);
  }
  return config;
}

}  // namespace regemu::regdb
