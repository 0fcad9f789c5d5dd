// DeviceTest::MappedSpace: a driver's mistake through a plain pointer fails
// the test at the driver's own source line (from its debug information),
// in every build; the mapping is one per space.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "tests/trap/driver_functions.hpp"

namespace regemu::fakes {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;

// The line of linux_bar.c that writes the read-only VS register.
int ReadOnlyWriteLine() {
  std::ifstream source(REGEMU_TRAP_DRIVER_DIR "/linux_bar.c");
  std::string text;
  for (int line = 1; std::getline(source, text); ++line) {
    if (text.find("regemu-test: read-only write") != std::string::npos) return line;
  }
  return 0;
}

class MappedSpaceTest : public DeviceTest, public ::testing::WithParamInterface<DriverBuild> {
 protected:
  void SetUp() override {
    LoadDevice(ShippedDatabase("nvme"));
    bus("config").Write16(0x04, 0x0006);
  }

  // What TearDown reports, intercepted.
  std::vector<::testing::TestPartResult> TearDownFailures() {
    ::testing::TestPartResultArray failures;
    {
      ::testing::ScopedFakeTestPartResultReporter reporter(
          ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
      DeviceTest::TearDown();
    }
    TakeViolations();  // seen; the real TearDown has nothing left to report
    std::vector<::testing::TestPartResult> reported;
    for (int i = 0; i < failures.size(); ++i) reported.push_back(failures.GetTestPartResult(i));
    return reported;
  }
};

TEST_P(MappedSpaceTest, ADriverMistakeFailsAtTheDriversLine) {
  GetParam().nvme_write_version_by_mistake(MappedSpace("bar0"));
  std::vector<::testing::TestPartResult> failures = TearDownFailures();
  ASSERT_EQ(failures.size(), 1u);
  const ::testing::TestPartResult& failure = failures[0];
  EXPECT_THAT(failure.file_name(), EndsWith("drivers/linux_bar.c"));
  EXPECT_EQ(failure.line_number(), ReadOnlyWriteLine());
  EXPECT_THAT(failure.message(),
              AllOf(HasSubstr("read-only: write32 bar0 0x8 (VS"),
                    HasSubstr("(the access was made by the trapped instruction at "),
                    HasSubstr("drivers/linux_bar.c:" + std::to_string(ReadOnlyWriteLine()) + " in " +
                              GetParam().name + "_nvme_write_version_by_mistake: `mov dword ptr")));
}

// With FailAtAccess the failure is reported during the access itself.
TEST_P(MappedSpaceTest, AtTheAccessToo) {
  FailAtAccess();
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    GetParam().nvme_write_version_by_mistake(MappedSpace("bar0"));
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_THAT(failures.GetTestPartResult(0).file_name(), EndsWith("drivers/linux_bar.c"));
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), ReadOnlyWriteLine());
  TakeViolations();
}

std::string BuildName(const ::testing::TestParamInfo<DriverBuild>& param) { return param.param.name; }

INSTANTIATE_TEST_SUITE_P(Builds, MappedSpaceTest, ::testing::ValuesIn(kDriverBuilds), BuildName);

class MappedSpaceSeamTest : public DeviceTest {};

TEST_F(MappedSpaceSeamTest, OneMappingPerSpaceUntilTheNextDevice) {
  LoadDevice(ShippedDatabase("nvme"));
  uint8_t* bar = MappedSpace("bar0");
  EXPECT_EQ(MappedSpace("bar0"), bar);
  EXPECT_THROW(MappedSpace("bar0", reinterpret_cast<uintptr_t>(bar) + 0x10000), std::invalid_argument);
  EXPECT_THROW(MappedSpace("bar9"), std::invalid_argument);
  EXPECT_EQ(device().access_cost_ns(), emulator::kDefaultTrappedAccessCostNs);
  bus("config").Write16(0x04, 0x0006);
  EXPECT_EQ(*reinterpret_cast<volatile uint32_t*>(bar + 8), 0x00020000u);
  LoadDevice(ShippedDatabase("nvme"));
  EXPECT_NE(MappedSpace("bar0"), nullptr);
}

// A plain-pointer access that breaks a protocol rule is a breach like any.
TEST_F(MappedSpaceSeamTest, DecodeOffIsAViolationAtTheAccess) {
  LoadDevice(ShippedDatabase("nvme"));
  uint8_t* bar = MappedSpace("bar0");
  EXPECT_EQ(*reinterpret_cast<volatile uint32_t*>(bar + 8), 0xffffffffu) << "memory decode is off: master abort";
  EXPECT_THAT(TakeViolations(), ::testing::ElementsAre(::testing::Field(&emulator::Violation::kind,
                                                                        emulator::ViolationKind::kUnclaimed)));
}

}  // namespace
}  // namespace regemu::fakes
