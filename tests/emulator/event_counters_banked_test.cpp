// `event-counters` with instances, steering and a sampling control (the
// AMD GPU shape, yaml/README.md "event-counters"): selects and counts
// banked per SE and instance behind a GRBM_GFX_INDEX-style register,
// broadcast writes, per-instance injection, DISABLE_AND_RESET / START /
// STOP, samples latched into the LO/HI registers, the read-without-sample
// rule, and steering outside a block.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kDatabase = R"(device: gpu
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: INDEX, space: mmio, offset: 0x0, reset: 0xC0000000, fields: [{name: INSTANCE, bits: "7:0"}, {name: SE, bits: "23:16"}, {name: INSTANCE_BCAST, bits: 30}, {name: SE_BCAST, bits: 31}]}
  - {name: CNTL, space: mmio, offset: 0x4, fields: [{name: STATE, bits: "3:0"}, {name: SAMPLE, bits: 10}]}
  - {name: TCC_SEL, space: mmio, offset: 0x10, fields: [{name: PERF_SEL, bits: "9:0"}]}
  - {name: TCC_LO, space: mmio, offset: 0x14}
  - {name: TCC_HI, space: mmio, offset: 0x18}
  - {name: TA_SEL, space: mmio, offset: 0x20, fields: [{name: PERF_SEL, bits: "7:0"}]}
  - {name: TA_LO, space: mmio, offset: 0x24}
  - {name: TA_HI, space: mmio, offset: 0x28}
  - {name: GRBM_SEL, space: mmio, offset: 0x30, fields: [{name: PERF_SEL, bits: "5:0"}]}
  - {name: GRBM_LO, space: mmio, offset: 0x34}
  - {name: GRBM_HI, space: mmio, offset: 0x38}
behaviours:
  - name: perfmon
    kind: event-counters
    steering: {register: INDEX, se: SE, instance: INSTANCE, se_broadcast: SE_BCAST, instance_broadcast: INSTANCE_BCAST}
    control: {register: CNTL, state: STATE, sample: SAMPLE}
    rules: [read-without-sample]
    slots:
      - {name: TCC, block: TCC, instances: {instance: 4}, select: TCC_SEL, counter: {lo: TCC_LO, hi: TCC_HI}}
      - {name: TA, block: TA, instances: {se: 2, instance: 3}, select: TA_SEL, counter: {lo: TA_LO, hi: TA_HI}}
      - {name: GRBM, block: GRBM, select: GRBM_SEL, counter: {lo: GRBM_LO, hi: GRBM_HI}}
    events:
      - {name: TCC_HIT, block: TCC, select: {PERF_SEL: 17}}
      - {name: TCC_MISS, block: TCC, select: {PERF_SEL: 19}}
      - {name: TA_BUSY, block: TA, select: {PERF_SEL: 15}}
      - {name: GRBM_COUNT, block: GRBM, select: {PERF_SEL: 0}}
      - {name: GRBM_GUI_ACTIVE, block: GRBM, select: {PERF_SEL: 2}}
)";

constexpr uint64_t kBroadcast = 0xC0000000;
uint64_t Instance(uint64_t i) { return 0x80000000 | i; }            // SE broadcast, instance i
uint64_t Se(uint64_t se) { return 0x40000000 | (se << 16); }        // instance broadcast, SE se
uint64_t SeInstance(uint64_t se, uint64_t i) { return (se << 16) | i; }

struct Gpu {
  Gpu() {
    DeviceOptions options;
    options.policy = ViolationPolicy::Lenient();
    device = MakeDevice(kDatabase, std::move(options));
  }
  RegisterId Reg(const char* name) const { return RegisterNamed(device->model(), name); }
  uint64_t Read(const char* name) { return device->ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device->WriteRegister(Reg(name), value); }
  std::string Inject(const std::string& verb, std::vector<std::string> args) { return device->Inject(verb, args); }
  void Start() {
    Write("CNTL", 0);
    Write("CNTL", 1);
  }
  void Sample() { Write("CNTL", 0x401); }
  // The count instance `index` (an INDEX value) shows after a sample.
  uint64_t CountAt(const char* lo, uint64_t index) {
    Write("INDEX", index);
    return Read(lo);
  }

  std::unique_ptr<Device> device;
};

TEST(EventCountersBankedTest, BroadcastSelectCountsOnEveryInstance) {
  Gpu gpu;
  gpu.Write("TCC_SEL", 17);
  gpu.Start();
  EXPECT_EQ(gpu.Inject("event", {"TCC_HIT", "42"}), "");  // 11, 11, 10, 10
  gpu.Sample();
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(0)), 11u);
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(1)), 11u);
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(2)), 10u);
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(3)), 10u);
  EXPECT_THAT(gpu.device->violations(), IsEmpty());
}

TEST(EventCountersBankedTest, PerInstanceSelectsCountTheirOwnEvents) {
  Gpu gpu;
  gpu.Write("INDEX", Instance(0));
  gpu.Write("TCC_SEL", 17);
  gpu.Write("INDEX", Instance(1));
  gpu.Write("TCC_SEL", 19);
  EXPECT_EQ(gpu.Read("TCC_SEL"), 19u);  // the steered instance's
  gpu.Write("INDEX", Instance(0));
  EXPECT_EQ(gpu.Read("TCC_SEL"), 17u);
  gpu.Start();
  gpu.Inject("event", {"TCC_HIT", "8"});   // 2 each
  gpu.Inject("event", {"TCC_MISS", "4"});  // 1 each
  gpu.Sample();
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(0)), 2u);
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(1)), 1u);
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(2)), 0u);  // never selected an event
}

TEST(EventCountersBankedTest, InjectionTargetsAnSeOrAnInstance) {
  Gpu gpu;
  gpu.Write("TA_SEL", 15);
  gpu.Start();
  EXPECT_EQ(gpu.Inject("event", {"TA_BUSY", "9", "se", "1"}), "");  // 3 per instance of SE 1
  EXPECT_EQ(gpu.Inject("event", {"TA_BUSY", "5", "se", "0", "instance", "2"}), "");
  gpu.Sample();
  EXPECT_EQ(gpu.CountAt("TA_LO", SeInstance(1, 0)), 3u);
  EXPECT_EQ(gpu.CountAt("TA_LO", SeInstance(1, 2)), 3u);
  EXPECT_EQ(gpu.CountAt("TA_LO", SeInstance(0, 2)), 5u);
  EXPECT_EQ(gpu.CountAt("TA_LO", SeInstance(0, 0)), 0u);
  // A broadcast read shows the first of the instances it names.
  EXPECT_EQ(gpu.CountAt("TA_LO", Se(1)), 3u);
  EXPECT_THAT(gpu.Inject("event", {"TA_BUSY", "1", "se", "2"}), HasSubstr("bad se '2': TA_BUSY has 2 (SEs)"));
  EXPECT_THAT(gpu.Inject("event", {"TA_BUSY", "1", "core", "0"}), HasSubstr("expected `se S` or `instance I`"));
}

TEST(EventCountersBankedTest, RatesSpreadOverInstances) {
  Gpu gpu;
  gpu.Write("TCC_SEL", 17);
  gpu.Start();
  gpu.Inject("event-rate", {"TCC_HIT", "6"});  // 1.5 per instance per microsecond
  gpu.device->Advance(2000);
  gpu.Sample();
  for (uint64_t i = 0; i < 4; ++i) EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(i)), 3u) << i;
}

TEST(EventCountersBankedTest, ControlStartsStopsAndResets) {
  Gpu gpu;
  gpu.Write("GRBM_SEL", 0);
  gpu.Inject("event", {"GRBM_COUNT", "7"});  // before START: not counted
  gpu.Start();
  gpu.Inject("event", {"GRBM_COUNT", "10"});
  gpu.Write("CNTL", 2);  // STOP
  gpu.Inject("event", {"GRBM_COUNT", "100"});
  gpu.Write("CNTL", 0x402);  // STOP | SAMPLE
  EXPECT_EQ(gpu.Read("GRBM_LO"), 10u);
  gpu.Write("CNTL", 0);  // DISABLE_AND_RESET
  EXPECT_EQ(gpu.Read("GRBM_LO"), 0u);
}

TEST(EventCountersBankedTest, CountersShowTheLastSampleUntilTheNext) {
  Gpu gpu;
  gpu.Write("GRBM_SEL", 2);
  gpu.Start();
  gpu.Inject("event", {"GRBM_GUI_ACTIVE", "5"});
  gpu.Sample();
  gpu.Inject("event", {"GRBM_GUI_ACTIVE", "5"});
  EXPECT_EQ(gpu.Read("GRBM_LO"), 5u);
  gpu.Sample();
  EXPECT_EQ(gpu.Read("GRBM_LO"), 10u);
  // 64-bit counts across LO and HI.
  gpu.Inject("event", {"GRBM_GUI_ACTIVE", "0x100000000"});
  gpu.Sample();
  EXPECT_EQ(gpu.Read("GRBM_LO"), 10u);
  EXPECT_EQ(gpu.Read("GRBM_HI"), 1u);
  EXPECT_THAT(gpu.device->violations(), IsEmpty());
}

TEST(EventCountersBankedTest, ReadingWithoutASampleIsAProtocolViolation) {
  Gpu gpu;
  gpu.Write("GRBM_SEL", 0);
  gpu.Read("GRBM_LO");  // not started: no rule to break
  gpu.Start();
  gpu.Read("GRBM_LO");
  ASSERT_THAT(Kinds(*gpu.device), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(gpu.device->violations()[0].rule, HasSubstr("GRBM_LO read with no sample since counting started"));
  gpu.device->ClearViolations();
  gpu.Sample();
  gpu.Read("GRBM_LO");
  EXPECT_THAT(gpu.device->violations(), IsEmpty());
}

TEST(EventCountersBankedTest, SteeringOutsideTheBlockReachesNothing) {
  Gpu gpu;
  gpu.Write("INDEX", Instance(9));
  gpu.Write("TCC_SEL", 17);
  ASSERT_THAT(Kinds(*gpu.device), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(gpu.device->violations()[0].rule, HasSubstr("names an SE or instance block TCC does not have"));
  gpu.Write("INDEX", kBroadcast);
  EXPECT_EQ(gpu.Read("TCC_SEL"), 0u);  // no instance took 17
}

TEST(EventCountersBankedTest, SnapshotsKeepBankedState) {
  Gpu gpu;
  gpu.Write("TCC_SEL", 17);
  gpu.Start();
  gpu.Inject("event", {"TCC_HIT", "4"});
  DeviceSnapshot snapshot = gpu.device->Snapshot();
  gpu.Inject("event", {"TCC_HIT", "400"});
  gpu.device->Restore(snapshot);
  gpu.Sample();
  EXPECT_EQ(gpu.CountAt("TCC_LO", Instance(0)), 1u);
}

}  // namespace
}  // namespace regemu::emulator
