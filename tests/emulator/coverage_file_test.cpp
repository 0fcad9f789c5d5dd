// The coverage file (emulator/coverage/coverage.hpp, docs/coverage.md): a round
// trip keeps everything, merging sums counts and unites point lists,
// models of another layout stay apart, and every malformed or foreign
// file is an error naming the file and the place.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/coverage/coverage.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::StartsWith;

// A folder of this test's own, removed with it.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "regemu-coverage-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

ModelCoverage Sample(uint64_t layout = 0x1234) {
  ModelCoverage model;
  model.device = "icl";
  model.layout = layout;
  model.registers = 3;
  model.fields = 5;
  model.effect_registers = {{"w1c", 2}};
  model.processes = 1;
  model.devices = 2;
  RegisterCoverage& iir = model.touched["GT_IIR"];
  iir.reads = 4;
  iir.writes = 2;
  iir.fields_changed = {{"RCS0", 1}};
  iir.effects = {{"w1c", 1}};
  model.behaviours["fw"] = {"forcewake", {{"domains woken", "render", 2}, {"domains woken", "media", 0}}};
  model.violations["protocol"][""] = 1;
  model.violations["protocol"]["GT_IIR"] = 3;
  return model;
}

CoverageData Data(const ModelCoverage& model) {
  CoverageData data;
  data.processes = 1;
  MergeInto(data, model);
  return data;
}

void Write(const std::filesystem::path& path, const std::string& text) { std::ofstream(path) << text; }

TEST(CoverageFileTest, RoundTrip) {
  TempDir dir;
  std::filesystem::path path = dir.path() / "nested" / "one.json";  // the folder is created
  std::string error;
  ASSERT_TRUE(WriteCoverageFile(path, Data(Sample(0xFEDCBA9876543210)), error)) << error;
  CoverageData read;
  ASSERT_TRUE(ReadCoverageFile(path, read, error)) << error;
  EXPECT_EQ(CoverageJson(read), CoverageJson(Data(Sample(0xFEDCBA9876543210))));
  EXPECT_EQ(read.models.at("icl").layout, 0xFEDCBA9876543210u);
  EXPECT_EQ(read.models.at("icl").touched.at("GT_IIR").effects.at("w1c"), 1u);
}

TEST(CoverageFileTest, MergeSumsCountsAndUnitesPoints) {
  ModelCoverage other = Sample();
  other.behaviours["fw"].points = {{"domains woken", "media", 1}, {"domains slept", "media", 1}};
  other.touched["GT_IER"].writes = 1;
  CoverageData merged = Merge(std::vector<CoverageData>{Data(Sample()), Data(other)});
  EXPECT_EQ(merged.processes, 2u);
  const ModelCoverage& icl = merged.models.at("icl");
  EXPECT_EQ(icl.devices, 4u);
  EXPECT_EQ(icl.processes, 2u);
  EXPECT_EQ(icl.registers, 3u);
  EXPECT_EQ(icl.touched.at("GT_IIR").reads, 8u);
  EXPECT_EQ(icl.touched.at("GT_IIR").fields_changed.at("RCS0"), 2u);
  EXPECT_EQ(icl.touched.at("GT_IER").writes, 1u);
  EXPECT_THAT(icl.violations.at("protocol"), ElementsAre(Pair("", 2), Pair("GT_IIR", 6)));
  const std::vector<PointCoverage>& points = icl.behaviours.at("fw").points;
  ASSERT_EQ(points.size(), 3u);
  EXPECT_EQ(points[0].hits, 2u);  // render
  EXPECT_EQ(points[1].hits, 1u);  // media
  EXPECT_EQ(points[2].group, "domains slept");
}

// An edited database (another layout) under the same device name.
TEST(CoverageFileTest, AnotherLayoutStaysApart) {
  CoverageData merged = Merge(std::vector<CoverageData>{Data(Sample(1)), Data(Sample(2)), Data(Sample(1))});
  ASSERT_EQ(merged.models.size(), 2u);
  EXPECT_EQ(merged.models.at("icl").devices, 4u);
  EXPECT_EQ(merged.models.at("icl (2)").device, "icl");
  EXPECT_EQ(merged.models.at("icl (2)").devices, 2u);
}

TEST(CoverageFileTest, CountsSaturate) {
  ModelCoverage huge = Sample();
  huge.touched["GT_IIR"].reads = ~uint64_t{0} - 1;
  CoverageData merged = Merge(std::vector<CoverageData>{Data(huge), Data(Sample())});
  EXPECT_EQ(merged.models.at("icl").touched.at("GT_IIR").reads, ~uint64_t{0});
}

// Each bad file, and the message that names what is wrong.
struct BadFile {
  const char* text;
  const char* message;
};

class CoverageBadFileTest : public ::testing::TestWithParam<BadFile> {};

TEST_P(CoverageBadFileTest, IsAnErrorNamingTheFile) {
  TempDir dir;
  std::filesystem::path path = dir.path() / "bad.json";
  Write(path, GetParam().text);
  CoverageData out;
  out.processes = 7;
  std::string error;
  EXPECT_FALSE(ReadCoverageFile(path, out, error));
  EXPECT_THAT(error, StartsWith(path.string() + ": "));
  EXPECT_THAT(error, HasSubstr(GetParam().message));
  EXPECT_EQ(out.processes, 7u);  // untouched
}

constexpr const char* kModelHead = R"({"format": "regemu-coverage", "version": 1, "processes": 1, "models": [)";

INSTANTIATE_TEST_SUITE_P(
    Files, CoverageBadFileTest,
    ::testing::Values(
        BadFile{"", "not JSON"}, BadFile{"{\"format\": \"regemu-coverage\", ", "not JSON"},
        BadFile{"[1, 2]", "not a regemu coverage file"},
        BadFile{R"({"format": "llvm-profdata", "version": 1})", "not a regemu coverage file"},
        BadFile{R"({"format": "regemu-coverage", "version": 2, "processes": 1, "models": []})", "version 2"},
        BadFile{R"({"format": "regemu-coverage", "version": "1"})", "version: expected a non-negative integer"},
        BadFile{R"({"format": "regemu-coverage", "version": 1, "processes": -1, "models": []})",
                "processes: expected a non-negative integer, got -1"},
        BadFile{R"({"format": "regemu-coverage", "version": 1, "processes": 1})", "\"models\" is missing"},
        BadFile{R"({"format": "regemu-coverage", "version": 1, "processes": 1, "models": [3]})",
                "models[0]: expected an object"},
        BadFile{R"({"format": "regemu-coverage", "version": 1, "processes": 1, "models": [{"device": "icl"}]})",
                "models[0]: \"layout\" is missing"}));

// A model complete but for one wrong value deep inside.
std::string ModelWith(const std::string& touched, const std::string& behaviours = "{}",
                      const std::string& layout = "\"0x12\"") {
  return std::string(kModelHead) + R"({"device": "icl", "layout": )" + layout +
         R"(, "registers": 3, "fields": 5, "effect_registers": {}, "processes": 1, "devices": 1, "touched": )" +
         touched + R"(, "behaviours": )" + behaviours + R"(, "violations": {}}]})";
}

TEST(CoverageFileTest, DeepErrorsNameTheirPlace) {
  struct Case {
    std::string text;
    const char* message;
  };
  const Case cases[] = {
      {ModelWith(R"({"GT_IIR": {"reads": 1.5, "writes": 0, "fields_changed": {}, "effects": {}}})"),
       "models[0].touched.GT_IIR.reads: expected a non-negative integer, got 1.5"},
      {ModelWith(R"({"GT_IIR": {"reads": 1, "writes": 0, "fields_changed": {"A": "x"}, "effects": {}}})"),
       "models[0].touched.GT_IIR.fields_changed.A: expected a non-negative integer"},
      {ModelWith("{}", R"({"fw": {"kind": "forcewake", "points": [{"group": "g", "name": "n"}]}})"),
       "models[0].behaviours.fw.points[0]: \"hits\" is missing"},
      {ModelWith("{}", R"({"fw": {"kind": "forcewake", "points": [{"group": "g", "name": "n", "hits": 1},
                                                                     {"group": "g", "name": "n", "hits": 1}]}})"),
       "points[1]: point 'n' of group 'g' is listed twice"},
      {ModelWith("{}", "{}", "\"12\""), "models[0].layout: expected a 64-bit hex number"},
      {ModelWith("{}", "{}", "\"0x12345678901234567\""), "models[0].layout: expected a 64-bit hex number"},
  };
  for (const Case& c : cases) {
    CoverageData out;
    std::string error;
    EXPECT_FALSE(ParseCoverage(c.text, "f.json", out, error)) << c.text;
    EXPECT_THAT(error, HasSubstr(c.message));
  }
}

TEST(CoverageFileTest, AMissingFileIsAnError) {
  TempDir dir;
  CoverageData out;
  std::string error;
  EXPECT_FALSE(ReadCoverageFile(dir.path() / "absent.json", out, error));
  EXPECT_THAT(error, HasSubstr("absent.json: cannot open"));
}

// Hostile nesting: an error, not a stack overflow.
TEST(CoverageFileTest, DeepNestingIsAnErrorNotACrash) {
  std::string text = std::string(kModelHead) + std::string(200000, '[') + std::string(200000, ']') + "]}";
  CoverageData out;
  std::string error;
  EXPECT_FALSE(ParseCoverage(text, "deep.json", out, error));
  EXPECT_THAT(error, HasSubstr("models[0]: expected an object"));
}

TEST(CoverageFileTest, OutputPathReplacesPercentPWithThePid) {
  const char* before = getenv(kCoverageEnvironment);
  std::string saved = before != nullptr ? before : "";
  setenv(kCoverageEnvironment, "cov/run-%p.json", 1);
  EXPECT_TRUE(CoverageFromEnvironment());
  EXPECT_EQ(CoverageOutputPath(), "cov/run-" + std::to_string(getpid()) + ".json");
  if (before != nullptr) {
    setenv(kCoverageEnvironment, saved.c_str(), 1);
  } else {
    unsetenv(kCoverageEnvironment);
    EXPECT_FALSE(CoverageFromEnvironment());
    SetCoverageOutput("in-code-%p.json");
    EXPECT_EQ(CoverageOutputPath(), "in-code-" + std::to_string(getpid()) + ".json");
    SetCoverageOutput("");
    EXPECT_EQ(CoverageOutputPath(), "");
  }
}

// What the process collected goes to the pattern's file, one process.
TEST(CoverageFileTest, FlushWritesWhatTheProcessCollected) {
  TempDir dir;
  const char* before = getenv(kCoverageEnvironment);
  std::string saved = before != nullptr ? before : "";
  std::string pattern = (dir.path() / "out" / "run-%p.json").string();
  setenv(kCoverageEnvironment, pattern.c_str(), 1);
  ModelCoverage model = Sample(0xF1u);
  model.device = "flushed";
  CollectCoverage(model);
  std::string error;
  bool flushed = FlushCoverage(error);
  if (before != nullptr) {
    setenv(kCoverageEnvironment, saved.c_str(), 1);
  } else {
    unsetenv(kCoverageEnvironment);
  }
  ASSERT_TRUE(flushed) << error;
  CoverageData read;
  ASSERT_TRUE(ReadCoverageFile(dir.path() / "out" / ("run-" + std::to_string(getpid()) + ".json"), read, error))
      << error;
  EXPECT_EQ(read.processes, 1u);
  EXPECT_EQ(read.models.at("flushed").processes, 1u);
  EXPECT_EQ(read.models.at("flushed").devices, 2u);
}

}  // namespace
}  // namespace regemu::emulator
