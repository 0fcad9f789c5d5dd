#pragma once
// `kind: counter`: a counter driven by the virtual clock at an exact rate,
// optionally gated by an enable bit, saturating, and with comparators that
// match at exact instants (an event timer's main counter and its comparators).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/expression.hpp"
#include "regemu/regdb/tick_rate.hpp"

namespace regemu::regdb {

// One `compare:` entry: a match is the count reaching `value` (modulo the
// counter's width).
struct CounterComparator {
  std::string name;                       // the match's event is "<behaviour>.<name>"
  RegisterBits value;                     // the comparator
  std::optional<RegisterBits> set;        // stored to 1 on a match
  bool signal = true;                     // BehaviourContext::Signal on a match
  std::optional<RegisterBits> periodic;   // while not 0, a match adds `period_register` to `value`
  std::optional<RegisterBits> period_register;
  // The low bits compared (`width:`, an expression over registers and
  // fields: `32`, `T0_CONF.32MODE_CNF ? 32 : 64`); absent: the counter's
  // width. A reload wraps at it too.
  std::optional<Expression> width;
};

struct CounterConfig : BehaviourConfig {
  RegisterIndex reg = 0;
  FieldBits bits;   // the counting bits: a field, or the whole register
  TickRate rate;    // from `period:` or `frequency:`
  uint64_t increment = 1;
  std::optional<RegisterBits> enable;  // counts only while this is not 0
  bool saturate = false;               // stop at all-ones instead of wrapping
  std::vector<CounterComparator> compare;
};

}  // namespace regemu::regdb
