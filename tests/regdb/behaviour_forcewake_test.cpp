// The `forcewake` kind's configuration check (yaml/README.md "behaviours"):
// request/ack registers exist, requests are masked, ranges name declared
// domains and are sorted, disjoint and gapless, latency is a duration.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/forcewake.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Ten lines of device; each test's behaviour section starts on line 11.
constexpr const char* kDevice = R"(device: fw
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: FW_RENDER, space: mmio, offset: 0xA278, masked: true}
  - {name: FW_ACK_RENDER, space: mmio, offset: 0x0D84, access: ro}
  - {name: FW_GT, space: mmio, offset: 0xA188, masked: true}
  - {name: FW_ACK_GT, space: mmio, offset: 0x0D88, access: ro}
  - {name: RING_TAIL, space: mmio, offset: 0x2030}
behaviours:
)";

// Lines 11-13 are the head; domains start on line 14.
std::string Forcewake(const std::string& domains, const std::string& ranges, const std::string& extra = "") {
  return std::string(kDevice) + "  - kind: forcewake\n    latency: 500ns\n    domains:\n" + domains +
         "    ranges:\n" + ranges + extra;
}

constexpr const char* kDomains =
    "      - {name: render, request: FW_RENDER, ack: FW_ACK_RENDER}\n"
    "      - {name: gt, request: FW_GT, ack: FW_ACK_GT}\n";
// Ranges start on line 17.
constexpr const char* kRanges =
    "      - {first: 0x2000, last: 0x26FF, domains: [render]}\n"
    "      - {first: 0x2700, last: 0x2FFF, domains: [gt, render]}\n"
    "      - {first: 0x3000, last: 0x3FFF, domains: []}\n";

TEST(ForcewakeConfigTest, WellFormedConfigIsClean) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains, kRanges, "    shadowed: [RING_TAIL]\n    space: mmio\n"));
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
}

TEST(ForcewakeConfigTest, CleanConfigIsResolved) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains, kRanges, "    shadowed: [RING_TAIL]\n"));
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Database& db = loaded.database;
  const ForcewakeConfig* config = ConfigAs<ForcewakeConfig>(db.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->space, db.FindSpace("mmio"));  // the first request register's
  EXPECT_EQ(config->latency_ns, 500u);
  ASSERT_EQ(config->domains.size(), 2u);
  EXPECT_EQ(config->domains[0].name, "render");
  EXPECT_EQ(config->domains[0].request, db.FindRegister("FW_RENDER"));
  EXPECT_EQ(config->domains[0].ack, db.FindRegister("FW_ACK_RENDER"));
  EXPECT_EQ(config->domains[1].name, "gt");
  EXPECT_EQ(config->domains[1].request, db.FindRegister("FW_GT"));
  EXPECT_EQ(config->domains[1].ack, db.FindRegister("FW_ACK_GT"));
  // Every declared range, with its domains as indices (an always-on one has none).
  ASSERT_EQ(config->ranges.size(), 3u);
  EXPECT_EQ(config->ranges[0].first, 0x2000u);
  EXPECT_EQ(config->ranges[0].last, 0x26FFu);
  EXPECT_THAT(config->ranges[0].domains, ElementsAre(0u));
  EXPECT_THAT(config->ranges[1].domains, ElementsAre(1u, 0u));
  EXPECT_EQ(config->ranges[2].first, 0x3000u);
  EXPECT_EQ(config->ranges[2].last, 0x3FFFu);
  EXPECT_THAT(config->ranges[2].domains, IsEmpty());
  EXPECT_THAT(config->shadowed, ElementsAre(*db.FindRegister("RING_TAIL")));
}

TEST(ForcewakeConfigTest, SpaceIsTheNamedOne) {
  std::string yaml = Forcewake(kDomains, kRanges, "    space: gtt\n");
  yaml.replace(yaml.find("spaces:\n"), 8, "spaces:\n  - {name: gtt, kind: memory, size: 0x1000}\n");
  LoadedDatabase loaded = CheckYaml(yaml);
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const ForcewakeConfig* config = ConfigAs<ForcewakeConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->space, loaded.database.FindSpace("gtt"));
  EXPECT_EQ(config->latency_ns, 500u);
}

TEST(ForcewakeConfigTest, UnknownRequestAndAckRegisters) {
  LoadedDatabase loaded = CheckYaml(Forcewake(
      "      - {name: render, request: FW_RENDR, ack: FW_ACK_RENDERX}\n"
      "      - {name: gt, request: FW_GT, ack: FW_ACK_GT}\n",
      kRanges));
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(14, 33, HasSubstr("unknown register 'FW_RENDR' (did you mean 'FW_RENDER'?)"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(14, 48, HasSubstr("unknown register 'FW_ACK_RENDERX'"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, RequestMustBeMasked) {
  LoadedDatabase loaded = CheckYaml(Forcewake(
      "      - {name: render, request: RING_TAIL, ack: FW_ACK_RENDER}\n"
      "      - {name: gt, request: FW_GT, ack: FW_ACK_GT}\n",
      kRanges));
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 33, HasSubstr("'RING_TAIL' must be `masked: true`"))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.database.behaviours[0].config, nullptr);  // a section with an error has none
}

TEST(ForcewakeConfigTest, DuplicateDomain) {
  LoadedDatabase loaded = CheckYaml(Forcewake(
      "      - {name: render, request: FW_RENDER, ack: FW_ACK_RENDER}\n"
      "      - {name: render, request: FW_GT, ack: FW_ACK_GT}\n",
      "      - {first: 0x2000, last: 0x26FF, domains: [render]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(15, 16, HasSubstr("'render' is declared twice"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, TwoDomainsCannotShareARequestRegister) {
  LoadedDatabase loaded = CheckYaml(Forcewake(
      "      - {name: render, request: FW_RENDER, ack: FW_ACK_RENDER}\n"
      "      - {name: gt, request: FW_RENDER, ack: FW_ACK_GT}\n",
      kRanges));
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 29, HasSubstr("'FW_RENDER' is already the request of domain 'render'"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, UnknownDomainInRange) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains, "      - {first: 0x2000, last: 0x26FF, domains: [rendr]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(17, 49, HasSubstr("unknown domain 'rendr' (did you mean 'render'?)"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, RangesOutOfOrderOrOverlapping) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains,
                                              "      - {first: 0x2700, last: 0x2FFF, domains: [gt]}\n"
                                              "      - {first: 0x2000, last: 0x26FF, domains: [render]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(18, 17, HasSubstr("overlaps or is out of order"))))
      << Rendered(loaded);
  loaded = CheckYaml(Forcewake(kDomains,
                               "      - {first: 0x2000, last: 0x27FF, domains: [render]}\n"
                               "      - {first: 0x2700, last: 0x2FFF, domains: [gt]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(18, 17, HasSubstr("the one before ends at 0x27ff"))))
      << Rendered(loaded);
}

// Watertight: a gap between two ranges must be declared (always-on: `domains: []`).
TEST(ForcewakeConfigTest, UndeclaredGap) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains,
                                              "      - {first: 0x2000, last: 0x26FF, domains: [render]}\n"
                                              "      - {first: 0x3000, last: 0x3FFF, domains: [gt]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(18, 17, HasSubstr("gap 0x2700..0x2fff"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, RangeEndingBeforeItStarts) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains, "      - {first: 0x2000, last: 0x1FFF, domains: [render]}\n"));
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(17, 31, HasSubstr("ends (0x1fff) before it starts"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, BadLatency) {
  std::string yaml = Forcewake(kDomains, kRanges);
  yaml.replace(yaml.find("500ns"), 5, "fast");
  LoadedDatabase loaded = CheckYaml(yaml);
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(12, 14, HasSubstr("latency"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, UnknownShadowedRegisterAndSpace) {
  LoadedDatabase loaded = CheckYaml(Forcewake(kDomains, kRanges, "    shadowed: [RING_TAL]\n    space: mmi\n"));
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(21, 12, HasSubstr("unknown space 'mmi' (did you mean 'mmio'?)")),
                          ErrorAt(20, 16, HasSubstr("unknown register 'RING_TAL' (did you mean 'RING_TAIL'?)"))))
      << Rendered(loaded);
}

TEST(ForcewakeConfigTest, MissingKeysAndUnknownKey) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) + "  - {kind: forcewake, latncy: 1ns}\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 23, HasSubstr("unknown key 'latncy' in a forcewake behaviour "
                                                    "(did you mean 'latency'?)")),
                          ErrorAt(11, 5, HasSubstr("has no 'domains'")), ErrorAt(11, 5, HasSubstr("has no 'ranges'"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
