#include "regemu/emulator/script/script_runner.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <tuple>

#include "regemu/emulator/script/script_fields.hpp"
#include "regemu/emulator/script/script_lines.hpp"
#include "regemu/emulator/script/script_messages.hpp"
#include "regemu/emulator/stream_text.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

class Runner {
 public:
  Runner(const Script& script, Device& device, const RunOptions& options)
      : script_(script),
        device_(device),
        options_(options),
        names_(device.model(), options.database),
        lines_(device),
        slots_(script.slots, 0) {}

  RunResult Run() {
    device_.SetPolicy(options_.policy);
    stored_ = device_.violations().size();
    size_t failing_before = device_.failing_violation_count();
    time_limit_ns_ = options_.max_virtual_ns > std::numeric_limits<uint64_t>::max() - device_.now_ns()
                         ? std::numeric_limits<uint64_t>::max()
                         : device_.now_ns() + options_.max_virtual_ns;
    ScriptCommand resolved;
    for (const ScriptCommand& command : script_.commands) {
      ++result_.commands_run;
      observed_ = {};
      uint64_t start_ns = device_.now_ns();
      if (command.op == ScriptOp::kExpectViolation) {
        ++result_.checks;
        announced_.push_back(&command);
      } else if (command.deferred.empty()) {
        RunAnnounced(command);
      } else if (Resolve(command, resolved)) {
        RunAnnounced(resolved);
      }
      if (options_.record_commands) {
        observed_.command = static_cast<size_t>(&command - script_.commands.data());
        observed_.start_ns = start_ns;
        observed_.end_ns = device_.now_ns();
        result_.commands.push_back(observed_);
      }
      if (result_.error) break;
    }
    device_.SetPolicy(options_.policy);
    // Announced kinds were switched to kRecord: what still failed was not announced.
    result_.unannounced_failing = device_.failing_violation_count() - failing_before;
    return std::move(result_);
  }

 private:
  // Runs one command with the kinds announced for it recorded instead of
  // failing, then checks that each announced kind was recorded.
  void RunAnnounced(const ScriptCommand& command) {
    if (!announced_.empty()) {
      ViolationPolicy policy = options_.policy;
      for (const ScriptCommand* announce : announced_) policy.Set(announce->violation, ViolationAction::kRecord);
      device_.SetPolicy(policy);
    }
    size_t count_before = device_.violation_count();
    Execute(command);
    std::vector<ViolationKind> recorded = CollectViolations(command, device_.violation_count() - count_before);
    if (announced_.empty()) return;
    for (const ScriptCommand* announce : announced_) {
      if (std::find(recorded.begin(), recorded.end(), announce->violation) != recorded.end()) continue;
      std::string message = "expected a '" + std::string(ViolationKindName(announce->violation)) +
                            "' violation from line " + std::to_string(command.loc.line) + " (" +
                            ScriptCommandName(command) + "), but it recorded ";
      if (recorded.empty() && device_.violation_count() != count_before) {
        message += "violations the device no longer keeps (DeviceOptions::max_violations)";
      } else if (recorded.empty()) {
        message += "none";
      } else {
        for (size_t i = 0; i < recorded.size(); ++i) {
          message += (i == 0 ? "" : ", ") + std::string(ViolationKindName(recorded[i]));
        }
      }
      Fail(announce->loc, message);
    }
    announced_.clear();
    device_.SetPolicy(options_.policy);
  }

  // Moves the violations `command` recorded into the result; returns their kinds.
  std::vector<ViolationKind> CollectViolations(const ScriptCommand& command, size_t new_count) {
    std::vector<ViolationKind> kinds;
    if (new_count == 0 || store_full_) return kinds;
    std::vector<Violation> all = device_.violations();
    if (all.size() - stored_ < new_count) store_full_ = true;  // later ones are only counted: stop copying
    for (size_t i = stored_; i < all.size(); ++i) {
      bool announced = std::any_of(announced_.begin(), announced_.end(),
                                   [&](const ScriptCommand* a) { return a->violation == all[i].kind; });
      kinds.push_back(all[i].kind);
      result_.violations.push_back(ScriptViolation{command.loc, std::move(all[i]), announced});
    }
    stored_ = all.size();
    return kinds;
  }

  // `command` with its run-time operands evaluated (ScriptCommand::deferred);
  // false after stopping the run at the operand that cannot be computed or
  // does not fit.
  bool Resolve(const ScriptCommand& command, ScriptCommand& resolved) {
    resolved = command;
    for (const ScriptDeferredOperand& operand : command.deferred) {
      ScriptExpressionError error;
      std::optional<uint64_t> value = EvaluateScriptExpression(operand.expression, slots_, error);
      regdb::SourceLoc at = operand.loc;
      if (!value) {
        at.column = error.column;
        result_.error = ScriptFailure{at, operand.what + ": " + error.message};
        return false;
      }
      if ((*value & ~operand.limit) != 0) {
        result_.error = ScriptFailure{at, operand.what + " " + regdb::Hex(*value) + " does not fit in " +
                                              std::to_string(std::popcount(operand.limit)) + " bits"};
        return false;
      }
      switch (operand.into) {
        case ScriptDeferredOperand::Into::kValue: resolved.value = *value; break;
        case ScriptDeferredOperand::Into::kMask: resolved.mask = *value; break;
        case ScriptDeferredOperand::Into::kAddress: resolved.address = *value; break;
      }
    }
    bool compares = command.op == ScriptOp::kExpect || command.op == ScriptOp::kPoll;
    if (compares && (resolved.value & ~resolved.mask) != 0) {
      result_.error = ScriptFailure{command.deferred.front().loc,
                                    "VALUE " + regdb::Hex(resolved.value) + " has bits outside mask " +
                                        regdb::Hex(resolved.mask) + ": they would never be compared"};
      return false;
    }
    return true;
  }

  // print EXPR...: each value, "print v = 0x2a (42), T*3 = 120ns".
  void PrintValues(const ScriptCommand& command) {
    std::string text = "print";
    for (size_t i = 0; i < command.prints.size(); ++i) {
      const ScriptPrintItem& item = command.prints[i];
      ScriptExpressionError error;
      std::optional<uint64_t> value = EvaluateScriptExpression(item.expression, slots_, error);
      if (!value) {
        result_.error = ScriptFailure{regdb::SourceLoc{command.loc.file, command.loc.line, error.column},
                                      "print " + item.text + ": " + error.message};
        return;
      }
      if (i == 0) observed_.value = *value;
      text += (i == 0 ? " " : ", ") + item.text + " = " + FormatScriptValue(*value, item.expression.type);
    }
    result_.values.push_back(ScriptValue{command.loc, std::move(text)});
  }

  void Execute(const ScriptCommand& command) {
    const ScriptTarget& target = command.target;
    switch (command.op) {
      case ScriptOp::kWrite: {
        uint64_t value = command.value;
        if (target.is_field()) {  // read-modify-write (the parser planned keep and force)
          uint64_t read = command.keep != 0 ? device_.Read(target.space, target.offset, command.width) : 0;
          value = FieldWrite(command, read);
        }
        device_.Write(target.space, target.offset, command.width, value);
        return;
      }
      case ScriptOp::kRead:
        Print(command, device_.Read(target.space, target.offset, command.width));
        return;
      case ScriptOp::kExpect: {
        ++result_.checks;
        uint64_t value = device_.Read(target.space, target.offset, command.width);
        observed_.value = Operand(command, value);
        if (!Matches(command, value)) Fail(command.loc, "expectation failed: " + Mismatch(command, value));
        return;
      }
      case ScriptOp::kPoll: Poll(command); return;
      case ScriptOp::kPeek: Print(command, device_.Peek(target.space, target.offset, command.width)); return;
      case ScriptOp::kPoke: {
        uint64_t value = command.value;
        if (target.is_field()) value = FieldWrite(command, device_.PeekRegister(target.reg));
        // The parser made sure a register holds these bytes.
        device_.Poke(target.space, target.offset, command.width, value);
        return;
      }
      case ScriptOp::kStep: {
        if (!command.to_next_event) {
          Advance(command, command.value);
          return;
        }
        std::optional<uint64_t> due = device_.next_event_ns();
        if (!due) {
          Fail(command.loc, "step: no event is pending on the device's queue");
          return;
        }
        Advance(command, *due - device_.now_ns());
        return;
      }
      case ScriptOp::kPollStep: return;  // the parser gave each later poll its step
      case ScriptOp::kDump: Dump(command); return;
      case ScriptOp::kReset: device_.Reset(); return;
      case ScriptOp::kSnapshot: snapshot_ = device_.Snapshot(); return;
      case ScriptOp::kRestore:
        if (!snapshot_) {
          result_.error = ScriptFailure{command.loc, "restore without a snapshot taken earlier in the script"};
          return;
        }
        device_.Restore(*snapshot_);
        lines_.Restored(device_);
        return;
      case ScriptOp::kInject: {
        ScriptInject inject{device_.access_count(), 0, "inject " + command.verb};
        for (const std::string& arg : command.args) inject.text += " " + arg;
        if (std::string why = device_.Inject(command.verb, command.args); !why.empty()) {
          result_.error = ScriptFailure{command.verb_loc, "inject " + command.verb + ": " + why};
          return;
        }
        inject.end_sequence = device_.access_count();
        result_.injects.push_back(std::move(inject));
        return;
      }
      case ScriptOp::kReadIrq: {
        LineReading reading = lines_.Read(device_, command.verb);
        observed_.value = reading.asserted ? 1 : 0;
        observed_.edges = reading.edges;
        result_.values.push_back(ScriptValue{command.loc, "read-irq " + std::string(ScriptLineName(command)) +
                                                              " = " + (reading.asserted ? "1" : "0") + " (edges " +
                                                              std::to_string(reading.edges) + ")"});
        return;
      }
      case ScriptOp::kExpectIrq: {
        ++result_.checks;
        bool asserted = lines_.Read(device_, command.verb).asserted;
        observed_.value = asserted ? 1 : 0;
        if (asserted != (command.value != 0)) {
          std::string what = command.verb.empty() ? std::string("the interrupt output")
                                                  : "interrupt line " + command.verb;
          Fail(command.loc, "expected " + what + " " + (command.value != 0 ? "asserted" : "deasserted") +
                                ", but it is " + (asserted ? "asserted" : "deasserted"));
        }
        return;
      }
      case ScriptOp::kExpectEdges: {
        ++result_.checks;
        uint64_t edges = lines_.Read(device_, command.verb).edges;
        observed_.value = edges;
        if (edges != command.value) {
          Fail(command.loc, "expected " + std::to_string(command.value) + " rising edge(s) of " +
                                std::string(ScriptLineName(command)) + " " + lines_.Since(command.verb) +
                                ", but it rose " + std::to_string(edges) + " time(s)");
        }
        lines_.Mark(device_, command.verb, command.loc.line);
        return;
      }
      case ScriptOp::kMarkEdges: lines_.Mark(device_, command.verb, command.loc.line); return;
      case ScriptOp::kExpectNoMsi:
        ++result_.checks;
        if (std::string why = messages_.ExpectNone(device_); !why.empty()) Fail(command.loc, why);
        return;
      case ScriptOp::kExpectMsi: ExpectMsi(command); return;
      case ScriptOp::kExpectOutput: ExpectOutput(command); return;
      case ScriptOp::kExpectMetric: ExpectMetric(command); return;
      case ScriptOp::kExpectViolation: return;  // handled by Run
      case ScriptOp::kLet:
        slots_[*command.binds] = command.value;
        observed_.value = command.value;
        return;
      case ScriptOp::kPrint: PrintValues(command); return;
    }
  }

  // A derived metric of the events counted so far (Device::Metric).
  void ExpectMetric(const ScriptCommand& command) {
    ++result_.checks;
    std::string error;
    std::optional<double> value = device_.Metric(command.metric, error);
    if (!value) {
      Fail(command.loc, "expect-metric " + command.metric + ": " + error);
      return;
    }
    if (!(std::fabs(*value - command.expected) <= command.tolerance)) {
      std::ostringstream text;
      text.precision(12);
      text << "metric " << command.metric << " is " << *value << ", expected " << command.expected << " (tolerance "
           << command.tolerance << ")";
      if (!std::isfinite(*value)) {
        text << ": it divides by a count that is 0 in the counting window (was counting started, and the event "
                "injected since?)";
      }
      Fail(command.loc, text.str());
    }
  }

  // The next message this script has not checked yet must be DATA to ADDRESS.
  void ExpectMsi(const ScriptCommand& command) {
    ++result_.checks;
    if (std::string why = messages_.ExpectMessage(device_, command); !why.empty()) Fail(command.loc, why);
  }

  // The next entries out of a stream, after those the last expect-output
  // of it checked, are these, in order.
  void ExpectOutput(const ScriptCommand& command) {
    ++result_.checks;
    std::vector<StreamEntry> out = device_.output(command.verb);
    size_t& checked = outputs_checked_[command.verb];
    size_t from = std::min(checked, out.size());
    std::span<const StreamEntry> fresh(out.data() + from, out.size() - from);
    std::vector<StreamEntry> wanted;
    for (uint64_t value : command.entries) wanted.push_back(StreamEntry{0, value});
    std::string expected = std::to_string(command.entries.size()) + " entr" +
                           (command.entries.size() == 1 ? "y" : "ies") + " out of " + command.verb;
    if (fresh.size() < command.entries.size()) {
      Fail(command.loc, "expected " + expected + ", but only " + std::to_string(fresh.size()) + " came out: " +
                            DescribeStreamEntries(fresh) + " (a transmitter takes time: step first?)");
      checked = out.size();
      return;
    }
    for (size_t i = 0; i < command.entries.size(); ++i) {
      if (fresh[i].value == command.entries[i]) continue;
      Fail(command.loc, "expected " + expected + ", but entry " + std::to_string(i + 1) + " differs: came out " +
                            DescribeStreamEntries(fresh.first(command.entries.size())));
      break;
    }
    checked = from + command.entries.size();
  }

  // Reads until the value matches or the timeout has passed (see the header).
  void Poll(const ScriptCommand& command) {
    ++result_.checks;
    const ScriptTarget& target = command.target;
    uint64_t timeout = command.timeout_ns;
    uint64_t max_reads = std::max<uint64_t>(options_.max_poll_reads, 1);
    uint64_t interval = command.poll_step_ns != 0
                            ? command.poll_step_ns
                            : std::max<uint64_t>({options_.min_poll_interval_ns, 1,
                                                  timeout / max_reads + (timeout % max_reads != 0 ? 1 : 0)});
    uint64_t start = device_.now_ns();
    ScriptPoll poll{command.loc, device_.access_count() + 1, 0};
    for (uint64_t reads = 1;; ++reads) {
      uint64_t before = device_.now_ns();
      uint64_t value = device_.Read(target.space, target.offset, command.width);
      observed_.value = Operand(command, value);
      poll.last_sequence = device_.access_count();
      if (Matches(command, value)) break;
      uint64_t now = device_.now_ns();
      uint64_t elapsed = now - start;
      if (elapsed >= timeout) {
        Fail(command.loc, "poll timed out after " + std::to_string(elapsed) + "ns of virtual time and " +
                              std::to_string(reads) + " read(s): " + Mismatch(command, value));
        break;
      }
      uint64_t spent = now - before;  // the read's own access cost
      uint64_t wait = std::min(interval > spent ? interval - spent : 0, timeout - elapsed);
      // An event due sooner (a delayed action setting the bit polled for)
      // ends the wait at its instant: the read after it sees it exactly.
      if (std::optional<uint64_t> due = device_.next_poll_stop_ns(); due && *due > now && *due - now < wait) {
        wait = *due - now;
      }
      if (wait != 0 && !Advance(command, wait)) break;
    }
    result_.polls.push_back(poll);
  }

  // The value an access read, in the command's units: the field's, shifted down.
  static uint64_t Operand(const ScriptCommand& command, uint64_t value) {
    const ScriptTarget& target = command.target;
    return target.is_field() ? (value & target.field_mask) >> target.field_shift : value;
  }

  static bool Matches(const ScriptCommand& command, uint64_t value) {
    return (Operand(command, value) & command.mask) == (command.value & command.mask);
  }

  // What a write or poke of REG.FIELD puts in the register, given what was read.
  static uint64_t FieldWrite(const ScriptCommand& command, uint64_t read) {
    return (read & command.keep) | command.force | (command.value << command.target.field_shift);
  }

  // dump [SPACE]: one line per register, ordered by space and offset, with
  // its fields; by the backdoor, so nothing happens to the device.
  void Dump(const ScriptCommand& command) {
    const Model& model = device_.model();
    std::vector<uint64_t> values(model.registers().size());
    device_.PeekRegisters(values);
    std::vector<RegisterId> ids;
    size_t space_width = 0, offset_width = 0, name_width = 0;
    for (RegisterId id = 0; id < model.registers().size(); ++id) {
      const RegisterModel& r = model.registers()[id];
      if (command.dump_space && r.space != *command.dump_space) continue;
      ids.push_back(id);
      space_width = std::max(space_width, model.spaces()[r.space].name.size());
      offset_width = std::max(offset_width, regdb::Hex(r.offset).size());
      name_width = std::max(name_width, r.name.size());
    }
    std::sort(ids.begin(), ids.end(), [&](RegisterId a, RegisterId b) {
      const RegisterModel& ra = model.registers()[a];
      const RegisterModel& rb = model.registers()[b];
      return std::tie(ra.space, ra.offset, a) < std::tie(rb.space, rb.offset, b);
    });
    auto padded = [](std::string text, size_t width) {
      text.resize(std::max(text.size(), width), ' ');
      return text;
    };
    std::string text = "dump";
    if (command.dump_space) text += " " + model.spaces()[*command.dump_space].name;
    text += ": " + std::to_string(ids.size()) + " register(s)";
    for (RegisterId id : ids) {
      const RegisterModel& r = model.registers()[id];
      std::string line = "\n  " + padded(model.spaces()[r.space].name, space_width) + " " +
                         padded(regdb::Hex(r.offset), offset_width) + " " + padded(r.name, name_width) + " = " +
                         regdb::HexPadded(values[id], r.width);
      if (std::string fields = names_.Fields(id, values[id]); !fields.empty()) line += "  " + fields;
      text += line;
    }
    result_.values.push_back(ScriptValue{command.loc, std::move(text)});
  }

  bool Advance(const ScriptCommand& command, uint64_t ns) {
    if (ns > std::numeric_limits<uint64_t>::max() - device_.now_ns()) {
      result_.error = ScriptFailure{command.loc, "virtual time would pass 2^64 ns"};
      return false;
    }
    if (device_.now_ns() + ns > time_limit_ns_) {
      result_.error = ScriptFailure{command.loc, "the run would pass its limit of " +
                                                     std::to_string(options_.max_virtual_ns) +
                                                     "ns of virtual time (RunOptions::max_virtual_ns)"};
      return false;
    }
    device_.Advance(ns);
    return true;
  }

  // "CTRL read 0x00001201, expected 0x00001301: HI=0x12, expected 0x13" or,
  // for a field, "CTRL.HI read 0x12, expected 0x13 (CTRL = 0x00001201)".
  std::string Mismatch(const ScriptCommand& command, uint64_t value) const {
    const ScriptTarget& target = command.target;
    if (target.is_field()) {
      uint64_t field_bits = target.field_mask >> target.field_shift;
      std::string text = target.display + " read " + names_.Text(target.reg, target.field, Operand(command, value)) +
                         ", expected " + names_.Text(target.reg, target.field, command.value);
      if (command.mask != field_bits) text += " under mask " + regdb::Hex(command.mask);
      return text + " (" + device_.model().registers()[target.reg].name + " = " +
             regdb::HexPadded(value, command.width) + ")";
    }
    std::string text = target.display + " read " + regdb::HexPadded(value, command.width) + ", expected " +
                       regdb::HexPadded(command.value, command.width);
    if (command.mask != WidthMask(command.width)) text += " under mask " + regdb::HexPadded(command.mask, command.width);
    if (target.reg != kNoRegister) {
      const RegisterModel& r = device_.model().registers()[target.reg];
      bool indexed = device_.model().spaces()[target.space].indexed;
      unsigned lane_shift = indexed ? 0 : static_cast<unsigned>((target.offset - r.offset) * 8);
      std::string fields = names_.Differences(target.reg, lane_shift, value, command.value, command.mask);
      if (!fields.empty()) text += ": " + fields;
    }
    return text;
  }

  void Print(const ScriptCommand& command, uint64_t value) {
    const ScriptTarget& target = command.target;
    observed_.value = Operand(command, value);
    if (command.binds) slots_[*command.binds] = Operand(command, value);  // let NAME = readN REG
    std::string shown = target.is_field() ? names_.Text(target.reg, target.field, Operand(command, value))
                                          : regdb::HexPadded(value, command.width);
    result_.values.push_back(
        ScriptValue{command.loc, ScriptCommandName(command) + " " + target.display + " = " + shown});
  }

  void Fail(regdb::SourceLoc loc, std::string message) {
    result_.failures.push_back(ScriptFailure{loc, std::move(message)});
  }

  const Script& script_;
  Device& device_;
  const RunOptions& options_;
  FieldValueNames names_;
  RunResult result_;
  std::vector<const ScriptCommand*> announced_;  // expect-violation lines for the next command
  size_t stored_ = 0;        // violations the device kept before the current command
  MessageChecks messages_;  // expect-msi, expect-no-msi
  LineMarks lines_;         // read-irq, expect-irq, expect-edges, mark-edges
  ScriptCommandRecord observed_;  // what the command running observed (RunOptions::record_commands)
  std::map<std::string, size_t> outputs_checked_;  // per output stream: entries expect-output checked
  bool store_full_ = false;  // the device stopped keeping violations
  std::optional<DeviceSnapshot> snapshot_;  // the one slot `snapshot` fills and `restore` reads
  std::vector<uint64_t> slots_;  // the values `let` bound at run time (ScriptCommand::binds)
  uint64_t time_limit_ns_ = 0;   // the virtual time the run may not pass (RunOptions::max_virtual_ns)
};

}  // namespace

bool IsScriptCheck(ScriptOp op) {
  switch (op) {
    case ScriptOp::kExpect:
    case ScriptOp::kPoll:
    case ScriptOp::kExpectIrq:
    case ScriptOp::kExpectMsi:
    case ScriptOp::kExpectViolation:
    case ScriptOp::kExpectMetric:
    case ScriptOp::kExpectOutput:
    case ScriptOp::kExpectEdges:
    case ScriptOp::kExpectNoMsi: return true;
    default: return false;
  }
}

RunResult RunScript(const Script& script, Device& device, const RunOptions& options) {
  return Runner(script, device, options).Run();
}

std::string FormatScriptFailure(const Script& script, const ScriptFailure& failure) {
  return regdb::FormatDiagnostic(script.sources,
                                 regdb::Diagnostic{regdb::Severity::kError, failure.loc, failure.message, {}});
}

}  // namespace regemu::emulator
