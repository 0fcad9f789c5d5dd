#pragma once
// `regemu run --oa-recording FILE`: the database's oa-unit behaviour, the
// file, and an OaRecordingWriter fed from DeviceOptions::on_record while the
// script runs.

#include <fstream>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "regemu/emulator/unit_record.hpp"
#include "regemu/regdb/database.hpp"
#include "tools/regemu/oa_recording.hpp"

namespace regemu::tools {

class OaRecordingSession {
 public:
  // Finds the database's one oa-unit, opens `path` and writes the
  // recording's first records; or prints why not to `err` and returns null.
  static std::unique_ptr<OaRecordingSession> Start(const regdb::Database& database, const std::string& path,
                                                   const OaRecordingOptions& options, std::ostream& err);

  // For DeviceOptions::on_record: passes the unit's records to the writer.
  // Valid while the session lives.
  emulator::UnitRecordObserver Observer();

  // Closes the recording and prints one line of what it holds to `out`.
  // false when it could not be completed: the reason goes to `err` and the
  // partial file is removed (the reader would crash on it).
  bool Finish(std::ostream& out, std::ostream& err);

 private:
  OaRecordingSession(std::string path, std::string behaviour, std::ofstream file)
      : path_(std::move(path)), behaviour_(std::move(behaviour)), file_(std::move(file)) {}

  std::string path_;
  std::string behaviour_;  // the oa-unit's name, as records carry it
  std::ofstream file_;
  std::optional<OaRecordingWriter> writer_;
};

}  // namespace regemu::tools
