// The `slice-steering` kind's configuration check (yaml/README.md "behaviours").
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/slice_steering.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Each test's behaviour section starts on line 9.
constexpr const char* kDevice = R"(device: s
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: MCR, space: mmio, offset: 0xFDC, fields: [{name: SLICE, bits: "30:27", access: rw}]}
  - {name: FUSE, space: mmio, offset: 0x9138, access: ro, fields: [{name: S_ENA, bits: "7:0", access: ro}]}
  - {name: L3, space: mmio, offset: 0xB118}
behaviours:
)";

std::string Steering(const std::string& head, const std::string& ranges) {
  return std::string(kDevice) + "  - kind: slice-steering\n" + head + "    ranges:\n" + ranges;
}

constexpr const char* kHead =
    "    space: mmio\n"
    "    fuse: FUSE\n"
    "    fuse_field: S_ENA\n"
    "    selector: MCR\n"
    "    selector_field: SLICE\n";

TEST(SliceSteeringConfigTest, WellFormedConfigIsClean) {
  auto loaded = CheckYaml(Steering(kHead, "      - {first: 0xB000, last: 0xB0FF, unit: L3}\n"
                                          "      - {first: 0xB100, last: 0xB3FF, unit: L3 bank}\n"));
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(SliceSteeringConfigTest, CleanConfigIsResolved) {
  LoadedDatabase loaded = CheckYaml(Steering(kHead,
                                             "      - {first: 0xB000, last: 0xB0FF, unit: L3}\n"
                                             "      - {first: 0xB100, last: 0xB3FF, unit: L3 bank}\n"));
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Database& db = loaded.database;
  const SliceSteeringConfig* config = ConfigAs<SliceSteeringConfig>(db.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->space, db.FindSpace("mmio"));
  EXPECT_EQ(config->fuse, db.FindRegister("FUSE"));
  EXPECT_EQ(config->fuse_bits.mask, 0xFFu);
  EXPECT_EQ(config->fuse_bits.shift, 0u);
  EXPECT_EQ(config->selector, db.FindRegister("MCR"));
  EXPECT_EQ(config->selector_bits.mask, 0x78000000u);  // bits 30:27
  EXPECT_EQ(config->selector_bits.shift, 27u);
  ASSERT_THAT(config->ranges, SizeIs(2));
  EXPECT_EQ(config->ranges[0].first, 0xB000u);
  EXPECT_EQ(config->ranges[0].last, 0xB0FFu);
  EXPECT_EQ(config->ranges[0].unit, "L3");
  EXPECT_EQ(config->ranges[1].first, 0xB100u);
  EXPECT_EQ(config->ranges[1].last, 0xB3FFu);
  EXPECT_EQ(config->ranges[1].unit, "L3 bank");
}

TEST(SliceSteeringConfigTest, UnknownRegisterAndFieldAreNamedWithASuggestion) {
  auto loaded = CheckYaml(Steering("    space: mmio\n    fuse: FUSES\n    fuse_field: S_ENA\n"
                                   "    selector: MCR\n    selector_field: SLCE\n",
                                   "      - {first: 0xB000, last: 0xB0FF, unit: L3}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(11, 11, HasSubstr("unknown register 'FUSES' (did you mean 'FUSE'?)"))));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(14, 21, HasSubstr("register 'MCR' has no field 'SLCE' (did you mean 'SLICE'?)"))));
}

TEST(SliceSteeringConfigTest, MissingFieldKeyIsAnError) {
  auto loaded = CheckYaml(Steering("    space: mmio\n    fuse: FUSE\n    selector: MCR\n    selector_field: SLICE\n",
                                   "      - {first: 0xB000, last: 0xB0FF, unit: L3}\n"));
  EXPECT_THAT(Rendered(loaded), HasSubstr("needs 'fuse_field': the field of FUSE holding the slice enables"));
  EXPECT_EQ(loaded.database.behaviours[0].config, nullptr);  // a section with an error has none
}

TEST(SliceSteeringConfigTest, RangesMustBeSortedDisjointAndForward) {
  auto loaded = CheckYaml(Steering(kHead, "      - {first: 0xB100, last: 0xB3FF, unit: A}\n"
                                          "      - {first: 0xB000, last: 0xB0FF, unit: B}\n"
                                          "      - {first: 0xE200, last: 0xE100, unit: C}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(17, 17, HasSubstr("overlaps or is out of order"))));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(18, 31, HasSubstr("ends (0xe100) before it starts"))));
}

TEST(SliceSteeringConfigTest, UnknownKeyAndSpace) {
  auto loaded = CheckYaml(Steering("    space: mmi0\n    fuse: FUSE\n    fuse_field: S_ENA\n    selector: MCR\n"
                                   "    selector_field: SLICE\n    slices: 2\n",
                                   "      - {first: 0xB000, last: 0xB0FF, unit: L3}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(10, 12, HasSubstr("unknown space 'mmi0'"))));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(15, 5, HasSubstr("unknown key 'slices'"))));
}

}  // namespace
}  // namespace regemu::regdb
