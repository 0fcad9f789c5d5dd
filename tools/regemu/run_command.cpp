#include "tools/regemu/run_command.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <ostream>
#include <sstream>
#include <utility>
#include <variant>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/emulator/trace.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/numbers.hpp"
#include "tools/regemu/device_inputs.hpp"
#include "tools/regemu/oa_recording_session.hpp"
#include "tools/regemu/run_json.hpp"

namespace regemu::tools {
namespace {

using emulator::RunResult;
using emulator::Script;

// The trace, oldest first, as script lines with polls collapsed; says so
// when the ring dropped some.
void PrintTrace(std::ostream& out, const emulator::Device& device, size_t capacity, const RunResult& result) {
  std::vector<emulator::TraceEntry> trace = device.Trace();
  if (capacity == 0) {
    out << "# trace: off (--trace-capacity 0)\n";
    return;
  }
  uint64_t total = device.access_count();
  if (total > trace.size()) {
    out << "# trace: the first " << total - trace.size() << " of " << total
        << " entries are not shown (--trace-capacity " << capacity << ")\n";
  }
  out << emulator::RenderRunTrace(device.model(), trace, result.polls, result.injects);
}

std::string Prefix(const Script& script, regdb::SourceLoc loc) {
  return script.sources.file(script.file).path + ":" + std::to_string(loc.line) + ": ";
}

// Values, failures and violations in script-line order, then the summary;
// `quiet` leaves out values and announced violations.
void PrintReport(std::ostream& out, const Script& script, const emulator::Device& device, const RunResult& result,
                 bool lenient, bool quiet) {
  std::vector<std::pair<uint32_t, std::string>> lines;  // (script line, text), stably sorted below
  for (const emulator::ScriptValue& value : result.values) {
    if (quiet) break;
    lines.emplace_back(value.loc.line, Prefix(script, value.loc) + value.text + "\n");
  }
  for (const emulator::ScriptFailure& failure : result.failures) {
    lines.emplace_back(failure.loc.line, FormatScriptFailure(script, failure));
  }
  size_t announced = 0;
  for (const emulator::ScriptViolation& v : result.violations) {
    std::string text = Prefix(script, v.loc);
    if (v.announced) {
      ++announced;
      if (quiet) continue;
      text += "announced violation: " + v.violation.Summary() + "\n";
    } else if (v.violation.fails) {
      text += "error: violation not announced by expect-violation: " + v.violation.Describe(device.model());
    } else {
      text += "violation (recorded, not failing): " + v.violation.Describe(device.model());
    }
    lines.emplace_back(v.loc.line, std::move(text));
  }
  std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& line : lines) out << line.second;
  if (device.violation_count() > result.violations.size()) {
    out << "note: " << device.violation_count() - result.violations.size()
        << " more violation(s) were counted but not kept\n";
  }

  out << (result.passed() ? "PASS " : "FAIL ") << script.sources.file(script.file).path << ": "
      << result.commands_run << " command(s), " << result.checks << " check(s), " << result.failures.size()
      << " failed; " << device.violation_count() << " violation(s): " << announced << " announced, "
      << device.violation_count() - announced << " not announced (" << (lenient ? "lenient" : "strict") << ")\n";
}

}  // namespace

int RunRunCommand(const RunCommandOptions& options, std::ostream& out, std::ostream& err) {
  // With --json, stdout is one JSON document whatever happens; what would
  // have been printed on stderr still is, and the document carries it too.
  std::ostringstream captured;
  std::ostream& diag = options.json ? static_cast<std::ostream&>(captured) : err;
  RunJsonHeader header{options.database, options.script == "-" ? std::string(kStdinName) : options.script,
                       options.lenient};
  auto early_error = [&](const Script* script = nullptr) {
    if (options.json) {
      err << captured.str();
      out << RunErrorJson(header, captured.str(), script).dump(2) << "\n";
    }
    return 2;
  };

  auto access_cost = regdb::ParseDurationNs(options.access_cost);
  if (auto* error = std::get_if<regdb::NumberError>(&access_cost)) {
    diag << "regemu run: --access-cost: " << error->message << "\n";
    return early_error();
  }
  if (!options.oa_recording.empty()) {
    if (auto problem = CheckMetricSetName(options.oa_metric_set)) {
      diag << "regemu run: --oa-metric-set: " << *problem << "\n";
      return early_error();
    }
  }
  if (!DatabaseExists("regemu run", options.database, diag)) return early_error();
  emulator::ScriptLimits limits;
  std::string text;
  if (!ReadScript("regemu run", options.script, limits.max_bytes, text, diag)) return early_error();

  CompiledDatabase compiled = CompileDatabase(options.database, diag);
  if (!compiled.model) return early_error();
  const regdb::LoadedDatabase& loaded = compiled.loaded;

  Script script = emulator::ParseScript(std::move(text), header.script, *compiled.model, limits);
  if (!script.ok()) {
    diag << script.FormatErrors();
    return early_error(&script);
  }

  emulator::DeviceOptions device_options;
  device_options.trace_capacity = options.trace_capacity;
  device_options.access_cost_ns = std::get<uint64_t>(access_cost);
  // A suite of scripts is a test suite too: REGEMU_COVERAGE counts it, as it does DeviceTest's.
  device_options.coverage = emulator::CoverageFromEnvironment();
  std::unique_ptr<OaRecordingSession> recording;
  if (!options.oa_recording.empty()) {
    OaRecordingOptions recording_options;
    recording_options.metric_set = options.oa_metric_set;
    recording = OaRecordingSession::Start(loaded.database, options.oa_recording, recording_options, diag);
    if (!recording) return early_error();
    device_options.on_record = recording->Observer();
  }
  emulator::Device device(compiled.model, device_options);
  emulator::RunOptions run_options;
  run_options.policy = options.lenient ? emulator::ViolationPolicy::Lenient() : emulator::ViolationPolicy::Strict();
  run_options.database = &loaded.database;
  run_options.record_commands = options.json;
  RunResult result = emulator::RunScript(script, device, run_options);

  if (options.json) {
    int status = result.passed() ? 0 : 1;
    if (result.error) diag << FormatScriptFailure(script, *result.error);
    // The recording's own report goes to stderr: stdout is the document.
    if (recording && !recording->Finish(err, diag)) status = 2;
    if (result.error) status = 2;
    err << captured.str();
    nlohmann::ordered_json report = RunReportJson(header, script, device, result, status);
    if (status == 2 && report["error"].is_null()) report["error"] = {{"message", captured.str()}};
    out << report.dump(2) << "\n";
    return status;
  }
  if (!options.quiet) {
    PrintTrace(out, device, options.trace_capacity, result);
    out << "\n";
  }
  if (result.error) {
    err << FormatScriptFailure(script, *result.error);
    // What the unit reported before the error is still worth reading.
    if (recording) recording->Finish(out, err);
    return 2;
  }
  PrintReport(out, script, device, result, options.lenient, options.quiet);
  if (recording && !recording->Finish(out, err)) return 2;
  return result.passed() ? 0 : 1;
}

}  // namespace regemu::tools
