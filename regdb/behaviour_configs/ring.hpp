#pragma once
// `kind: ring`: a submission queue and a completion queue in a memory
// space, driven by doorbell registers (storage controllers, virtio and most NICs).
// The host writes entries into the submission ring and rings the tail
// doorbell; the device consumes them in order, runs the first command whose
// condition matches, and posts a completion entry (with a phase tag that
// inverts at each wrap) into the completion ring; the host's head doorbell
// frees completion slots. Entry layouts and commands are data.
// See yaml/README.md, "kind: ring".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/expression.hpp"

namespace regemu::regdb {

// Operand ids of a ring's expressions (ExpressionOperand::id).
// A register or REG.FIELD: | index into RingConfig::operands.
inline constexpr uint64_t kRingBitsOperand = uint64_t{1} << 62;
// `entry.NAME`: | index into RingConfig::fields.
inline constexpr uint64_t kRingEntryOperand = uint64_t{1} << 61;
// The ring's own names.
inline constexpr uint64_t kRingNameOperand = uint64_t{1} << 60;
inline constexpr uint64_t kRingStatus = kRingNameOperand | 0;   // the command's status (completion entry)
inline constexpr uint64_t kRingResult = kRingNameOperand | 1;   // the command's result (completion entry)
inline constexpr uint64_t kRingSqHead = kRingNameOperand | 2;   // the SQ head after consuming the entry
inline constexpr uint64_t kRingSqId = kRingNameOperand | 3;     // RingConfig::sq_id
inline constexpr uint64_t kRingPhase = kRingNameOperand | 4;    // the phase tag of the slot being written
inline constexpr uint64_t kRingCqTail = kRingNameOperand | 5;   // the CQ slot being written

// A named part of a submission entry: `width` bits little-endian at byte
// `offset`, then `bits` of that value (all of them unless `bits:` says).
struct RingEntryField {
  std::string name;
  uint32_t offset = 0;
  unsigned width = 32;
  FieldBits bits;
  SourceLoc loc;
};

// One little-endian field of a completion entry.
struct RingCompletionField {
  uint32_t offset = 0;
  unsigned width = 32;
  Expression value;
  SourceLoc loc;
};

// A memory write a command makes (into the ring's memory space) before its
// completion is posted.
struct RingMemoryWrite {
  Expression address;
  unsigned width = 32;
  Expression value;
  SourceLoc loc;
};

struct RingCommand {
  std::string name;
  std::optional<Expression> when;  // none: every entry matches
  Expression status;               // default 0
  Expression result;               // default 0
  std::vector<RingMemoryWrite> writes;
  SourceLoc loc;
};

// One ring: where it is (evaluated when a doorbell is processed), its entry
// size, the doorbell the host writes, and the index the device keeps,
// mirrored into an optional state register (the SQ head, the CQ tail).
struct RingQueue {
  Expression base;  // byte address of entry 0 in the memory space
  Expression size;  // number of entries
  uint64_t entry_size = 0;
  RegisterBits doorbell;
  std::optional<RegisterBits> index;
};

struct RingConfig : BehaviourConfig {
  SpaceIndex memory = 0;
  std::optional<Expression> enabled;     // doorbells are processed only while true
  std::optional<Expression> reset_when;  // checked after each write of a register it names
  std::vector<RegisterIndex> reset_registers;  // the registers reset_when names
  RingQueue submission;
  RingQueue completion;
  std::optional<RegisterBits> phase;      // mirror of the phase tag
  uint64_t phase_start = 1;
  std::optional<RegisterBits> interrupt;  // 1 while posted entries wait for the host
  std::vector<RingCompletionField> completion_entry;
  uint64_t sq_id = 0;
  std::vector<RingEntryField> fields;
  std::vector<RingCommand> commands;  // first match wins
  uint64_t default_status = 0;
  std::optional<Expression> latency;  // a time; none: completions are posted at once
  std::vector<RegisterBits> operands;  // what kRingBitsOperand ids index
  std::string ref;
};

}  // namespace regemu::regdb
