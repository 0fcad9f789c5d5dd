// Where a DeviceTest reports a driver's violation: at the driver or test
// line that made the access (the MmioBus helpers and hwreg ReadFrom/WriteTo
// carry their caller's source location), once; at the access itself with
// FailAtAccess(); at the TEST_F line for accesses that carry no location.
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/mock_mmio_bus.hpp"
#include "regemu/hwreg.hpp"

namespace regemu::fakes {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kOaStatus2 = 0x2368;
constexpr uint32_t kMustBeZeroBit5 = 0x21;  // OASTATUS2 bit 5 is must-be-zero

// A register as `regemu header --lang c++` generates it, minus the fields.
class OaStatus2 : public hwreg::Register<OaStatus2, uint32_t> {
 public:
  static constexpr unsigned kWidth = 32;
  static constexpr uint32_t kZeroOnWrite = 0;  // lets the test write the mbz bit
  static OaStatus2 FromValue(uint32_t value) { return OaStatus2(kOaStatus2, value); }

 private:
  OaStatus2(uint64_t offset, uint32_t value) : hwreg::Register<OaStatus2, uint32_t>(offset, value) {}
};

// The failures a statement reports, without failing this test.
class Failures {
 public:
  template <typename Statement>
  explicit Failures(Statement statement) {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &results_);
    statement();
  }
  int size() const { return results_.size(); }
  const ::testing::TestPartResult& operator[](int i) const { return results_.GetTestPartResult(i); }

 private:
  ::testing::TestPartResultArray results_;
};

class FailureSiteTest : public DeviceTest {
 protected:
  void SetUp() override {
    FailAtAccess(false);  // as without --gtest_break_on_failure, whatever this run's flags
    LoadDevice(ShippedDatabase("hsw"));
  }
  Failures TearDownFailures() {
    return Failures([this] { DeviceTest::TearDown(); });
  }
  // Each test has looked at what TearDown reports; nothing is left to fail it.
  void TearDown() override {
    TakeViolations();
    TakeBreaches();
  }
};

// A driver function in "another file": its line is the one to report.
int g_driver_line = 0;
void DriverAcksStatusBadly(MmioBus& mmio) {
  g_driver_line = __LINE__ + 1;
  mmio.Write32(kOaStatus2, kMustBeZeroBit5);
}

TEST_F(FailureSiteTest, AViolationIsReportedOnceAtTheDriverLineThatMadeIt) {
  DriverAcksStatusBadly(bus("mmio"));
  Failures failures = TearDownFailures();
  ASSERT_EQ(failures.size(), 1);
  EXPECT_STREQ(failures[0].file_name(), __FILE__);
  EXPECT_EQ(failures[0].line_number(), g_driver_line);
  EXPECT_THAT(failures[0].message(), HasSubstr("mbz: write32 mmio 0x2368 (OASTATUS2.RESERVED_5)"));
  EXPECT_THAT(failures[0].message(), HasSubstr("DriverAcksStatusBadly"));
}

TEST_F(FailureSiteTest, RegisterHeaderAccessesCarryTheDriverLineToo) {
  int line = __LINE__ + 1;
  OaStatus2::FromValue(kMustBeZeroBit5).WriteTo(bus("mmio"));
  Failures failures = TearDownFailures();
  ASSERT_EQ(failures.size(), 1);
  EXPECT_EQ(failures[0].line_number(), line);
}

TEST_F(FailureSiteTest, AMockDelegatingToTheFakeReportsTheCallerOfTheMock) {
  ::testing::NiceMock<MockMmioBus> mock;
  mock.DelegateToFake(device(), "mmio");
  int line = __LINE__ + 1;
  mock.Write32(kOaStatus2, kMustBeZeroBit5);
  Failures failures = TearDownFailures();
  ASSERT_EQ(failures.size(), 1);
  EXPECT_EQ(failures[0].line_number(), line);
}

TEST_F(FailureSiteTest, AnAccessWithoutALocationIsReportedAtTheTestNotInsideRegemu) {
  bus("mmio").Write(kOaStatus2, 32, kMustBeZeroBit5);  // the virtual Write carries no location
  Failures failures = TearDownFailures();
  ASSERT_EQ(failures.size(), 1);
  EXPECT_STREQ(failures[0].file_name(), __FILE__);
  EXPECT_EQ(failures[0].line_number(), ::testing::UnitTest::GetInstance()->current_test_info()->line());
}

TEST_F(FailureSiteTest, FailAtAccessFailsInsideTheAccessAndNotAgainInTearDown) {
  FailAtAccess();
  int line = __LINE__ + 1;
  Failures at_access([this] { bus("mmio").Write32(kOaStatus2, kMustBeZeroBit5); });
  ASSERT_EQ(at_access.size(), 1);
  EXPECT_EQ(at_access[0].line_number(), line);
  EXPECT_EQ(TearDownFailures().size(), 0);
}

TEST_F(FailureSiteTest, TakenViolationsAreNotReported) {
  DriverAcksStatusBadly(bus("mmio"));
  ASSERT_EQ(TakeViolations().size(), 1u);
  EXPECT_EQ(TearDownFailures().size(), 0);
}

TEST_F(FailureSiteTest, ARuleBreachIsReportedAtTheDriverLine) {
  LoadDevice(ShippedDatabase("icl"));
  EnableRule(NoAccessWithoutForcewake("render"));
  int line = __LINE__ + 1;
  bus("mmio").Read32(0x2038);  // RCS0_RING_START, with no force-wake held
  // The rule's breach, then the device's own force-wake violation: both here.
  Failures failures = TearDownFailures();
  ASSERT_EQ(failures.size(), 2);
  EXPECT_THAT(failures[0].message(), HasSubstr("protocol rule"));
  EXPECT_EQ(failures[0].line_number(), line);
  EXPECT_EQ(failures[1].line_number(), line);
}

}  // namespace
}  // namespace regemu::fakes
