// Derived metrics of an event-counters behaviour (yaml/README.md
// "event-counters", `metrics:`): values from the events counted in the
// window, the profilers' sum/avr/max/min(X,N) reductions (X[i] summed over
// SEs), constants and earlier metrics; Device::Metric's errors; and the
// script command `expect-metric NAME VALUE [tolerance T]`, parsed and run.
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::HasSubstr;
using testing_support::MakeDevice;

constexpr const char* kDatabase = R"yaml(device: gpu
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: INDEX, space: mmio, offset: 0x0, reset: 0xC0000000, fields: [{name: INSTANCE, bits: "7:0"}, {name: SE, bits: "23:16"}, {name: INSTANCE_BCAST, bits: 30}, {name: SE_BCAST, bits: 31}]}
  - {name: CNTL, space: mmio, offset: 0x4, fields: [{name: STATE, bits: "3:0"}, {name: SAMPLE, bits: 10}]}
  - {name: TA_SEL, space: mmio, offset: 0x20}
  - {name: TA_LO, space: mmio, offset: 0x24}
  - {name: TA_HI, space: mmio, offset: 0x28}
  - {name: GRBM_SEL, space: mmio, offset: 0x30}
  - {name: GRBM_LO, space: mmio, offset: 0x34}
  - {name: GRBM_HI, space: mmio, offset: 0x38}
behaviours:
  - name: perfmon
    kind: event-counters
    steering: {register: INDEX, se: SE, instance: INSTANCE, se_broadcast: SE_BCAST, instance_broadcast: INSTANCE_BCAST}
    control: {register: CNTL, state: STATE, sample: SAMPLE}
    slots:
      - {name: TA, block: TA, instances: {se: 2, instance: 3}, select: TA_SEL, counter: {lo: TA_LO, hi: TA_HI}}
      - {name: GRBM, block: GRBM, select: GRBM_SEL, counter: {lo: GRBM_LO, hi: GRBM_HI}}
    events:
      - {name: TA_BUSY, block: TA}
      - {name: GRBM_COUNT, block: GRBM}
      - {name: GRBM_GUI_ACTIVE, block: GRBM}
    constants: {SE_NUM: 2}
    metrics:
      - {name: GPUBusy, expr: "100*GRBM_GUI_ACTIVE/GRBM_COUNT"}
      - {name: TA_sum, expr: "sum(TA_BUSY,3)"}
      - {name: TA_avr, expr: "avr(TA_BUSY,3)"}
      - {name: TA_max, expr: "max(TA_BUSY,3)"}
      - {name: TA_min, expr: "min(TA_BUSY,2)"}
      - {name: MemUnitBusy, expr: "100*max(TA_BUSY,3)/GRBM_GUI_ACTIVE/SE_NUM"}
      - {name: Twice, expr: "2*GPUBusy"}
)yaml";

struct Gpu {
  Gpu() { device = MakeDevice(kDatabase); }
  void Write(const char* name, uint64_t value) {
    device->WriteRegister(testing_support::RegisterNamed(device->model(), name), value);
  }
  void Inject(std::vector<std::string> args) { ASSERT_EQ(device->Inject("event", args), ""); }
  double Metric(const std::string& name) {
    std::string error;
    std::optional<double> value = device->Metric(name, error);
    EXPECT_TRUE(value.has_value()) << error;
    return value.value_or(std::nan(""));
  }
  std::unique_ptr<Device> device;
};

TEST(EventMetricsTest, MetricsComeFromTheEventsOfTheCountingWindow) {
  Gpu gpu;
  gpu.Inject({"GRBM_COUNT", "1000"});  // not counting yet: outside the window
  gpu.Write("CNTL", 1);
  gpu.Inject({"GRBM_COUNT", "400"});
  gpu.Inject({"GRBM_GUI_ACTIVE", "100"});
  EXPECT_DOUBLE_EQ(gpu.Metric("GPUBusy"), 25);
  EXPECT_DOUBLE_EQ(gpu.Metric("Twice"), 50);  // an earlier metric
  gpu.Write("CNTL", 0);                        // DISABLE_AND_RESET empties the window
  gpu.Write("CNTL", 1);
  gpu.Inject({"GRBM_COUNT", "10"});
  gpu.Inject({"GRBM_GUI_ACTIVE", "10"});
  EXPECT_DOUBLE_EQ(gpu.Metric("GPUBusy"), 100);
}

TEST(EventMetricsTest, ReductionsRunOverInstancesSummedOverSes) {
  Gpu gpu;
  gpu.Write("CNTL", 1);
  // TA_BUSY[i] = SE0 + SE1 of instance i: [1+4, 2+5, 3+6] = [5, 7, 9].
  int value = 1;
  for (const char* se : {"0", "1"}) {
    for (const char* instance : {"0", "1", "2"}) gpu.Inject({"TA_BUSY", std::to_string(value++), "se", se, "instance", instance});
  }
  gpu.Inject({"GRBM_GUI_ACTIVE", "9"});
  EXPECT_DOUBLE_EQ(gpu.Metric("TA_sum"), 21);
  EXPECT_DOUBLE_EQ(gpu.Metric("TA_avr"), 7);
  EXPECT_DOUBLE_EQ(gpu.Metric("TA_max"), 9);
  EXPECT_DOUBLE_EQ(gpu.Metric("TA_min"), 5);  // over the first 2
  EXPECT_DOUBLE_EQ(gpu.Metric("MemUnitBusy"), 50);  // 100 * 9 / 9 / 2
}

TEST(EventMetricsTest, UnknownMetricsAreExplained) {
  Gpu gpu;
  std::string error;
  EXPECT_FALSE(gpu.device->Metric("GPUBusyy", error).has_value());
  EXPECT_THAT(error, HasSubstr("no behaviour of device 'gpu' defines a metric 'GPUBusyy'"));
}

// The failures' messages, one per line.
std::string Failures(const RunResult& result) {
  std::string text;
  for (const ScriptFailure& failure : result.failures) text += failure.message + "\n";
  return text;
}

RunResult RunText(Device& device, const std::string& text) {
  Script script = ParseScript(text, "test.script", device.model());
  EXPECT_TRUE(script.ok()) << script.FormatErrors();
  return RunScript(script, device);
}

TEST(EventMetricsTest, ExpectMetricPassesWithinItsTolerance) {
  Gpu gpu;
  RunResult result = RunText(*gpu.device,
                         "write32 CNTL 1\n"
                         "inject event GRBM_COUNT 3\n"
                         "inject event GRBM_GUI_ACTIVE 1\n"
                         "expect-metric GPUBusy 33.3333 tolerance 0.001\n"
                         "expect-metric Twice 66.66666666666667\n");
  EXPECT_TRUE(result.passed()) << Failures(result);
  EXPECT_EQ(result.checks, 2u);
}

TEST(EventMetricsTest, ExpectMetricFailuresSayWhy) {
  Gpu gpu;
  RunResult result = RunText(*gpu.device,
                         "write32 CNTL 1\n"
                         "inject event GRBM_COUNT 4\n"
                         "inject event GRBM_GUI_ACTIVE 1\n"
                         "expect-metric GPUBusy 24\n");
  ASSERT_FALSE(result.passed());
  EXPECT_THAT(Failures(result), HasSubstr("metric GPUBusy is 25, expected 24"));
  Gpu idle;
  RunResult empty = RunText(*idle.device, "write32 CNTL 1\nexpect-metric GPUBusy 0\n");
  EXPECT_THAT(Failures(empty), HasSubstr("it divides by a count that is 0 in the counting window"));
}

TEST(EventMetricsTest, ExpectMetricParseErrorsNameTheToken) {
  Gpu gpu;
  Script script = ParseScript("expect-metric GPUBusy\nexpect-metric GPUBusy 1e\nexpect-metric GPUBusy 1 tolerance -1\n",
                              "test.script", gpu.device->model());
  std::string errors = script.FormatErrors();
  EXPECT_THAT(errors, HasSubstr("test.script:1:"));
  EXPECT_THAT(errors, HasSubstr("test.script:2:23: error: VALUE '1e' is not a number"));
  EXPECT_THAT(errors, HasSubstr("test.script:3:"));
  EXPECT_THAT(errors, HasSubstr("tolerance must not be negative"));
}

}  // namespace
}  // namespace regemu::emulator
