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

constexpr std::array<std::string_view, 10> kKeys{"kind",      "name",   "register", "field",    "period",
                                                 "increment", "frequency", "enable", "saturate", "compare"};
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

// Exactly one of `period:` and `frequency:`.
void ReadRate(const BehaviourSpec& spec, SchemaReader& reader, TickRate& rate) {
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
  auto parsed = period ? ParseTickPeriod(*text) : ParseTickFrequency(*text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    reader.Error(node, std::string(what) + ": " + error->message);
    return;
  }
  rate = std::get<TickRate>(parsed);
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
  ReadRate(spec, reader, config->rate);
  if (const YamlNode* increment = spec.yaml.Find("increment")) {
    config->increment = reader.Unsigned(*increment, "increment", 1).value_or(1);
  }
  if (const YamlNode* enable = spec.yaml.Find("enable")) {
    config->enable = ResolveRegisterBits(*enable, "enable of counter behaviour '" + spec.name + "'", database, reader);
    if (resolved && config->enable && config->enable->reg == config->reg &&
        (config->enable->bits.mask & config->bits.mask) != 0) {
      reader.Error(*enable, "enable of counter behaviour '" + spec.name + "': '" + config->enable->text +
                                "' overlaps the counter's own bits");
    }
  }
  if (const YamlNode* saturate = spec.yaml.Find("saturate")) {
    config->saturate = reader.Bool(*saturate, "saturate").value_or(false);
  }
  if (const YamlNode* compare = spec.yaml.Find("compare")) {
    ComparatorReader(spec, resolved ? config.get() : nullptr, config->saturate, database, reader)
        .ReadAll(*compare, config->compare);
  }
  return config;
}

}  // namespace regemu::regdb
