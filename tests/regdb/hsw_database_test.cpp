// The shipped Haswell OA database (yaml/hsw) and the literal transcription of
// its literal transcription of the PRM (tests/data/hsw_literal), loaded from the source tree.
#include <cstddef>
#include <cstdint>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/shipped_database_test.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;
using testing_support::SourcePath;

struct Hsw {
  static constexpr const char* kPath = "yaml/hsw";
};
class HswDatabaseTest : public testing_support::ShippedDatabaseTest<Hsw> {};

TEST_F(HswDatabaseTest, IsClean) {
  EXPECT_FALSE(loaded_->diagnostics.has_errors()) << Rendered(*loaded_);
  EXPECT_EQ(loaded_->database.device, "hsw");
}

TEST_F(HswDatabaseTest, HoldsEveryOaRegisterOfTheSeed) {
  // 4 control/status registers, 16 CEC, 45 A counters, 8 B counters.
  std::size_t from_prm = 0;
  for (const Register& reg : loaded_->database.registers) {
    if (reg.ref.find("HSW PRM Observability") != std::string::npos) ++from_prm;
  }
  EXPECT_EQ(from_prm, 4u + 16u + 45u + 8u);
  for (const char* name : {"OACONTROL", "OASTATUS1", "OASTATUS2", "OABUFFER", "CEC0_0", "CEC7_1", "OAPERF_A0",
                           "OAPERF_A44", "OAPERF_B0", "OAPERF_B7"}) {
    EXPECT_NE(loaded_->database.RegisterNamed(name), nullptr) << name;
  }
}

TEST_F(HswDatabaseTest, AddressesMatchTheSeed) {
  EXPECT_EQ(Reg("OACONTROL").offset, 0x2360u);
  EXPECT_EQ(Reg("OASTATUS1").offset, 0x2364u);
  EXPECT_EQ(Reg("OASTATUS2").offset, 0x2368u);
  EXPECT_EQ(Reg("OABUFFER").offset, 0x23B0u);
  EXPECT_EQ(Reg("CEC0_0").offset, 0x2770u);
  EXPECT_EQ(Reg("CEC3_1").offset, 0x278Cu);
  EXPECT_EQ(Reg("CEC7_1").offset, 0x27ACu);
  EXPECT_EQ(Reg("OAPERF_A0").offset, 0x2800u);
  EXPECT_EQ(Reg("OAPERF_A30").offset, 0x2878u);
  EXPECT_EQ(Reg("OAPERF_A32").offset, 0x2880u);
  EXPECT_EQ(Reg("OAPERF_A44").offset, 0x28B0u);
  EXPECT_EQ(Reg("OAPERF_B0").offset, 0x28B4u);
  EXPECT_EQ(Reg("OAPERF_B7").offset, 0x28D0u);
}

TEST_F(HswDatabaseTest, A31SitsAtTheCorrectedAddressBetweenA30AndA32) {
  // PRM erratum: the PRM prints 0x278C (CEC3-1's address) for A31.
  EXPECT_EQ(Reg("OAPERF_A31").offset, 0x287Cu);
}

TEST_F(HswDatabaseTest, ResetsAreTheHaswellDefaults) {
  // "Default Value: 0x00000000 [IVB,VLV,VLVT,SNB] 0x00000001 [HSW]"
  EXPECT_EQ(Reg("OASTATUS2").reset, 0x1u);
  EXPECT_EQ(Reg("OACONTROL").reset, 0x0u);
  EXPECT_EQ(Reg("OABUFFER").reset, 0x0u);
}

TEST_F(HswDatabaseTest, FieldsFollowTheSeed) {
  const Register& control = Reg("OACONTROL");
  const Field* timer = control.FindField("TIMER_ENABLE");
  ASSERT_NE(timer, nullptr);
  EXPECT_EQ(timer->bits.lsb, 5u);
  EXPECT_EQ(timer->access, Access::kRw);
  const Field* context = control.FindField("SELECT_CONTEXT_ID");
  ASSERT_NE(context, nullptr);
  EXPECT_EQ(context->bits.msb, 31u);
  EXPECT_EQ(context->bits.lsb, 12u);
  // OASTATUS2 bit 5 and OABUFFER bit 5 are "Reserved, Format: MBZ".
  const Field* reserved = Reg("OASTATUS2").FindField("RESERVED_5");
  ASSERT_NE(reserved, nullptr);
  EXPECT_EQ(reserved->access, Access::kMbz);
}

TEST_F(HswDatabaseTest, EveryRegisterCitesItsSource) {
  // The OA registers cite HSW PRM Observability; the registers around the OA unit cite
  // the public i915 / IGT sources they come from (the PRM lists none).
  for (const Register& reg : loaded_->database.registers) {
    const bool prm = reg.ref.find("HSW PRM Observability") != std::string::npos;
    const bool i915 = reg.ref.find("i915") != std::string::npos;
    EXPECT_TRUE(prm || i915) << reg.name << ": " << reg.ref;
    EXPECT_FALSE(reg.doc.empty()) << reg.name;
  }
}

// ---------------------------------------------------------------------------
// The registers around the OA unit (gt.yaml, noa.yaml, oa_triggers.yaml).

TEST_F(HswDatabaseTest, MetricSetEnableRegistersAreI915s) {
  EXPECT_EQ(Reg("GDT_CHICKEN_BITS").offset, 0x9840u);
  EXPECT_EQ(Reg("GEN7_MISCCPCTL").offset, 0x9424u);
  EXPECT_EQ(Reg("GEN6_UCGCTL1").offset, 0x9400u);
  const Field* noa = Reg("GDT_CHICKEN_BITS").FindField("GT_NOA_ENABLE");
  ASSERT_NE(noa, nullptr);
  EXPECT_EQ(noa->bits.lsb, 7u);
  EXPECT_EQ(noa->bits.msb, 7u);
  const Field* dop = Reg("GEN7_MISCCPCTL").FindField("DOP_CLOCK_GATE_ENABLE");
  ASSERT_NE(dop, nullptr);
  EXPECT_EQ(dop->bits.lsb, 0u);
  const Field* csunit = Reg("GEN6_UCGCTL1").FindField("CSUNIT_CLOCK_GATE_DISABLE");
  ASSERT_NE(csunit, nullptr);
  EXPECT_EQ(csunit->bits.lsb, 7u);
  for (const char* name : {"GDT_CHICKEN_BITS", "GEN7_MISCCPCTL", "GEN6_UCGCTL1"}) {
    EXPECT_THAT(Reg(name).ref, HasSubstr("i915_reg.h")) << name;
  }
}

TEST_F(HswDatabaseTest, NoaMuxBankCoversTheWholeKernelWhitelist) {
  // i915 accepts 0x25100-0x2FF90 in HSW mux configs: one element per dword.
  EXPECT_EQ(Reg("HSW_NOA_MUX0").offset, 0x25100u);
  EXPECT_EQ(Reg("HSW_NOA_MUX169").offset, 0x253A4u);  // RenderBasic's first mux write
  EXPECT_EQ(Reg("HSW_NOA_MUX11172").offset, 0x2FF90u);
  EXPECT_EQ(loaded_->database.RegisterNamed("HSW_NOA_MUX11173"), nullptr);
  EXPECT_THAT(Reg("HSW_NOA_MUX0").ref, HasSubstr("0x25100-0x2FF90"));
}

TEST_F(HswDatabaseTest, EveryAddressTheHswMetricSetsWriteIsARegister) {
  // The distinct addresses of the six IGT oa-hsw.xml sets (IGT oa-hsw.xml:
  // 104 NOA, 32 OA), as ranges of consecutive dwords.
  struct Span {
    std::uint32_t first, last;
  };
  const Span spans[] = {{0x91BC, 0x91BC},   {0x91C4, 0x91C4},   {0x9840, 0x9840},   {0x25100, 0x25444},
                        {0x26104, 0x26B9C}, {0x27104, 0x27B9C}, {0x2E804, 0x2EB9C}, {0x2F804, 0x2FB9C},
                        {0x2710, 0x272C},   {0x2740, 0x275C},   {0x2770, 0x27AC}};
  for (const Span& span : spans) {
    for (std::uint32_t offset = span.first; offset <= span.last; offset += 4) {
      bool found = false;
      for (const Register& reg : loaded_->database.registers) {
        if (reg.offset == offset && reg.width == 32) {
          found = true;
          break;
        }
      }
      EXPECT_TRUE(found) << std::hex << "0x" << offset;
    }
  }
}

TEST_F(HswDatabaseTest, MbvidAndPerfcntRegistersAreI915s) {
  EXPECT_EQ(Reg("HSW_MBVID2_NOA0").offset, 0x9E80u);
  EXPECT_EQ(Reg("HSW_MBVID2_NOA9").offset, 0x9EA4u);
  EXPECT_EQ(Reg("HSW_MBVID2_MISR0").offset, 0x9EC0u);
  EXPECT_EQ(Reg("OA_PERFCNT1_LO").offset, 0x91B8u);
  EXPECT_EQ(Reg("OA_PERFCNT1_HI").offset, 0x91BCu);
  EXPECT_EQ(Reg("OA_PERFCNT2_LO").offset, 0x91C0u);
  EXPECT_EQ(Reg("OA_PERFCNT2_HI").offset, 0x91C4u);
  for (const char* name : {"HSW_MBVID2_NOA0", "HSW_MBVID2_MISR0", "OA_PERFCNT1_HI", "OA_PERFCNT2_HI"}) {
    EXPECT_THAT(Reg(name).ref, HasSubstr("i915_reg.h")) << name;
  }
}

TEST_F(HswDatabaseTest, TriggerRegistersAreI915s) {
  EXPECT_EQ(Reg("OASTARTTRIG1").offset, 0x2710u);
  EXPECT_EQ(Reg("OASTARTTRIG8").offset, 0x272Cu);
  EXPECT_EQ(Reg("OAREPORTTRIG1").offset, 0x2740u);
  EXPECT_EQ(Reg("OAREPORTTRIG8").offset, 0x275Cu);
  EXPECT_EQ(loaded_->database.RegisterNamed("OASTARTTRIG0"), nullptr);
  EXPECT_THAT(Reg("OASTARTTRIG1").ref, HasSubstr("OASTARTTRIG"));
  EXPECT_THAT(Reg("OAREPORTTRIG8").ref, HasSubstr("OAREPORTTRIG"));
}

TEST_F(HswDatabaseTest, GtInterruptRegistersCarryTheOaHalfFullBit) {
  EXPECT_EQ(Reg("GTISR").offset, 0x44010u);
  EXPECT_EQ(Reg("GTIMR").offset, 0x44014u);
  EXPECT_EQ(Reg("GTIIR").offset, 0x44018u);
  EXPECT_EQ(Reg("GTIER").offset, 0x4401Cu);
  EXPECT_EQ(Reg("GTIMR").reset, 0xFFFFFFFFu);
  EXPECT_EQ(Reg("GTIER").reset, 0x0u);
  const struct {
    const char* reg;
    Access access;
  } expected[] = {{"GTISR", Access::kHw}, {"GTIMR", Access::kRw}, {"GTIIR", Access::kW1c}, {"GTIER", Access::kRw}};
  for (const auto& e : expected) {
    const Field* half_full = Reg(e.reg).FindField("PERFMON_BUFFER_HALF_FULL");
    ASSERT_NE(half_full, nullptr) << e.reg;
    EXPECT_EQ(half_full->bits.lsb, 9u) << e.reg;
    EXPECT_EQ(half_full->access, e.access) << e.reg;
    EXPECT_THAT(Reg(e.reg).ref, HasSubstr("GT_PERFMON_BUFFER_HALF_FULL_INTERRUPT")) << e.reg;
  }
}

TEST(HswLiteralTranscriptionTest, SeedAddressOfA31IsRejectedAsAnOverlapWithCec3_1) {
  LoadedDatabase loaded = LoadAndCheck(SourcePath("tests/data/hsw_literal"));
  ASSERT_EQ(loaded.diagnostics.error_count(), 1u) << Rendered(loaded);
  const Diagnostic& overlap = loaded.diagnostics.all().front();
  EXPECT_THAT(overlap.message,
              AllOf(HasSubstr("'OAPERF_A31'"), HasSubstr("overlaps register 'CEC3_1'"), HasSubstr("0x278c")));
  EXPECT_THAT(loaded.sources.LineText(overlap.loc), HasSubstr("offset: 0x278C"));
  ASSERT_EQ(overlap.notes.size(), 1u);
  EXPECT_THAT(loaded.sources.LineText(overlap.notes[0].loc), HasSubstr("offset: 0x278C"));
  EXPECT_THAT(loaded.sources.file(overlap.loc.file).path, HasSubstr("hsw_literal/oa.yaml"));
}

}  // namespace
}  // namespace regemu::regdb
