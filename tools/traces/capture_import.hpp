#pragma once
// Turns a capture into a regemu script (`regemu import`), streaming: one
// script line per record, whatever the capture's size.
//
//   # line 6: MARK i915 probe
//   step 7us
//   write32 mmio 0xa278 0x00010001  # line 15 FORCEWAKE_RENDER_GEN9
//   expect32 mmio 0xd84 0x00000001 mask 0x00000000 ...
//
// Accesses name `SPACE OFFSET` (a capture's width need not be the
// register's) with the register in the comment. A read becomes an `expect`
// of the captured value under a mask of the bits the model can know: not
// volatile or hw bits, not status bits hardware raises on its own (`regemu
// replay` sets those against the database); with none left, or with
// `values = false`, a plain `read`. A read that shows status bits set
// (w1c and the like: hardware events) is preceded by a `poke` of the value,
// so the script replays the driver's service of them under `regemu run`.
// Time between accesses becomes `step`.
// MARK lines, mappings and the tracer's warnings become comments; accesses
// in no space of the database are commented out and counted.

#include <cstdint>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"
#include "tools/traces/capture_address_map.hpp"
#include "tools/traces/capture_reader.hpp"

namespace regemu::traces {

struct ImportOptions {
  std::optional<CaptureFormat> format;
  std::vector<ExplicitMapping> mappings;
  std::optional<uint32_t> device;
  bool values = true;  // reads become expects
  bool time = true;    // time between accesses becomes step lines
};

struct ImportStats {
  std::string format;
  uint64_t lines = 0;
  uint64_t bytes = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t outside = 0;  // accesses in no space: commented out
  uint64_t marks = 0;
  uint64_t unknown_records = 0;
  std::vector<uint64_t> unknown_lines;  // the first 100
  uint64_t lost_events = 0;
  std::vector<CaptureProblem> problems;
  uint64_t problem_count = 0;
  std::vector<std::string> notes;
  bool missing_bars = false;
  bool read_failed = false;
};

// `error` is set, and nothing written, when the options do not fit the database.
ImportStats ImportCapture(std::istream& capture, const std::string& name, const regdb::Database& db,
                          const emulator::Model& model, const ImportOptions& options, std::ostream& script,
                          std::string& error);

// A duration as scripts write it, in the largest unit that keeps it exact: "7us", "1500ns", "2s".
std::string ScriptDuration(uint64_t ns);

}  // namespace regemu::traces
