#pragma once
// Reactions in words, for the tools that show a database to people
// (`regemu show`, `regemu doc`): "when CC.EN rises: after 2ms, CSTS.RDY = 1",
// and which reactions a register triggers, is read by, or is set by.

#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_configs/reactions.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

// "CC.EN rises", "a write of AQA, ASQ or ACQ", "CC.SHN becomes 0", "event kick (n)".
std::string TriggerText(const ReactionTrigger& trigger);
// "after 2ms: CSTS.RDY = 1; cancel enable".
std::string ActionsText(const std::vector<ReactionAction>& actions, const ReactionsConfig& config);
// "when CC.EN rises, if CSTS.RDY == 1: violation ...".
std::string ReactionText(const Reaction& reaction, const ReactionsConfig& config);

// How a reaction involves a register (or one field of it).
struct ReactionUse {
  const BehaviourSpec* behaviour = nullptr;
  const Reaction* reaction = nullptr;
  bool triggers = false;  // its trigger watches it
  bool reads = false;     // its condition or a value reads it
  bool sets = false;      // an action sets it
};

// Every reaction of the database's `reactions` behaviours involving `reg`
// (or, with `field`, that field's bits).
std::vector<ReactionUse> ReactionUsesOf(const Database& database, const Register& reg, const Field* field = nullptr);

}  // namespace regemu::regdb
