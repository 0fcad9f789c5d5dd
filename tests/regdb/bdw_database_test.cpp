// The shipped Broadwell OA database (yaml/bdw), loaded from the source tree.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/shipped_database_test.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::HasSubstr;
using testing_support::Rendered;
using testing_support::SourcePath;

struct Bdw {
  static constexpr const char* kPath = "yaml/bdw";
};
class BdwDatabaseTest : public testing_support::ShippedDatabaseTest<Bdw> {};

TEST_F(BdwDatabaseTest, IsClean) {
  EXPECT_FALSE(loaded_->diagnostics.has_errors()) << Rendered(*loaded_);
  EXPECT_EQ(loaded_->database.device, "bdw");
}

TEST_F(BdwDatabaseTest, RegisterCount) {
  // 9 OA unit registers, 16 triggers, 16 CEC, 32 A counters + 32 upper
  // dwords, 7 flex EU controls, GDT_CHICKEN_BITS, 32 NOA mux dwords,
  // NOA_DATA, NOA_WRITE, 8 OA_PERFCNT dwords and 2 PERFMATRIX aliases.
  EXPECT_EQ(loaded_->database.registers.size(), 9u + 16u + 16u + 64u + 7u + 1u + 32u + 2u + 10u);
}

TEST_F(BdwDatabaseTest, OaUnitRegistersAtTheirAddresses) {
  EXPECT_EQ(Reg("OACONTROL").offset, 0x2B00u);
  EXPECT_EQ(Reg("OACTXCONTROL").offset, 0x2360u);
  EXPECT_EQ(Reg("OACTXID").offset, 0x2364u);
  EXPECT_EQ(Reg("OA_IMR").offset, 0x2B20u);
  EXPECT_EQ(Reg("OASTATUS").offset, 0x2B08u);
  EXPECT_EQ(Reg("OAHEADPTR").offset, 0x2B0Cu);
  EXPECT_EQ(Reg("OATAILPTR").offset, 0x2B10u);
  EXPECT_EQ(Reg("OABUFFER").offset, 0x2B14u);
  EXPECT_EQ(Reg("OABUFFER_UDW").offset, 0x23B4u);
}

TEST_F(BdwDatabaseTest, TriggersCecAndCountersAtTheirAddresses) {
  for (unsigned n = 1; n <= 8; ++n) {
    EXPECT_EQ(Reg("OASTARTTRIG" + std::to_string(n)).offset, 0x2710u + 4 * (n - 1));
    EXPECT_EQ(Reg("OAREPORTTRIG" + std::to_string(n)).offset, 0x2740u + 4 * (n - 1));
  }
  for (unsigned n = 0; n < 8; ++n) {
    EXPECT_EQ(Reg("CEC" + std::to_string(n) + "_0").offset, 0x2770u + 8 * n);
    EXPECT_EQ(Reg("CEC" + std::to_string(n) + "_1").offset, 0x2774u + 8 * n);
  }
  for (unsigned n = 0; n < 32; ++n) {
    const Register& low = Reg("OAPERF_A" + std::to_string(n));
    const Register& high = Reg("OAPERF_A" + std::to_string(n) + "_UPPER");
    EXPECT_EQ(low.offset, 0x2800u + 8 * n);
    EXPECT_EQ(high.offset, 0x2804u + 8 * n);
    EXPECT_TRUE(low.is_volatile) << low.name;
    // 40-bit counters: the upper dword holds bits 39:32 in its low byte.
    const Field* count_high = high.FindField("COUNT_HIGH");
    ASSERT_NE(count_high, nullptr) << high.name;
    EXPECT_EQ(count_high->bits.msb, 7u);
    EXPECT_EQ(count_high->access, Access::kRw);
  }
  const unsigned flex[] = {0xE458, 0xE558, 0xE658, 0xE758, 0xE45C, 0xE55C, 0xE65C};
  for (unsigned n = 0; n < 7; ++n) EXPECT_EQ(Reg("EU_PERF_CNT_CTL" + std::to_string(n)).offset, flex[n]);
}

TEST_F(BdwDatabaseTest, NoaRegistersAtTheirAddresses) {
  EXPECT_EQ(Reg("GDT_CHICKEN_BITS").offset, 0x9840u);
  const Field* noa = Reg("GDT_CHICKEN_BITS").FindField("GT_NOA_ENABLE");
  ASSERT_NE(noa, nullptr);
  EXPECT_EQ(noa->bits.lsb, 7u);
  EXPECT_EQ(Reg("NOA_DATA").offset, 0x986Cu);
  EXPECT_EQ(Reg("NOA_WRITE").offset, 0x9888u);
  EXPECT_EQ(Reg("NOA_MUX0").offset, 0x9800u);
  EXPECT_EQ(Reg("NOA_MUX33").offset, 0x9884u);
  EXPECT_EQ(Reg("OA_PERFCNT1_LO").offset, 0x91B8u);
  EXPECT_EQ(Reg("OA_PERFCNT2_HI").offset, 0x91C4u);
  EXPECT_EQ(Reg("OA_PERFMATRIX_LO").offset, 0x91C8u);
  EXPECT_EQ(Reg("OA_PERFCNT4_HI").offset, 0x91DCu);
}

TEST_F(BdwDatabaseTest, KeyFields) {
  const Register& control = Reg("OACONTROL");
  const Field* select = control.FindField("COUNTER_SELECT");
  ASSERT_NE(select, nullptr);
  EXPECT_EQ(select->bits.msb, 4u);
  EXPECT_EQ(select->bits.lsb, 2u);
  const Field* enable = control.FindField("COUNTER_ENABLE");
  ASSERT_NE(enable, nullptr);
  EXPECT_EQ(enable->bits.lsb, 0u);

  const Field* timer = Reg("OACTXCONTROL").FindField("TIMER_PERIOD");
  ASSERT_NE(timer, nullptr);
  EXPECT_EQ(timer->bits.msb, 7u);
  EXPECT_EQ(timer->bits.lsb, 2u);

  // i915 clears REPORT_LOST / COUNTER_OVERFLOW by writing them as 0.
  const Register& status = Reg("OASTATUS");
  for (const char* name : {"REPORT_LOST", "OABUFFER_OVERFLOW", "COUNTER_OVERFLOW", "OVERRUN_STATUS"}) {
    const Field* bit = status.FindField(name);
    ASSERT_NE(bit, nullptr) << name;
    EXPECT_EQ(bit->access, Access::kW0c) << name;
  }

  // PRM: OA interrupt bit 28 is the buffer half-full interrupt; the rest MBZ.
  const Register& imr = Reg("OA_IMR");
  const Field* half_full = imr.FindField("BUFFER_HALF_FULL");
  ASSERT_NE(half_full, nullptr);
  EXPECT_EQ(half_full->bits.lsb, 28u);
  for (const char* name : {"RESERVED_31_29", "RESERVED_27_0"}) {
    const Field* reserved = imr.FindField(name);
    ASSERT_NE(reserved, nullptr) << name;
    EXPECT_EQ(reserved->access, Access::kMbz) << name;
  }

  const Field* size = Reg("OABUFFER").FindField("BUFFER_SIZE");
  ASSERT_NE(size, nullptr);
  EXPECT_EQ(size->bits.msb, 5u);
  EXPECT_EQ(size->bits.lsb, 3u);
}

TEST_F(BdwDatabaseTest, EveryRegisterHasARefAndADoc) {
  for (const Register& reg : loaded_->database.registers) {
    EXPECT_FALSE(reg.ref.empty()) << reg.name;
    EXPECT_FALSE(reg.doc.empty()) << reg.name;
  }
  EXPECT_THAT(Reg("OACONTROL").ref, HasSubstr("BDW PRM Vol 14"));
}

}  // namespace
}  // namespace regemu::regdb
