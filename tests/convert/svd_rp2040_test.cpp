// The Raspberry Pi RP2040's own SVD (pico-sdk, tests/convert/data/rp2040):
// converted, checked clean, counted against the file, exported and
// converted again unchanged, and its TIMER driven the way a driver does.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "regemu/fakes/device_test.hpp"
#include "tests/convert/svd_test_support.hpp"
#include "tools/convert/svd_writer.hpp"

namespace regemu::convert {
namespace {

namespace fs = std::filesystem;

const fs::path kSvd = fs::path(REGEMU_SOURCE_DIR) / "tests/convert/data/rp2040/RP2040.svd";

std::string ReadText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// Converted once per binary, into a folder DeviceTest can load.
class Rp2040 : public fakes::DeviceTest {
 protected:
  static void SetUpTestSuite() {
    auto start = std::chrono::steady_clock::now();
    converted_ = new testing::Converted(testing::ConvertSvd(ReadText(kSvd), "RP2040.svd"));
    elapsed_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                      .count();
    folder_ = new fs::path(fs::temp_directory_path() / ("regemu_rp2040_" + std::to_string(::getpid())));
    for (const auto& [relative, text] : converted_->files) {
      fs::create_directories((*folder_ / relative).parent_path());
      std::ofstream(*folder_ / relative, std::ios::binary) << text;
    }
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*folder_, ec);
    delete folder_;
    delete converted_;
  }

  static testing::Converted* converted_;
  static fs::path* folder_;
  static long elapsed_ms_;
};

testing::Converted* Rp2040::converted_ = nullptr;
fs::path* Rp2040::folder_ = nullptr;
long Rp2040::elapsed_ms_ = 0;

TEST_F(Rp2040, ConvertsAndChecksClean) {
  ASSERT_TRUE(converted_->read.device) << converted_->errors;
  EXPECT_FALSE(converted_->loaded.diagnostics.has_errors()) << testing::CheckErrors(*converted_);
  EXPECT_EQ(converted_->loaded.diagnostics.warning_count(), 0u) << testing::CheckErrors(*converted_);
  RecordProperty("conversion_ms", static_cast<int>(elapsed_ms_));
}

// Every <peripheral>, <register> and <field> element of the file is in the
// device (the file has no dim arrays, so each element is one of them).
TEST_F(Rp2040, CountsMatchTheFile) {
  ASSERT_TRUE(converted_->read.device);
  std::string svd = ReadText(kSvd);
  ASSERT_EQ(Occurrences(svd, "<dim>"), 0u);
  const SvdDevice& device = *converted_->read.device;
  EXPECT_EQ(device.peripherals.size(), Occurrences(svd, "<peripheral>") + Occurrences(svd, "<peripheral derivedFrom"));
  EXPECT_EQ(device.RegisterCount(), Occurrences(svd, "<register>"));
  EXPECT_EQ(device.FieldCount(), Occurrences(svd, "<field>"));
  // Derived peripherals are block instances: the database has their registers too.
  size_t instances_registers = 0;
  for (const SvdPeripheral& peripheral : device.peripherals) {
    if (peripheral.instance_of.empty()) continue;
    for (const SvdPeripheral& owner : device.peripherals) {
      if (owner.name == peripheral.instance_of) instances_registers += owner.registers.size();
    }
  }
  EXPECT_EQ(converted_->loaded.database.registers.size(), device.RegisterCount() + instances_registers);
}

// RP2040 → database → SVD → database → SVD: the two SVD texts are the same.
TEST_F(Rp2040, SecondPassThroughSvdIsIdentical) {
  ASSERT_FALSE(converted_->loaded.diagnostics.has_errors());
  SvdExport first = WriteSvd(converted_->loaded.database);
  testing::Converted back = testing::ConvertSvd(first.text, "RP2040.svd");
  ASSERT_TRUE(back.read.device) << back.errors;
  ASSERT_FALSE(back.loaded.diagnostics.has_errors()) << testing::CheckErrors(back);
  EXPECT_EQ(back.loaded.database.registers.size(), converted_->loaded.database.registers.size());
  SvdExport second = WriteSvd(back.loaded.database);
  EXPECT_EQ(testing::FirstDifference(first.text, second.text), "");
}

// pico-sdk's hardware_timer, reduced to its register accesses
// (src/rp2_common/hardware_timer/timer.c): time_us_64 reads TIMELR then
// TIMEHR ("to read time read from timelr before timehr"); an alarm is set
// by writing ALARMn, acknowledged by writing its INTR bit (write 1 to clear).
class PicoTimer {
 public:
  explicit PicoTimer(fakes::MmioBus& bus) : bus_(bus) {}
  static constexpr uint64_t kBase = 0x40054000;

  uint64_t TimeUs() {
    uint32_t lo = bus_.Read32(kBase + 0x0c);
    uint32_t hi = bus_.Read32(kBase + 0x08);
    return (uint64_t{hi} << 32) | lo;
  }
  void SetAlarm(unsigned alarm, uint32_t target) {
    bus_.Write32(kBase + 0x38, bus_.Read32(kBase + 0x38) | (1u << alarm));  // INTE
    bus_.Write32(kBase + 0x10 + 4 * alarm, target);                          // ALARMn
  }
  void AckAlarm(unsigned alarm) { bus_.Write32(kBase + 0x34, 1u << alarm); }  // INTR

 private:
  fakes::MmioBus& bus_;
};

TEST_F(Rp2040, PicoTimerDriverAgainstTheConvertedTimer) {
  ASSERT_FALSE(converted_->loaded.diagnostics.has_errors());
  emulator::Device& dev = LoadDevice(*folder_ / "device.yaml");
  PicoTimer timer(bus("bus"));
  // Hardware's time, as the counter would have it (SVD carries no behaviour).
  dev.PokeRegister(*dev.model().FindRegister("TIMER_TIMELR"), 0x89abcdef);
  dev.PokeRegister(*dev.model().FindRegister("TIMER_TIMEHR"), 0x1);
  EXPECT_EQ(timer.TimeUs(), 0x189abcdefu);

  timer.SetAlarm(2, 5000);
  EXPECT_EQ(dev.PeekRegister(*dev.model().FindRegister("TIMER_ALARM2")), 5000u);
  EXPECT_EQ(dev.PeekRegister(*dev.model().FindRegister("TIMER_INTE")), 0x4u);

  // The alarm fired: hardware raised INTR.ALARM_2 and ALARM_0; the driver acks only its own.
  dev.PokeRegister(*dev.model().FindRegister("TIMER_INTR"), 0x5);
  timer.AckAlarm(2);
  EXPECT_EQ(dev.PeekRegister(*dev.model().FindRegister("TIMER_INTR")), 0x1u);
}

TEST_F(Rp2040, WritingTheReadOnlyRawTimeIsAViolation) {
  emulator::Device& dev = LoadDevice(*folder_ / "device.yaml");
  bus("bus").Write32(PicoTimer::kBase + 0x28, 0xffffffff);  // TIMERAWL: every bit read-only
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].register_name, "TIMER_TIMERAWL");
  (void)dev;
}

}  // namespace
}  // namespace regemu::convert
