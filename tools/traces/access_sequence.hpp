#pragma once
// A driver run as a reviewer reads it: the sequence of register accesses
// of a capture or a regemu script, each one line with the register's name,
// repeated reads of one register until a value folded into one "poll"
// line, and the bits a database marks volatile or hw left out of read
// values. `regemu diff` compares two of these.
//
//   write32 FORCEWAKE_RENDER_GEN9 0x00010001
//   poll32  FORCEWAKE_ACK_RENDER_GEN9 until 0x00000001        (3 reads)
//   read32  GEN11_GFX_MSTR_IRQ -> 0x00000000 mask 0x9ffefffc
//   read32  RCS0_RING_TIMESTAMP (volatile)
//   # MARK engines: media fuses and render ring

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"
#include "tools/traces/capture_address_map.hpp"
#include "tools/traces/capture_reader.hpp"

namespace regemu::traces {

struct SequenceLine {
  std::string key;      // what two runs must share to be the same step (no counts, no line numbers)
  std::string text;     // what the reviewer reads: the key and the poll's read count
  uint64_t source_line = 0;  // in the capture or script

  // dtl compares elements with ==: the same step whatever its count or line.
  bool operator==(const SequenceLine& other) const { return key == other.key; }
};

struct AccessSequence {
  std::string name;
  std::string kind;  // "mmiotrace", "i915_reg_rw", "register log", "script"
  std::vector<SequenceLine> lines;
  uint64_t accesses = 0;
  std::vector<CaptureProblem> problems;
  uint64_t problem_count = 0;
};

// Where names come from: a database (registers, volatile bits, spaces) or
// none (a capture's raw addresses and values).
struct SequenceContext {
  const regdb::Database* db = nullptr;
  const emulator::Model* model = nullptr;
  std::vector<ExplicitMapping> mappings;
  std::optional<uint32_t> device;
  std::optional<CaptureFormat> format;
};

// Whether `first_line` (the first meaningful line of a file) is a regemu
// script's command rather than a capture's record.
bool LooksLikeScript(std::string_view first_line);

// A capture, streamed.
std::optional<AccessSequence> CaptureSequence(std::istream& in, const std::string& name, const SequenceContext& context,
                                              std::string& error);
// A regemu script (parsed against the context's model: needs a database).
std::optional<AccessSequence> ScriptSequence(std::string text, const std::string& name,
                                             const SequenceContext& context, std::string& error);

}  // namespace regemu::traces
