#pragma once
// OaRecordingWriter: an OA unit's stream (its UnitRecords) as an i915-perf
// recording that IGT's i915-perf-reader decodes, so a driver's OA reports
// can be checked with the tool people use on real hardware.
//
// The file is VERSION, DEVICE_INFO, TOPOLOGY, then the records in arrival
// order with timestamp-correlation records woven in: one before the first
// record, one at each whole virtual second the reports reach, and a last
// one strictly after the last report (the reader aborts without it). A
// correlation pairs virtual time in ns (the "CPU" clock) with the OA
// timestamp ticks at that time (regdb/oa_timestamp.hpp).
//
// A report's time is the one its timestamp dword names: its low 32 bits,
// and the high bits of the unit's clock at the record's time. A record may
// come later than its report was triggered (a unit catching up at the end
// of a `step` emits them all then), never earlier.
//
// Records are written to the stream as they arrive, so a long run does not
// pile up in memory. The first problem stops the writing and is what
// Finish() returns; the caller should then drop the partial file.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "regemu/emulator/unit_record.hpp"
#include "regemu/regdb/behaviour_configs/oa_unit.hpp"
#include "tools/regemu/oa_recording_records.hpp"

namespace regemu::tools {

// The only report size IGT's reader decodes: it reads every sample as the
// metric set's 256-byte format, whatever the record's size says.
inline constexpr unsigned kRecordedReportBytes = 256;

struct OaRecordingOptions {
  std::string metric_set = "RenderBasic";  // the reader's symbol name; case matters
  std::optional<std::string> uuid;         // nullopt: KnownMetricSetUuid, else empty
};

struct OaRecordingCounts {
  uint64_t reports = 0;       // SAMPLE records
  uint64_t reports_lost = 0;  // OA_REPORT_LOST records
  uint64_t buffers_lost = 0;  // OA_BUFFER_LOST records
  uint64_t correlations = 0;  // TIMESTAMP_CORRELATION records
};

// Why `name` cannot be a metric set name in a recording, or nullopt when it can.
std::optional<std::string> CheckMetricSetName(std::string_view name);

class OaRecordingWriter {
 public:
  // Checks that `unit` and `options` make a recording the reader can
  // decode and writes the VERSION, DEVICE_INFO and TOPOLOGY records to
  // `out`; or says why not, one line per problem, and writes nothing.
  // `out` must outlive the writer.
  static std::variant<OaRecordingWriter, std::string> Create(const regdb::OaUnitConfig& unit,
                                                             const OaRecordingOptions& options, std::ostream& out);

  // One record of the unit, in virtual-time order. Ignored after a failure.
  void Add(const emulator::UnitRecord& record);

  // Writes the closing correlation. nullopt when the recording is complete;
  // otherwise the first problem (a recording without reports is one: the
  // reader crashes on it).
  std::optional<std::string> Finish();

  const OaRecordingCounts& counts() const { return counts_; }
  // The uuid DEVICE_INFO carries: the options', else KnownMetricSetUuid's,
  // else empty (the reader then warns of "a different HW configuration").
  const std::string& uuid() const { return device_info_.metric_set_uuid; }

 private:
  OaRecordingWriter(std::ostream& out, oa_recording::DeviceInfo device_info, std::vector<regdb::OaFormat> formats);

  void Fail(std::string message);
  void AppendCorrelationBefore(uint64_t ticks);
  void AppendCorrelation(uint64_t cpu_ns, uint64_t gpu_ticks);
  bool AppendReport(const emulator::UnitRecord& record);
  std::string FormatsOfSize(size_t bytes) const;
  void Flush();

  std::ostream* out_;
  oa_recording::DeviceInfo device_info_;
  std::vector<regdb::OaFormat> formats_;
  oa_recording::Bytes pending_;  // the bytes of the record being added
  OaRecordingCounts counts_;
  uint64_t last_time_ns_ = 0;
  uint64_t first_correlation_ticks_ = 0;
  uint64_t last_correlation_ns_ = 0;
  uint64_t last_correlation_ticks_ = 0;
  uint64_t last_report_ticks_ = 0;
  bool finished_ = false;
  std::optional<std::string> error_;
};

}  // namespace regemu::tools
