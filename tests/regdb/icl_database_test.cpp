// The shipped Ice Lake database (yaml/icl), loaded from the source tree: it
// is clean, holds the registers the issue and i915 name at their addresses,
// and the checker keeps the PRM's SW-virtualization range empty.
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/loader.hpp"
#include "tests/regdb/shipped_database_test.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing_support::Rendered;
using testing_support::SourcePath;

struct Icl {
  static constexpr const char* kPath = "yaml/icl";
};
class IclDatabaseTest : public testing_support::ShippedDatabaseTest<Icl> {};

TEST_F(IclDatabaseTest, IsClean) {
  EXPECT_FALSE(loaded_->diagnostics.has_errors()) << Rendered(*loaded_);
  EXPECT_EQ(loaded_->database.device, "icl");
}

TEST_F(IclDatabaseTest, IdentifiesAsIceLakeGt2) {
  EXPECT_EQ(Reg("VID2").reset, 0x8086u);
  EXPECT_EQ(Reg("DID2").reset, 0x8A52u);
  EXPECT_EQ(Reg("VID2").space_name, "config");
}

// The MCHBAR registers i915 reads through the mirror on Gen11 (i915 intel_mchbar_regs.h).
TEST_F(IclDatabaseTest, MchbarHoldsTheRegistersI915ReadsThroughTheMirror) {
  const std::map<std::string, uint64_t> expected{
      {"MAD_INTER_CHANNEL", 0x5000}, {"MAD_DIMM_CH0", 0x500C}, {"MAD_DIMM_CH1", 0x5010}, {"GT_PERF_STATUS", 0x5948},
      {"RP_STATE_CAP", 0x5998},      {"SSKPD", 0x5D10},        {"FREQ_INFO_REC", 0x5EF0}};
  for (const auto& [name, offset] : expected) {
    EXPECT_EQ(Reg(name).space_name, "mchbar") << name;
    EXPECT_EQ(Reg(name).offset, offset) << name;
  }
}

// The common ring registers at each engine's base (issue: RCS0 0x2000, BCS0
// 0x22000, VCS0 0x1C0000, VCS2 0x1D0000, VECS0 0x1C8000).
TEST_F(IclDatabaseTest, EngineRingRegistersSitAtEachEngineBase) {
  const std::map<std::string, uint64_t> bases{
      {"RCS0", 0x2000}, {"BCS0", 0x22000}, {"VCS0", 0x1C0000}, {"VCS2", 0x1D0000}, {"VECS0", 0x1C8000}};
  const std::map<std::string, uint64_t> offsets{{"RING_TAIL", 0x30},     {"RING_HEAD", 0x34},   {"RING_START", 0x38},
                                                {"RING_CTL", 0x3C},      {"RING_ACTHD", 0x74},  {"RING_HWS_PGA", 0x80},
                                                {"RING_HWSTAM", 0x98},   {"RING_MI_MODE", 0x9C}, {"RING_IMR", 0xA8},
                                                {"RING_TIMESTAMP", 0x358}};
  for (const auto& [engine, base] : bases) {
    for (const auto& [reg, offset] : offsets) {
      EXPECT_EQ(Reg(engine + "_" + reg).offset, base + offset) << engine << "_" << reg;
    }
  }
}

TEST_F(IclDatabaseTest, ForcewakeRequestAndAckPairsAtI915Addresses) {
  EXPECT_EQ(Reg("FORCEWAKE_GT_GEN9").offset, 0xA188u);
  EXPECT_EQ(Reg("FORCEWAKE_ACK_GT_GEN9").offset, 0x130044u);
  EXPECT_EQ(Reg("FORCEWAKE_RENDER_GEN9").offset, 0xA278u);
  EXPECT_EQ(Reg("FORCEWAKE_ACK_RENDER_GEN9").offset, 0xD84u);
  EXPECT_TRUE(Reg("FORCEWAKE_RENDER_GEN9").masked);
}

// The Gen11 OA registers (yaml/icl/oa.yaml): ICL PRM Vol 13's OA unit and
// B-counter registers at i915's addresses (i915 i915_perf_oa_regs.h, i915_reg.h), the NOA / mux
// registers i915 accepts in Gen11 configs and the 7 flex EU registers, each
// with a ref.
TEST_F(IclDatabaseTest, OaRegistersSitAtI915AddressesWithARef) {
  const std::map<std::string, uint64_t> expected{
      {"OACTXCONTROL", 0x2360},     {"OACTXID", 0x2364},         {"OABUFFER_UDW", 0x23B4},
      {"OACONTROL", 0x2B00},        {"OA_DEBUG", 0x2B04},        {"OASTATUS", 0x2B08},
      {"OAHEADPTR", 0x2B0C},        {"OATAILPTR", 0x2B10},       {"OABUFFER", 0x2B14},
      {"OA_IMR", 0x2B20},           {"OASTARTTRIG1", 0x2710},    {"OASTARTTRIG8", 0x272C},
      {"OAREPORTTRIG1", 0x2740},    {"OAREPORTTRIG8", 0x275C},   {"CEC0_0", 0x2770},
      {"CEC0_1", 0x2774},           {"CEC7_0", 0x27A8},          {"CEC7_1", 0x27AC},
      {"RPM_CONFIG0", 0x0D00},      {"RPM_CONFIG1", 0x0D04},     {"NOA_CONFIG_0", 0x0D0C},
      {"NOA_CONFIG_8", 0x0D2C},     {"WAIT_FOR_RC6_EXIT", 0x20CC}, {"OA_PERFCNT1_LO", 0x91B8},
      {"OA_PERFCNT4_HI", 0x91DC},   {"OA_PERFMATRIX_LO", 0x91C8}, {"MICRO_BP0_0", 0x9800},
      {"GDT_CHICKEN_BITS", 0x9840}, {"GEN10_NOA_WRITE_HIGH", 0x9884}, {"NOA_WRITE", 0x9888},
      {"HALF_SLICE_CHICKEN2", 0xE180}, {"EU_PERF_CNTL0", 0xE458}, {"EU_PERF_CNTL1", 0xE558},
      {"EU_PERF_CNTL2", 0xE658},    {"EU_PERF_CNTL3", 0xE758},   {"EU_PERF_CNTL4", 0xE45C},
      {"EU_PERF_CNTL5", 0xE55C},    {"EU_PERF_CNTL6", 0xE65C}};
  for (const auto& [name, offset] : expected) {
    EXPECT_EQ(Reg(name).space_name, "mmio") << name;
    EXPECT_EQ(Reg(name).offset, offset) << name;
    EXPECT_FALSE(Reg(name).ref.empty()) << name;
  }
  EXPECT_EQ(Reg("OA_PERFMATRIX_LO").alias_of, "OA_PERFCNT3_LO");
}

TEST_F(IclDatabaseTest, OaKeyFields) {
  // OA_DEBUG is masked: i915 writes 0x00600060 (bits 5 and 6).
  EXPECT_TRUE(Reg("OA_DEBUG").masked);
  ASSERT_NE(Reg("OA_DEBUG").FindField("DISABLE_CLK_RATIO_REPORTS"), nullptr);
  EXPECT_EQ(Reg("OA_DEBUG").FindField("DISABLE_CLK_RATIO_REPORTS")->mask(), 0x20u);
  EXPECT_EQ(Reg("OA_DEBUG").FindField("INCLUDE_CLK_RATIO")->mask(), 0x40u);
  // OACONTROL: format in 4:2 (A32u40_A4u32_B8_C8 = 5), counter enable in 0.
  ASSERT_NE(Reg("OACONTROL").FindField("COUNTER_SELECT"), nullptr);
  EXPECT_EQ(Reg("OACONTROL").FindField("COUNTER_SELECT")->mask(), 0x1Cu);
  EXPECT_EQ(Reg("OACONTROL").FindField("COUNTER_ENABLE")->mask(), 0x1u);
  // OASTATUS: the status bits are w0c (i915's REPORT_LOST RMW writes them as
  // 0 to clear), the wrap flags 16/17 plain rw.
  for (const char* status : {"REPORT_LOST", "OABUFFER_OVERFLOW", "COUNTER_OVERFLOW", "OVERRUN_STATUS"}) {
    ASSERT_NE(Reg("OASTATUS").FindField(status), nullptr) << status;
    EXPECT_EQ(Reg("OASTATUS").FindField(status)->access, Access::kW0c) << status;
  }
  EXPECT_EQ(Reg("OASTATUS").FindField("REPORT_LOST")->mask(), 0x1u);
  EXPECT_EQ(Reg("OASTATUS").FindField("COUNTER_OVERFLOW")->mask(), 0x4u);
  EXPECT_EQ(Reg("OASTATUS").FindField("HEAD_POINTER_WRAP")->mask(), 0x10000u);
  EXPECT_EQ(Reg("OASTATUS").FindField("TAIL_POINTER_WRAP")->mask(), 0x20000u);
  EXPECT_EQ(Reg("OASTATUS").FindField("TAIL_POINTER_WRAP")->access, Access::kRw);
  // OABUFFER: address 31:6, size 5:3, GGTT select 0.
  EXPECT_EQ(Reg("OABUFFER").FindField("BASE_ADDRESS")->mask(), 0xFFFFFFC0u);
  EXPECT_EQ(Reg("OABUFFER").FindField("BUFFER_SIZE")->mask(), 0x38u);
  EXPECT_EQ(Reg("OABUFFER").FindField("MEMORY_SELECT")->mask(), 0x1u);
  // OA_IMR: ICL PRM Vol 13 bit 28, buffer half full.
  EXPECT_EQ(Reg("OA_IMR").FindField("BUFFER_HALF_FULL")->mask(), 0x10000000u);
  // NOA enable: RPM_CONFIG1 bit 9 (Gen10+), GDT_CHICKEN_BITS bit 7 (Gen8/9).
  EXPECT_EQ(Reg("RPM_CONFIG1").FindField("GT_NOA_ENABLE")->mask(), 0x200u);
  EXPECT_EQ(Reg("GDT_CHICKEN_BITS").FindField("GT_NOA_ENABLE")->mask(), 0x80u);
}

TEST_F(IclDatabaseTest, SwVirtualizationRangeIsReservedAndEmpty) {
  const auto& ranges = loaded_->database.ranges;
  auto it = std::find_if(ranges.begin(), ranges.end(), [](const Range& r) { return r.name == "SW_VIRT_RESERVED"; });
  ASSERT_NE(it, ranges.end());
  EXPECT_EQ(it->kind, RangeKind::kReserved);
  EXPECT_EQ(it->base, 0x178000u);
  EXPECT_EQ(it->size, 0x1000u);
}

// The shipped database plus one file defining a register inside the PRM's
// SW-virtualization range: `regemu check` must reject it.
TEST(IclSwVirtualizationTest, ARegisterInsideTheReservedRangeIsAnError) {
  FileReader disk = DiskFileReader();
  std::string root = SourcePath("yaml/icl/device.yaml");
  LoadOptions options;
  options.read_file = [&](const std::filesystem::path& path, size_t max_bytes) -> FileReadResult {
    if (path.filename() == "intruder.yaml") {
      return FileReadResult{
          true, "registers:\n  - {name: VMM_MAILBOX, space: mmio, offset: 0x178100, doc: \"not allowed here\"}\n"};
    }
    FileReadResult result = disk(path, max_bytes);
    if (result.ok && path == root) {
      const std::string list = "include:\n";
      result.text_or_error.insert(result.text_or_error.find(list) + list.size(), "  - intruder.yaml\n");
    }
    return result;
  };
  LoadedDatabase loaded = LoadAndCheck(root, options);
  EXPECT_THAT(Rendered(loaded), HasSubstr("intruder.yaml:2:"));
  EXPECT_THAT(Rendered(loaded), HasSubstr("inside reserved range 'SW_VIRT_RESERVED'"));
}

}  // namespace
}  // namespace regemu::regdb
