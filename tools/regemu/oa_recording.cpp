#include "tools/regemu/oa_recording.hpp"

#include <algorithm>
#include <ostream>
#include <utility>

#include "regemu/regdb/numbers.hpp"
#include "tools/regemu/oa_metric_sets.hpp"
#include "regemu/regdb/oa_timestamp.hpp"

namespace regemu::tools {
namespace {

namespace rec = oa_recording;
using emulator::UnitRecord;
using emulator::UnitRecordKind;
using regdb::kMaxTimestampHz;
using regdb::kNsPerSecond;
using regdb::NsAtTimestampTick;
using regdb::TimestampTicksAt;

// i915 reports the GT's RPn..RP0 here; the reader only feeds them to max
// equations it never prints. 300 MHz..1.2 GHz covers HSW GT2 and ICL.
constexpr uint64_t kGtMinHz = 300'000'000;
constexpr uint64_t kGtMaxHz = 1'200'000'000;

// enum drm_i915_oa_format for the 256-byte formats (the reader ignores the
// field; the recorder fills it, so we do too). Others: 0.
uint32_t DrmOaFormat(const std::string& name) {
  if (name == "A45_B8_C8") return 5;
  if (name == "A32u40_A4u32_B8_C8") return 10;
  return 0;
}

bool IsPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

std::optional<std::string> CheckUuid(std::string_view uuid) {
  if (uuid.size() >= rec::kMetricSetUuidBytes || !IsPrintableAscii(uuid)) {
    return "the metric set uuid must be printable ASCII of at most " +
           std::to_string(rec::kMetricSetUuidBytes - 1) + " bytes";
  }
  return std::nullopt;
}

// Every reason the unit's description cannot become DEVICE_INFO and TOPOLOGY.
std::vector<std::string> CheckUnit(const regdb::OaUnitConfig& unit) {
  std::vector<std::string> problems;
  if (unit.timestamp_hz == 0 || unit.timestamp_hz > kMaxTimestampHz) {
    problems.push_back("timestamp_hz is " + std::to_string(unit.timestamp_hz) +
                       ": a recording needs a timestamp clock between 1 Hz and 10 GHz");
  }
  if (unit.pci_device_id == 0) {
    problems.push_back("the oa-unit has no pci_device_id: the reader picks the platform and its metric sets by it");
  }
  if (unit.slices == 0 || unit.subslices_per_slice == 0 || unit.eus_per_subslice == 0 || unit.slices > 0xFFFF ||
      unit.subslices_per_slice > 0xFFFF || unit.eus_per_subslice > 0xFFFF ||
      rec::TopologyRecordBytes({unit.slices, unit.subslices_per_slice, unit.eus_per_subslice}) >
          rec::kMaxRecordBytes) {
    problems.push_back("the topology " + std::to_string(unit.slices) + "x" +
                       std::to_string(unit.subslices_per_slice) + "x" + std::to_string(unit.eus_per_subslice) +
                       " (slices x subslices x EUs) does not fit a TOPOLOGY record");
  }
  bool has_256 = std::any_of(unit.formats.begin(), unit.formats.end(),
                             [](const regdb::OaFormat& f) { return f.size == kRecordedReportBytes; });
  if (!has_256) {
    problems.push_back("the oa-unit has no 256-byte report format: i915-perf-reader decodes only those");
  }
  return problems;
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string text;
  for (const std::string& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

uint32_t LittleEndian32(std::span<const uint8_t> bytes, size_t offset) {
  return static_cast<uint32_t>(bytes[offset]) | static_cast<uint32_t>(bytes[offset + 1]) << 8 |
         static_cast<uint32_t>(bytes[offset + 2]) << 16 | static_cast<uint32_t>(bytes[offset + 3]) << 24;
}

constexpr size_t kTimestampOffset = 4;  // report dword 1

}  // namespace

std::optional<std::string> CheckMetricSetName(std::string_view name) {
  if (name.empty() || name.size() >= rec::kMetricSetNameBytes || !IsPrintableAscii(name)) {
    return "the metric set name must be printable ASCII of 1 to " + std::to_string(rec::kMetricSetNameBytes - 1) +
           " bytes, the reader's symbol name (e.g. RenderBasic)";
  }
  return std::nullopt;
}

std::variant<OaRecordingWriter, std::string> OaRecordingWriter::Create(const regdb::OaUnitConfig& unit,
                                                                       const OaRecordingOptions& options,
                                                                       std::ostream& out) {
  std::vector<std::string> problems;
  if (auto problem = CheckMetricSetName(options.metric_set)) problems.push_back(*problem);
  if (options.uuid) {
    if (auto problem = CheckUuid(*options.uuid)) problems.push_back(*problem);
  }
  std::vector<std::string> unit_problems = CheckUnit(unit);
  problems.insert(problems.end(), unit_problems.begin(), unit_problems.end());
  if (!problems.empty()) return JoinLines(problems);

  rec::DeviceInfo info;
  info.timestamp_hz = unit.timestamp_hz;
  info.device_id = unit.pci_device_id;
  uint64_t reset_hz = unit.gpu_mhz * 1'000'000;
  info.gt_min_hz = static_cast<uint32_t>(std::min(kGtMinHz, reset_hz));
  info.gt_max_hz = static_cast<uint32_t>(std::clamp<uint64_t>(reset_hz, kGtMaxHz, UINT32_MAX));
  for (const regdb::OaFormat& format : unit.formats) {
    if (format.size == kRecordedReportBytes) info.oa_format = DrmOaFormat(format.name);
  }
  info.metric_set_name = options.metric_set;
  if (options.uuid) {
    info.metric_set_uuid = *options.uuid;
  } else if (auto known = KnownMetricSetUuid(unit.pci_device_id, options.metric_set)) {
    info.metric_set_uuid = std::string(*known);
  }
  OaRecordingWriter writer(out, std::move(info), unit.formats);
  rec::AppendVersion(writer.pending_);
  rec::AppendDeviceInfo(writer.pending_, writer.device_info_);
  rec::AppendTopology(writer.pending_, {unit.slices, unit.subslices_per_slice, unit.eus_per_subslice});
  writer.Flush();
  return writer;
}

OaRecordingWriter::OaRecordingWriter(std::ostream& out, oa_recording::DeviceInfo device_info,
                                     std::vector<regdb::OaFormat> formats)
    : out_(&out), device_info_(std::move(device_info)), formats_(std::move(formats)) {}

void OaRecordingWriter::Add(const UnitRecord& record) {
  if (error_ || finished_) return;
  if (record.time_ns < last_time_ns_) {
    Fail("virtual time went back from " + std::to_string(last_time_ns_) + " ns to " + std::to_string(record.time_ns) +
         " ns (a snapshot restored?): a recording is one forward timeline");
    return;
  }
  last_time_ns_ = record.time_ns;
  pending_.clear();
  switch (record.kind) {
    case UnitRecordKind::kReport:
      if (!AppendReport(record)) return;
      break;
    case UnitRecordKind::kReportLost:
      AppendCorrelationBefore(TimestampTicksAt(record.time_ns, device_info_.timestamp_hz));
      rec::AppendLost(pending_, rec::RecordType::kReportLost);
      ++counts_.reports_lost;
      break;
    case UnitRecordKind::kBufferLost:
      AppendCorrelationBefore(TimestampTicksAt(record.time_ns, device_info_.timestamp_hz));
      rec::AppendLost(pending_, rec::RecordType::kBufferLost);
      ++counts_.buffers_lost;
      break;
  }
  Flush();
}

std::optional<std::string> OaRecordingWriter::Finish() {
  if (finished_) return error_;
  finished_ = true;
  if (!error_ && counts_.reports == 0) {
    Fail("the OA unit wrote no report into its buffer: i915-perf-reader crashes on a recording without one");
  }
  if (!error_) {
    // Strictly after the last report, or the reader aborts
    // (correlate_gpu_timestamp: Assertion '0' failed).
    uint64_t ticks = std::max(last_report_ticks_, last_correlation_ticks_) + 1;
    if (ticks >> 32 != first_correlation_ticks_ >> 32) {
      Fail("the reports cross a wrap of the 32-bit OA timestamp (at " +
           std::to_string(NsAtTimestampTick(ticks >> 32 << 32, device_info_.timestamp_hz)) +
           " ns of virtual time): i915-perf-reader compares only the low 32 bits and cannot place them; record a "
           "stretch that does not cross it");
    } else {
      pending_.clear();
      AppendCorrelation(NsAtTimestampTick(ticks, device_info_.timestamp_hz), ticks);
      Flush();
    }
  }
  out_->flush();
  if (!error_ && !out_->good()) Fail("writing the recording failed");
  return error_;
}

void OaRecordingWriter::Fail(std::string message) {
  if (!error_) error_ = std::move(message);
}

// The first record gets a correlation at its own time; later ones one at
// each whole virtual second they reach. GPU ticks strictly increase from one
// correlation to the next: the reader divides by their difference.
void OaRecordingWriter::AppendCorrelationBefore(uint64_t ticks) {
  const uint64_t hz = device_info_.timestamp_hz;
  if (counts_.correlations == 0) {
    first_correlation_ticks_ = ticks;
    AppendCorrelation(NsAtTimestampTick(ticks, hz), ticks);
    return;
  }
  uint64_t second_ns = NsAtTimestampTick(ticks, hz) / kNsPerSecond * kNsPerSecond;
  uint64_t second_ticks = TimestampTicksAt(second_ns, hz);
  if (second_ns > last_correlation_ns_ && second_ticks > last_correlation_ticks_) {
    AppendCorrelation(second_ns, second_ticks);
  }
}

void OaRecordingWriter::AppendCorrelation(uint64_t cpu_ns, uint64_t gpu_ticks) {
  rec::AppendCorrelation(pending_, cpu_ns, gpu_ticks);
  last_correlation_ns_ = cpu_ns;
  last_correlation_ticks_ = gpu_ticks;
  ++counts_.correlations;
}

bool OaRecordingWriter::AppendReport(const UnitRecord& record) {
  if (record.bytes.size() != kRecordedReportBytes) {
    Fail("the OA unit wrote a " + std::to_string(record.bytes.size()) + "-byte report" +
         FormatsOfSize(record.bytes.size()) + " at " + std::to_string(record.time_ns) +
         " ns: i915-perf-reader decodes only 256-byte reports" + FormatsOfSize(kRecordedReportBytes) +
         "; program that format");
    return false;
  }
  // The report's time: its 32-bit timestamp, at or before the unit's clock
  // at the record's time.
  uint64_t clock_ticks = TimestampTicksAt(record.time_ns, device_info_.timestamp_hz);
  uint32_t stamped = LittleEndian32(record.bytes, kTimestampOffset);
  uint64_t behind = static_cast<uint32_t>(static_cast<uint32_t>(clock_ticks) - stamped);
  if (behind > clock_ticks) {
    Fail("the report recorded at " + std::to_string(record.time_ns) + " ns has timestamp " +
         regdb::HexPadded(stamped, 32) + ", after the unit's " + std::to_string(device_info_.timestamp_hz) +
         " Hz clock then (" + regdb::HexPadded(static_cast<uint32_t>(clock_ticks), 32) + ")");
    return false;
  }
  uint64_t ticks = clock_ticks - behind;
  if (counts_.reports > 0 && ticks < last_report_ticks_) {
    // A timestamp dword still 0 (read inside the tail race) lands here too.
    Fail("the report recorded at " + std::to_string(record.time_ns) + " ns has timestamp " +
         regdb::HexPadded(stamped, 32) + ", before the previous report's " +
         regdb::HexPadded(static_cast<uint32_t>(last_report_ticks_), 32) +
         ": OA timestamps only go forward, and the reader's correlation needs them to");
    return false;
  }
  AppendCorrelationBefore(ticks);
  last_report_ticks_ = ticks;
  rec::AppendSample(pending_, record.bytes);
  ++counts_.reports;
  return true;
}

// " (format A13, C4_B8)" for the unit's formats of that size; "" if none.
std::string OaRecordingWriter::FormatsOfSize(size_t bytes) const {
  std::string names;
  for (const regdb::OaFormat& format : formats_) {
    if (format.size == bytes) names += (names.empty() ? "" : ", ") + format.name;
  }
  return names.empty() ? "" : " (format " + names + ")";
}

void OaRecordingWriter::Flush() {
  out_->write(reinterpret_cast<const char*>(pending_.data()), static_cast<std::streamsize>(pending_.size()));
  pending_.clear();
}

}  // namespace regemu::tools
