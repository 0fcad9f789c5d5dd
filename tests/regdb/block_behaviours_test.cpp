// Behaviours written inside a block (yaml/README.md "blocks"): one copy per
// instance, named INSTANCE_name, each naming its own instance's registers
// by the block's names; a name outside the block is a located error,
// reported once however many instances there are.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/counter.hpp"
#include "regemu/regdb/behaviour_configs/interrupts.hpp"
#include "regemu/regdb/behaviour_configs/reactions.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Sixteen lines; the block's behaviours start on line 17.
constexpr const char* kDualTimer = R"(device: dual
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: ITCR, space: mmio, offset: 0xF00}
blocks:
  - name: timer
    space: mmio
    instances: {TIMER1: 0x00, TIMER2: 0x20}
    registers:
      - {name: LOAD, offset: 0x0}
      - {name: VALUE, offset: 0x4, volatile: true}
      - {name: CONTROL, offset: 0x8, fields: [{name: ENABLE, bits: 7}, {name: INTEN, bits: 5}]}
      - {name: RIS, offset: 0x10, fields: [{name: INT, bits: 0, access: w1c}]}
      - {name: HITS, offset: 0x14, access: hw}
    behaviours:
)";

TEST(BlockBehavioursTest, EachInstanceGetsItsOwnCopyNamingItsRegisters) {
  LoadedDatabase loaded = CheckYaml(std::string(kDualTimer) + R"(      - {name: count, kind: counter, register: VALUE, direction: down, frequency: 25MHz,
         enable: CONTROL.ENABLE, at_limit: {set: RIS.INT, reload: LOAD}}
      - kind: interrupts
        sources: [{name: timer, status: RIS.INT, enable: CONTROL.INTEN}]
        outputs: [{name: out, sources: [timer], line: TIMINT}]
      - kind: reactions
        reactions: [{name: hit, on: {event: [count.limit, poke]}, do: [{set: {HITS: HITS + 1}}]}]
)");
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Database& db = loaded.database;
  ASSERT_EQ(db.behaviours.size(), 6u);
  EXPECT_EQ(db.behaviours[0].name, "TIMER1_count");
  EXPECT_EQ(db.behaviours[3].name, "TIMER2_count");
  EXPECT_EQ(db.behaviours[3].local_name, "count");
  const auto* second = ConfigAs<CounterConfig>(db.behaviours[3]);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->reg, db.FindRegister("TIMER2_VALUE"));
  ASSERT_TRUE(second->at_limit.has_value());
  EXPECT_EQ(second->at_limit->set.at(0).reg, db.FindRegister("TIMER2_RIS"));
  const auto* lines = ConfigAs<InterruptsConfig>(db.behaviours[4]);
  ASSERT_NE(lines, nullptr);
  EXPECT_EQ(lines->outputs.at(0).line, "TIMER2_TIMINT");
  const auto* reactions = ConfigAs<ReactionsConfig>(db.behaviours[5]);
  ASSERT_NE(reactions, nullptr);
  // Its own counter's event is the instance's; any other is the device's.
  EXPECT_THAT(reactions->reactions.at(0).trigger.events, ElementsAre("TIMER2_count.limit", "poke"));
}

TEST(BlockBehavioursTest, ARegisterOutsideTheBlockIsALocatedErrorReportedOnce) {
  LoadedDatabase loaded = CheckYaml(std::string(kDualTimer) + R"(      - {name: count, kind: counter, register: VALUE, period: 40ns, enable: ITCR}
      - {name: rules, kind: reactions, rules: [{name: r, on: {write: LOAD}, when: "ITCR != 0", violation: no}]}
      - {name: typo, kind: counter, register: VALUEE, period: 40ns, enable: CONTROL.ENABLE}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(17, 77, HasSubstr("names register 'ITCR', which is outside block 'timer'")),
                          ErrorAt(18, 84, HasSubstr("'ITCR' is a register outside block 'timer'")),
                          ErrorAt(19, 47, HasSubstr("unknown register 'VALUEE' (did you mean 'VALUE'?)"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
