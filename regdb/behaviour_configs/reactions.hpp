#pragma once
// `kind: reactions`: a device's behaviour said as data. Each reaction is a
// datasheet sentence: a trigger ("CC.EN rises"), an optional condition
// ("CSTS.RDY == 1"), and actions ("after 2ms set CSTS.RDY to 1"). A rule is
// a reaction whose action is a violation ("AQA written while CC.EN = 1").
// See yaml/README.md, "kind: reactions".

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/expression.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::regdb {

// A register, or one field of it, that a trigger watches or an action sets.
using ReactionTarget = RegisterBits;

enum class ReactionTriggerKind : uint8_t {
  kWrite,   // a frontdoor write of the register (any of its bytes)
  kRead,    // a frontdoor read of it
  kChange,  // the field's value changed (a write, or another reaction's set)
  kRise,    // ... from 0 to not 0
  kFall,    // ... from not 0 to 0
  kEvent,   // `inject NAME ARGS...`: a hardware event a test injects
};

// One argument of an event trigger (`args:`), as `inject` takes it: a
// number up to `max`, or one of `words` (each with its value: its index in
// a list, or the value a mapping gives it); with a default it may be left
// off (trailing arguments only).
struct EventArgument {
  std::string name;
  uint64_t max = ~uint64_t{0};
  std::vector<std::pair<std::string, uint64_t>> words;
  std::optional<uint64_t> fallback;  // `default:`, the value when left off
  SourceLoc loc;

  bool SameShape(const EventArgument& other) const {
    return name == other.name && max == other.max && words == other.words && fallback == other.fallback;
  }
};

struct ReactionTrigger {
  ReactionTriggerKind kind = ReactionTriggerKind::kWrite;
  std::vector<ReactionTarget> targets;  // write/read: registers; change/rise/fall: fields or registers
  std::optional<uint64_t> to;           // change: only when the field becomes this value
  std::vector<std::string> events;      // kEvent: the inject verbs (any of them)
  std::vector<EventArgument> args;      // kEvent: its arguments, in order
};

// The names an expression of a reaction may use beyond registers and
// fields, as ExpressionOperand ids (registers and fields as RegisterScope
// numbers them).
inline constexpr uint64_t kValueOperand = uint64_t{1} << 61;        // the access's value (written or read)
inline constexpr uint64_t kBeforeOperand = (uint64_t{1} << 61) | 1;  // the register before the write
inline constexpr uint64_t kNowOperand = (uint64_t{1} << 61) | 2;     // the virtual time (a time)
inline constexpr uint64_t kWrittenOperand = (uint64_t{1} << 61) | 3;  // what the write wrote (before policies)
inline constexpr uint64_t kArgOperand = uint64_t{1} << 60;           // | i: the event's argument i

struct ReactionAction {
  enum class Op : uint8_t {
    kSet,          // sets: each target to its value
    kAfter,        // delay, then `then` (cancelled by a `cancel` of this reaction or by reset)
    kCancel,       // the pending delayed actions of reaction `reaction`
    kViolation,    // violation_kind, text, ref
    kMessage,      // a memory write the device issues (an MSI): address, value
    kWriteMemory,  // width bits of value to space at address
  };
  Op op = Op::kSet;
  std::vector<std::pair<ReactionTarget, Expression>> sets;
  Expression delay;
  std::vector<ReactionAction> then;
  uint32_t reaction = 0;
  std::string violation_kind = "protocol";  // a name of emulator/violation_kinds.def
  std::string text;
  std::string ref;
  Expression address;
  Expression value;
  SpaceIndex space = 0;
  unsigned width = 32;
  SourceLoc loc;
};

struct Reaction {
  std::string name;
  ReactionTrigger trigger;
  std::optional<Expression> when;
  std::vector<ReactionAction> actions;
  bool rule = false;  // listed under `rules:` (its actions are one violation)
  std::string doc;
  std::string ref;
  SourceLoc loc;
};

struct ReactionsConfig : BehaviourConfig {
  std::vector<Reaction> reactions;
  std::string ref;
};

}  // namespace regemu::regdb
