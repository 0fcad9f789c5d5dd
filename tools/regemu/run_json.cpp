#include "tools/regemu/run_json.hpp"

#include <map>
#include <string_view>
#include <vector>

namespace regemu::tools {
namespace {

using json = nlohmann::ordered_json;

std::string_view TraceOpName(emulator::TraceOp op) {
  switch (op) {
    case emulator::TraceOp::kRead: return "read";
    case emulator::TraceOp::kWrite: return "write";
    case emulator::TraceOp::kPeek: return "peek";
    case emulator::TraceOp::kPoke: return "poke";
    case emulator::TraceOp::kStep: return "step";
    case emulator::TraceOp::kReset: return "reset";
  }
  return "read";
}

// The keys every report has, so that a consumer never tests for them.
json Skeleton(const RunJsonHeader& header) {
  json report;
  report["format"] = "regemu-run";
  report["version"] = kRunJsonVersion;
  report["database"] = header.database;
  report["script"] = header.script;
  report["mode"] = header.lenient ? "lenient" : "strict";
  report["result"] = "error";
  report["exit_status"] = 2;
  report["commands"] = json::array();
  report["failures"] = json::array();
  report["violations"] = json::array();
  report["summary"] = {{"commands", 0}, {"checks", 0}, {"failed", 0}, {"violations", 0},
                       {"announced", 0}, {"not_announced", 0}, {"not_kept", 0}};
  report["error"] = nullptr;
  report["diagnostics"] = json::array();
  return report;
}

// `null` for "", so that "no register decodes there" is not a name.
json NameOrNull(const std::string& name) { return name.empty() ? json(nullptr) : json(name); }

json ViolationJson(const emulator::ScriptViolation& v) {
  const emulator::Violation& violation = v.violation;
  return json{{"line", v.loc.line},
              {"kind", emulator::ViolationKindName(violation.kind)},
              {"op", TraceOpName(violation.op)},
              {"space", violation.space},
              {"offset", violation.offset},
              {"width", violation.width},
              {"value", violation.value},
              {"register", NameOrNull(violation.register_name)},
              {"field", NameOrNull(violation.field_name)},
              {"rule", violation.rule},
              {"time_ns", violation.time_ns},
              {"sequence", violation.sequence},
              {"announced", v.announced},
              {"fails", violation.fails},
              {"summary", violation.Summary()}};
}

// What the command says, without its comment or the blanks around it.
std::string CommandText(const emulator::Script& script, regdb::SourceLoc loc) {
  std::string_view text = script.sources.LineText(loc);
  text = text.substr(0, std::min(text.find('#'), text.size()));
  size_t begin = text.find_first_not_of(" \t");
  size_t end = text.find_last_not_of(" \t\r");
  return begin == std::string_view::npos ? "" : std::string(text.substr(begin, end - begin + 1));
}

}  // namespace

json RunReportJson(const RunJsonHeader& header, const emulator::Script& script, const emulator::Device& device,
                   const emulator::RunResult& result, int exit_status) {
  json report = Skeleton(header);
  // One command per script line: failures, printed values and violations
  // find their command by its line.
  std::map<uint32_t, std::vector<size_t>> failures_at;
  std::map<uint32_t, std::vector<size_t>> violations_at;
  std::map<uint32_t, std::string> printed_at;
  for (size_t i = 0; i < result.failures.size(); ++i) {
    const emulator::ScriptFailure& failure = result.failures[i];
    failures_at[failure.loc.line].push_back(i);
    report["failures"].push_back({{"line", failure.loc.line}, {"column", failure.loc.column},
                                  {"message", failure.message}});
  }
  size_t announced = 0;
  for (size_t i = 0; i < result.violations.size(); ++i) {
    if (result.violations[i].announced) ++announced;
    violations_at[result.violations[i].loc.line].push_back(i);
    report["violations"].push_back(ViolationJson(result.violations[i]));
  }
  for (const emulator::ScriptValue& value : result.values) printed_at[value.loc.line] = value.text;

  for (const emulator::ScriptCommandRecord& record : result.commands) {
    const emulator::ScriptCommand& command = script.commands.at(record.command);
    uint32_t line = command.loc.line;
    json item{{"index", record.command},
              {"line", line},
              {"column", command.loc.column},
              {"command", emulator::ScriptCommandName(command)},
              {"text", CommandText(script, command.loc)},
              {"start_ns", record.start_ns},
              {"end_ns", record.end_ns}};
    if (record.value) item["value"] = *record.value;
    if (record.edges) item["edges"] = *record.edges;
    if (auto printed = printed_at.find(line); printed != printed_at.end()) item["printed"] = printed->second;
    json messages = json::array();
    for (size_t i : failures_at[line]) messages.push_back(result.failures[i].message);
    bool stopped_here = result.error && result.error->loc.line == line;
    item["check"] = emulator::IsScriptCheck(command.op) && !stopped_here
                        ? json(messages.empty() ? "passed" : "failed")
                        : json(nullptr);
    item["failures"] = std::move(messages);
    item["violations"] = violations_at[line];
    report["commands"].push_back(std::move(item));
  }

  report["summary"] = {{"commands", result.commands_run},
                       {"checks", result.checks},
                       {"failed", result.failures.size()},
                       {"violations", device.violation_count()},
                       {"announced", announced},
                       {"not_announced", device.violation_count() - announced},
                       {"not_kept", device.violation_count() - result.violations.size()}};
  if (result.error) {
    report["error"] = {{"line", result.error->loc.line}, {"column", result.error->loc.column},
                       {"message", result.error->message}};
  }
  report["result"] = exit_status == 0 ? "pass" : exit_status == 1 ? "fail" : "error";
  report["exit_status"] = exit_status;
  return report;
}

json RunErrorJson(const RunJsonHeader& header, const std::string& message, const emulator::Script* script) {
  json report = Skeleton(header);
  report["result"] = "error";
  report["exit_status"] = 2;
  report["error"] = {{"message", message}};
  if (script != nullptr) {
    for (const regdb::Diagnostic& d : script->diagnostics.all()) {
      report["diagnostics"].push_back({{"line", d.loc.line},
                                       {"column", d.loc.column},
                                       {"severity", regdb::SeverityName(d.severity)},
                                       {"message", d.message}});
    }
  }
  return report;
}

}  // namespace regemu::tools
