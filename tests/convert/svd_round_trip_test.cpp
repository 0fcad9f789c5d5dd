// A database out as SVD and back: the same registers, offsets, widths,
// resets, fields and policies, for what SVD can hold (svd_writer.hpp lists
// what it cannot); and a second pass changes nothing.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/convert/svd_test_support.hpp"
#include "tools/convert/svd_writer.hpp"

namespace regemu::convert {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;

// The policy the SVD form of `access` comes back as.
regdb::Access AfterSvd(regdb::Access access) {
  return access == regdb::Access::kHw || access == regdb::Access::kFixed ? regdb::Access::kRo : access;
}

bool Exported(const regdb::Database& db, const regdb::Register& reg) {
  const regdb::Space& space = db.spaces[reg.space];
  bool first_mmio = false;
  for (const regdb::Space& s : db.spaces) {
    if (s.kind == regdb::SpaceKind::kMmio) {
      first_mmio = &s == &space;
      break;
    }
  }
  return first_mmio && !reg.masked && reg.view_of.empty() && !reg.banked();
}

void ExpectSameRegisters(const regdb::Database& original, const regdb::Database& back) {
  size_t compared = 0;
  for (const regdb::Register& reg : original.registers) {
    if (!Exported(original, reg)) continue;
    const regdb::Register* twin = testing::FindRegister(back, reg.name);
    ASSERT_NE(twin, nullptr) << reg.name;
    ++compared;
    EXPECT_EQ(twin->offset, reg.offset) << reg.name;
    EXPECT_EQ(twin->width, reg.width) << reg.name;
    EXPECT_EQ(twin->reset, reg.reset) << reg.name;
    if (reg.fields.empty()) {
      EXPECT_EQ(twin->default_access, AfterSvd(reg.default_access)) << reg.name;
    }
    std::vector<const regdb::Field*> kept;
    for (const regdb::Field& field : reg.fields) {
      // Reserved and must-be-zero bits have no SVD field.
      if (regdb::Info(field.access).read != regdb::ReadEffect::kZero) kept.push_back(&field);
    }
    ASSERT_EQ(twin->fields.size(), kept.size()) << reg.name;
    for (size_t i = 0; i < kept.size(); ++i) {
      const regdb::Field& field = *kept[i];
      const regdb::Field& other = twin->fields[i];
      EXPECT_EQ(other.name, field.name) << reg.name;
      EXPECT_EQ(other.bits.msb, field.bits.msb) << reg.name << "." << field.name;
      EXPECT_EQ(other.bits.lsb, field.bits.lsb) << reg.name << "." << field.name;
      EXPECT_EQ(other.access, AfterSvd(field.access)) << reg.name << "." << field.name;
      EXPECT_EQ(other.values.size(), field.values.size()) << reg.name << "." << field.name;
    }
  }
  ::testing::Test::RecordProperty("registers_compared", static_cast<int>(compared));
}

struct Pass {
  SvdExport svd;
  testing::Converted back;
};

Pass ThroughSvd(const regdb::Database& db) {
  Pass pass;
  pass.svd = WriteSvd(db);
  pass.back = testing::ConvertSvd(pass.svd.text, "exported.svd");
  return pass;
}

class SvdRoundTripTest : public ::testing::TestWithParam<std::string> {};

TEST_P(SvdRoundTripTest, SameRegistersAndAStableSecondPass) {
  std::filesystem::path path = std::filesystem::path(REGEMU_SOURCE_DIR) / "yaml" / GetParam();
  regdb::LoadedDatabase original = regdb::LoadAndCheck(path);
  ASSERT_FALSE(original.diagnostics.has_errors());
  Pass first = ThroughSvd(original.database);
  ASSERT_TRUE(first.back.read.device) << first.back.errors;
  ASSERT_FALSE(first.back.loaded.diagnostics.has_errors()) << testing::CheckErrors(first.back);
  ExpectSameRegisters(original.database, first.back.loaded.database);
  for (const regdb::BehaviourSpec& behaviour : original.database.behaviours) {
    EXPECT_THAT(first.svd.left_out, Contains(HasSubstr("behaviour '" + behaviour.name + "'")));
  }
  Pass second = ThroughSvd(first.back.loaded.database);
  Pass third = ThroughSvd(second.back.loaded.database);
  EXPECT_EQ(testing::FirstDifference(second.svd.text, third.svd.text), "");
}

INSTANTIATE_TEST_SUITE_P(ShippedDatabases, SvdRoundTripTest, ::testing::Values("hsw", "bdw", "goldmont"));

TEST(SvdRoundTrip, MsrSpacesAreListedAsLeftOut) {
  regdb::LoadedDatabase goldmont =
      regdb::LoadAndCheck(std::filesystem::path(REGEMU_SOURCE_DIR) / "yaml" / "goldmont");
  SvdExport svd = WriteSvd(goldmont.database);
  EXPECT_THAT(svd.left_out, Contains(HasSubstr("space 'msr' (msr): SVD describes one memory-mapped bus")));
  EXPECT_THAT(svd.text, HasSubstr("Left out (SVD cannot hold them)"));
}

}  // namespace
}  // namespace regemu::convert
