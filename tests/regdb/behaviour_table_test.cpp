// `for_each:` on a behaviour (regdb/behaviour_table.hpp): one behaviour made
// once per row of a table.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/interrupts.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::SizeIs;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::Rendered;

// The behaviour section starts on line 9.
constexpr const char* kDevice = R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: A_IIR, space: mmio, offset: 0x0}
  - {name: A_IER, space: mmio, offset: 0x4}
  - {name: B_IIR, space: mmio, offset: 0x8}
  - {name: B_IER, space: mmio, offset: 0xC}
behaviours:
)";

TEST(BehaviourTableTest, EachRowMakesABehaviourWithItsValues) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) +
                                    "  - name: \"{unit}_irq\"\n"
                                    "    kind: interrupts\n"
                                    "    for_each:\n"
                                    "      - {unit: a, IIR: A_IIR, IER: A_IER}\n"
                                    "      - {unit: b, IIR: B_IIR, IER: B_IER}\n"
                                    "    sources: [{name: \"{unit}\", status: \"{IIR}\", enable: \"{IER}\"}]\n"
                                    "    outputs: [{name: out, sources: [\"{unit}\"], line: \"LINE_{unit}\"}]\n");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Database& db = loaded.database;
  ASSERT_THAT(db.behaviours, SizeIs(2));
  EXPECT_EQ(db.behaviours[0].name, "a_irq");
  EXPECT_EQ(db.behaviours[1].name, "b_irq");
  EXPECT_EQ(db.behaviours[1].loc.line, 10u);  // the template's place
  EXPECT_EQ(db.behaviours[1].yaml.Find("for_each"), nullptr);
  const auto* config = dynamic_cast<const InterruptsConfig*>(db.behaviours[1].config.get());
  ASSERT_NE(config, nullptr);
  EXPECT_THAT(config->OutputLines(), Contains("LINE_b"));
}

TEST(BehaviourTableTest, BracesThatNameNoColumnStay) {
  LoadedDatabase loaded = CheckYaml(std::string(kDevice) +
                                    "  - name: one\n"
                                    "    kind: interrupts\n"
                                    "    for_each: [{IIR: A_IIR}]\n"
                                    "    sources: [{name: s, status: \"{IIR}\", enable: \"{IER}\"}]\n");
  // `{IER}` is no column: it stays, and is an unknown register at its place.
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(13, 50, HasSubstr("'{IER}'"))));
}

TEST(BehaviourTableTest, MistakesAreLocated) {
  auto errors = [](const std::string& body) { return CheckYaml(std::string(kDevice) + body).diagnostics.all(); };
  EXPECT_THAT(errors("  - {name: x, kind: interrupts, for_each: 3, sources: []}\n"),
              Contains(ErrorAt(10, 43, HasSubstr("for_each"))));
  EXPECT_THAT(errors("  - {name: x, kind: interrupts, for_each: [], sources: []}\n"),
              Contains(ErrorAt(10, 43, HasSubstr("makes no behaviour"))));
  EXPECT_THAT(errors("  - {name: x, kind: interrupts, for_each: [a], sources: []}\n"),
              Contains(ErrorAt(10, 44, HasSubstr("row as a mapping"))));
  EXPECT_THAT(errors("  - {name: x, kind: interrupts, for_each: [{}], sources: []}\n"),
              Contains(ErrorAt(10, 44, HasSubstr("without columns"))));
  EXPECT_THAT(errors("  - {name: x, kind: interrupts, for_each: [{u: [1]}], sources: []}\n"),
              Contains(ErrorAt(10, 48, HasSubstr("is a scalar"))));
  EXPECT_THAT(errors("  - {name: \"{u}\", kind: interrupts, for_each: [{u: a}, {v: b}], sources: []}\n"),
              Contains(ErrorAt(10, 56, HasSubstr("has the columns v; the first row has u"))));
  EXPECT_THAT(errors("  - {name: x, kind: interrupts, for_each: [{u: a}, {u: b}], sources: []}\n"),
              Contains(ErrorAt(10, 12, HasSubstr("needs a `name:` that uses a column ({u}...)"))));
}

}  // namespace
}  // namespace regemu::regdb
