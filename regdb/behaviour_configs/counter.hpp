#pragma once
// `kind: counter`: a counter driven by the virtual clock at an exact rate,
// counting up or down, optionally gated by an enable, saturating, with a
// limit event and its policy (wrap, reload, stop), and with comparators that
// match at exact instants (an event timer's main counter and its
// comparators; an SP804 or CMSDK down-counter and its reload).

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

enum class CountDirection : uint8_t { kUp, kDown };

// What a write that sets the count does to the tick in progress.
enum class WritePhase : uint8_t {
  kRestart,  // the next tick comes one whole period after the write
  kKeep,     // the tick in progress goes on: the prescaler is not reset
};

// What a read at the exact instant of a tick returns.
enum class ReadAtTick : uint8_t {
  kNew,  // the count after the tick: the tick is at its instant (an HPET's main counter)
  kOld,  // the count before it: the tick shows 1 ns later (QEMU's ptimer-based models)
};

// The counter's rate: a constant (`period:`/`frequency:`), optionally
// scaled by a number expression over fields (`25MHz / DIV`, `10ns * DIV`),
// which the check proves is never 0 and never overflows the fraction.
struct CounterRate {
  TickRate base;
  std::optional<Expression> scale;
  bool divides = true;  // ticks per ns = base / scale (else base * scale)
};

// `at_limit:`: the count arriving at its limit by a tick (0 counting down,
// `limit` counting up), and what the next tick does.
struct CounterLimitEvent {
  std::vector<RegisterBits> set;     // each stored to 1 at the event
  bool signal = true;                // Signal "<behaviour>.limit"
  std::optional<Expression> reload;  // the count the next tick loads; absent: it wraps
  std::optional<Expression> stop;    // while not 0 at the event, counting stops at the limit
};

struct CounterConfig : BehaviourConfig {
  RegisterIndex reg = 0;
  FieldBits bits;   // the counting bits: a field, or the whole register
  CounterRate rate;  // from `period:` or `frequency:`
  uint64_t increment = 1;
  CountDirection direction = CountDirection::kUp;
  // The bits counted, as an expression (`CONTROL.SIZE ? 32 : 16`): the low
  // bits of `bits`; absent: all of them.
  std::optional<Expression> width;
  std::optional<Expression> enable;  // counts only while this is not 0
  bool saturate = false;             // stop at all-ones instead of wrapping
  std::optional<Expression> limit;   // the value `at_limit` is about (default: 0 down, all-ones up)
  std::optional<CounterLimitEvent> at_limit;
  WritePhase write_phase = WritePhase::kRestart;
  ReadAtTick read_at_tick = ReadAtTick::kNew;
  std::vector<CounterComparator> compare;
};

}  // namespace regemu::regdb
