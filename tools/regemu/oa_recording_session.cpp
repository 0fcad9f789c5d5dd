#include "tools/regemu/oa_recording_session.hpp"

#include <filesystem>
#include <ostream>
#include <variant>
#include <vector>

#include "regemu/regdb/numbers.hpp"

namespace regemu::tools {
namespace {

constexpr const char* kPrefix = "regemu run: --oa-recording: ";

// Every line of `text` after the prefix.
void PrintLines(std::ostream& err, const std::string& prefix, const std::string& text) {
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    err << kPrefix << prefix << text.substr(start, end - start) << "\n";
    start = end + 1;
  }
}

}  // namespace

std::unique_ptr<OaRecordingSession> OaRecordingSession::Start(const regdb::Database& database,
                                                              const std::string& path,
                                                              const OaRecordingOptions& options,
                                                              std::ostream& err) {
  std::vector<const regdb::BehaviourSpec*> units;
  for (const regdb::BehaviourSpec& spec : database.behaviours) {
    if (spec.kind == "oa-unit") units.push_back(&spec);
  }
  if (units.empty()) {
    err << kPrefix << "the database has no oa-unit behaviour: there is no OA unit to record\n";
    return nullptr;
  }
  if (units.size() > 1) {
    err << kPrefix << "the database has " << units.size() << " oa-unit behaviours (";
    for (size_t i = 0; i < units.size(); ++i) err << (i == 0 ? "" : ", ") << units[i]->name;
    err << "): a recording holds the reports of one\n";
    return nullptr;
  }
  const regdb::BehaviourSpec& spec = *units.front();
  const auto* unit = dynamic_cast<const regdb::OaUnitConfig*>(spec.config.get());
  if (unit == nullptr) {
    // The checker gives every clean oa-unit its config; a gap in regemu.
    err << kPrefix << "oa-unit '" << spec.name << "' has no checked configuration\n";
    return nullptr;
  }

  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    err << kPrefix << "cannot write " << path << "\n";
    return nullptr;
  }
  std::unique_ptr<OaRecordingSession> session(new OaRecordingSession(path, spec.name, std::move(file)));
  auto writer = OaRecordingWriter::Create(*unit, options, session->file_);
  if (auto* problems = std::get_if<std::string>(&writer)) {
    PrintLines(err, "oa-unit '" + spec.name + "': ", *problems);
    session->file_.close();
    std::error_code ec;
    std::filesystem::remove(path, ec);
    return nullptr;
  }
  session->writer_.emplace(std::move(std::get<OaRecordingWriter>(writer)));
  if (session->writer_->uuid().empty()) {
    err << "note: regemu knows no uuid of metric set '" << options.metric_set << "' on device "
        << regdb::HexPadded(unit->pci_device_id, 16)
        << ": i915-perf-reader will warn of a different HW configuration, and crashes if the platform has no "
           "metric set of that name\n";
  }
  return session;
}

emulator::UnitRecordObserver OaRecordingSession::Observer() {
  return [this](const emulator::UnitRecord& record) {
    if (record.behaviour == behaviour_) writer_->Add(record);
  };
}

bool OaRecordingSession::Finish(std::ostream& out, std::ostream& err) {
  std::optional<std::string> problem = writer_->Finish();
  file_.close();
  if (!problem && !file_) problem = "writing the file failed";
  if (problem) {
    err << kPrefix << path_ << ": " << *problem << "\n";
    std::error_code ec;
    std::filesystem::remove(path_, ec);
    return false;
  }
  const OaRecordingCounts& counts = writer_->counts();
  out << "oa-recording: " << path_ << ": " << counts.reports << " report(s), " << counts.reports_lost
      << " report-lost and " << counts.buffers_lost << " buffer-lost record(s), " << counts.correlations
      << " timestamp correlation(s)\n";
  return true;
}

}  // namespace regemu::tools
