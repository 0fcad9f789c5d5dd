#include "regemu/regdb/behaviour_configs/reactions_text.hpp"

#include <algorithm>

namespace regemu::regdb {
namespace {

std::string TargetList(const std::vector<ReactionTarget>& targets) {
  // An array's elements read better as its template.
  std::vector<std::string> names;
  for (const ReactionTarget& t : targets) {
    if (std::find(names.begin(), names.end(), t.text) == names.end()) names.push_back(t.text);
  }
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i != 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

bool Involves(const ReactionTarget& target, RegisterIndex reg, uint64_t bits) {
  return target.reg == reg && (target.bits.mask & bits) != 0;
}

bool ExpressionReads(const Expression& expression, const Database& database, RegisterIndex reg, uint64_t bits) {
  for (uint64_t id : expression.operands()) {
    if ((id & (kValueOperand | kArgOperand)) != 0 && (id & kFieldOperand) == 0) continue;  // value, before, now, args
    if ((id & kFieldOperand) != 0) {
      auto r = static_cast<RegisterIndex>((id & ~kFieldOperand) >> 8);
      size_t f = id & 0xFF;
      if (r == reg && f < database.registers[r].fields.size() && (database.registers[r].fields[f].mask() & bits) != 0) {
        return true;
      }
    } else if (id == reg) {
      return true;
    }
  }
  return false;
}

void Scan(const std::vector<ReactionAction>& actions, const Database& database, RegisterIndex reg, uint64_t bits,
          ReactionUse& use) {
  for (const ReactionAction& action : actions) {
    for (const auto& [target, value] : action.sets) {
      if (Involves(target, reg, bits)) use.sets = true;
      if (ExpressionReads(value, database, reg, bits)) use.reads = true;
    }
    for (const Expression* e : {&action.delay, &action.address, &action.value}) {
      if (ExpressionReads(*e, database, reg, bits)) use.reads = true;
    }
    Scan(action.then, database, reg, bits, use);
  }
}

}  // namespace

std::string TriggerText(const ReactionTrigger& trigger) {
  std::string targets = TargetList(trigger.targets);
  switch (trigger.kind) {
    case ReactionTriggerKind::kWrite: return "a write of " + targets;
    case ReactionTriggerKind::kRead: return "a read of " + targets;
    case ReactionTriggerKind::kChange:
      return trigger.to ? targets + " becomes " + std::to_string(*trigger.to) : targets + " changes";
    case ReactionTriggerKind::kRise: return targets + " rises";
    case ReactionTriggerKind::kFall: return targets + " falls";
    case ReactionTriggerKind::kEvent: {
      std::string text = "event ";
      for (size_t i = 0; i < trigger.events.size(); ++i) text += (i ? " or " : "") + trigger.events[i];
      if (!trigger.args.empty()) {
        text += " (";
        for (size_t i = 0; i < trigger.args.size(); ++i) text += (i ? ", " : "") + trigger.args[i].name;
        text += ")";
      }
      return text;
    }
  }
  return targets;
}

std::string ActionsText(const std::vector<ReactionAction>& actions, const ReactionsConfig& config) {
  std::string text;
  for (const ReactionAction& action : actions) {
    if (!text.empty()) text += "; ";
    switch (action.op) {
      case ReactionAction::Op::kSet:
        for (size_t i = 0; i < action.sets.size(); ++i) {
          text += (i ? ", " : "") + action.sets[i].first.text + " = " + action.sets[i].second.text();
        }
        break;
      case ReactionAction::Op::kAfter:
        text += "after " + action.delay.text() + ": " + ActionsText(action.then, config);
        break;
      case ReactionAction::Op::kCancel:
        text += "cancel " + (action.reaction < config.reactions.size() ? config.reactions[action.reaction].name : "?");
        break;
      case ReactionAction::Op::kViolation:
        text += action.violation_kind + " violation: " + action.text;
        break;
      case ReactionAction::Op::kMessage:
        text += "message " + action.value.text() + " to " + action.address.text();
        break;
      case ReactionAction::Op::kWriteMemory:
        text += "memory[" + action.address.text() + "] = " + action.value.text() + " (" +
                std::to_string(action.width) + " bits)";
        break;
    }
  }
  return text;
}

std::string ReactionText(const Reaction& reaction, const ReactionsConfig& config) {
  std::string text = "when " + TriggerText(reaction.trigger);
  if (reaction.when) text += ", if " + reaction.when->text();
  return text + ": " + ActionsText(reaction.actions, config);
}

std::vector<ReactionUse> ReactionUsesOf(const Database& database, const Register& reg, const Field* field) {
  std::vector<ReactionUse> uses;
  RegisterIndex index = database.IndexOf(reg);
  uint64_t bits = field != nullptr ? field->mask() : reg.width_mask();
  for (const BehaviourSpec& spec : database.behaviours) {
    const auto* config = dynamic_cast<const ReactionsConfig*>(spec.config.get());
    if (config == nullptr) continue;
    for (const Reaction& reaction : config->reactions) {
      ReactionUse use{&spec, &reaction};
      for (const ReactionTarget& target : reaction.trigger.targets) {
        if (Involves(target, index, bits)) use.triggers = true;
      }
      if (reaction.when && ExpressionReads(*reaction.when, database, index, bits)) use.reads = true;
      Scan(reaction.actions, database, index, bits, use);
      if (use.triggers || use.reads || use.sets) uses.push_back(use);
    }
  }
  return uses;
}

}  // namespace regemu::regdb
