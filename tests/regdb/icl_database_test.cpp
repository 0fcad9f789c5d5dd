// The shipped Ice Lake database (yaml/icl), loaded from the source tree: it
// is clean, holds the registers the issue and i915 name at their addresses,
// and the checker keeps the seed's SW-virtualization range empty.
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regdb/loader.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using testing_support::Rendered;

std::string SourcePath(const std::string& relative) { return std::string(REGEMU_SOURCE_DIR) + "/" + relative; }

class IclDatabaseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { loaded_ = new LoadedDatabase(LoadAndCheck(SourcePath("yaml/icl"))); }
  static void TearDownTestSuite() {
    delete loaded_;
    loaded_ = nullptr;
  }

  static const Register& Reg(const std::string& name) {
    const Register* reg = loaded_->database.RegisterNamed(name);
    EXPECT_NE(reg, nullptr) << name;
    static const Register kMissing;
    return reg ? *reg : kMissing;
  }

  static LoadedDatabase* loaded_;
};

LoadedDatabase* IclDatabaseTest::loaded_ = nullptr;

TEST_F(IclDatabaseTest, IsClean) {
  EXPECT_FALSE(loaded_->diagnostics.has_errors()) << Rendered(*loaded_);
  EXPECT_EQ(loaded_->database.device, "icl");
}

TEST_F(IclDatabaseTest, IdentifiesAsIceLakeGt2) {
  EXPECT_EQ(Reg("VID2").reset, 0x8086u);
  EXPECT_EQ(Reg("DID2").reset, 0x8A52u);
  EXPECT_EQ(Reg("VID2").space_name, "config");
}

// The MCHBAR registers i915 reads through the mirror on Gen11 (driver-facts 4.7).
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

TEST_F(IclDatabaseTest, SwVirtualizationRangeIsReservedAndEmpty) {
  const auto& ranges = loaded_->database.ranges;
  auto it = std::find_if(ranges.begin(), ranges.end(), [](const Range& r) { return r.name == "SW_VIRT_RESERVED"; });
  ASSERT_NE(it, ranges.end());
  EXPECT_EQ(it->kind, RangeKind::kReserved);
  EXPECT_EQ(it->base, 0x178000u);
  EXPECT_EQ(it->size, 0x1000u);
}

// The shipped database plus one file defining a register inside the seed's
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
