#pragma once
// `kind: fifo`: a first-in first-out queue inside a device and the device's
// outside world it connects to (yaml/README.md, "kind: fifo"). Entries come
// in from a register the driver writes (THR, a command register) or from a named
// input stream a test feeds (bytes arriving on a serial line); they leave
// through a register the driver reads (RBR) or drain on their own at a
// rate (the transmitter shifting a character out every character time) to
// a named output stream the test checks, or into another FIFO (loopback).
// The FIFO keeps fields in step with it: its level, flags from conditions
// over the level (LSR.DR, THRE, RX_FULL against a threshold), an overrun
// bit for an entry that found it full.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/expression.hpp"
#include "regemu/regdb/register_scope.hpp"
#include "regemu/regdb/tick_rate.hpp"

namespace regemu::regdb {

// The FIFO's own names in its expressions, beside registers and fields
// (RegisterScope ids).
inline constexpr uint64_t kFifoNameOperand = uint64_t{1} << 61;
inline constexpr uint64_t kFifoLevel = kFifoNameOperand | 0;  // entries held
inline constexpr uint64_t kFifoDepth = kFifoNameOperand | 1;  // entries it can hold now
inline constexpr uint64_t kFifoBusy = kFifoNameOperand | 2;   // 1 while an entry is draining
inline constexpr uint64_t kFifoValue = kFifoNameOperand | 3;  // the written value (`clear` conditions)

// A time per entry: `every: 86us`, an expression in time units, or a
// whole number of ticks of an exact clock (`every: {clock: 1.8432MHz,
// ticks: "16 * DL * 10"}`), so a character time of 86.8055... us stays exact.
struct FifoRate {
  std::optional<Expression> time;  // a time
  TickRate clock;                   // with ticks
  std::optional<Expression> ticks;  // a number
};

// Where a drained entry goes: the first route whose condition holds.
struct FifoRoute {
  std::string stream;  // an output stream of the device; or
  std::string fifo;    // another FIFO behaviour (its push side); or
  std::string bus;     // an i2c-bus behaviour (the entry is a command on the bus)
  std::optional<Expression> when;
  SourceLoc loc;
};

// A frontdoor write of `reg` whose condition holds (`value` is what was
// written); or, with `event` set, that hardware event (another behaviour's
// signal, such as an i2c-bus's `NAME.nack`).
struct FifoTrigger {
  RegisterIndex reg = 0;
  std::optional<Expression> when;
  std::string event;
};

struct FifoFlag {
  RegisterBits field;  // kept at 1 while `when` holds, 0 otherwise
  Expression when;
};

struct FifoConfig : BehaviourConfig {
  Expression depth;   // a number, evaluated at each push
  unsigned width = 8;  // bits per entry
  // In: a frontdoor write of this register (its bits) pushes; and/or
  // entries injected into the input stream named `input` (`inject NAME
  // BYTES...`), arriving one per `arrive` (all at once without it).
  std::optional<RegisterBits> push;
  std::string input;
  std::optional<FifoRate> arrive;
  // Out: a frontdoor read of this register pops (the read returns the head
  // in its bits); and/or entries drain one per `drain` to `routes`.
  std::optional<RegisterBits> pop;
  std::optional<FifoRate> drain;
  std::vector<FifoRoute> routes;
  // Kept in step.
  std::optional<RegisterBits> level;
  std::vector<FifoFlag> flags;
  std::optional<RegisterBits> overrun;  // set to 1 when an entry finds the FIFO full (the entry is lost)
  std::string overrun_rule;             // a push by the driver into a full FIFO is this `protocol` violation
  // While it holds (non-zero), an entry that finds the FIFO full replaces
  // its newest entry instead of being lost (a 16450's receiver buffer:
  // PC16550D §8.4 bit 1, "destroying the previous character"); the overrun
  // bit is set either way. Absent: the arriving entry is lost.
  std::optional<Expression> overrun_replaces;
  std::vector<FifoTrigger> clear;       // writes and events that empty it
  std::vector<RegisterIndex> watched;   // registers its flags and depth read: recomputed after their writes
  std::string ref;

  std::vector<std::string> OutputStreams() const override;  // the routes' streams, once each
};

}  // namespace regemu::regdb
