// The shipped Haswell OA database (yaml/hsw) and the literal transcription of
// its seed (tests/data/hsw_literal), loaded from the source tree.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

std::string SourcePath(const std::string& relative) { return std::string(REGEMU_SOURCE_DIR) + "/" + relative; }

class HswDatabaseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { loaded_ = new LoadedDatabase(LoadAndCheck(SourcePath("yaml/hsw"))); }
  static void TearDownTestSuite() {
    delete loaded_;
    loaded_ = nullptr;
  }

  const Register& Reg(const std::string& name) {
    const Register* reg = loaded_->database.RegisterNamed(name);
    EXPECT_NE(reg, nullptr) << name;
    static const Register kMissing;
    return reg ? *reg : kMissing;
  }

  static LoadedDatabase* loaded_;
};

LoadedDatabase* HswDatabaseTest::loaded_ = nullptr;

TEST_F(HswDatabaseTest, IsClean) {
  EXPECT_FALSE(loaded_->diagnostics.has_errors()) << Rendered(*loaded_);
  EXPECT_EQ(loaded_->database.device, "hsw");
}

TEST_F(HswDatabaseTest, HoldsEveryOaRegisterOfTheSeed) {
  // 4 control/status registers, 16 CEC, 45 A counters, 8 B counters.
  EXPECT_EQ(loaded_->database.registers.size(), 4u + 16u + 45u + 8u);
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
  // Seed erratum: the seed prints 0x278C (CEC3-1's address) for A31.
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

TEST_F(HswDatabaseTest, EveryRegisterCitesTheSeed) {
  for (const Register& reg : loaded_->database.registers) {
    EXPECT_THAT(reg.ref, HasSubstr("seed 002")) << reg.name;
    EXPECT_FALSE(reg.doc.empty()) << reg.name;
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
