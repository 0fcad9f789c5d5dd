// The example MI200 collector against the shipped yaml/mi200: the correct
// collector's metrics equal regemu's oracle (Device::Metric) for an
// injected workload; each bug shows: a wrong value the oracle contradicts,
// or the violation the device records.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "examples/rocm_collector/collector.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::rocm_collector {
namespace {

using fakes::ViolationIs;
using ::testing::ElementsAre;

class CollectorTest : public fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(fakes::ShippedDatabase("mi200")); }

  // A kernel's worth of events while the counters run.
  void Workload() {
    Inject({"GRBM_COUNT", "8000"});
    Inject({"GRBM_GUI_ACTIVE", "6000"});
    Inject({"SQ_WAVES", "256"});
    Inject({"SPI_CSN_WAVE", "256"});
    Inject({"TCC_HIT", "3200"});  // 100 per instance
    Inject({"TCC_MISS", "800"});  // 25 per instance
    device().Advance(10'000);
  }
  void Inject(std::vector<std::string> args) { ASSERT_EQ(device().Inject("event", args), ""); }
  double Oracle(const std::string& metric) {
    std::string error;
    std::optional<double> value = device().Metric(metric, error);
    EXPECT_TRUE(value.has_value()) << error;
    return value.value_or(-1);
  }
};

TEST_F(CollectorTest, MetricsMatchTheOracle) {
  Mi200Collector collector(bus("mmio"));
  collector.Start();
  Workload();
  Samples samples = collector.Read();
  collector.Stop();
  EXPECT_EQ(samples.grbm_count, 8000u);
  EXPECT_EQ(samples.sq_waves, 256u);
  EXPECT_EQ(samples.spi_csn_wave, 256u);
  ASSERT_EQ(samples.tcc_hit.size(), 32u);
  EXPECT_EQ(samples.tcc_hit[31], 100u);
  EXPECT_EQ(samples.tcc_miss[0], 25u);
  Metrics metrics = Mi200Collector::Compute(samples);
  EXPECT_DOUBLE_EQ(metrics.gpu_busy, Oracle("GPUBusy"));
  EXPECT_DOUBLE_EQ(metrics.wavefronts, Oracle("Wavefronts"));
  EXPECT_DOUBLE_EQ(metrics.l2_cache_hit, Oracle("L2CacheHit"));
  EXPECT_DOUBLE_EQ(metrics.l2_cache_hit, 80.0);
}

// SPI's HI sits below its LO: read the other way round, 256 waves come out
// as 256 << 32.
TEST_F(CollectorTest, SpiHiLoSwappedReportsAShiftedCount) {
  Mi200Collector collector(bus("mmio"), {Bug::kSpiHiLoSwapped});
  collector.Start();
  Workload();
  Samples samples = collector.Read();
  EXPECT_EQ(samples.spi_csn_wave, uint64_t{256} << 32);
  EXPECT_EQ(samples.sq_waves, 256u);  // the other blocks are read right
}

// GRBM_GFX_INDEX left on instance 31 after the per-instance TCC_HIT selects:
// TCC_MISS reaches instance 31 only, so instances 0-15 count no misses and
// the collector's L2CacheHit disagrees with the oracle's.
TEST_F(CollectorTest, GfxIndexLeftOnAnInstanceProgramsOneInstance) {
  Mi200Collector collector(bus("mmio"), {Bug::kGfxIndexLeftOnInstance});
  collector.Start();
  Workload();
  Samples samples = collector.Read();
  EXPECT_EQ(samples.tcc_miss[0], 0u);
  EXPECT_EQ(samples.tcc_miss[31], 25u);
  Metrics metrics = Mi200Collector::Compute(samples);
  EXPECT_DOUBLE_EQ(metrics.l2_cache_hit, 100.0);
  EXPECT_DOUBLE_EQ(Oracle("L2CacheHit"), 80.0);
}

// START without SAMPLE_ENABLE before the reads: the counters show no
// sample, and the first read is a protocol violation.
TEST_F(CollectorTest, ReadingWithoutSampleEnableIsAProtocolViolation) {
  Mi200Collector collector(bus("mmio"), {Bug::kReadWithoutSample});
  collector.Start();
  Workload();
  Samples samples = collector.Read();
  EXPECT_EQ(samples.grbm_count, 0u);
  std::vector<emulator::Violation> violations = TakeViolations();
  ASSERT_FALSE(violations.empty());
  EXPECT_THAT(violations.front(), ViolationIs("protocol", "GRBM_PERFCOUNTER0_LO",
                                              "GRBM_PERFCOUNTER0_LO read with no sample since counting started"));
}

}  // namespace
}  // namespace regemu::rocm_collector
