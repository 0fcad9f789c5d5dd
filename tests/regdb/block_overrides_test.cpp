// Per-instance overrides of a block's registers (yaml/README.md "blocks"):
// the instances of one block share its layout but may differ in reset
// values, as HPET's timer 0 (periodic- and 64-bit-capable) differs from
// timers 1 and 2.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Eleven lines of a timer block; the instances follow on line 12.
constexpr const char* kBlock = R"(device: d
spaces: [{name: mmio, kind: mmio, size: 0x400}]
blocks:
  - name: TIMER
    space: mmio
    registers:
      - name: CONF
        offset: 0x0
        width: 64
        fields: [{name: PER_INT_CAP, bits: 4, access: ro, reset: 0}, {name: SIZE_CAP, bits: 5, access: ro, reset: 0}]
      - {name: CMP, offset: 0x8, width: 64, reset: 0xFFFFFFFF}
)";

LoadedDatabase Check(const std::string& instances) { return CheckYaml(kBlock + instances); }

const Register& Reg(const LoadedDatabase& loaded, const std::string& name) {
  auto index = loaded.database.FindRegister(name);
  EXPECT_TRUE(index.has_value()) << name;
  static const Register kNone;
  return index ? loaded.database.registers.at(*index) : kNone;
}

TEST(BlockOverridesTest, AnInstanceOverridesRegisterAndFieldResets) {
  LoadedDatabase loaded = Check(R"(    instances:
      T0: {base: 0x100, reset: {CONF.PER_INT_CAP: 1, CONF.SIZE_CAP: 1, CMP: 0xFFFFFFFFFFFFFFFF}}
      T1: 0x120
)");
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "T0_CONF").reset, 0x30u);
  EXPECT_EQ(Reg(loaded, "T0_CONF").fields.at(0).reset, 1u);
  EXPECT_EQ(Reg(loaded, "T0_CMP").reset, ~uint64_t{0});
  EXPECT_EQ(Reg(loaded, "T0_CMP").offset, 0x108u);
  // The other instance keeps the block's values.
  EXPECT_EQ(Reg(loaded, "T1_CONF").reset, 0u);
  EXPECT_EQ(Reg(loaded, "T1_CONF").fields.at(1).reset, 0u);
  EXPECT_EQ(Reg(loaded, "T1_CMP").reset, 0xFFFFFFFFu);
  EXPECT_EQ(Reg(loaded, "T1_CMP").offset, 0x128u);
}

// A register's override is its whole reset; a field's refines it.
TEST(BlockOverridesTest, AFieldOverrideRefinesARegisterOverride) {
  LoadedDatabase loaded = Check(R"(    instances:
      T0: {base: 0x100, reset: {CONF.SIZE_CAP: 0, CONF: 0x30}}
)");
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "T0_CONF").reset, 0x10u);
  EXPECT_EQ(Reg(loaded, "T0_CONF").fields.at(0).reset, 1u);
  EXPECT_EQ(Reg(loaded, "T0_CONF").fields.at(1).reset, 0u);
}

TEST(BlockOverridesTest, NamesTheBlockDoesNotHaveAreLocatedErrors) {
  LoadedDatabase loaded = Check(R"(    instances:
      T0: {base: 0x100, reset: {CONFF: 1, CONF.SIZE_CAPP: 1}}
      T1: {bse: 0x120}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 12, HasSubstr("unknown key 'bse' in a block instance (did you mean 'base'?)")),
                          ErrorAt(14, 11, HasSubstr("a block instance has no 'base' (required)")),
                          ErrorAt(13, 33, HasSubstr("block 'TIMER' has no register 'CONFF' (did you mean 'CONF'?)")),
                          ErrorAt(13, 43, HasSubstr("register 'CONF' of block 'TIMER' has no field 'SIZE_CAPP' "
                                                    "(did you mean 'SIZE_CAP'?)"))))
      << Rendered(loaded);
}

// The checker's own rules apply to the instance's values, at the override.
TEST(BlockOverridesTest, AnOverrideThatDoesNotFitIsReportedWhereItIsWritten) {
  LoadedDatabase loaded = Check(R"(    instances:
      T0: {base: 0x100, reset: {CONF.SIZE_CAP: 2}}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(13, 48, HasSubstr("reset 0x2 of field 'SIZE_CAP' does not fit in its 1 bits"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
