// `acknowledge: [{warning: CODE, reason: TEXT}]` (yaml/README.md
// "Acknowledging a warning"): a warning the database expects is moved out of
// the diagnostics with its reason; one that matches nothing is itself a
// warning; a wrong code or a missing reason is a located error.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::Rendered;
using testing_support::WarningAt;

// Six lines of a device with a writable, non-volatile counter register; the
// behaviours start on line 7.
constexpr const char* kDevice = R"(device: d
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - {name: CNT, space: mmio, offset: 0x0, width: 64, access: rw}
  - {name: OTHER, space: mmio, offset: 0x8, width: 64, access: rw}
behaviours:
)";

LoadedDatabase Check(const std::string& behaviours) { return CheckYaml(kDevice + behaviours); }

TEST(AcknowledgementTest, AWarningPrintsTheCodeThatAcknowledgesIt) {
  LoadedDatabase loaded = Check("  - {kind: counter, register: CNT, period: 1ns}\n");
  ASSERT_THAT(loaded.diagnostics.all(), ElementsAre(WarningAt(7, 31, HasSubstr("drives CNT"))));
  EXPECT_EQ(loaded.diagnostics.all()[0].code, WarningCode::kCounterNotVolatile);
  EXPECT_THAT(Rendered(loaded), HasSubstr("headers do not mark it volatile [counter-not-volatile]\n"));
}

TEST(AcknowledgementTest, AnAcknowledgedWarningIsReportedApartWithItsReason) {
  LoadedDatabase loaded = Check(R"(  - kind: counter
    register: CNT
    period: 1ns
    acknowledge:
      - {warning: counter-not-volatile, reason: "the driver only reads CNT"}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.diagnostics.warning_count(), 0u);
  ASSERT_THAT(loaded.diagnostics.acknowledged(), SizeIs(1));
  const AcknowledgedWarning& a = loaded.diagnostics.acknowledged()[0];
  EXPECT_EQ(a.reason, "the driver only reads CNT");
  EXPECT_EQ(a.warning.loc.line, 8u);
  EXPECT_EQ(a.acknowledged_at.line, 11u);
  EXPECT_EQ(FormatAcknowledged(loaded.sources, loaded.diagnostics),
            "test.yaml:8:15: acknowledged warning [counter-not-volatile]: " + a.warning.message +
                " (reason: the driver only reads CNT)\n");
}

// An acknowledgement covers its own item only: the same warning on another
// behaviour is still reported.
TEST(AcknowledgementTest, AnAcknowledgementCoversOnlyItsItem) {
  LoadedDatabase loaded = Check(R"(  - kind: counter
    name: a
    register: CNT
    period: 1ns
    acknowledge: [{warning: counter-not-volatile, reason: "read only"}]
  - {kind: counter, name: b, register: OTHER, period: 1ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(WarningAt(12, 40, HasSubstr("drives OTHER"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.acknowledged(), SizeIs(1));
}

TEST(AcknowledgementTest, AnAcknowledgementThatMatchesNoWarningIsAStaleWarning) {
  LoadedDatabase loaded = Check(R"(  - kind: counter
    register: CNT
    period: 1ns
    acknowledge:
      - {warning: counter-not-volatile, reason: "read only"}
      - {warning: ring-command-unreachable, reason: "copied from elsewhere"}
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(WarningAt(12, 9, HasSubstr("acknowledgement of warning 'ring-command-unreachable' "
                                                     "matches no warning here"))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.diagnostics.all()[0].code, WarningCode::kStaleAcknowledgement);
  EXPECT_EQ(loaded.diagnostics.warning_count(), 1u);
  EXPECT_THAT(loaded.diagnostics.acknowledged(), SizeIs(1));
}

// On a register: the counter's warning is located in the behaviour, not in
// the register, so an acknowledgement there is stale (it says where to go).
TEST(AcknowledgementTest, AnAcknowledgementOnAnItemWithoutTheWarningIsStale) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces: [{name: mmio, kind: mmio, size: 0x100}]
registers:
  - name: CNT
    space: mmio
    offset: 0
    acknowledge: [{warning: counter-not-volatile, reason: "x"}]
)");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(WarningAt(7, 19, HasSubstr("matches no warning here"))))
      << Rendered(loaded);
}

TEST(AcknowledgementTest, AnUnknownCodeOrAMissingReasonIsALocatedError) {
  LoadedDatabase loaded = Check(R"(  - kind: counter
    register: CNT
    period: 1ns
    acknowledge:
      - {warning: counter-not-volatil, reason: "typo"}
      - {warning: counter-not-volatile}
      - {warning: counter-not-volatile, reason: "  "}
      - {warning: counter-not-volatile, reason: "ok", because: "x"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 19, HasSubstr("did you mean 'counter-not-volatile'")),
                          ErrorAt(12, 9, HasSubstr("has no 'reason' (required)")),
                          ErrorAt(13, 49, HasSubstr("the reason of an acknowledgement is empty")),
                          ErrorAt(14, 55, HasSubstr("unknown key 'because' in an acknowledgement"))))
      << Rendered(loaded);
  // The last entry, whose only fault is the extra key, still acknowledges.
  EXPECT_THAT(loaded.diagnostics.acknowledged(), SizeIs(1));
}

TEST(AcknowledgementTest, AcknowledgeMustBeAListOfMappings) {
  LoadedDatabase loaded = Check(R"(  - {kind: counter, register: CNT, period: 1ns, acknowledge: counter-not-volatile}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 62, HasSubstr("expected acknowledge as a sequence")),
                          WarningAt(7, 31, HasSubstr("drives CNT"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
