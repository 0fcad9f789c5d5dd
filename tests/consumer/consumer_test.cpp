// Links the installed regemu::fakes: a driver test against the installed
// Haswell database (through the register header regemu_add_device
// generated from it), a profiler test against the installed MI200
// database's counters and metric oracle (muParser, found by the package),
// and a plain-pointer access through a trapped mapping (Zydis, libdw).
#include <gmock/gmock.h>
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/regs/hsw.hpp"

#include <stdlib.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace hsw = regemu::regs::hsw;

class ConsumerTest : public regemu::fakes::DeviceTest {};

TEST_F(ConsumerTest, ShippedDatabasesAreTheInstalledOnes) {
  std::string path = regemu::fakes::ShippedDatabase("hsw").string();
  EXPECT_THAT(path, ::testing::StartsWith(CONSUMER_DATABASE_DIR));
  EXPECT_THROW(regemu::fakes::ShippedDatabase("hws"), std::invalid_argument);
}

TEST_F(ConsumerTest, DriverEnablesOaThroughTheGeneratedHeader) {
  LoadDevice(regemu::fakes::ShippedDatabase("hsw"));
  regemu::fakes::MmioBus& mmio = bus("mmio");
  // The OA buffer first, in gen7_init_oa_buffer's order, then the enable.
  hsw::OASTATUS2::FromValue(0x01000001).WriteTo(mmio);
  hsw::OABUFFER::FromValue(0x01000000).WriteTo(mmio);
  hsw::OASTATUS1::FromValue(0x01000038).WriteTo(mmio);
  hsw::OACONTROL::Get().ReadFrom(mmio).set_performance_counter_enable(1).WriteTo(mmio);
  EXPECT_THAT(device(), regemu::fakes::FieldIs("OACONTROL.PERFORMANCE_COUNTER_ENABLE", 1));
  EXPECT_THAT(device(), regemu::fakes::Wrote("OACONTROL", 1));
}

// The driver's mistake: bit 5 of OASTATUS2 is must-be-zero. The strict
// fixture reports it at this file's line, not at a line inside regemu.
int g_bad_ack_line = 0;
void AckOaStatusBadly(regemu::fakes::MmioBus& mmio) {
  g_bad_ack_line = __LINE__ + 1;
  mmio.Write32(0x2368, 0x21);
}

TEST_F(ConsumerTest, AViolationFailsAtTheConsumersOwnLine) {
  LoadDevice(regemu::fakes::ShippedDatabase("hsw"));
  AckOaStatusBadly(bus("mmio"));
  ::testing::TestPartResultArray failures;
  {
    ::testing::ScopedFakeTestPartResultReporter reporter(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    DeviceTest::TearDown();
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_STREQ(failures.GetTestPartResult(0).file_name(), CONSUMER_SOURCE_FILE);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), g_bad_ack_line);
  EXPECT_THAT(failures.GetTestPartResult(0).message(), ::testing::HasSubstr("mbz"));
  TakeViolations();  // seen; the real TearDown has nothing left to report
}

TEST_F(ConsumerTest, ProfilerChecksAMetricAgainstTheInstalledOracle) {
  LoadDevice(regemu::fakes::ShippedDatabase("mi200"));
  regemu::fakes::MmioBus& mmio = bus("mmio");
  mmio.Write32(0x36100, 0);      // GRBM_PERFCOUNTER0_SELECT: GRBM_COUNT
  mmio.Write32(0x36104, 2);      // GRBM_PERFCOUNTER1_SELECT: GRBM_GUI_ACTIVE
  mmio.Write32(0x36020, 0);      // CP_PERFMON_CNTL: DISABLE_AND_RESET
  mmio.Write32(0x36020, 1);      // START
  ASSERT_EQ(device().Inject("event", std::vector<std::string>{"GRBM_COUNT", "1000"}), "");
  ASSERT_EQ(device().Inject("event", std::vector<std::string>{"GRBM_GUI_ACTIVE", "250"}), "");
  mmio.Write32(0x36020, 0x401);  // START | SAMPLE_ENABLE
  double busy = 100.0 * mmio.Read32(0x3410C) / mmio.Read32(0x34100);
  std::string error;
  EXPECT_DOUBLE_EQ(busy, device().Metric("GPUBusy", error).value_or(-1)) << error;
  EXPECT_DOUBLE_EQ(busy, 25.0);
}

// Coverage through the installed kit: the counts, and the JSON file the
// installed library writes and reads (its JSON library stays inside it).
TEST_F(ConsumerTest, CoverageCountsAndRoundTripsThroughAFile) {
  regemu::emulator::DeviceOptions options;
  options.coverage = true;
  LoadDevice(regemu::fakes::ShippedDatabase("hsw"), options);
  bus("mmio").Read32(0x2360);
  std::optional<regemu::emulator::ModelCoverage> coverage = device().Coverage();
  ASSERT_TRUE(coverage.has_value());
  EXPECT_EQ(coverage->touched.at("OACONTROL").reads, 1u);

  std::string dir = (std::filesystem::temp_directory_path() / "regemu-consumer-XXXXXX").string();
  ASSERT_NE(mkdtemp(dir.data()), nullptr);
  regemu::emulator::CoverageData data;
  regemu::emulator::MergeInto(data, *coverage);
  std::string error;
  regemu::emulator::CoverageData read;
  EXPECT_TRUE(regemu::emulator::WriteCoverageFile(dir + "/one.json", data, error)) << error;
  EXPECT_TRUE(regemu::emulator::ReadCoverageFile(dir + "/one.json", read, error)) << error;
  EXPECT_EQ(read.models.at("hsw").touched.at("OACONTROL").reads, 1u);
  std::filesystem::remove_all(dir);
}

// A plain-pointer driver through the installed trapped mappings (Zydis and
// libdw found by the package): a BAR read as a volatile load.
TEST_F(ConsumerTest, APlainPointerReachesTheDeviceThroughATrappedMapping) {
  LoadDevice(regemu::fakes::ShippedDatabase("nvme"));
  bus("config").Write16(0x04, 0x0006);
  volatile uint32_t* bar0 = reinterpret_cast<volatile uint32_t*>(MappedSpace("bar0"));
  EXPECT_EQ(bar0[0x08 / 4], 0x00020000u);  // VS
  bar0[0x0c / 4] = 0x1;                    // INTMS: mask vector 0
  EXPECT_THAT(device(), regemu::fakes::FieldIs("IVM.V0", 1));
}

}  // namespace
