// `kind: reactions`: the check of a data-driven behaviour, the only reader
// of its YAML (yaml/README.md, "kind: reactions").
#include "regemu/regdb/behaviour_configs/reactions.hpp"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <set>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 5> kKeys{"kind", "name", "ref", "reactions", "rules"};
constexpr std::array<std::string_view, 7> kReactionKeys{"name", "on", "when", "do", "violation", "doc", "ref"};
constexpr std::array<std::string_view, 7> kRuleKeys{"name", "on", "when", "violation", "kind", "doc", "ref"};
constexpr std::array<std::string_view, 10> kActionKeys{"set",       "after", "do",  "cancel", "violation",
                                                       "kind",      "ref",   "message", "write_memory", "doc"};
constexpr std::array<std::string_view, 2> kMessageKeys{"address", "data"};
constexpr std::array<std::string_view, 4> kMemoryKeys{"space", "address", "width", "value"};
// Nesting of `after:` inside `after:` (each a level of the YAML too).
constexpr int kMaxActionDepth = 8;

// The violation kinds a rule may name: the emulator's table, read as data
// here so that a misspelt kind is a located error at load.
constexpr std::array kViolationKinds = {
#define REGEMU_VIOLATION(id, name, doc) std::string_view(name),
#include "regemu/emulator/violation_kinds.def"
#undef REGEMU_VIOLATION
};

// What expressions of one reaction may name: every register and field of
// the database; `value` and `before` for an access trigger; the event's
// arguments; `now`.
class ReactionScope : public RegisterScope {
 public:
  ReactionScope(const Database& database, const ReactionTrigger* trigger, bool access_value)
      : RegisterScope(database), trigger_(trigger), access_value_(access_value) {}

  std::optional<ExpressionOperand> Resolve(std::string_view name) const override {
    if (name == "now") return ExpressionOperand{kNowOperand, 64, ExpressionType::kTime};
    if (access_value_ && (name == "value" || name == "before")) {
      return ExpressionOperand{name == "value" ? kValueOperand : kBeforeOperand, AccessWidth(), ExpressionType::kNumber};
    }
    if (access_value_ && name == "written" && trigger_ != nullptr && trigger_->kind == ReactionTriggerKind::kWrite) {
      return ExpressionOperand{kWrittenOperand, AccessWidth(), ExpressionType::kNumber};
    }
    if (trigger_ != nullptr) {
      for (size_t i = 0; i < trigger_->args.size(); ++i) {
        if (trigger_->args[i].name == name) return ExpressionOperand{kArgOperand | i, 64, ExpressionType::kNumber};
      }
    }
    return RegisterScope::Resolve(name);
  }

  std::vector<std::string> Candidates(std::string_view name) const override {
    std::vector<std::string> names = RegisterScope::Candidates(name);
    if (name.find('.') != std::string_view::npos && database_.RegisterNamed(name.substr(0, name.find('.')))) {
      return names;  // a field of a known register
    }
    names.push_back("now");
    if (access_value_) {
      names.push_back("value");
      names.push_back("before");
      if (trigger_ != nullptr && trigger_->kind == ReactionTriggerKind::kWrite) names.push_back("written");
    }
    if (trigger_ != nullptr) {
      for (const EventArgument& arg : trigger_->args) names.push_back(arg.name);
    }
    return names;
  }

 private:
  unsigned AccessWidth() const {
    unsigned width = 8;
    if (trigger_ != nullptr) {
      for (const ReactionTarget& t : trigger_->targets) width = std::max(width, database_.registers[t.reg].width);
    }
    return width;
  }

  const ReactionTrigger* trigger_;
  bool access_value_;
};

class ReactionsChecker {
 public:
  ReactionsChecker(const BehaviourSpec& spec, const Database& database, SchemaReader& reader)
      : spec_(spec), database_(database), reader_(reader) {}

  std::unique_ptr<BehaviourConfig> Check() {
    if (!reader_.ExpectMap(spec_.yaml, "a reactions behaviour", kKeys)) return nullptr;
    auto config = std::make_unique<ReactionsConfig>();
    if (const YamlNode* ref = spec_.yaml.Find("ref")) config->ref = reader_.Text(*ref, "ref").value_or("");
    const YamlNode* reactions = spec_.yaml.Find("reactions");
    const YamlNode* rules = spec_.yaml.Find("rules");
    if (reactions == nullptr && rules == nullptr) {
      reader_.Error(spec_.yaml, "reactions behaviour '" + spec_.name + "' has neither `reactions:` nor `rules:`");
      return nullptr;
    }
    // Names first: a `cancel:` may name a reaction defined after it.
    for (const YamlNode* list : {reactions, rules}) {
      if (list == nullptr || !reader_.ExpectSequence(*list, list == rules ? "rules" : "reactions")) continue;
      for (const YamlNode& item : list->children) {
        const YamlNode* name = item.IsMap() ? item.Find("name") : nullptr;
        // A bad name is reported once, when the reaction itself is read.
        if (name == nullptr || !name->IsScalar() || !IsIdentifier(name->text)) continue;
        if (!names_.emplace(name->text, static_cast<uint32_t>(names_.size())).second) {
          reader_.Error(*name, "reaction '" + name->text + "' is defined twice in behaviour '" + spec_.name + "'");
        }
      }
    }
    for (const YamlNode* list : {reactions, rules}) {
      if (list == nullptr || !list->IsSequence()) continue;
      for (const YamlNode& item : list->children) {
        if (auto reaction = ReadReaction(item, list == rules, config->ref)) config->reactions.push_back(std::move(*reaction));
      }
    }
    CheckLoops(*config);
    CheckEventArguments(*config);
    return config;
  }

 private:
  // `inject EVENT ...` is read by the arguments of the first reaction naming
  // the event; another that declares arguments for it must declare the same.
  void CheckEventArguments(const ReactionsConfig& config) {
    std::map<std::string, const Reaction*> first;
    for (const Reaction& reaction : config.reactions) {
      if (reaction.trigger.kind != ReactionTriggerKind::kEvent) continue;
      for (const std::string& event : reaction.trigger.events) {
        auto [it, inserted] = first.emplace(event, &reaction);
        const std::vector<EventArgument>& theirs = it->second->trigger.args;
        const std::vector<EventArgument>& mine = reaction.trigger.args;
        if (inserted || mine.empty()) continue;
        bool same = mine.size() == theirs.size() &&
                    std::equal(mine.begin(), mine.end(), theirs.begin(),
                               [](const EventArgument& a, const EventArgument& b) { return a.SameShape(b); });
        if (same) continue;
        reader_.diagnostics().Error(mine.front().loc, What(reaction.name) + " declares other arguments for event '" + event +
                                            "' than reaction '" + it->second->name +
                                            "', which inject reads them by; declare them alike");
      }
    }
  }

  std::string What(std::string_view reaction) const {
    return "reaction '" + std::string(reaction) + "' of behaviour '" + spec_.name + "'";
  }

  std::optional<Reaction> ReadReaction(const YamlNode& node, bool rule, const std::string& default_ref) {
    if (!reader_.ExpectMap(node, rule ? "a rule" : "a reaction", rule ? std::span(kRuleKeys) : std::span(kReactionKeys))) {
      return std::nullopt;
    }
    Reaction reaction;
    reaction.rule = rule;
    reaction.loc = node.loc;
    const YamlNode* name = reader_.Required(node, "name", rule ? "rule" : "reaction");
    const YamlNode* on = reader_.Required(node, "on", rule ? "rule" : "reaction");
    if (!name || !on) return std::nullopt;
    auto id = reader_.Identifier(*name, "reaction name");
    if (!id) return std::nullopt;
    reaction.name = *id;
    reaction.loc = name->loc;
    reaction.ref = default_ref;
    if (const YamlNode* ref = node.Find("ref")) reaction.ref = reader_.Text(*ref, "ref").value_or("");
    if (const YamlNode* doc = node.Find("doc")) reaction.doc = reader_.Text(*doc, "doc").value_or("");
    bool ok = ReadTrigger(*on, reaction);
    // `value` and `before`: the register an access or a change concerns; an
    // event concerns none.
    bool access_value = reaction.trigger.kind != ReactionTriggerKind::kEvent;
    ReactionScope scope(database_, &reaction.trigger, access_value);
    if (const YamlNode* when = node.Find("when")) {
      reaction.when = ParseExpression(*when, scope, reader_, "condition of " + What(reaction.name));
      if (!reaction.when) {
        ok = false;
      } else if (reaction.when->type() != ExpressionType::kNumber) {
        reader_.Error(*when, "condition of " + What(reaction.name) + " is a time, not a truth value");
        ok = false;
      }
    }
    const YamlNode* actions = node.Find("do");
    const YamlNode* violation = node.Find("violation");
    if (rule) {
      if (!violation) {
        reader_.Required(node, "violation", "rule");
        return std::nullopt;
      }
      ReactionAction action;
      action.op = ReactionAction::Op::kViolation;
      action.loc = violation->loc;
      action.text = reader_.Text(*violation, "violation").value_or("");
      action.ref = reaction.ref;
      if (const YamlNode* kind = node.Find("kind")) ok = ReadViolationKind(*kind, action) && ok;
      reaction.actions.push_back(std::move(action));
    } else {
      if ((actions == nullptr) == (violation == nullptr)) {
        reader_.Error(node, What(reaction.name) + " needs `do:` (its actions) or `violation:` (a rule), one of them");
        return std::nullopt;
      }
      if (violation != nullptr) {
        ReactionAction action;
        action.op = ReactionAction::Op::kViolation;
        action.loc = violation->loc;
        action.text = reader_.Text(*violation, "violation").value_or("");
        action.ref = reaction.ref;
        reaction.actions.push_back(std::move(action));
      } else {
        ok = ReadActions(*actions, scope, reaction, reaction.actions, 0) && ok;
      }
    }
    if (!ok) return std::nullopt;
    return reaction;
  }

  std::optional<ReactionTarget> ReadTarget(const YamlNode& node, std::string_view what) {
    return ResolveRegisterBits(node, what, database_, reader_);
  }

  bool ReadTargets(const YamlNode& node, std::string_view what, std::vector<ReactionTarget>& out) {
    // An array's template (`SQ{n}TDBL`, `SQ{n}TDBL.SQT`) names every element.
    if (node.IsScalar() && node.text.find("{n}") != std::string::npos) {
      size_t dot = node.text.find('.');
      std::string templ = node.text.substr(0, dot);
      std::string field = dot == std::string::npos ? "" : node.text.substr(dot);
      size_t before = out.size();
      for (const Register& reg : database_.registers) {
        if (!reg.array || reg.array->name_template != templ) continue;
        YamlNode element = node;
        element.text = reg.name + field;
        auto target = ReadTarget(element, what);
        if (!target) return false;
        out.push_back(*target);
      }
      if (out.size() == before) {
        reader_.Error(node, std::string(what) + " names '" + templ + "', which is no register array's name");
        return false;
      }
      return true;
    }
    if (node.IsSequence()) {
      bool ok = !node.children.empty();
      if (!ok) reader_.Error(node, std::string(what) + " lists nothing");
      for (const YamlNode& item : node.children) {
        if (item.IsScalar() && item.text.find("{n}") != std::string::npos) {
          ok = ReadTargets(item, what, out) && ok;
          continue;
        }
        auto target = ReadTarget(item, what);
        if (target) out.push_back(*target); else ok = false;
      }
      return ok;
    }
    auto target = ReadTarget(node, what);
    if (target) out.push_back(*target);
    return target.has_value();
  }

  bool ReadTrigger(const YamlNode& on, Reaction& reaction) {
    static constexpr std::array<std::string_view, 8> kTriggerKeys{"write", "read", "change", "rise",
                                                                  "fall",  "event", "args", "to"};
    if (!reader_.ExpectMap(on, "a trigger (`on:`)", kTriggerKeys)) return false;
    ReactionTrigger& trigger = reaction.trigger;
    const YamlNode* found = nullptr;
    std::string_view found_key;
    static constexpr std::array<std::pair<std::string_view, ReactionTriggerKind>, 6> kKinds{{
        {"write", ReactionTriggerKind::kWrite},
        {"read", ReactionTriggerKind::kRead},
        {"change", ReactionTriggerKind::kChange},
        {"rise", ReactionTriggerKind::kRise},
        {"fall", ReactionTriggerKind::kFall},
        {"event", ReactionTriggerKind::kEvent},
    }};
    for (const auto& [key, kind] : kKinds) {
      const YamlNode* value = on.Find(key);
      if (value == nullptr) continue;
      if (found != nullptr) {
        reader_.Error(*value, "a trigger has one of write, read, change, rise, fall, event; this one has both '" +
                                  std::string(found_key) + "' and '" + std::string(key) + "'");
        return false;
      }
      found = value;
      found_key = key;
      trigger.kind = kind;
    }
    if (found == nullptr) {
      reader_.Error(on, "a trigger needs one of write, read, change, rise, fall, event");
      return false;
    }
    const YamlNode* args = on.Find("args");
    const YamlNode* to = on.Find("to");
    if (args != nullptr && trigger.kind != ReactionTriggerKind::kEvent) {
      reader_.Error(*args, "`args:` names the arguments of an `event:` trigger");
      return false;
    }
    if (to != nullptr && trigger.kind != ReactionTriggerKind::kChange) {
      reader_.Error(*to, "`to:` goes with a `change:` trigger (the value the field becomes)");
      return false;
    }
    if (trigger.kind == ReactionTriggerKind::kEvent) {
      // One event or a list: `event: [timer.limit, wdog.limit]`. Inside a
      // block, an event of one of its behaviours is the instance's own.
      std::vector<const YamlNode*> verbs;
      if (found->IsSequence()) {
        if (found->children.empty()) {
          reader_.Error(*found, "an `event:` list names at least one event");
          return false;
        }
        for (const YamlNode& each : found->children) verbs.push_back(&each);
      } else {
        verbs.push_back(found);
      }
      for (const YamlNode* each : verbs) {
        auto verb = reader_.Text(*each, "event name");
        if (!verb) return false;
        trigger.events.push_back(database_.ScopedEvent(*verb));
      }
      if (args != nullptr) {
        if (!reader_.ExpectSequence(*args, "args")) return false;
        // An argument with a mistake still names itself, so that the
        // expressions using it report nothing more.
        bool ok = true;
        for (const YamlNode& arg : args->children) {
          EventArgument argument;
          bool read = ReadEventArgument(arg, argument);
          if (read && !trigger.args.empty() && trigger.args.back().fallback && !argument.fallback) {
            reader_.Error(arg, "event argument '" + argument.name + "' follows '" + trigger.args.back().name +
                                   "', which has a default: arguments with a default come last");
            read = false;
          }
          ok = read && ok;
          if (!argument.name.empty()) trigger.args.push_back(std::move(argument));
        }
        return ok;
      }
      return true;
    }
    if (!ReadTargets(*found, "trigger of " + What(reaction.name), trigger.targets)) return false;
    if (to != nullptr) {
      if (trigger.targets.size() != 1) {
        reader_.Error(*to, "`to:` needs one field to watch, not a list");
        return false;
      }
      auto value = reader_.Unsigned(*to, "to");
      if (!value) return false;
      const FieldBits& bits = trigger.targets[0].bits;
      if (*value > (bits.mask >> bits.shift)) {
        reader_.Error(*to, trigger.targets[0].text + " can never become " + std::to_string(*value) + ": it holds 0.." +
                               std::to_string(bits.mask >> bits.shift));
        return false;
      }
      trigger.to = *value;
    }
    return true;
  }

  // `bit`, or `{name: bit, max: 31}`, or `{name: level, words: [pulse, on, off], default: pulse}`.
  bool ReadEventArgument(const YamlNode& node, EventArgument& argument) {
    argument.loc = node.loc;
    if (!node.IsMap()) {
      auto name = reader_.Identifier(node, "event argument");
      if (!name) return false;
      argument.name = *name;
      return true;
    }
    const YamlNode* name = node.Find("name");
    if (name == nullptr) {
      reader_.Error(node, "an event argument needs a `name:`");
      return false;
    }
    auto identifier = reader_.Identifier(*name, "event argument");
    if (!identifier) return false;
    argument.name = *identifier;
    static constexpr std::array<std::string_view, 4> kArgumentKeys{"name", "max", "words", "default"};
    if (!reader_.ExpectMap(node, "an event argument", kArgumentKeys)) return false;
    const YamlNode* max = node.Find("max");
    const YamlNode* words = node.Find("words");
    if (max != nullptr && words != nullptr) {
      reader_.Error(*words, "event argument '" + argument.name + "' is a number (`max:`) or a word (`words:`), not both");
      return false;
    }
    if (max != nullptr) {
      auto value = reader_.Unsigned(*max, "max");
      if (!value) return false;
      argument.max = *value;
    }
    if (words != nullptr && !ReadWords(*words, argument)) return false;
    if (const YamlNode* fallback = node.Find("default")) {
      auto named = std::find_if(argument.words.begin(), argument.words.end(),
                                [&](const auto& word) { return word.first == fallback->text; });
      if (named != argument.words.end()) {
        argument.fallback = named->second;
      } else {
        auto value = reader_.Unsigned(*fallback, "default of '" + argument.name + "'");
        if (!value) return false;
        if (argument.words.empty() && *value > argument.max) {
          reader_.Error(*fallback, "default " + std::to_string(*value) + " of '" + argument.name +
                                       "' is above its max " + std::to_string(argument.max));
          return false;
        }
        argument.fallback = *value;
      }
    }
    return true;
  }

  // `words: [pulse, on]` (values 0, 1) or `words: {"on": 1, "off": 2}`.
  bool ReadWords(const YamlNode& words, EventArgument& argument) {
    auto add = [&](const YamlNode& node, uint64_t value) {
      auto word = reader_.Identifier(node, "word");
      if (!word) return false;
      for (const auto& known : argument.words) {
        if (known.first == *word) {
          reader_.Error(node, "word '" + *word + "' is listed twice");
          return false;
        }
      }
      argument.words.emplace_back(*word, value);
      return true;
    };
    if (words.IsMap()) {
      for (size_t i = 0; i < words.MapSize(); ++i) {
        auto value = reader_.Unsigned(words.MapValue(i), "value of word '" + words.MapKey(i).text + "'");
        if (!value || !add(words.MapKey(i), *value)) return false;
      }
    } else {
      if (!reader_.ExpectSequence(words, "words")) return false;
      for (size_t i = 0; i < words.children.size(); ++i) {
        if (!add(words.children[i], i)) return false;
      }
    }
    if (argument.words.empty()) {
      reader_.Error(words, "`words:` names at least one word");
      return false;
    }
    argument.max = 0;
    for (const auto& word : argument.words) argument.max = std::max(argument.max, word.second);
    return true;
  }

  bool ReadViolationKind(const YamlNode& node, ReactionAction& action) {
    auto text = reader_.Text(node, "violation kind");
    if (!text) return false;
    if (std::find(kViolationKinds.begin(), kViolationKinds.end(), *text) == kViolationKinds.end()) {
      reader_.ReportBadChoice(node, "violation kind", *text, kViolationKinds);
      return false;
    }
    action.violation_kind = *text;
    return true;
  }

  std::optional<Expression> ReadExpression(const YamlNode& node, const ExpressionScope& scope, std::string what,
                                           ExpressionType type) {
    return ParseTypedExpression(node, scope, reader_, what, type, "2ms, 500us, CAP.TO * 500ms");
  }

  bool ReadActions(const YamlNode& node, const ExpressionScope& scope, const Reaction& reaction,
                   std::vector<ReactionAction>& out, int depth) {
    if (!reader_.ExpectSequence(node, "do")) return false;
    bool ok = true;
    for (const YamlNode& item : node.children) ok = ReadAction(item, scope, reaction, out, depth) && ok;
    return ok;
  }

  bool ReadAction(const YamlNode& node, const ExpressionScope& scope, const Reaction& reaction,
                  std::vector<ReactionAction>& out, int depth) {
    if (!reader_.ExpectMap(node, "an action", kActionKeys)) return false;
    std::string what = "action of " + What(reaction.name);
    // One verb per action; `after:` wraps the rest of the mapping.
    if (const YamlNode* after = node.Find("after")) {
      if (depth >= kMaxActionDepth) {
        reader_.Error(*after, what + ": `after:` nested more than " + std::to_string(kMaxActionDepth) + " deep");
        return false;
      }
      ReactionAction action;
      action.op = ReactionAction::Op::kAfter;
      action.loc = after->loc;
      // A delayed action runs later, with the trigger's values as they were
      // (the access's value, before, written; the event's arguments).
      bool access_value = reaction.trigger.kind != ReactionTriggerKind::kEvent;
      ReactionScope later(database_, &reaction.trigger, access_value);
      auto delay = ReadExpression(*after, scope, "delay of " + What(reaction.name), ExpressionType::kTime);
      bool ok = delay.has_value();
      if (delay) action.delay = std::move(*delay);
      if (const YamlNode* nested = node.Find("do")) {
        if (node.MapSize() != 2) {
          reader_.Error(node, what + ": `after:` with `do:` takes its actions from `do:` only");
          return false;
        }
        ok = ReadActions(*nested, later, reaction, action.then, depth + 1) && ok;
      } else {
        YamlNode rest = node;  // the same mapping without `after`: one delayed action
        rest.children.clear();
        for (size_t i = 0; i < node.MapSize(); ++i) {
          if (node.MapKey(i).text == "after") continue;
          rest.children.push_back(node.MapKey(i));
          rest.children.push_back(node.MapValue(i));
        }
        if (rest.children.empty()) {
          reader_.Error(node, what + ": `after:` needs an action to delay (set, do, violation, ...)");
          return false;
        }
        ok = ReadAction(rest, later, reaction, action.then, depth + 1) && ok;
      }
      out.push_back(std::move(action));
      return ok;
    }
    const YamlNode* verb = nullptr;
    std::string_view verb_key;
    for (std::string_view key : {"set", "cancel", "violation", "message", "write_memory", "do"}) {
      const YamlNode* value = node.Find(key);
      if (value == nullptr) continue;
      if (verb != nullptr) {
        reader_.Error(*value, what + " has both '" + std::string(verb_key) + "' and '" + std::string(key) +
                                  "': one verb per action (list several actions)");
        return false;
      }
      verb = value;
      verb_key = key;
    }
    if (verb == nullptr) {
      reader_.Error(node, what + " needs one of set, after, cancel, violation, message, write_memory");
      return false;
    }
    ReactionAction action;
    action.loc = verb->loc;
    if (verb_key == "do") {
      reader_.Error(*verb, what + ": `do:` inside an action goes with `after:`");
      return false;
    }
    if ((node.Find("kind") != nullptr || node.Find("ref") != nullptr) && verb_key != "violation") {
      reader_.Error(node, what + ": `kind:` and `ref:` go with `violation:`");
      return false;
    }
    if (verb_key == "set") {
      action.op = ReactionAction::Op::kSet;
      if (!verb->IsMap() || verb->MapSize() == 0) {
        reader_.Error(*verb, what + ": `set:` takes a mapping of REGISTER or REGISTER.FIELD to a value");
        return false;
      }
      bool ok = true;
      for (size_t i = 0; i < verb->MapSize(); ++i) {
        auto target = ReadTarget(verb->MapKey(i), "set of " + What(reaction.name));
        auto value = ReadExpression(verb->MapValue(i), scope, "value of " + verb->MapKey(i).text + " in " + What(reaction.name),
                                    ExpressionType::kNumber);
        if (!target || !value) {
          ok = false;
          continue;
        }
        uint64_t max = target->bits.mask >> target->bits.shift;
        if (value->constant() && value->min_value() > max) {
          reader_.Error(verb->MapValue(i), target->text + " holds 0.." + std::to_string(max) + ": it cannot be set to " +
                                               std::to_string(value->min_value()));
          ok = false;
          continue;
        }
        action.sets.emplace_back(std::move(*target), std::move(*value));
      }
      if (ok) out.push_back(std::move(action));
      return ok;
    }
    if (verb_key == "cancel") {
      action.op = ReactionAction::Op::kCancel;
      auto name = reader_.Identifier(*verb, "cancel");
      if (!name) return false;
      auto it = names_.find(*name);
      if (it == names_.end()) {
        std::vector<std::string_view> known;
        for (const auto& [n, index] : names_) known.push_back(n);
        reader_.Error(*verb, what + " cancels unknown reaction '" + *name + "'" + DidYouMean(*name, known));
        return false;
      }
      action.reaction = it->second;
      out.push_back(std::move(action));
      return true;
    }
    if (verb_key == "violation") {
      action.op = ReactionAction::Op::kViolation;
      action.text = reader_.Text(*verb, "violation").value_or("");
      action.ref = reaction.ref;
      if (const YamlNode* ref = node.Find("ref")) action.ref = reader_.Text(*ref, "ref").value_or("");
      if (const YamlNode* kind = node.Find("kind"); kind != nullptr && !ReadViolationKind(*kind, action)) return false;
      out.push_back(std::move(action));
      return true;
    }
    if (verb_key == "message") {
      action.op = ReactionAction::Op::kMessage;
      if (!reader_.ExpectMap(*verb, "message", kMessageKeys)) return false;
      const YamlNode* address = reader_.Required(*verb, "address", "message");
      const YamlNode* data = reader_.Required(*verb, "data", "message");
      if (!address || !data) return false;
      auto a = ReadExpression(*address, scope, "message address of " + What(reaction.name), ExpressionType::kNumber);
      auto d = ReadExpression(*data, scope, "message data of " + What(reaction.name), ExpressionType::kNumber);
      if (!a || !d) return false;
      action.address = std::move(*a);
      action.value = std::move(*d);
      out.push_back(std::move(action));
      return true;
    }
    // write_memory
    action.op = ReactionAction::Op::kWriteMemory;
    if (!reader_.ExpectMap(*verb, "write_memory", kMemoryKeys)) return false;
    const YamlNode* space = reader_.Required(*verb, "space", "write_memory");
    const YamlNode* address = reader_.Required(*verb, "address", "write_memory");
    const YamlNode* value = reader_.Required(*verb, "value", "write_memory");
    if (!space || !address || !value) return false;
    auto space_name = reader_.Identifier(*space, "space");
    if (!space_name) return false;
    auto index = database_.FindSpace(*space_name);
    if (!index || database_.spaces[*index].kind != SpaceKind::kMemory) {
      reader_.Error(*space, what + ": '" + *space_name + "' is not a memory space" +
                                DidYouMean(*space_name, NamesOf(database_.spaces)));
      return false;
    }
    action.space = *index;
    if (const YamlNode* width = verb->Find("width")) {
      auto w = reader_.Width(*width, "width");
      if (!w) return false;
      action.width = *w;
    }
    auto a = ReadExpression(*address, scope, "address of " + What(reaction.name), ExpressionType::kNumber);
    auto v = ReadExpression(*value, scope, "value of " + What(reaction.name), ExpressionType::kNumber);
    if (!a || !v) return false;
    action.address = std::move(*a);
    action.value = std::move(*v);
    out.push_back(std::move(action));
    return true;
  }

  // Reactions that set, at once, a field that triggers another reaction,
  // which sets one that triggers the first ...: with no condition anywhere
  // on the loop, it can never settle. (Loops with a condition are bounded
  // at run time instead: the condition may end them.)
  void CheckLoops(const ReactionsConfig& config) {
    const auto& reactions = config.reactions;
    std::vector<std::vector<size_t>> next(reactions.size());
    for (size_t a = 0; a < reactions.size(); ++a) {
      for (const ReactionAction& action : reactions[a].actions) {
        if (action.op != ReactionAction::Op::kSet) continue;
        for (const auto& [target, value] : action.sets) {
          for (size_t b = 0; b < reactions.size(); ++b) {
            const ReactionTrigger& t = reactions[b].trigger;
            if (t.kind != ReactionTriggerKind::kChange && t.kind != ReactionTriggerKind::kRise &&
                t.kind != ReactionTriggerKind::kFall) {
              continue;
            }
            for (const ReactionTarget& watched : t.targets) {
              if (watched.reg == target.reg && (watched.bits.mask & target.bits.mask) != 0) next[a].push_back(b);
            }
          }
        }
      }
    }
    std::vector<int> state(reactions.size(), 0);  // 0 new, 1 on the path, 2 done
    std::vector<size_t> path;
    std::function<bool(size_t)> visit = [&](size_t at) {
      if (reactions[at].when) return false;  // a condition may end the loop
      state[at] = 1;
      path.push_back(at);
      for (size_t b : next[at]) {
        if (state[b] == 1) {
          std::string chain;
          auto start = std::find(path.begin(), path.end(), b);
          for (auto it = start; it != path.end(); ++it) chain += "'" + reactions[*it].name + "' → ";
          chain += "'" + reactions[b].name + "'";
          reader_.diagnostics().Error(reactions[b].loc, "reactions " + chain +
                                                            " never settle: each sets, at once and without a "
                                                            "condition, a field the next one is triggered by");
          return true;
        }
        if (state[b] == 0 && visit(b)) return true;
      }
      path.pop_back();
      state[at] = 2;
      return false;
    };
    for (size_t i = 0; i < reactions.size(); ++i) {
      if (state[i] == 0 && visit(i)) return;
    }
  }

  const BehaviourSpec& spec_;
  const Database& database_;
  SchemaReader& reader_;
  std::map<std::string, uint32_t> names_;
};

}  // namespace

std::unique_ptr<BehaviourConfig> CheckReactionsConfig(const BehaviourSpec& spec, const Database& database,
                                                      SchemaReader& reader) {
  return ReactionsChecker(spec, database, reader).Check();
}

}  // namespace regemu::regdb
