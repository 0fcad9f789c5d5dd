// The ONE access-policy table (access_policies.def): names, lookups and the
// facets every consumer asks for (yaml/README.md "Access policies").
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/access.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Optional;

// The policy names of the yaml/README.md table, in its order.
const std::set<std::string> kReadmePolicies = {
    "rw",  "ro",  "wo",  "rc",    "rs",    "wrc",   "wrs",   "wc",  "ws",  "wsrc", "wcrs", "w1c", "w1s",  "w1t",
    "w0c", "w0s", "w0t", "w1src", "w1crs", "w0src", "w0crs", "woc", "wos", "w1",   "wo1",  "rsvd", "mbz", "fixed", "hw"};

std::set<std::string> TableNames() {
  std::set<std::string> names;
  for (const AccessInfo& info : AllAccessPolicies()) names.insert(std::string(info.name));
  return names;
}

// The backquoted names in the first column of the README's policy table.
std::set<std::string> ReadmeTableNames() {
  std::ifstream in(std::string(REGEMU_SOURCE_DIR) + "/yaml/README.md");
  std::stringstream text;
  text << in.rdbuf();
  std::set<std::string> names;
  std::string line;
  bool in_section = false;
  while (std::getline(text, line)) {
    if (line.rfind("### Access policies", 0) == 0) {
      in_section = true;
      continue;
    }
    if (in_section && line.rfind("#", 0) == 0) break;  // the next section
    if (!in_section || line.rfind("| `", 0) != 0) continue;
    std::string first_column = line.substr(1, line.find('|', 1) - 1);
    size_t open = first_column.find('`');
    while (open != std::string::npos) {
      size_t close = first_column.find('`', open + 1);
      if (close == std::string::npos) break;
      names.insert(first_column.substr(open + 1, close - open - 1));
      open = first_column.find('`', close + 1);
    }
  }
  return names;
}

TEST(AccessTableTest, ListsExactlyTheTwentyEightPoliciesOfTheReadme) {
  EXPECT_EQ(AllAccessPolicies().size(), 29u);
  EXPECT_EQ(TableNames(), kReadmePolicies);
}

TEST(AccessTableTest, ReadmeTableAndCodeTableAgree) {
  // The README is written by hand; this keeps it and the table in step.
  EXPECT_EQ(ReadmeTableNames(), TableNames());
}

TEST(AccessTableTest, EveryNameRoundTripsThroughTheLookups) {
  for (const AccessInfo& info : AllAccessPolicies()) {
    EXPECT_THAT(AccessFromName(info.name), Optional(info.access)) << info.name;
    EXPECT_EQ(AccessName(info.access), info.name);
    EXPECT_EQ(&Info(info.access), &info) << info.name << ": the table is not in enum order";
    EXPECT_FALSE(info.summary.empty()) << info.name;
  }
}

TEST(AccessTableTest, UnknownNamesAreNotPolicies) {
  EXPECT_EQ(AccessFromName("w1cc"), std::nullopt);
  EXPECT_EQ(AccessFromName("RW"), std::nullopt);  // names are case-sensitive, as YAML keys are
  EXPECT_EQ(AccessFromName(""), std::nullopt);
  EXPECT_EQ(AccessFromName("rw "), std::nullopt);
}

// Facets: readable, writable, read_has_side_effect, reads_as_zero.
struct Facets {
  const char* name;
  bool readable;
  bool writable;
  bool read_side_effect;
  bool reads_as_zero;
};

class AccessFacetsTest : public ::testing::TestWithParam<Facets> {};

TEST_P(AccessFacetsTest, MatchesTheReadme) {
  const Facets& expected = GetParam();
  auto access = AccessFromName(expected.name);
  ASSERT_TRUE(access.has_value()) << expected.name;
  const AccessInfo& info = Info(*access);
  EXPECT_EQ(info.readable(), expected.readable) << "readable";
  EXPECT_EQ(info.writable(), expected.writable) << "writable";
  EXPECT_EQ(info.read_has_side_effect(), expected.read_side_effect) << "read_has_side_effect";
  EXPECT_EQ(info.reads_as_zero(), expected.reads_as_zero) << "reads_as_zero";
}

INSTANTIATE_TEST_SUITE_P(
    Representative, AccessFacetsTest,
    ::testing::Values(
        //     name    readable writable side-effect reads-0
        Facets{"rw", true, true, false, false},      // value | stores
        Facets{"ro", true, false, false, false},     // value | no effect
        Facets{"wo", false, true, false, true},      // not readable (reads 0) | stores
        Facets{"rc", true, false, true, false},      // value, then clears | no effect
        Facets{"rs", true, false, true, false},      // value, then sets | no effect
        Facets{"wrc", true, true, true, false},      // value, then clears | stores
        Facets{"w1c", true, true, false, false},     // value | each 1 clears
        Facets{"w0t", true, true, false, false},     // value | each 0 toggles
        Facets{"w1src", true, true, true, false},    // value, then clears | each 1 sets
        Facets{"woc", false, true, false, true},     // not readable | clears all
        Facets{"w1", true, true, false, false},      // value | first write stores
        Facets{"wo1", false, true, false, true},     // not readable | first write stores
        Facets{"rsvd", true, false, false, true},    // reads 0 | ignored
        Facets{"mbz", true, false, false, true},     // reads 0 | writing 1 is a mistake
        Facets{"fixed", true, false, false, false},  // value (hardwired) | ignored, not a mistake
        Facets{"hw", true, false, false, false}),    // value kept by hardware | no effect
    [](const ::testing::TestParamInfo<Facets>& param_info) { return std::string(param_info.param.name); });

TEST(AccessEffectsTest, ReadOnlyAndReservedDifferInWhetherAWriteIsAMistake) {
  // ro: "a write that changes the value is a driver mistake"; rsvd: "not a driver mistake".
  EXPECT_EQ(Info(Access::kRo).write, WriteEffect::kIgnore);
  EXPECT_EQ(Info(Access::kHw).write, WriteEffect::kIgnore);
  EXPECT_EQ(Info(Access::kRsvd).write, WriteEffect::kDiscard);
  EXPECT_EQ(Info(Access::kFixed).write, WriteEffect::kDiscard);  // a BAR's hardwired bits under sizing
  EXPECT_EQ(Info(Access::kMbz).write, WriteEffect::kMustBeZero);
}

TEST(AccessEffectsTest, PairedPoliciesMirrorEachOther) {
  EXPECT_EQ(Info(Access::kW1c).write, WriteEffect::kOneClears);
  EXPECT_EQ(Info(Access::kW1s).write, WriteEffect::kOneSets);
  EXPECT_EQ(Info(Access::kW1t).write, WriteEffect::kOneToggles);
  EXPECT_EQ(Info(Access::kW0c).write, WriteEffect::kZeroClears);
  EXPECT_EQ(Info(Access::kW0s).write, WriteEffect::kZeroSets);
  EXPECT_EQ(Info(Access::kW0t).write, WriteEffect::kZeroToggles);
  EXPECT_EQ(Info(Access::kWsrc).read, ReadEffect::kValueThenClear);
  EXPECT_EQ(Info(Access::kWsrc).write, WriteEffect::kSetAll);
  EXPECT_EQ(Info(Access::kWcrs).read, ReadEffect::kValueThenSet);
  EXPECT_EQ(Info(Access::kWcrs).write, WriteEffect::kClearAll);
  EXPECT_EQ(Info(Access::kW0crs).read, ReadEffect::kValueThenSet);
  EXPECT_EQ(Info(Access::kW0crs).write, WriteEffect::kZeroClears);
  EXPECT_EQ(Info(Access::kWos).read, ReadEffect::kWriteOnly);
  EXPECT_EQ(Info(Access::kWos).write, WriteEffect::kSetAll);
}

}  // namespace
}  // namespace regemu::regdb
