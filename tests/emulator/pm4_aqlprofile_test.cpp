// The command processor (`kind: pm4`) on the shipped MI300 database running
// aqlprofile's start, read and stop packet sequences
// (ROCm/aqlprofile, GpuPmcBuilder) for GRBM_COUNT,
// GRBM_GUI_ACTIVE, SQ_WAVES (per SE) and TCC_HIT over 16 instances: the
// values land in the output buffer in the profiler's order (XCC-major,
// then event, then SE / instance; LO then HI). One XCC is modelled: the
// other XCCs' PRED_EXEC blocks are skipped and their slots stay untouched.
// Also: unknown packets and bad injects.
#include <cstdint>
#include <map>
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
using testing_support::CompileDatabaseAt;

// Byte offsets of the registers (Linux amdgpu gc_9_4_2_offset.h) and their dword addresses.
constexpr uint32_t kGrbmGfxIndex = 0x30800;
constexpr uint32_t kCpPerfmonCntl = 0x36020;
constexpr uint32_t kRlcPerfmonClkCntl = 0x372FC;
constexpr uint32_t kComputePerfcountEnable = 0xB82C;
constexpr uint32_t kSqPerfcounterCtrl = 0x36780;
constexpr uint32_t kSqPerfcounterMask = 0x36784;
constexpr uint32_t kGrbmPerfcounter0Select = 0x36100;
constexpr uint32_t kGrbmPerfcounter1Select = 0x36104;
constexpr uint32_t kGrbmPerfcounter0Lo = 0x34100;
constexpr uint32_t kGrbmPerfcounter1Lo = 0x3410C;
constexpr uint32_t kSqPerfcounter0Select = 0x36700;
constexpr uint32_t kSqPerfcounter0Lo = 0x34700;
constexpr uint32_t kTccPerfcounter0Select = 0x36E00;
constexpr uint32_t kTccPerfcounter0Lo = 0x34E00;

constexpr uint32_t kBroadcast = 0xE0000000;
constexpr uint32_t kSes = 4;    // per XCC (yaml/mi300)
constexpr uint32_t kTccs = 16;
constexpr uint32_t kXccs = 8;       // an MI300X, as aqlprofile loops over them
constexpr uint64_t kStartIb = 0x10000;
constexpr uint64_t kReadIb = 0x20000;
constexpr uint64_t kStopIb = 0x30000;
constexpr uint64_t kOutput = 0x40000;

// aqlprofile-style PM4 (soc15d.h encodings).
class Packets {
 public:
  void SetUconfig(uint32_t reg_byte, uint32_t value) { Emit({0xC0017900, reg_byte / 4 - 0xC000, value}); }
  void SetSh(uint32_t reg_byte, uint32_t value) { Emit({0xC0017600, reg_byte / 4 - 0x2C00, value}); }
  void WaitIdle() { Emit({0xC0004600, 0x407}); }  // EVENT_WRITE CS_PARTIAL_FLUSH, index 4
  // COPY_DATA register -> memory, 32 bits (DW1 0x02002500: SRC_SEL 0, DST_SEL 5).
  void CopyToMemory(uint32_t reg_byte, uint64_t dst) {
    Emit({0xC0044000, 0x02002500, reg_byte / 4, 0, static_cast<uint32_t>(dst), static_cast<uint32_t>(dst >> 32)});
  }
  // PRED_EXEC for one XCC: its count is patched when the block ends.
  size_t BeginPredExec(uint32_t xcc) {
    Emit({0xC0002300, (1u << xcc) << 24});
    return dwords_.size();
  }
  void EndPredExec(size_t begin) { dwords_[begin - 1] |= static_cast<uint32_t>(dwords_.size() - begin); }
  void Emit(std::initializer_list<uint32_t> dwords) { dwords_.insert(dwords_.end(), dwords); }
  const std::vector<uint32_t>& dwords() const { return dwords_; }

 private:
  std::vector<uint32_t> dwords_;
};

// GpuPmcBuilder::Start for the four counters.
Packets Start() {
  Packets p;
  p.WaitIdle();
  p.SetUconfig(kGrbmGfxIndex, kBroadcast);
  p.SetUconfig(kRlcPerfmonClkCntl, 1);
  p.SetUconfig(kCpPerfmonCntl, 0);
  p.SetUconfig(kSqPerfcounterCtrl, 0xFFFF007F);
  p.SetUconfig(kGrbmGfxIndex, kBroadcast);
  p.SetUconfig(kGrbmPerfcounter0Select, 0);  // GRBM_COUNT
  p.SetUconfig(kGrbmGfxIndex, kBroadcast);
  p.SetUconfig(kGrbmPerfcounter1Select, 2);  // GRBM_GUI_ACTIVE
  p.SetUconfig(kGrbmGfxIndex, kBroadcast);
  p.SetUconfig(kSqPerfcounter0Select, 0x0F0FF004);  // SQ_WAVES with the masks
  p.SetUconfig(kSqPerfcounterMask, 0xFFFFFFFF);
  p.SetUconfig(kSqPerfcounterCtrl, 0xFFFF0057);
  for (uint32_t i = 0; i < kTccs; ++i) {
    p.SetUconfig(kGrbmGfxIndex, 0xA0000000 | i);
    p.SetUconfig(kTccPerfcounter0Select, 17);  // TCC_HIT
  }
  p.SetUconfig(kGrbmGfxIndex, kBroadcast);
  p.SetSh(kComputePerfcountEnable, 1);
  p.SetUconfig(kCpPerfmonCntl, 0);
  p.SetUconfig(kCpPerfmonCntl, 1);
  p.WaitIdle();
  return p;
}

// GpuPmcBuilder::Read: sample, then per XCC (PRED_EXEC) every counter's LO
// and HI, per SE for SQ, per instance for TCC.
Packets Read() {
  Packets p;
  p.SetUconfig(kCpPerfmonCntl, 0x401);
  uint64_t out = kOutput;
  auto copy = [&](uint32_t lo) {
    p.CopyToMemory(lo, out);
    p.CopyToMemory(lo + 4, out + 4);
    out += 8;
  };
  for (uint32_t xcc = 0; xcc < kXccs; ++xcc) {
    size_t block = p.BeginPredExec(xcc);
    p.SetUconfig(kGrbmGfxIndex, kBroadcast);
    p.WaitIdle();
    p.SetUconfig(kGrbmGfxIndex, kBroadcast);
    copy(kGrbmPerfcounter0Lo);
    p.SetUconfig(kGrbmGfxIndex, kBroadcast);
    copy(kGrbmPerfcounter1Lo);
    for (uint32_t se = 0; se < kSes; ++se) {
      p.SetUconfig(kGrbmGfxIndex, 0x60000000 | se << 16);
      copy(kSqPerfcounter0Lo);
    }
    for (uint32_t i = 0; i < kTccs; ++i) {
      p.SetUconfig(kGrbmGfxIndex, 0xA0000000 | i);
      copy(kTccPerfcounter0Lo);
    }
    p.SetUconfig(kGrbmGfxIndex, kBroadcast);
    p.EndPredExec(block);
  }
  return p;
}

Packets Stop() {
  Packets p;
  p.SetUconfig(kGrbmGfxIndex, kBroadcast);
  p.SetUconfig(kCpPerfmonCntl, 2);
  p.SetUconfig(kRlcPerfmonClkCntl, 0);
  p.WaitIdle();
  return p;
}

class Pm4AqlprofileTest : public ::testing::Test {
 protected:
  Pm4AqlprofileTest() : device_(CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/mi300"), WithCoverage()) {
    gpuva_ = *device_.model().FindSpace("gpuva");
  }
  static DeviceOptions WithCoverage() {
    DeviceOptions options;
    options.coverage = true;
    return options;
  }

  void Load(uint64_t address, const Packets& packets) {
    std::vector<uint8_t> bytes;
    for (uint32_t dword : packets.dwords()) {
      for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(dword >> (8 * b)));
    }
    device_.WriteMemory(gpuva_, address, bytes);
  }
  std::string Execute(uint64_t address, const Packets& packets) {
    Load(address, packets);
    return device_.Inject("pm4", std::vector<std::string>{"gpuva", std::to_string(address),
                                                          std::to_string(packets.dwords().size())});
  }
  uint32_t Dword(uint64_t address) {
    std::vector<uint8_t> bytes(4);
    device_.ReadMemory(gpuva_, address, bytes);
    return uint32_t{bytes[0]} | uint32_t{bytes[1]} << 8 | uint32_t{bytes[2]} << 16 | uint32_t{bytes[3]} << 24;
  }
  uint64_t Sample(size_t index) { return Dword(kOutput + 8 * index) | uint64_t{Dword(kOutput + 8 * index + 4)} << 32; }
  void Inject(std::vector<std::string> args) { ASSERT_EQ(device_.Inject("event", args), ""); }

  Device device_;
  SpaceId gpuva_ = 0;
};

TEST_F(Pm4AqlprofileTest, StartReadStopLandTheValuesInTheProfilersOrder) {
  // Slots of the XCCs this device does not model: a pattern that must stay.
  std::vector<uint8_t> pattern(8 * (2 + kSes + kTccs) * kXccs, 0xA5);
  device_.WriteMemory(gpuva_, kOutput, pattern);

  ASSERT_EQ(Execute(kStartIb, Start()), "");
  Inject({"GRBM_COUNT", "5000000000"});  // past 32 bits: HI matters
  Inject({"GRBM_GUI_ACTIVE", "3000"});
  Inject({"SQ_WAVES", "400"});           // 100 per SE
  for (uint32_t i = 0; i < kTccs; ++i) Inject({"TCC_HIT", std::to_string(10 * (i + 1)), "instance", std::to_string(i)});
  device_.Advance(1000);
  ASSERT_EQ(Execute(kReadIb, Read()), "");
  ASSERT_EQ(Execute(kStopIb, Stop()), "");

  // XCC 0: GRBM_COUNT, GRBM_GUI_ACTIVE, SQ_WAVES per SE, TCC_HIT per instance.
  EXPECT_EQ(Sample(0), 5'000'000'000u);
  EXPECT_EQ(Sample(1), 3000u);
  for (uint32_t se = 0; se < kSes; ++se) EXPECT_EQ(Sample(2 + se), 100u) << "SE " << se;
  for (uint32_t i = 0; i < kTccs; ++i) EXPECT_EQ(Sample(2 + kSes + i), 10u * (i + 1)) << "TCC " << i;
  // The other XCCs' reads were predicated away.
  EXPECT_EQ(Dword(kOutput + 8 * (2 + kSes + kTccs)), 0xA5A5A5A5u);
  EXPECT_EQ(Dword(kOutput + pattern.size() - 4), 0xA5A5A5A5u);
  EXPECT_THAT(device_.violations(), IsEmpty());

  // The packets went through the frontdoor: the trace holds the CP's accesses.
  uint32_t cntl = 0;
  for (const TraceEntry& entry : device_.Trace()) {
    if (entry.op == TraceOp::kWrite && entry.offset == kCpPerfmonCntl) cntl = static_cast<uint32_t>(entry.value);
  }
  EXPECT_EQ(cntl, 2u);  // the stop sequence's last CP_PERFMON_CNTL write
  std::string error;
  EXPECT_EQ(device_.Metric("GPUBusy", error).value_or(-1), 100.0 * 3000 / 5'000'000'000) << error;
}

TEST_F(Pm4AqlprofileTest, EventWriteSampleLatchesTheCounters) {
  ASSERT_EQ(Execute(kStartIb, Start()), "");
  Inject({"GRBM_GUI_ACTIVE", "77"});
  Packets sample;
  sample.Emit({0xC0004600, 0x1B});  // EVENT_WRITE PERFCOUNTER_SAMPLE (Mesa's way)
  sample.SetUconfig(kGrbmGfxIndex, kBroadcast);
  sample.Emit({0xC0044000, 0x00010504, kGrbmPerfcounter1Lo / 4, 0, static_cast<uint32_t>(kOutput), 0});  // 64-bit
  ASSERT_EQ(Execute(kReadIb, sample), "");
  EXPECT_EQ(Sample(0), 77u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

// Coverage: the packets and events the profiler's buffers ran, the other
// XCCs' packets skipped, and the perfmon control's reset, start and sample.
TEST_F(Pm4AqlprofileTest, CoversThePacketsEventsAndControlTheProfilerRan) {
  ASSERT_EQ(Execute(kStartIb, Start()), "");
  ASSERT_EQ(Execute(kReadIb, Read()), "");
  ASSERT_EQ(Execute(kStopIb, Stop()), "");
  std::map<std::string, uint64_t> cp = testing_support::PointHits(device_, "cp");
  EXPECT_EQ(cp.size(), 11u);
  for (const char* ran : {"packets/SET_UCONFIG_REG", "packets/COPY_DATA", "packets/PRED_EXEC",
                          "predication/another XCC's packets skipped"}) {
    EXPECT_GT(cp.at(ran), 0u) << ran;
  }
  EXPECT_EQ(cp.at("events/PERFCOUNTER_SAMPLE"), 0u);
  std::map<std::string, uint64_t> perfmon = testing_support::PointHits(device_, "perfmon");
  EXPECT_GT(perfmon.at("control/reset"), 0u);
  EXPECT_EQ(perfmon.at("control/start"), 1u);
  EXPECT_GT(perfmon.at("control/sample"), 0u);
  EXPECT_EQ(perfmon.at("slots overflowed/GRBM0"), 0u);
}

TEST_F(Pm4AqlprofileTest, UnknownPacketsAreUnmodelledAndSkipped) {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  Device device(CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/mi300"), options);
  Packets p;
  p.Emit({0xC0013F00, 0, 0});  // opcode 0x3F, two body dwords
  p.SetUconfig(kGrbmPerfcounter0Select, 2);
  std::vector<uint8_t> bytes;
  for (uint32_t dword : p.dwords()) {
    for (int b = 0; b < 4; ++b) bytes.push_back(static_cast<uint8_t>(dword >> (8 * b)));
  }
  device.WriteMemory(gpuva_, kStartIb, bytes);
  ASSERT_EQ(device.Inject("pm4", std::vector<std::string>{"gpuva", std::to_string(kStartIb),
                                                          std::to_string(p.dwords().size())}),
            "");
  ASSERT_EQ(device.violations().size(), 1u);
  EXPECT_EQ(device.violations()[0].kind, ViolationKind::kUnmodelled);
  EXPECT_THAT(device.violations()[0].rule, HasSubstr("PM4 at 0x10000: PM4 opcode 0x3f is not modelled"));
  // The packet after it ran.
  EXPECT_EQ(device.PeekRegister(*device.model().FindRegister("GRBM_PERFCOUNTER0_SELECT")), 2u);
}

TEST_F(Pm4AqlprofileTest, BadInjectsAreExplained) {
  EXPECT_THAT(device_.Inject("pm4", std::vector<std::string>{"mmio", "0", "4"}),
              HasSubstr("'mmio' is not a memory space"));
  EXPECT_THAT(device_.Inject("pm4", std::vector<std::string>{"gpuva", "2", "4"}), HasSubstr("bad address '2'"));
  EXPECT_THAT(device_.Inject("pm4", std::vector<std::string>{"gpuva", "0", "0"}), HasSubstr("bad dword count '0'"));
  EXPECT_THAT(device_.Inject("pm4", std::vector<std::string>{"gpuva", "0xFFFFFFFFFFFC", "4"}),
              HasSubstr("is outside gpuva"));
  Packets truncated;
  truncated.Emit({0xC0044000, 0x02002500});  // COPY_DATA cut short
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  Device device(CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/mi300"), options);
  std::vector<uint8_t> bytes(8);
  for (size_t i = 0; i < 2; ++i) {
    for (size_t b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<uint8_t>(truncated.dwords()[i] >> (8 * b));
  }
  device.WriteMemory(gpuva_, 0, bytes);
  EXPECT_EQ(device.Inject("pm4", std::vector<std::string>{"gpuva", "0", "2"}), "");
  ASSERT_EQ(device.violations().size(), 1u);
  EXPECT_THAT(device.violations()[0].rule, HasSubstr("past the end of the buffer"));
}

}  // namespace
}  // namespace regemu::emulator
