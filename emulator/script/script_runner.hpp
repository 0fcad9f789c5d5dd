#pragma once
// Runs a parsed script against a Device and says whether every expectation
// held: failed expectations with their line, the violations the run
// recorded (announced by `expect-violation` or not), and the values that
// read and peek commands print.
//
// Like gtest's EXPECT_*, a failed expectation does not stop the run; only a
// script error found while running (an `inject` whose arguments its
// behaviour refuses, time running past 2^64 ns or RunOptions::max_virtual_ns,
// a run-time operand that does not fit or cannot be computed) does.
//
// Polling: `pollN REG VALUE [mask M] timeout D` reads, and while the value
// does not match and less than D has passed since the poll began, lets one
// poll interval of virtual time pass and reads again. The interval is the
// script's `poll-step` in effect (ScriptCommand::poll_step_ns), exactly;
// without one, max(min_poll_interval_ns, D / max_poll_reads): 10 ns,
// coarser for long timeouts so that one poll is at most about 10,000
// reads. The read's own access cost (DeviceOptions::access_cost_ns) counts
// towards the interval; the rest is a `step`, which shows in the trace. The
// last read happens when D has passed, so a value that arrives within D is
// seen. Each poll's trace entries are listed (RunResult::polls) so that a
// printed trace can collapse its repeated reads (RenderRunTrace).
//
// Fields (REG.FIELD): a read, expect or poll compares the field's value; a
// write is a read-modify-write of the register through the frontdoor, as a
// driver does it (ScriptCommand::keep: two accesses with the read's side
// effects, one for a masked register or when nothing else reads back); a
// poke is the same by the backdoor. A failed expectation names the fields
// that differ, with enumerated values named when RunOptions::database is
// set. `dump` prints every register with its fields, by the backdoor: no
// side effect, no violation, nothing in the trace.

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"

namespace regemu::emulator {

struct RunOptions {
  // The device's policy during the run: Strict() fails on any violation no
  // `expect-violation` announced; Lenient() records them only.
  ViolationPolicy policy = ViolationPolicy::Strict();
  // The poll interval of polls no `poll-step` precedes (see above).
  uint64_t min_poll_interval_ns = 10;
  uint64_t max_poll_reads = 10'000;
  // The database the device's model was compiled from: it names fields'
  // enumerated values in messages and dumps. Optional.
  const regdb::Database* database = nullptr;
  // Keep a ScriptCommandRecord per command run (RunResult::commands), for
  // tools that report a run command by command (`regemu run --json`).
  bool record_commands = false;
  // The virtual time the run may pass, from its start: a step, poll or
  // stepping to an event that would go past it stops the run with an error.
  // For fuzzers and tools that run untrusted scripts (`step v*1s` is
  // known only when it runs).
  uint64_t max_virtual_ns = std::numeric_limits<uint64_t>::max();
};

struct ScriptFailure {
  regdb::SourceLoc loc;  // the line whose expectation failed
  std::string message;
};

struct ScriptViolation {
  regdb::SourceLoc loc;  // the command that recorded it
  Violation violation;
  bool announced = false;  // an `expect-violation` asked for it
};

struct ScriptValue {
  regdb::SourceLoc loc;  // the read or peek command
  std::string text;      // "read32 OASTATUS2 = 0x00000001"
};

// The trace entries one poll made: its reads and the steps between them.
struct ScriptPoll {
  regdb::SourceLoc loc;
  uint64_t first_sequence = 0;  // TraceEntry::sequence of its first read
  uint64_t last_sequence = 0;   // and of its last entry
};

// An `inject` the run made: it goes back into the printed trace (which
// replays it) in place of the accesses it made itself, which are entries
// (after_sequence, end_sequence] of the trace.
struct ScriptInject {
  uint64_t after_sequence = 0;
  uint64_t end_sequence = 0;
  std::string text;  // "inject VERB ARGS..."
};

// What one command did, when RunOptions::record_commands asks.
struct ScriptCommandRecord {
  size_t command = 0;    // its index in Script::commands
  uint64_t start_ns = 0;  // the virtual time when it began
  uint64_t end_ns = 0;    // and when it ended
  // What it observed: readN, peekN, expectN and pollN the value read (the
  // last read of a poll; a field's value shifted down); read-irq and
  // expect-irq the line's level; expect-edges the rising edges counted.
  std::optional<uint64_t> value;
  std::optional<uint64_t> edges;  // read-irq: the line's rising edges since its mark
};

struct RunResult {
  std::vector<ScriptFailure> failures;
  std::vector<ScriptViolation> violations;  // in the order recorded (up to the device's max_violations)
  std::vector<ScriptValue> values;
  std::vector<ScriptPoll> polls;  // in the order run
  std::vector<ScriptInject> injects;  // in the order run
  std::vector<ScriptCommandRecord> commands;  // in the order run, when RunOptions::record_commands
  size_t unannounced_failing = 0;  // violations that fail the run: not announced, and the policy says kFail
  size_t commands_run = 0;
  size_t checks = 0;  // the checks (IsScriptCheck) evaluated
  std::optional<ScriptFailure> error;  // a script error that stopped the run

  bool passed() const { return !error && failures.empty() && unannounced_failing == 0; }
};

// Whether a command is an expectation: expect, poll and every expect-* command.
bool IsScriptCheck(ScriptOp op);

// Runs `script` (which must be ok()) on `device`, which it leaves with
// `options.policy`.
RunResult RunScript(const Script& script, Device& device, const RunOptions& options = {});

// The trace of a run as script lines (RenderTrace), with each run of a
// poll's identical reads collapsed into its first read, annotated
// `polled K times, the last at t=T`, and one `step` for the time until the
// poll's next read (or its end): the text still replays to the same state
// and time, with fewer reads.
std::string RenderRunTrace(const Model& model, const std::vector<TraceEntry>& trace,
                           const std::vector<ScriptPoll>& polls, const std::vector<ScriptInject>& injects = {});

// `failure` rendered like a diagnostic: `PATH:LINE:COL: error: message`, the line and a caret.
std::string FormatScriptFailure(const Script& script, const ScriptFailure& failure);

}  // namespace regemu::emulator
