// OaRecordingWriter on synthetic unit records: the bytes of an i915-perf
// recording as IGT 1.27's lib/i915/perf_data.h lays them out, the
// timestamp-correlation rule the reader depends on, and the errors that
// keep a recording the reader would crash on from being written.
#include "tools/regemu/oa_recording.hpp"

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/oa_synthetic_reports.hpp"
#include "regemu/regdb/oa_timestamp.hpp"

namespace regemu::tools {
namespace {

using emulator::UnitRecord;
using emulator::UnitRecordKind;
using regdb::NsAtTimestampTick;
using regdb::TimestampTicksAt;
using regemu::testing::HswOaUnit;
using regemu::testing::IclOaUnit;
using regemu::testing::OaLoad;
using regemu::testing::SyntheticOaStream;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Optional;

constexpr unsigned kExponent = 13;  // a report every 2^14 ticks: 1.365 ms at 12 MHz

struct Record {
  uint32_t type;
  size_t offset;
  size_t size;
};

uint64_t Le(const std::string& bytes, size_t offset, size_t size) {
  uint64_t value = 0;
  for (size_t i = 0; i < size; ++i) value |= uint64_t{static_cast<uint8_t>(bytes[offset + i])} << (8 * i);
  return value;
}

// The records as the reader walks them: `iter += header->size`.
std::vector<Record> Records(const std::string& bytes) {
  std::vector<Record> records;
  for (size_t offset = 0; offset + 8 <= bytes.size();) {
    Record r{static_cast<uint32_t>(Le(bytes, offset, 4)), offset, Le(bytes, offset + 6, 2)};
    records.push_back(r);
    if (r.size == 0) break;
    offset += r.size;
  }
  return records;
}

std::vector<uint32_t> Types(const std::vector<Record>& records) {
  std::vector<uint32_t> types;
  for (const Record& r : records) types.push_back(r.type);
  return types;
}

struct Correlation {
  uint64_t cpu_ns, gpu_ticks;
};

std::vector<Correlation> Correlations(const std::string& bytes) {
  std::vector<Correlation> out;
  for (const Record& r : Records(bytes)) {
    if (r.type == 0x10003) out.push_back({Le(bytes, r.offset + 8, 8), Le(bytes, r.offset + 16, 8)});
  }
  return out;
}

OaRecordingWriter Create(const regdb::OaUnitConfig& unit, std::ostream& out, OaRecordingOptions options = {}) {
  auto writer = OaRecordingWriter::Create(unit, options, out);
  if (auto* error = std::get_if<std::string>(&writer)) ADD_FAILURE() << *error;
  return std::move(std::get<OaRecordingWriter>(writer));
}

std::string CreateError(const regdb::OaUnitConfig& unit, OaRecordingOptions options = {}) {
  std::ostringstream out;
  auto writer = OaRecordingWriter::Create(unit, options, out);
  EXPECT_THAT(out.str(), IsEmpty()) << "a refused recording writes nothing";
  auto* error = std::get_if<std::string>(&writer);
  return error != nullptr ? *error : "(created)";
}

// `count` periodic reports of the default load into `writer`.
void AddReports(OaRecordingWriter& writer, SyntheticOaStream& stream, int count) {
  for (int i = 0; i < count; ++i) {
    std::vector<uint8_t> report = stream.Next(OaLoad{});
    writer.Add(SyntheticOaStream::Record(report, stream.time_ns()));
  }
}

// One periodic ICL report whose record comes `late_ns` after the report's
// time, with `edit` applied to its bytes; what Finish says. `stream` is left
// after the report.
std::optional<std::string> RecordOneIclReport(std::ostringstream& out, SyntheticOaStream& stream, uint64_t late_ns,
                                              void (*edit)(std::vector<uint8_t>&) = nullptr) {
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  std::vector<uint8_t> report = stream.Next(OaLoad{});
  if (edit != nullptr) edit(report);
  writer.Add(SyntheticOaStream::Record(report, stream.time_ns() + late_ns));
  return writer.Finish();
}

// The reference's example: an ICL recording starts VERSION @0 (16 bytes),
// DEVICE_INFO @0x10 (344), TOPOLOGY @0x168 (40), CORRELATION @0x190 (24),
// and the first SAMPLE @0x1a8 (264 each).
TEST(OaRecordingWriter, IclRecordingStartsAtTheReferenceOffsets) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  std::vector<uint8_t> report = stream.Next(OaLoad{});
  writer.Add(SyntheticOaStream::Record(report, stream.time_ns()));
  ASSERT_EQ(writer.Finish(), std::nullopt);

  std::string bytes = out.str();
  std::vector<Record> records = Records(bytes);
  ASSERT_EQ(records.size(), 6u);
  EXPECT_THAT(Types(records), ElementsAre(0x10000, 0x10001, 0x10002, 0x10003, 1, 0x10003));
  const size_t offsets[] = {0x0, 0x10, 0x168, 0x190, 0x1a8, 0x2b0};
  const size_t sizes[] = {16, 344, 40, 24, 264, 24};
  for (size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].offset, offsets[i]) << "record " << i;
    EXPECT_EQ(records[i].size, sizes[i]) << "record " << i;
    EXPECT_EQ(Le(bytes, records[i].offset + 4, 2), 0u) << "header pad of record " << i;
  }
  EXPECT_EQ(bytes.size(), 0x2b0u + 24);
  EXPECT_EQ(Le(bytes, 8, 4), 1u) << "recording version";
  EXPECT_EQ(0, std::memcmp(bytes.data() + 0x1a8 + 8, report.data(), 256)) << "the sample is the report as it is";
}

TEST(OaRecordingWriter, DeviceInfoCarriesTheUnitsClockDeviceAndMetricSet) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  std::string bytes = out.str();
  const size_t info = 0x10 + 8;  // the payload of DEVICE_INFO
  EXPECT_EQ(Le(bytes, info + 0, 8), 12'000'000u) << "timestamp_frequency";
  EXPECT_EQ(Le(bytes, info + 8, 4), 0x8a52u) << "device_id";
  EXPECT_EQ(Le(bytes, info + 16, 4), 300'000'000u) << "gt_min_frequency";
  EXPECT_EQ(Le(bytes, info + 20, 4), 1'200'000'000u) << "gt_max_frequency";
  EXPECT_EQ(Le(bytes, info + 24, 4), 0u) << "engine_class: render";
  EXPECT_EQ(Le(bytes, info + 32, 4), 10u) << "oa_format: I915_OA_FORMAT_A32u40_A4u32_B8_C8";
  EXPECT_EQ(std::string(bytes.data() + info + 36), "RenderBasic");
  EXPECT_EQ(bytes.substr(info + 36 + 11, 256 - 11), std::string(256 - 11, '\0')) << "NUL-padded";
  EXPECT_EQ(std::string(bytes.data() + info + 292), "e3cd52cf-c6b0-4019-b369-3bc9c75a0cbc");
  EXPECT_EQ(writer.uuid(), "e3cd52cf-c6b0-4019-b369-3bc9c75a0cbc");
}

TEST(OaRecordingWriter, UuidComesFromTheOptionsThenTheKnownTableElseIsEmpty) {
  std::ostringstream out;
  EXPECT_EQ(Create(HswOaUnit(), out).uuid(), "a490e9d2-55b3-4db0-8dab-53011032c5f3");
  EXPECT_EQ(Create(HswOaUnit(), out, {"ComputeBasic", std::nullopt}).uuid(),
            "b344c8cb-a291-4cbf-aa9c-b40213bfc96f");
  EXPECT_EQ(Create(IclOaUnit(), out, {"TestOa", std::nullopt}).uuid(), "e617cfd5-6cc5-4143-8994-cd36cebb921f");
  EXPECT_EQ(Create(HswOaUnit(), out, {"TestOa", std::nullopt}).uuid(), "") << "HSW has no TestOa";
  EXPECT_EQ(Create(IclOaUnit(), out, {"RenderBasic", "my-uuid"}).uuid(), "my-uuid");
  regdb::OaUnitConfig unknown_device = IclOaUnit();
  unknown_device.pci_device_id = 0x1234;
  EXPECT_EQ(Create(unknown_device, out).uuid(), "");
}

// drm_i915_query_topology_info: flags, max_slices, max_subslices,
// max_eus_per_subslice, subslice_offset, subslice_stride, eu_offset,
// eu_stride, then the masks, padded to 8 (the reference's table).
std::string TopologyPayload(unsigned slices, unsigned subslices, unsigned eus) {
  regdb::OaUnitConfig unit = IclOaUnit();
  unit.slices = slices;
  unit.subslices_per_slice = subslices;
  unit.eus_per_subslice = eus;
  std::ostringstream out;
  Create(unit, out);
  std::string bytes = out.str();
  Record topology = Records(bytes).at(2);
  EXPECT_EQ(topology.type, 0x10002u);
  EXPECT_EQ(topology.size % 8, 0u);
  return bytes.substr(topology.offset + 8, topology.size - 8);
}

std::vector<uint8_t> AsBytes(const std::string& text) { return {text.begin(), text.end()}; }

TEST(OaRecordingWriter, TopologyOfIcl1x8x8) {
  EXPECT_THAT(AsBytes(TopologyPayload(1, 8, 8)),
              ElementsAreArray<uint8_t>({0, 0, 1, 0, 8, 0, 8, 0, 1, 0, 1, 0, 2, 0, 1, 0,  //
                                         0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
                                         0, 0, 0, 0, 0, 0}));
}

TEST(OaRecordingWriter, TopologyOfHswGt2And1x2x10) {
  EXPECT_THAT(AsBytes(TopologyPayload(1, 2, 10)),
              ElementsAreArray<uint8_t>({0, 0, 1, 0, 2, 0, 10, 0, 1, 0, 1, 0, 2, 0, 2, 0,  //
                                         0x01, 0x03, 0xff, 0x03, 0xff, 0x03, 0, 0}));
}

TEST(OaRecordingWriter, TopologyOfHswGt3With2x2x10) {
  EXPECT_THAT(AsBytes(TopologyPayload(2, 2, 10)),
              ElementsAreArray<uint8_t>({0, 0, 2, 0, 2, 0, 10, 0, 1, 0, 1, 0, 3, 0, 2, 0,  //
                                         0x03, 0x03, 0x03, 0xff, 0x03, 0xff, 0x03, 0xff, 0x03, 0xff, 0x03,
                                         0, 0, 0, 0, 0}));
}

// The reader needs two correlation points or more, GPU timestamps strictly
// increasing (it divides by their difference), and the last one strictly
// after the last report's timestamp, or it aborts.
TEST(OaRecordingWriter, CorrelatesAtTheFirstRecordEachVirtualSecondAndAfterTheLastReport) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  AddReports(writer, stream, 1900);  // 1900 x 1.365 ms: 2.59 s
  ASSERT_EQ(writer.Finish(), std::nullopt);

  std::vector<Correlation> correlations = Correlations(out.str());
  ASSERT_EQ(correlations.size(), 4u);
  uint64_t first_report_ticks = 1 << (kExponent + 1);
  EXPECT_EQ(correlations[0].gpu_ticks, first_report_ticks);
  EXPECT_EQ(correlations[0].cpu_ns, NsAtTimestampTick(first_report_ticks, 12'000'000));
  EXPECT_EQ(correlations[1].cpu_ns, 1'000'000'000u);
  EXPECT_EQ(correlations[1].gpu_ticks, 12'000'000u);
  EXPECT_EQ(correlations[2].cpu_ns, 2'000'000'000u);
  EXPECT_EQ(correlations[2].gpu_ticks, 24'000'000u);
  EXPECT_EQ(correlations[3].gpu_ticks, stream.ticks() + 1) << "one tick after the last report";
  EXPECT_EQ(correlations[3].cpu_ns, NsAtTimestampTick(stream.ticks() + 1, 12'000'000));
  EXPECT_EQ(writer.counts().reports, 1900u);
  EXPECT_EQ(writer.counts().correlations, 4u);

  // Each per-second correlation sits before the first report that reached that second.
  std::vector<uint32_t> types = Types(Records(out.str()));
  EXPECT_EQ(std::count(types.begin(), types.end(), 1u), 1900);
  size_t k = 1;  // the first report (1-based) at or after 1 s
  while (NsAtTimestampTick(k << (kExponent + 1), 12'000'000) < 1'000'000'000) ++k;
  EXPECT_EQ(k, 733u);
  EXPECT_EQ(types[3 + k - 1], 1u);
  EXPECT_EQ(types[3 + k], 0x10003u) << "VERSION, DEVICE_INFO, TOPOLOGY, CORRELATION, then reports 1..732";
  EXPECT_EQ(types[3 + k + 1], 1u);
}

TEST(OaRecordingWriter, TimestampTicksAreTheFloorOfTimeTimesFrequency) {
  EXPECT_EQ(TimestampTicksAt(1'365'333, 12'000'000), 16383u);
  EXPECT_EQ(TimestampTicksAt(1'365'334, 12'000'000), 16384u);
  EXPECT_EQ(NsAtTimestampTick(16384, 12'000'000), 1'365'334u);
  EXPECT_EQ(TimestampTicksAt(400'000'000'000, 12'000'000), 4'800'000'000u) << "past 2^32 ticks";
  EXPECT_EQ(NsAtTimestampTick(16384, 12'500'000), 1'310'720u);
}

TEST(OaRecordingWriter, LostRecordsAreBareEightByteHeaders) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  AddReports(writer, stream, 1);
  writer.Add({"oa", UnitRecordKind::kReportLost, stream.time_ns() + 10, {}});
  AddReports(writer, stream, 1);
  writer.Add({"oa", UnitRecordKind::kBufferLost, stream.time_ns() + 10, {}});
  ASSERT_EQ(writer.Finish(), std::nullopt);

  std::vector<Record> records = Records(out.str());
  EXPECT_THAT(Types(records), ElementsAre(0x10000, 0x10001, 0x10002, 0x10003, 1, 2, 1, 3, 0x10003));
  EXPECT_EQ(records[5].size, 8u);
  EXPECT_EQ(records[7].size, 8u);
  EXPECT_EQ(writer.counts().reports, 2u);
  EXPECT_EQ(writer.counts().reports_lost, 1u);
  EXPECT_EQ(writer.counts().buffers_lost, 1u);
}

// A unit that catches up at the end of a `step` emits the reports it
// triggered during it then: the report's own timestamp places it.
TEST(OaRecordingWriter, ARecordLaterThanItsReportIsPlacedByTheReportsTimestamp) {
  std::ostringstream out;
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  ASSERT_EQ(RecordOneIclReport(out, stream, 1'000'000), std::nullopt);
  std::vector<Correlation> correlations = Correlations(out.str());
  ASSERT_EQ(correlations.size(), 2u);
  EXPECT_EQ(correlations[0].gpu_ticks, stream.ticks()) << "at the report, not 1 ms later";
  EXPECT_EQ(correlations[1].gpu_ticks, stream.ticks() + 1);
}

// --- Errors ---------------------------------------------------------------

TEST(OaRecordingWriter, RefusesMetricSetNamesTheReaderCannotMatch) {
  EXPECT_THAT(CreateError(IclOaUnit(), {"", std::nullopt}), HasSubstr("printable ASCII of 1 to 255 bytes"));
  EXPECT_THAT(CreateError(IclOaUnit(), {std::string(256, 'a'), std::nullopt}), HasSubstr("1 to 255 bytes"));
  EXPECT_THAT(CreateError(IclOaUnit(), {"Render\xC3\xA9", std::nullopt}), HasSubstr("printable ASCII"));
  EXPECT_THAT(CreateError(IclOaUnit(), {std::string("Render\0Basic", 12), std::nullopt}),
              HasSubstr("printable ASCII"));
  EXPECT_EQ(CheckMetricSetName(std::string(255, 'a')), std::nullopt);
  EXPECT_THAT(CreateError(IclOaUnit(), {"RenderBasic", std::string(40, 'u')}), HasSubstr("at most 39 bytes"));
}

TEST(OaRecordingWriter, RefusesAUnitTheReaderCannotPlaceAndListsEveryProblem) {
  regdb::OaUnitConfig unit = IclOaUnit();
  unit.pci_device_id = 0;
  unit.timestamp_hz = 0;
  unit.eus_per_subslice = 0;
  unit.formats.erase(unit.formats.begin() + 2);  // the 256-byte format
  std::string error = CreateError(unit);
  EXPECT_THAT(error, HasSubstr("no pci_device_id"));
  EXPECT_THAT(error, HasSubstr("timestamp_hz is 0"));
  EXPECT_THAT(error, HasSubstr("topology 1x8x0"));
  EXPECT_THAT(error, HasSubstr("no 256-byte report format"));
  EXPECT_EQ(std::count(error.begin(), error.end(), '\n'), 3) << error;
}

TEST(OaRecordingWriter, RefusesATopologyLargerThanARecord) {
  regdb::OaUnitConfig unit = IclOaUnit();
  unit.slices = 64;
  unit.subslices_per_slice = 128;
  unit.eus_per_subslice = 64;  // 64 x 128 x 8 bytes of EU masks
  EXPECT_THAT(CreateError(unit), HasSubstr("does not fit a TOPOLOGY record"));
}

// The reader reads every sample as 256 bytes, running into the next record
// when a sample is shorter: a smaller format would decode as garbage.
TEST(OaRecordingWriter, ARecordOfASmallerFormatStopsTheRecording) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(HswOaUnit(), out);
  std::vector<uint8_t> report(64, 0);
  writer.Add({"oa", UnitRecordKind::kReport, 1000, report});
  size_t written = out.str().size();
  SyntheticOaStream stream(HswOaUnit(), kExponent);
  AddReports(writer, stream, 2);
  EXPECT_EQ(out.str().size(), written) << "nothing after the failure";
  std::optional<std::string> error = writer.Finish();
  EXPECT_THAT(error, Optional(HasSubstr("64-byte report (format A13, B4_C8) at 1000 ns")));
  EXPECT_THAT(error, Optional(HasSubstr("only 256-byte reports (format A45_B8_C8)")));
  EXPECT_EQ(writer.counts().reports, 0u);
}

TEST(OaRecordingWriter, AReportStampedAfterItsRecordStopsTheRecording) {
  std::ostringstream out;
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  auto from_the_future = [](std::vector<uint8_t>& report) { report[6] = 0x01; };  // timestamp 0x14000
  EXPECT_THAT(RecordOneIclReport(out, stream, 0, from_the_future),
              Optional(HasSubstr("recorded at 1365334 ns has timestamp 0x00014000, after the unit's 12000000 Hz "
                                 "clock then (0x00004000)")));
}

TEST(OaRecordingWriter, AReportWhoseTimestampDwordIsStillZeroStopsTheRecording) {
  // A record taken inside the tail race, before dwords 0 and 1 landed.
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  AddReports(writer, stream, 2);
  std::vector<uint8_t> report = stream.Next(OaLoad{});
  std::fill(report.begin(), report.begin() + 8, 0);
  writer.Add(SyntheticOaStream::Record(report, stream.time_ns()));
  EXPECT_THAT(writer.Finish(), Optional(HasSubstr("has timestamp 0x00000000, before the previous report's "
                                                  "0x00008000")));
}

TEST(OaRecordingWriter, ARecordingWithoutReportsIsAnError) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  writer.Add({"oa", UnitRecordKind::kBufferLost, 5000, {}});
  EXPECT_THAT(writer.Finish(), Optional(HasSubstr("no report")));
}

TEST(OaRecordingWriter, VirtualTimeGoingBackStopsTheRecording) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent);
  AddReports(writer, stream, 2);
  writer.Add({"oa", UnitRecordKind::kReportLost, 10, {}});
  EXPECT_THAT(writer.Finish(), Optional(HasSubstr("virtual time went back")));
}

// The reader compares correlations and reports in their low 32 bits only.
TEST(OaRecordingWriter, ReportsAcrossA32BitTimestampWrapAreAnError) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent, (uint64_t{1} << 32) - 3 * (1 << 14));
  AddReports(writer, stream, 5);
  EXPECT_THAT(writer.Finish(), Optional(HasSubstr("wrap of the 32-bit OA timestamp (at 357913941334 ns")));
}

TEST(OaRecordingWriter, ReportsJustBeforeA32BitWrapAreFine) {
  std::ostringstream out;
  OaRecordingWriter writer = Create(IclOaUnit(), out);
  SyntheticOaStream stream(IclOaUnit(), kExponent, (uint64_t{1} << 32) - 5 * (1 << 14));
  AddReports(writer, stream, 4);
  EXPECT_EQ(writer.Finish(), std::nullopt);
}

}  // namespace
}  // namespace regemu::tools
