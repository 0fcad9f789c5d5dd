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
inline constexpr uint64_t kRingCqId = kRingNameOperand | 6;     // the completion queue being posted to

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

// One end of a copy: the command's data pointer (RingConfig::data, the
// scatter-gather list in the ring's memory), zeros (a source only), or a
// memory space at an offset (a block store, a structure with `contents:`).
struct RingCopyEnd {
  enum class Kind : uint8_t { kData, kZeros, kSpace };
  Kind kind = Kind::kData;
  SpaceIndex space = 0;
  Expression offset;  // kSpace: the byte offset in it
};

// `copy: {from:, to:, bytes:}`: a command moving bytes before its completion.
struct RingCopy {
  RingCopyEnd from;
  RingCopyEnd to;
  Expression bytes;
  SourceLoc loc;
};

// `create_submission_queue:` / `create_completion_queue:`: a queue of the
// ring's set (RingConfig::queues) that the command brings into use.
struct RingCreateQueue {
  bool submission = true;
  Expression id;
  Expression base;
  Expression size;
  std::optional<Expression> completion;  // a submission queue: the completion queue it posts to
  std::optional<Expression> vector;      // a completion queue: its interrupt vector (default 0)
  std::optional<Expression> interrupts;  // a completion queue: non-zero raises its vector (default 1)
  SourceLoc loc;
};

// `delete_submission_queue: ID` / `delete_completion_queue: ID`.
struct RingDeleteQueue {
  bool submission = true;
  Expression id;
  SourceLoc loc;
};

struct RingCommand {
  std::string name;
  std::optional<Expression> when;  // none: every entry matches
  Expression status;               // default 0
  Expression result;               // default 0
  std::vector<RingMemoryWrite> writes;
  std::vector<RingCopy> copies;    // after the writes, in order; the first that fails stops them
  std::optional<RingCreateQueue> create;
  std::optional<RingDeleteQueue> remove;
  bool hold = false;               // consumed, but no completion is posted (held until reset)
  SourceLoc loc;
};

// `data:` where a command's data lives in the ring's memory: a page list
// (NVMe's PRP entries, NVMe 2.0c §4.1.1): `first` points at the data
// (any dword-aligned offset in a page), `second` at the second page when
// the data spans two, or at a list of 8-byte page pointers when it spans
// more; a list's last entry points at the next list page while more remain.
struct RingDataPointer {
  Expression first;
  Expression second;
  Expression page_size;  // a power of two, evaluated per command
  uint64_t error_status = 0;  // what a command whose list is malformed completes with
  SourceLoc loc;
};

// The statuses a queue command completes with when the queue cannot be
// created or deleted (`queue_status:`; NVMe 2.0c Figure 94: 0x101 Invalid
// Queue Identifier, 0x102 Invalid Queue Size, 0x100 Completion Queue
// Invalid, 0x108 Invalid Interrupt Vector, 0x10C Invalid Queue Deletion,
// all from the database).
struct RingQueueStatus {
  uint64_t invalid_id = 0;          // id 0, ≥ queues, in use (create) or not in use (delete)
  uint64_t invalid_size = 0;        // below 2 or above max_size
  uint64_t invalid_completion = 0;  // a submission queue naming no existing completion queue
  uint64_t invalid_vector = 0;      // a vector vector_status has no bit for
  uint64_t in_use = 0;              // deleting a completion queue a submission queue still posts to
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
  // Queue ids 0 .. queues-1: 0 is the pair `submission` and `completion`
  // describe, the others are created by commands. The doorbells of id n
  // (`{id}` in the doorbell names) are at index n.
  uint64_t queues = 1;
  std::vector<RegisterBits> tail_doorbells;
  std::vector<RegisterBits> head_doorbells;
  std::optional<Expression> max_size;  // the largest queue a command may create
  RingQueueStatus queue_status;
  // Bit v is 1 while a completion queue on vector v (with interrupts
  // enabled) holds entries the host has not released (NVMe's IS).
  std::optional<RegisterIndex> vector_status;
  std::optional<RingDataPointer> data;
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
