// End to end: a driver script opens an OA stream on yaml/icl and yaml/hsw
// and sets a GPU clock and load (`inject gpu-freq`, `inject oa-load`) in
// two phases; `regemu run --oa-recording` exports what the oa-unit wrote;
// IGT's i915-perf-reader computes RenderBasic per report from it. Each
// report must give the virtual time between reports as GpuTime, the
// injected clock as AvgGpuCoreFrequency and the injected load as GpuBusy,
// EuActive and EuStall (the one report spanning the change, their
// time-weighted mix).
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/i915_perf_reader.hpp"
#include "regemu/regdb/oa_timestamp.hpp"

namespace regemu::tools {
namespace {

namespace fs = std::filesystem;
using regemu::testing::ReaderRun;
using ::testing::HasSubstr;
using regdb::kMaxTimestampHz;
using regdb::kNsPerSecond;
using regdb::NsAtTimestampTick;
using regdb::TimestampTicksAt;
using ::testing::Not;

constexpr const char* kCounters = "GpuTime,AvgGpuCoreFrequency,GpuBusy,EuActive,EuStall";
constexpr uint64_t kPeriodTicks = uint64_t{1} << 14;  // exponent 13

// From `from_ns` on, until the next phase: as the script injects it.
struct Phase {
  uint64_t from_ns;
  double mhz, busy, eu_active, eu_stall;
};

struct Scenario {
  const char* name;
  const char* database;
  const char* script;
  uint64_t timestamp_hz;
  double gpu_time_ns;  // 2^14 ticks
  const char* platform_line;
  int reports;
  std::vector<Phase> phases;
};

void PrintTo(const Scenario& s, std::ostream* os) { *os << s.name; }

// What a report pair spanning [start_ns, end_ns] must show: each phase
// weighted by its GPU clocks inside the interval.
struct Expected {
  double hz = 0, busy = 0, eu_active = 0, eu_stall = 0;
  bool mixed = false;
};

Expected ExpectedOver(const std::vector<Phase>& phases, uint64_t start_ns, uint64_t end_ns) {
  double clocks = 0, busy = 0, active = 0, stall = 0;
  int phases_inside = 0;
  for (size_t i = 0; i < phases.size(); ++i) {
    uint64_t from = std::max(start_ns, phases[i].from_ns);
    uint64_t to = i + 1 < phases.size() ? std::min(end_ns, phases[i + 1].from_ns) : end_ns;
    if (to <= from) continue;
    ++phases_inside;
    double c = phases[i].mhz * static_cast<double>(to - from);  // MHz x ns = clocks x 1000
    clocks += c;
    busy += phases[i].busy * c;
    active += phases[i].eu_active * c;
    stall += phases[i].eu_stall * c;
  }
  Expected e;
  e.hz = clocks * 1e6 / static_cast<double>(end_ns - start_ns);
  e.busy = 100 * busy / clocks;
  e.eu_active = 100 * active / clocks;
  e.eu_stall = 100 * stall / clocks;
  e.mixed = phases_inside > 1;
  return e;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class OaRecordingEndToEnd : public ::testing::TestWithParam<Scenario> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("regemu_oa_e2e_" + std::string(GetParam().name));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `regemu run --oa-recording` from the source tree; its exit code.
  int RunRegemu(const fs::path& recording) {
    std::string command = "cd '" + std::string(REGEMU_SOURCE_DIR) + "' && '" + std::string(REGEMU_BINARY) +
                          "' run --oa-recording '" + recording.string() + "' " + GetParam().database + " " +
                          GetParam().script + " >'" + (dir_ / "out.txt").string() + "' 2>'" +
                          (dir_ / "err.txt").string() + "'";
    int status = std::system(command.c_str());
    out_ = Slurp(dir_ / "out.txt");
    err_ = Slurp(dir_ / "err.txt");
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  fs::path dir_;
  std::string out_, err_;
};

TEST_P(OaRecordingEndToEnd, TheReaderGivesBackTheInjectedClockAndLoadPerReport) {
  const Scenario& s = GetParam();
  fs::path recording = dir_ / "oa.i915perf";
  ASSERT_EQ(RunRegemu(recording), 0) << out_ << err_;
  EXPECT_THAT(out_, HasSubstr("oa-recording: " + recording.string() + ": " + std::to_string(s.reports) +
                              " report(s), 0 report-lost and 0 buffer-lost record(s), 2 timestamp correlation(s)\n"));
  EXPECT_EQ(err_, "");

  std::optional<std::string> reader = regemu::testing::FindI915PerfReader();
  if (!reader) GTEST_SKIP() << regemu::testing::kNoReaderMessage;
  ReaderRun run = regemu::testing::RunI915PerfReader(*reader, recording.string(), kCounters);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_THAT(run.output, HasSubstr(s.platform_line));
  EXPECT_THAT(run.output, HasSubstr("Reports: " + std::to_string(s.reports) + "\n"));
  EXPECT_THAT(run.output, Not(HasSubstr("different HW configuration")));
  // The first report is at tick 2^14 (the reports are at its multiples).
  EXPECT_THAT(run.output, ::testing::ContainsRegex("OA data timestamp range: +0x0+4000-"));
  ASSERT_EQ(run.reports.size(), static_cast<size_t>(s.reports - 1)) << run.output;

  ASSERT_EQ(static_cast<double>(kPeriodTicks * kNsPerSecond / s.timestamp_hz), s.gpu_time_ns);
  int pure = 0, mixed = 0;
  for (size_t block = 0; block < run.reports.size(); ++block) {
    uint64_t start_ns = NsAtTimestampTick((block + 1) * kPeriodTicks, s.timestamp_hz);
    uint64_t end_ns = NsAtTimestampTick((block + 2) * kPeriodTicks, s.timestamp_hz);
    Expected e = ExpectedOver(s.phases, start_ns, end_ns);
    (e.mixed ? mixed : pure) += 1;
    const auto& values = run.reports[block].values;
    SCOPED_TRACE("report" + std::to_string(block) + ": " + std::to_string(start_ns) + ".." + std::to_string(end_ns) +
                 " ns");
    EXPECT_EQ(run.reports[block].reason, "timer");
    ASSERT_EQ(values.size(), 5u) << run.output;
    EXPECT_EQ(values.at("GpuTime"), s.gpu_time_ns);
    // About 1/GpuCoreClocks + 1/GpuTime of relative error (the reference's bound).
    EXPECT_NEAR(values.at("AvgGpuCoreFrequency"), e.hz, e.hz * 5e-6);
    EXPECT_NEAR(values.at("GpuBusy"), e.busy, 1e-3);
    EXPECT_NEAR(values.at("EuActive"), e.eu_active, 1e-3);
    EXPECT_NEAR(values.at("EuStall"), e.eu_stall, 1e-3);
  }
  EXPECT_EQ(mixed, 1) << "one report spans the change";
  EXPECT_EQ(pure, s.reports - 2);
}

INSTANTIATE_TEST_SUITE_P(
    Platforms, OaRecordingEndToEnd,
    ::testing::Values(
        // The stream opens at t = 5000 ns, after the force-wake polls.
        Scenario{"Icl", "yaml/icl", "tests/scripts/icl_oa_recording.script", 12'000'000, 1365333,
                 "Recorded on device=0x8a52(icelake) graphics_ver=11", 43,
                 {{0, 1000, 0.75, 0.5, 0.25}, {30'005'000, 600, 0.4, 0.3, 0.1}}},
        Scenario{"Hsw", "yaml/hsw", "tests/scripts/hsw_oa_recording.script", 12'500'000, 1310720,
                 "Recorded on device=0x416(haswell) graphics_ver=7", 45,
                 {{0, 1000, 0.75, 0.5, 0.25}, {30'000'000, 600, 0.4, 0.3, 0.1}}}),
    [](const ::testing::TestParamInfo<Scenario>& param) { return std::string(param.param.name); });

}  // namespace
}  // namespace regemu::tools
