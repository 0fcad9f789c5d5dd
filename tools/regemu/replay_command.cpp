#include "tools/regemu/replay_command.hpp"

#include <cstdio>
#include <filesystem>
#include <ostream>

#include <nlohmann/json.hpp>

#include "regemu/regdb/numbers.hpp"
#include "tools/regemu/device_inputs.hpp"
#include "tools/traces/capture_replay.hpp"

namespace regemu::tools {
namespace {

using traces::ReplayReport;

std::string Range(const traces::ReplayGap& gap) {
  return regdb::Hex(gap.first) + "-" + regdb::Hex(gap.end - 1);
}

// Columns padded to their widest cell.
void PrintTable(std::ostream& out, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  for (const auto& row : rows) {
    std::string line = "  ";
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out << line << "\n";
  }
}

void PrintText(std::ostream& out, const ReplayReport& r, const std::string& database) {
  out << "regemu replay: " << r.capture << " (" << (r.format.empty() ? "no records" : r.format) << ", " << r.lines
      << " lines) against " << database << "\n";
  for (const std::string& note : r.notes) out << "  " << note << "\n";
  out << "\naccesses: " << r.reads + r.writes << " (" << r.reads << " reads, " << r.writes << " writes): "
      << r.modelled << " modelled, " << r.gap_accesses << " in gaps, " << r.outside_accesses
      << " outside the database's spaces\n";
  out << "reads compared: " << r.compared_reads << "; of volatile/hw bits only, not compared: " << r.unknowable_reads
      << "; hardware events taken (status bits set): " << r.hardware_events << "\n";
  if (r.marks || r.maps) out << "markers: " << r.marks << ", mappings: " << r.maps << "\n";

  out << "\nDatabase gaps (accesses nothing in the database decodes): " << r.gaps.size() << " range(s)\n";
  if (!r.gaps.empty()) {
    std::vector<std::vector<std::string>> rows{{"space", "range", "addresses", "reads", "writes", "first line"}};
    for (const auto& gap : r.gaps) {
      rows.push_back({gap.space.empty() ? "(none)" : gap.space, Range(gap), std::to_string(gap.addresses),
                      std::to_string(gap.reads), std::to_string(gap.writes), std::to_string(gap.first_line)});
    }
    PrintTable(out, rows);
  }

  out << "\nDatabase mistakes (hardware answered what the model cannot produce): " << r.mistake_count << "\n";
  if (!r.mistakes.empty()) {
    std::vector<std::vector<std::string>> rows{{"line", "register", "hardware", "model", "bits", "kind"}};
    for (const auto& m : r.mistakes) {
      rows.push_back({std::to_string(m.line), m.reg + " (" + m.space + " " + regdb::Hex(m.offset) + ")",
                      regdb::HexPadded(m.captured, m.width), regdb::HexPadded(m.model, m.width),
                      regdb::HexPadded(m.bits, m.width), m.kind});
    }
    PrintTable(out, rows);
    for (const auto& m : r.mistakes) out << "  " << r.capture << ":" << m.line << ": " << m.reg << ": " << m.why << "\n";
    if (r.mistake_count > r.mistakes.size()) out << "  ... " << r.mistake_count - r.mistakes.size() << " more\n";
  }

  out << "\nDriver violations of the database's rules: " << r.violation_count << "\n";
  for (const auto& v : r.violations) out << "  " << r.capture << ":" << v.line << ": " << v.violation.Summary() << "\n";
  if (r.violation_count > r.violations.size()) out << "  ... " << r.violation_count - r.violations.size() << " more\n";

  if (r.unknown_records) {
    out << "\nwarning: " << r.unknown_records << " UNKNOWN record(s): accesses mmiotrace could not decode (lines";
    for (uint64_t line : r.unknown_lines) out << " " << line;
    out << "); they are not replayed\n";
  }
  if (r.lost_events) out << "\nwarning: the tracer lost " << r.lost_events << " event(s): the capture is incomplete\n";
  if (r.missing_bars) {
    out << "\nwarning: mmiotrace accesses but no PCIDEV line places them; give --map SPACE=BASE (bus address)\n";
  }
  out << "\nresult: " << r.gaps.size() << " gap range(s), " << r.mistake_count << " mistake(s), " << r.violation_count
      << " violation(s); " << r.problem_count << " malformed line(s)\n";
}

nlohmann::json ToJson(const ReplayReport& r) {
  nlohmann::json j;
  j["capture"] = r.capture;
  j["format"] = r.format;
  j["lines"] = r.lines;
  j["notes"] = r.notes;
  j["accesses"] = {{"reads", r.reads},           {"writes", r.writes},
                   {"modelled", r.modelled},     {"in_gaps", r.gap_accesses},
                   {"outside", r.outside_accesses}, {"compared_reads", r.compared_reads},
                   {"unknowable_reads", r.unknowable_reads}, {"hardware_events", r.hardware_events}};
  j["gaps"] = nlohmann::json::array();
  for (const auto& gap : r.gaps) {
    j["gaps"].push_back({{"space", gap.space}, {"first", gap.first}, {"end", gap.end}, {"range", Range(gap)},
                         {"addresses", gap.addresses}, {"reads", gap.reads}, {"writes", gap.writes},
                         {"first_line", gap.first_line}});
  }
  j["mistake_count"] = r.mistake_count;
  j["mistakes"] = nlohmann::json::array();
  for (const auto& m : r.mistakes) {
    j["mistakes"].push_back({{"line", m.line}, {"space", m.space}, {"offset", m.offset}, {"width", m.width},
                             {"register", m.reg}, {"hardware", m.captured}, {"model", m.model}, {"bits", m.bits},
                             {"kind", m.kind}, {"why", m.why}});
  }
  j["violation_count"] = r.violation_count;
  j["violations"] = nlohmann::json::array();
  for (const auto& v : r.violations) {
    j["violations"].push_back({{"line", v.line},
                               {"kind", emulator::ViolationKindName(v.violation.kind)},
                               {"register", v.violation.register_name},
                               {"summary", v.violation.Summary()}});
  }
  j["unknown_lines"] = r.unknown_lines;
  j["lost_events"] = r.lost_events;
  j["malformed_lines"] = r.problem_count;
  j["problems"] = nlohmann::json::array();
  for (const auto& p : r.problems) j["problems"].push_back({{"line", p.line}, {"message", p.message}});
  j["clean"] = r.clean();
  return j;
}

}  // namespace

int RunReplayCommand(const ReplayCommandOptions& options, std::ostream& out, std::ostream& err) {
  auto parsed = ParseCaptureOptions(options.capture_options, "replay", err);
  if (!parsed) return 2;
  auto input = OpenInput(options.capture, "replay", err);
  if (!input) return 2;
  if (!DatabaseExists("regemu replay", options.database, err)) return 2;
  CompiledDatabase loaded = CompileDatabase(options.database, err);
  if (!loaded.model) return 2;

  traces::ReplayOptions replay;
  replay.format = parsed->format;
  replay.mappings = parsed->mappings;
  replay.device = parsed->device;
  std::string error;
  ReplayReport report =
      traces::ReplayCapture(input->stream(), input->name(), loaded.loaded.database, loaded.model, replay, error);
  if (!error.empty()) {
    err << "regemu replay: " << error << "\n";
    return 2;
  }
  // Malformed lines are skipped, and said where they are, on stderr.
  for (const auto& problem : report.problems) err << input->name() << ":" << problem.line << ": error: " << problem.message << "\n";
  if (report.problem_count > report.problems.size()) {
    err << input->name() << ": " << report.problem_count - report.problems.size() << " more malformed line(s)\n";
  }
  if (report.read_failed) {
    err << "regemu replay: reading " << input->name() << " failed\n";
    return 2;
  }
  if (options.json) {
    out << ToJson(report).dump(2) << "\n";
  } else {
    PrintText(out, report, options.database);
  }
  return report.clean() ? 0 : 1;
}

}  // namespace regemu::tools
