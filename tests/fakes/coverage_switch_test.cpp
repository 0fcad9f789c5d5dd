// DeviceTest's coverage switches (fakes/device_test.hpp, README.md
// "Coverage"): REGEMU_COVERAGE turns coverage on with no code change,
// EnableCoverage() does from code, and neither leaves it off. Each test
// sets the environment itself and puts back what it found.
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/fakes/device_test.hpp"

namespace regemu::fakes {
namespace {

using emulator::kCoverageEnvironment;

// REGEMU_COVERAGE as this test wants it, restored when it ends; the output
// chosen in code is forgotten too.
class ScopedCoverageEnvironment {
 public:
  explicit ScopedCoverageEnvironment(const std::optional<std::string>& value) {
    if (const char* before = getenv(kCoverageEnvironment)) saved_ = before;
    if (value) {
      setenv(kCoverageEnvironment, value->c_str(), 1);
    } else {
      unsetenv(kCoverageEnvironment);
    }
  }
  ~ScopedCoverageEnvironment() {
    if (saved_) {
      setenv(kCoverageEnvironment, saved_->c_str(), 1);
    } else {
      unsetenv(kCoverageEnvironment);
    }
    emulator::SetCoverageOutput("");
  }
  ScopedCoverageEnvironment(const ScopedCoverageEnvironment&) = delete;
  ScopedCoverageEnvironment& operator=(const ScopedCoverageEnvironment&) = delete;

 private:
  std::optional<std::string> saved_;
};

// A folder of this test's own, removed with it.
std::filesystem::path MakeTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "regemu-coverage-switch-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  return pattern;
}

class CoverageSwitchTest : public DeviceTest {
 protected:
  ~CoverageSwitchTest() override {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  std::filesystem::path dir_ = MakeTempDir();
};

TEST_F(CoverageSwitchTest, OffWithoutTheEnvironmentOrTheSwitch) {
  ScopedCoverageEnvironment environment(std::nullopt);
  LoadDevice(ShippedDatabase("hsw"));
  EXPECT_FALSE(device().Coverage().has_value());
}

TEST_F(CoverageSwitchTest, TheEnvironmentTurnsItOnWithNoCodeChange) {
  ScopedCoverageEnvironment environment((dir_ / "run-%p.json").string());
  LoadDevice(ShippedDatabase("hsw"));
  bus("mmio").Read32(0x2360);
  std::optional<emulator::ModelCoverage> coverage = device().Coverage();
  ASSERT_TRUE(coverage.has_value());
  EXPECT_EQ(coverage->touched.at("OACONTROL").reads, 1u);
}

// One switch in code; the file goes where it says, with everything this
// process collected (this test's device among it, once destroyed).
TEST_F(CoverageSwitchTest, EnableCoverageTurnsItOnAndChoosesTheFile) {
  ScopedCoverageEnvironment environment(std::nullopt);
  EnableCoverage((dir_ / "from-code-%p.json").string());
  LoadDevice(ShippedDatabase("hsw"));
  bus("mmio").Write32(0x2360, 0);
  ASSERT_TRUE(device().Coverage().has_value());
  LoadDevice(ShippedDatabase("hsw"));  // the first device hands its counts over
  std::string error;
  ASSERT_TRUE(emulator::FlushCoverage(error)) << error;
  emulator::CoverageData written;
  ASSERT_TRUE(emulator::ReadCoverageFile(dir_ / ("from-code-" + std::to_string(getpid()) + ".json"), written, error))
      << error;
  ASSERT_TRUE(written.models.contains("hsw"));
  EXPECT_GE(written.models.at("hsw").touched.at("OACONTROL").writes, 1u);
}

// Without a pattern, EnableCoverage picks one only when none was chosen.
TEST_F(CoverageSwitchTest, EnableCoverageKeepsAnOutputChosenBefore) {
  ScopedCoverageEnvironment environment(std::nullopt);
  emulator::SetCoverageOutput((dir_ / "host-%p.json").string());
  EnableCoverage();
  EXPECT_EQ(emulator::CoverageOutputPath(), dir_ / ("host-" + std::to_string(getpid()) + ".json"));
  emulator::SetCoverageOutput("");
  EnableCoverage();
  EXPECT_EQ(emulator::CoverageOutputPath(), "regemu-coverage-" + std::to_string(getpid()) + ".json");
}

}  // namespace
}  // namespace regemu::fakes
