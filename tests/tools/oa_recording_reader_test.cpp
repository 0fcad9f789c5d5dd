// IGT's i915-perf-reader decodes what OaRecordingWriter writes: synthetic
// periodic reports for ICL (0x8a52, A32u40_A4u32_B8_C8) and HSW (0x0416,
// A45_B8_C8) whose counters encode a known clock and load, read back per
// report (`-r`) as GpuTime, AvgGpuCoreFrequency, GpuBusy and EuActive with
// RenderBasic's equations (IGT 1.27 lib/i915/perf-configs/oa-*.xml).
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/i915_perf_reader.hpp"
#include "tests/tools/oa_synthetic_reports.hpp"
#include "tools/regemu/oa_recording.hpp"

namespace regemu::tools {
namespace {

namespace fs = std::filesystem;
using regemu::testing::OaDeltas;
using regemu::testing::OaLoad;
using regemu::testing::ReaderRun;
using regemu::testing::SyntheticOaStream;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kCounters = "GpuTime,AvgGpuCoreFrequency,GpuBusy,EuActive";

// Clock and load change from period to period, so every report has its own values.
const OaLoad kLoads[] = {
    {1000, 0.75, 0.5, 0.25}, {800, 0.9, 0.6, 0.3}, {1100, 0.2, 0.1, 0.05}, {350, 1.0, 1.0, 0.0}, {650, 0.0, 0.0, 0.0},
};

struct ReaderCase {
  const char* name;
  regdb::OaUnitConfig (*unit)();
  const char* platform_line;  // the reader's first line
  unsigned exponent;
  int reports;
  uint64_t counter_base;  // just under 2^32, so ICL's 40-bit A counters carry
  int correlations;       // the first record's, one per whole second, the closing one
};

void PrintTo(const ReaderCase& c, std::ostream* os) { *os << c.name; }

class OaRecordingReader : public ::testing::TestWithParam<ReaderCase> {
 protected:
  void SetUp() override {
    std::optional<std::string> reader = regemu::testing::FindI915PerfReader();
    if (!reader) GTEST_SKIP() << regemu::testing::kNoReaderMessage;
    reader_ = *reader;
    path_ = fs::temp_directory_path() / ("regemu_oa_reader_" + std::string(GetParam().name) + ".i915perf");
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove(path_, ec);
  }

  std::string reader_;
  fs::path path_;
};

TEST_P(OaRecordingReader, DecodesEachReportsClockAndLoad) {
  const ReaderCase& c = GetParam();
  regdb::OaUnitConfig unit = c.unit();
  std::vector<OaDeltas> deltas;
  std::vector<OaLoad> loads;
  uint64_t correlations = 0;
  {
    std::ofstream file(path_, std::ios::binary);
    auto created = OaRecordingWriter::Create(unit, {}, file);
    ASSERT_TRUE(std::holds_alternative<OaRecordingWriter>(created)) << std::get<std::string>(created);
    OaRecordingWriter& writer = std::get<OaRecordingWriter>(created);
    SyntheticOaStream stream(unit, c.exponent, 0, c.counter_base);
    for (int i = 0; i < c.reports; ++i) {
      loads.push_back(kLoads[static_cast<size_t>(i) % std::size(kLoads)]);
      deltas.emplace_back();
      std::vector<uint8_t> report = stream.Next(loads.back(), &deltas.back());
      writer.Add(SyntheticOaStream::Record(report, stream.time_ns()));
      if (i == 2) writer.Add({"oa", emulator::UnitRecordKind::kReportLost, stream.time_ns() + 50, {}});
      if (i == 3) writer.Add({"oa", emulator::UnitRecordKind::kBufferLost, stream.time_ns() + 50, {}});
    }
    ASSERT_EQ(writer.Finish(), std::nullopt);
    correlations = writer.counts().correlations;
  }

  ReaderRun run = regemu::testing::RunI915PerfReader(reader_, path_.string(), kCounters);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr(c.platform_line));
  EXPECT_THAT(run.output, HasSubstr("Reports: " + std::to_string(c.reports) + "\n"));
  EXPECT_EQ(correlations, static_cast<uint64_t>(c.correlations));
  EXPECT_THAT(run.output, HasSubstr("Timestamp correlation points: " + std::to_string(c.correlations) + "\n"));
  EXPECT_THAT(run.output, Not(HasSubstr("different HW configuration"))) << "the uuid is the reader's own";
  ASSERT_EQ(run.reports.size(), static_cast<size_t>(c.reports - 1)) << run.output;

  const uint64_t eus = unit.eu_count();
  for (size_t block = 0; block < run.reports.size(); ++block) {
    // Block j is report j -> j+1: the deltas and load of report j+1.
    const OaDeltas& d = deltas[block + 1];
    const OaLoad& load = loads[block + 1];
    const auto& values = run.reports[block].values;
    SCOPED_TRACE("report" + std::to_string(block) + " at " + std::to_string(load.gpu_mhz) + " MHz");
    EXPECT_EQ(run.reports[block].reason, "timer");
    ASSERT_EQ(values.size(), 4u) << run.output;

    uint64_t gpu_time = d.ticks * 1'000'000'000 / unit.timestamp_hz;
    EXPECT_EQ(values.at("GpuTime"), static_cast<double>(gpu_time));
    EXPECT_EQ(values.at("AvgGpuCoreFrequency"), static_cast<double>(d.clocks * 1'000'000'000 / gpu_time));
    EXPECT_NEAR(values.at("AvgGpuCoreFrequency"), static_cast<double>(load.gpu_mhz) * 1e6, 1e-5 * 1e9);
    EXPECT_NEAR(values.at("GpuBusy"), static_cast<double>(d.busy) * 100.0 / static_cast<double>(d.clocks), 1e-6);
    EXPECT_NEAR(values.at("GpuBusy"), 100.0 * load.busy, 1e-3);
    EXPECT_NEAR(values.at("EuActive"),
                static_cast<double>(d.eu_active / eus) * 100.0 / static_cast<double>(d.clocks), 1e-6);
    EXPECT_NEAR(values.at("EuActive"), 100.0 * load.eu_active, 1e-3);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Platforms, OaRecordingReader,
    ::testing::Values(
        // 2^14 ticks: GpuTime 1365333 ns at 12 MHz, 1310720 ns at 12.5 MHz.
        ReaderCase{"IclExponent13", &regemu::testing::IclOaUnit, "Recorded on device=0x8a52(icelake) graphics_ver=11",
                   13, 20, (uint64_t{1} << 32) - 50'000'000, 2},
        ReaderCase{"HswExponent13", &regemu::testing::HswOaUnit, "Recorded on device=0x416(haswell) graphics_ver=7",
                   13, 20, (uint64_t{1} << 32) - 50'000'000, 2},
        // 2^21 ticks (~0.17 s): 14 reports cross two virtual seconds, so
        // the reader interpolates between four correlation points.
        ReaderCase{"IclExponent20", &regemu::testing::IclOaUnit, "Recorded on device=0x8a52(icelake) graphics_ver=11",
                   20, 14, 0, 4},
        ReaderCase{"HswExponent20", &regemu::testing::HswOaUnit, "Recorded on device=0x416(haswell) graphics_ver=7",
                   20, 14, 0, 4}),
    [](const ::testing::TestParamInfo<ReaderCase>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace regemu::tools
