#include "tools/regemu/diagnostics_json.hpp"

namespace regemu::tools {
namespace {

nlohmann::json LocationJson(const regdb::SourceSet& sources, regdb::SourceLoc loc) {
  nlohmann::json j;
  j["file"] = loc.file != 0 && loc.file < sources.size() ? sources.file(loc.file).path : "";
  j["line"] = loc.line;
  j["column"] = loc.column;
  return j;
}

}  // namespace

nlohmann::json DatabaseReportJson(const std::string& path, const regdb::LoadedDatabase& loaded) {
  const regdb::Database& db = loaded.database;
  nlohmann::json report;
  report["path"] = path;
  report["device"] = db.device;
  report["ok"] = !loaded.diagnostics.has_errors();
  report["errors"] = loaded.diagnostics.error_count();
  report["warnings"] = loaded.diagnostics.warning_count();
  report["truncated"] = loaded.diagnostics.truncated();
  report["spaces"] = db.spaces.size();
  report["registers"] = db.registers.size();
  report["ranges"] = db.ranges.size();
  report["behaviours"] = db.behaviours.size();
  nlohmann::json list = nlohmann::json::array();
  for (const regdb::Diagnostic& d : loaded.diagnostics.all()) {
    nlohmann::json item = LocationJson(loaded.sources, d.loc);
    item["severity"] = regdb::SeverityName(d.severity);
    if (d.code) item["code"] = regdb::WarningCodeName(*d.code);
    item["message"] = d.message;
    nlohmann::json notes = nlohmann::json::array();
    for (const regdb::Note& note : d.notes) {
      nlohmann::json n = LocationJson(loaded.sources, note.loc);
      n["message"] = note.message;
      notes.push_back(std::move(n));
    }
    item["notes"] = std::move(notes);
    list.push_back(std::move(item));
  }
  report["diagnostics"] = std::move(list);
  nlohmann::json acknowledged = nlohmann::json::array();
  for (const regdb::AcknowledgedWarning& a : loaded.diagnostics.acknowledged()) {
    nlohmann::json item = LocationJson(loaded.sources, a.warning.loc);
    if (a.warning.code) item["code"] = regdb::WarningCodeName(*a.warning.code);
    item["message"] = a.warning.message;
    item["reason"] = a.reason;
    item["acknowledged_at"] = LocationJson(loaded.sources, a.acknowledged_at);
    acknowledged.push_back(std::move(item));
  }
  report["acknowledged"] = std::move(acknowledged);
  return report;
}

}  // namespace regemu::tools
