#pragma once
// Replays a capture against a database and sets the database against what
// real hardware answered. Three findings:
//
// - gaps: accesses nothing in the database decodes (no register, range or
//   window), grouped into address ranges: what the driver touched that the
//   database does not model;
// - mistakes: reads whose captured value the model cannot produce (a
//   read-only bit other than its reset, a write-1-to-clear bit still set
//   right after the driver cleared it, a reserved range that read non-zero,
//   a stored bit that did not read back what was written);
// - violations: the driver broke one of the database's rules, as `regemu
//   run` reports them.
//
// What the model cannot know is not a mistake: bits of `volatile` registers
// and fields and `hw` fields (counters, timestamps, levels) are not
// compared, and a status bit (w1c and the other write-to-act policies, rc)
// that reads 1 where the model holds 0 is a hardware event: the model takes
// it and goes on. The replay streams: memory grows with the distinct
// addresses the capture touches outside the database, not with its length.

#include <cstdint>
#include <istream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/database.hpp"
#include "tools/traces/capture_address_map.hpp"
#include "tools/traces/capture_reader.hpp"

namespace regemu::traces {

struct ReplayOptions {
  std::optional<CaptureFormat> format;  // none: detect it
  std::vector<ExplicitMapping> mappings;  // --map SPACE=BASE
  std::optional<uint32_t> device;       // --device VVVV:DDDD, as vendor << 16 | device
  size_t max_listed = 1000;             // mistakes and violations listed in full; all are counted
  // Addresses this close (in bytes) join one gap range.
  uint64_t gap_join = 0x100;
};

struct ReplayGap {
  std::string space;       // "" for addresses in no space of the database
  uint64_t first = 0;      // offset in the space, or the capture's address
  uint64_t end = 0;        // one past the last byte accessed
  uint64_t addresses = 0;  // distinct addresses
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t first_line = 0;
};

struct ReplayMistake {
  uint64_t line = 0;
  std::string space;
  uint64_t offset = 0;
  unsigned width = 0;  // bits
  std::string reg;     // the register (the first one the access covers), or the range
  uint64_t captured = 0;
  uint64_t model = 0;
  uint64_t bits = 0;   // the bits that disagree
  std::string kind;    // "read-only", "w1c-still-set", "reserved", "status", "stored"
  std::string why;
};

struct ReplayViolation {
  uint64_t line = 0;
  emulator::Violation violation;
};

struct ReplayReport {
  std::string capture;
  std::string format;
  std::vector<std::string> notes;  // the address map's decisions and the setup done
  uint64_t lines = 0;
  uint64_t bytes = 0;
  uint64_t reads = 0;
  uint64_t writes = 0;
  uint64_t modelled = 0;        // accesses something in the database decodes
  uint64_t gap_accesses = 0;    // in a space, nothing decodes
  uint64_t outside_accesses = 0;  // in no space
  uint64_t compared_reads = 0;  // reads with bits the model knows
  uint64_t unknowable_reads = 0;  // reads of only volatile/hw bits
  uint64_t hardware_events = 0; // status bits taken from the capture
  uint64_t marks = 0;
  uint64_t maps = 0;
  uint64_t unknown_records = 0;  // UNKNOWN: accesses mmiotrace could not decode
  std::vector<uint64_t> unknown_lines;
  uint64_t lost_events = 0;
  std::vector<ReplayGap> gaps;
  std::vector<ReplayMistake> mistakes;
  uint64_t mistake_count = 0;
  std::vector<ReplayViolation> violations;
  uint64_t violation_count = 0;
  std::vector<CaptureProblem> problems;
  uint64_t problem_count = 0;
  bool missing_bars = false;  // mmiotrace accesses without PCIDEV lines or --map
  bool read_failed = false;
  uint64_t final_time_ns = 0;

  bool clean() const { return gaps.empty() && mistake_count == 0 && violation_count == 0; }
};

// `error` is set (and nothing replayed) when the options do not fit the database.
ReplayReport ReplayCapture(std::istream& capture, const std::string& name, const regdb::Database& db,
                           std::shared_ptr<const emulator::Model> model, const ReplayOptions& options,
                           std::string& error);

}  // namespace regemu::traces
