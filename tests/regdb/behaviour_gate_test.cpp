// The `gate` kind's configuration check (yaml/README.md, "kind: gate").
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/gate.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Each test's behaviour section starts on line 11; its keys on line 13.
constexpr const char* kDevice = R"(device: g
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
  - {name: io, kind: mmio, size: 0x100}
registers:
  - {name: MCR, space: mmio, offset: 0xFDC, fields: [{name: SLICE, bits: "30:27", access: rw}]}
  - {name: FUSE, space: mmio, offset: 0x9138, access: ro, fields: [{name: S_ENA, bits: "7:0", access: ro}]}
  - {name: L3, space: mmio, offset: 0xB118}
  - {name: PORT, space: io, offset: 0x10, width: 8}
behaviours:
)";

std::string Gate(const std::string& body) { return std::string(kDevice) + "  - name: steer\n    kind: gate\n" + body; }

constexpr const char* kSteering =
    "    space: mmio\n"
    "    ref: \"PRM\"\n"
    "    gates:\n"
    "      - name: present\n"
    "        when: \"(FUSE.S_ENA >> MCR.SLICE) & 1\"\n"
    "        refuses: reads\n"
    "        violation: \"read of a fused-off slice\"\n"
    "    ranges:\n"
    "      - {first: 0xB000, last: 0xB0FF, name: L3 status}\n"
    "      - {register: L3}\n";

TEST(GateConfigTest, WellFormedConfigIsResolved) {
  LoadedDatabase loaded = CheckYaml(Gate(kSteering));
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Database& db = loaded.database;
  const GateConfig* config = ConfigAs<GateConfig>(db.behaviours[0]);
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->space, db.FindSpace("mmio"));
  ASSERT_THAT(config->gates, SizeIs(1));
  const GateConfig::Gate& gate = config->gates[0];
  EXPECT_EQ(gate.name, "present");
  EXPECT_EQ(gate.refuses, GateConfig::Refuses::kReads);
  EXPECT_EQ(gate.kind, "protocol");
  EXPECT_EQ(gate.ref, "PRM");  // the behaviour's, by default
  EXPECT_THAT(gate.operand_names, ElementsAre("FUSE.S_ENA", "MCR.SLICE"));
  ASSERT_THAT(config->ranges, SizeIs(2));
  EXPECT_EQ(config->ranges[0].first, 0xB000u);
  EXPECT_EQ(config->ranges[0].last, 0xB0FFu);
  EXPECT_EQ(config->ranges[0].name, "L3 status");
  EXPECT_THAT(config->ranges[0].gates, ElementsAre(0u));  // every gate, by default
  EXPECT_EQ(config->ranges[1].first, 0xB118u);            // a register's bytes
  EXPECT_EQ(config->ranges[1].last, 0xB11Bu);
  EXPECT_EQ(config->ranges[1].name, "L3");
  auto spans = config->GatedSpans(db);
  ASSERT_THAT(spans, SizeIs(2));
  EXPECT_EQ(spans[1].first, 0xB118u);
}

TEST(GateConfigTest, WithoutRangesTheWholeSpaceIsGated) {
  LoadedDatabase loaded = CheckYaml(Gate("    space: io\n    gates:\n"
                                         "      - {name: on, when: \"MCR.SLICE == 0\", violation: off, kind: power,"
                                         " reads_as: 0xFF, writes_pass: [PORT]}\n"));
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const GateConfig* config = ConfigAs<GateConfig>(loaded.database.behaviours[0]);
  ASSERT_NE(config, nullptr);
  ASSERT_THAT(config->ranges, SizeIs(1));
  EXPECT_EQ(config->ranges[0].first, 0u);
  EXPECT_EQ(config->ranges[0].last, 0xFFu);
  EXPECT_EQ(config->gates[0].kind, "power");
  EXPECT_EQ(config->gates[0].reads_as, 0xFFu);
  EXPECT_THAT(config->gates[0].writes_pass, ElementsAre(*loaded.database.FindRegister("PORT")));
}

TEST(GateConfigTest, MistakesAreLocatedWithSuggestions) {
  auto loaded = CheckYaml(Gate("    space: mmio\n"
                               "    gates:\n"
                               "      - name: present\n"
                               "        when: \"FUSE.S_EN == 1\"\n"
                               "        refuses: read\n"
                               "        kind: protocl\n"
                               "        writes_pass: [PORT]\n"
                               "        violation: x\n"
                               "      - {name: other, when: \"1\", violation: y}\n"
                               "    ranges:\n"
                               "      - {first: 0xB100, last: 0xB0FF}\n"
                               "      - {first: 0xB100, last: 0xB3FF, gates: [presnt]}\n"
                               "      - {first: 0xB200, last: 0xB2FF}\n"  // overlapping ranges compose
                               "      - {register: L4}\n"
                               "      - {first: 0xFF00, last: 0x10000}\n"));
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(16, 16, HasSubstr("S_ENA"))));  // the unknown field, at its column
  EXPECT_THAT(all, Contains(ErrorAt(17, 18, HasSubstr("'read'"))));
  EXPECT_THAT(all, Contains(ErrorAt(18, 15, HasSubstr("'protocl'"))));
  EXPECT_THAT(all, Contains(ErrorAt(19, 23, HasSubstr("register 'PORT' is in space 'io', not the gate's space 'mmio'"))));
  EXPECT_THAT(all, Contains(ErrorAt(23, 31, HasSubstr("ends (0xb0ff) before it starts (0xb100)"))));
  EXPECT_THAT(all, Contains(ErrorAt(24, 47, HasSubstr("unknown gate 'presnt' (did you mean 'present'?)"))));
  EXPECT_THAT(all, Contains(ErrorAt(26, 20, HasSubstr("unknown register 'L4'"))));
  EXPECT_THAT(all, Contains(ErrorAt(27, 31, HasSubstr("past the end of space 'mmio'"))));
}

TEST(GateConfigTest, RequiredKeysAndDuplicatesAreReported) {
  auto loaded = CheckYaml(Gate("    space: mmoi\n    gates: []\n"));
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(13, 12, HasSubstr("unknown space 'mmoi' (did you mean 'mmio'?)"))));
  loaded = CheckYaml(Gate("    space: mmio\n    gates:\n      - {name: a, when: \"1\", violation: x}\n"
                          "      - {name: a, when: \"1\"}\n    ranges: []\n"));
  const auto& all = loaded.diagnostics.all();
  EXPECT_THAT(all, Contains(ErrorAt(16, 16, HasSubstr("declares gate 'a' twice"))));
  EXPECT_THAT(all, Contains(ErrorAt(16, 9, HasSubstr("violation"))));
  EXPECT_THAT(all, Contains(ErrorAt(17, 13, HasSubstr("leave the key out to gate the whole space"))));
}

TEST(GateConfigTest, TwoGatesOverOneAccessAreRefusedByTheModelRules) {
  auto loaded = CheckYaml(Gate(kSteering) + "  - name: again\n    kind: gate\n    space: mmio\n"
                                            "    gates: [{name: g, when: \"1\", violation: x}]\n"
                                            "    ranges: [{first: 0xB100, last: 0xB11F}]\n");
  EXPECT_TRUE(loaded.diagnostics.has_errors());
  EXPECT_THAT(Rendered(loaded), HasSubstr("gate"));
}

}  // namespace
}  // namespace regemu::regdb
