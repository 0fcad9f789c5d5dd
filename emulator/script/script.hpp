#pragma once
// Scripts: register sequences as text, one command per line, in the spirit
// of QEMU's qtest protocol. `regemu run`, fuzz reproducers and tests use
// them, and the trace renders as a script (trace.hpp), so a trace replays.
//
//   writeN  REG VALUE                        frontdoor write
//   readN   REG                              frontdoor read; the value is printed
//   expectN REG VALUE [mask M]               frontdoor read, compared under the mask
//   pollN   REG VALUE [mask M] timeout D     frontdoor reads until equal, in virtual time
//   peekN   REG                              backdoor read (no side effect); printed
//   pokeN   REG VALUE                        backdoor write (no side effect)
//   step    D                                advance the virtual clock (500ns, 2us, 1ms, 1s)
//   step                                     advance it to the next event on the device's queue
//                                            (a delayed action, a counter match); an error when none is pending
//   reset                                    power-on reset
//   snapshot                                 saves the device's whole state (one slot per run)
//   restore                                  brings back the state `snapshot` saved
//   inject  VERB ARGS...                     hardware-side event for the behaviours
//   read-irq [LINE]                          prints a line's level and its rising edges since its mark
//   expect-irq [LINE] 0|1                    the line is deasserted / asserted
//   expect-edges [LINE] N                    the line rose N times since its mark; moves the mark here
//   mark-edges [LINE]                        moves the line's mark here (each line's starts with the script)
//                                            LINE: one of Model::interrupt_lines, or `irq` (also when
//                                            left out): the device's interrupt output
//   expect-msi ADDRESS|* DATA|*              the device's next message not yet checked (an MSI:
//                                            Device::messages()) is a write of DATA to ADDRESS
//                                            (`*`: any); fails if it differs or if there is none
//   expect-no-msi                            the device sent no message since the last one checked
//   expect-violation KIND                    the next command must record a KIND violation
//   dump    [SPACE]                          every register (of SPACE) and its fields, by the backdoor
//   poll-step D                              the virtual time between a poll's reads, from here on
//   let NAME = EXPR                          names a value (a number or a duration) for the lines below
//   let NAME = readN REG | peekN REG         names the value a read or peek returns when it runs
//   print EXPR...                            prints each expression's value
//
// N is 8, 16, 32 or 64. REG is `SPACE OFFSET`, a register name (a space
// name wins when a register has the same name) or `REGISTER.FIELD`; a named
// register's width must be N or wider, and a narrower N accesses its low
// bytes. With a field, values and masks are the field's (shifted down), and
// a write is a read-modify-write of the register (emulator/README.md,
// "Scripts"). Numbers are decimal, 0x hex or 0b binary with `_` between
// digits, and must fit in N bits (in the field). Every number and duration
// may be an expression over them and `let` names (script_expression.hpp:
// `step 500*T`, `expect32 VALUE (v - 1)`). `#` starts a comment.
// Every name is resolved against the Model when the script is parsed, and
// every inject verb is offered to the behaviours, so a misspelt register,
// field or verb fails before anything runs.
//
// Parsing never throws: every error is a diagnostic `SCRIPT:LINE:COL: error:`
// with the line and a caret, rendered like the database's.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/inject_forms.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script_expression.hpp"
#include "regemu/emulator/trace.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"

namespace regemu::emulator {

enum class ScriptOp : uint8_t {
  kWrite,
  kRead,
  kExpect,
  kPoll,
  kPeek,
  kPoke,
  kStep,
  kReset,
  kInject,
  kExpectIrq,
  kExpectMsi,
  kExpectViolation,
  kSnapshot,
  kRestore,
  kExpectMetric,
  kDump,
  kPollStep,
  kExpectOutput,
  kReadIrq,
  kExpectEdges,
  kMarkEdges,
  kExpectNoMsi,
  kLet,    // let NAME = EXPR, with EXPR known only when it runs (a constant `let` is no command)
  kPrint,
};

// The name scripts (and the C shim) give the device's interrupt output
// (Device::interrupt_asserted, interrupt_edges), so that a one-line device's
// line is addressed like a named one; no named line may take it.
inline constexpr std::string_view kInterruptOutputName = "irq";

inline constexpr uint32_t kNoField = ~uint32_t{0};

// Where an access goes, resolved at parse time.
struct ScriptTarget {
  SpaceId space = 0;
  uint64_t offset = 0;
  RegisterId reg = kNoRegister;  // the register named, or the one decoding at the offset
  std::string display;           // "OASTATUS2 (mmio 0x2368)", "CTRL.EN", for messages
  // REG.FIELD: the field (an index into the register's fields) and its bits
  // in register position. The command's value and mask are then in field
  // units, i.e. shifted down by `field_shift`.
  uint32_t field = kNoField;
  uint64_t field_mask = 0;
  unsigned field_shift = 0;

  bool is_field() const { return field != kNoField; }
};

// An operand whose expression reads a name bound at run time: the runner
// evaluates it when the command runs and puts it `into` the command.
struct ScriptDeferredOperand {
  enum class Into : uint8_t { kValue, kMask, kAddress };
  Into into = Into::kValue;
  ScriptExpression expression;
  uint64_t limit = ~uint64_t{0};  // the bits the value may have (the access's N, or the field's)
  std::string what;               // "VALUE", "mask", "N (rising edges)", for messages
  regdb::SourceLoc loc;           // the operand's word
};

// One expression of a `print` command, with its text as written.
struct ScriptPrintItem {
  std::string text;
  ScriptExpression expression;
};

struct ScriptCommand {
  ScriptOp op = ScriptOp::kReset;
  regdb::SourceLoc loc;     // the command word; loc.line is the 1-based script line
  unsigned width = 0;       // access commands: 8, 16, 32 or 64
  ScriptTarget target;      // access commands
  uint64_t value = 0;       // write/poke/expect/poll value; step and poll-step nanoseconds; expect-irq 0 or 1;
                            // expect-edges the count
  uint64_t mask = ~uint64_t{0};  // expect/poll: the bits compared (all N bits, or all the field's, by default)
  // write/poke of REG.FIELD: the register's bits carried over from a read
  // before the write (0: no read), and bits written as 1 whatever was read
  // (a masked register's enables, write-0-to-act bits left alone). The
  // value written is (read & keep) | force | (value << field_shift).
  uint64_t keep = 0;
  uint64_t force = 0;
  uint64_t timeout_ns = 0;  // poll
  bool to_next_event = false;  // step without a duration: to the device's next pending event
  uint64_t poll_step_ns = 0;  // poll: the interval set by the last `poll-step` before it; 0: the runner's default
  uint64_t address = 0;     // expect-msi: the message's address (`value` is its data)
  bool any_address = false;  // expect-msi `*` ADDRESS: any address
  bool any_data = false;     // expect-msi `*` DATA: any data
  ViolationKind violation = ViolationKind::kUnmodelled;  // expect-violation
  std::string verb;                 // inject; expect-output: the stream; read-irq, expect-irq, expect-edges,
                                    // mark-edges: the named line, or "" for the interrupt output (`irq`)
  std::vector<std::string> args;    // inject
  std::vector<uint64_t> entries;    // expect-output: what must come out next
  regdb::SourceLoc verb_loc;        // inject: where the verb is, for the behaviour's error
  std::string metric;               // expect-metric: the metric's name
  double expected = 0;              // expect-metric: its value
  double tolerance = 0;             // expect-metric: the largest difference accepted
  std::optional<SpaceId> dump_space;  // dump: the space named, or none for every space
  std::vector<ScriptDeferredOperand> deferred;  // operands known only when the command runs
  // let NAME = readN/peekN REG, or a kLet: the run-time slot that takes the
  // value read (a field's, shifted down) or computed.
  std::optional<uint32_t> binds;
  std::vector<ScriptPrintItem> prints;  // print
};

// Bounds that keep hostile input cheap: the whole text, one line, the errors kept.
struct ScriptLimits {
  size_t max_bytes = size_t{16} << 20;
  size_t max_line_length = 4096;  // before the `#` comment
  size_t error_limit = regdb::Diagnostics::kDefaultErrorLimit;
  // After `poll-step D`, a poll reads every D exactly: one that could read
  // more often than this (timeout / D + 1) is an error.
  uint64_t max_poll_reads = 1'000'000;
};

struct Script {
  regdb::SourceSet sources;  // the script's text, so diagnostics can show its lines
  uint32_t file = 0;         // the script's id in `sources`
  std::vector<ScriptCommand> commands;
  uint32_t slots = 0;  // the values `let` binds at run time (ScriptCommand::binds)
  regdb::Diagnostics diagnostics;

  bool ok() const { return !diagnostics.has_errors(); }
  // Every error, `PATH:LINE:COL: error: message` with the line and a caret.
  std::string FormatErrors() const { return regdb::FormatDiagnostics(sources, diagnostics); }
};

// Parses `text` (named `path` in messages) against `model`. The commands are
// only meaningful when the result is ok().
Script ParseScript(std::string text, std::string path, const Model& model, const ScriptLimits& limits = {});

// Whether some behaviour of a model takes `inject VERB`: ParseScript asks
// for each inject line, so one no behaviour takes fails before anything
// runs. The verbs are those the model's programs declare
// (BehaviourProgram::InjectForms), read on the first question; arguments
// are checked when the inject runs. `model` must outlive the check.
class InjectVerbCheck {
 public:
  explicit InjectVerbCheck(const Model& model);
  ~InjectVerbCheck();
  InjectVerbCheck(const InjectVerbCheck&) = delete;
  InjectVerbCheck& operator=(const InjectVerbCheck&) = delete;

  // "" when a behaviour takes VERB; else why not, naming the behaviour when
  // VERB is one's name, with the closest declared verb.
  std::string Problem(const std::string& verb);

 private:
  const Model& model_;
  std::optional<std::vector<DeclaredInject>> declared_;
};

// The command word as written in scripts: "write32", "step", "expect-violation".
std::string ScriptCommandName(const ScriptCommand& command);

// The line a read-irq, expect-irq, expect-edges or mark-edges names, as
// written in scripts: a named line, or `irq` for the interrupt output.
inline std::string_view ScriptLineName(const ScriptCommand& command) {
  return command.verb.empty() ? kInterruptOutputName : std::string_view(command.verb);
}

}  // namespace regemu::emulator
