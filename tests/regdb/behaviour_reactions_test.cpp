// The checks of behaviour as data (yaml/README.md): `kind: reactions`,
// `kind: interrupts`, `kind: state` spaces and `view_of` registers. Every
// mistake is a located error, pinned here to its line and column.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/interrupts.hpp"
#include "regemu/regdb/behaviour_configs/reactions.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ConfigAs;
using testing_support::ErrorAt;
using testing_support::Rendered;

// Fourteen lines; each test's behaviours start on line 15.
constexpr const char* kDevice = R"y(device: ctrl
spaces:
  - {name: bar0, kind: mmio, size: 0x100}
  - {name: state, kind: state, size: 0x10}
  - {name: host, kind: memory, size: 0x1000}
registers:
  - {name: CC, space: bar0, offset: 0x14, fields: [{name: EN, bits: 0}, {name: SHN, bits: "15:14"}]}
  - {name: CSTS, space: bar0, offset: 0x1c, fields: [{name: RDY, bits: 0, access: hw}]}
  - {name: AQA, space: bar0, offset: 0x24}
  - {name: IVM, space: state, offset: 0x0}
  - {name: INTMS, space: bar0, offset: 0x0c, view_of: IVM, access: w1s}
  - {name: INTMC, space: bar0, offset: 0x10, view_of: IVM, access: w1c}
  - {name: IS, space: bar0, offset: 0x20, fields: [{name: V0, bits: 0, access: w1c}]}
behaviours:
)y";

LoadedDatabase Check(const std::string& behaviours) { return CheckYaml(std::string(kDevice) + behaviours); }

template <typename Config>
const Config* ConfigNamed(const LoadedDatabase& loaded, const std::string& name) {
  for (const BehaviourSpec& spec : loaded.database.behaviours) {
    if (spec.name == name) return ConfigAs<Config>(spec);
  }
  return nullptr;
}

TEST(ReactionsCheckTest, ValidSectionBuildsItsConfig) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    ref: "NVMe Base 2.0 §3.1.3.5"
    reactions:
      - name: enable
        on: {rise: CC.EN}
        do:
          - {after: "2ms", set: {CSTS.RDY: 1}}
      - name: disable
        on: {fall: CC.EN}
        do: [{cancel: enable}, {set: {CSTS.RDY: 0}}]
    rules:
      - {name: aqa, on: {write: AQA}, when: "CC.EN == 1", violation: "AQA written while enabled"}
)y");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const auto* config = ConfigNamed<ReactionsConfig>(loaded, "c");
  ASSERT_NE(config, nullptr);
  ASSERT_EQ(config->reactions.size(), 3u);
  EXPECT_EQ(config->reactions[0].trigger.kind, ReactionTriggerKind::kRise);
  EXPECT_EQ(config->reactions[0].actions[0].op, ReactionAction::Op::kAfter);
  struct NoOperands : ExpressionEnv {
    uint64_t Load(uint64_t) const override { return 0; }
  } env;
  EXPECT_EQ(config->reactions[0].actions[0].delay.Evaluate(env), 2'000'000u);
  EXPECT_EQ(config->reactions[1].actions[0].reaction, 0u);
  EXPECT_TRUE(config->reactions[2].rule);
  EXPECT_EQ(config->reactions[2].actions[0].ref, "NVMe Base 2.0 §3.1.3.5");
}

TEST(ReactionsCheckTest, UnknownFieldInATrigger) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {rise: CC.EM}, do: [{set: {CSTS.RDY: 1}}]}
)y");
  EXPECT_THAT(loaded.diagnostics.all(), Contains(ErrorAt(18, 30, HasSubstr("no field 'EM' (did you mean 'EN'?)"))))
      << Rendered(loaded);
}

TEST(ReactionsCheckTest, UnknownFieldInACondition) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    rules:
      - {name: r, on: {write: AQA}, when: "CC.EM == 1", violation: "x"}
)y");
  EXPECT_THAT(Rendered(loaded), HasSubstr("unknown name 'CC.EM' (did you mean 'CC.EN'?)"));
  EXPECT_THAT(Rendered(loaded), HasSubstr("test.yaml:18:"));
}

// "a condition comparing a field with a value it cannot hold"
TEST(ReactionsCheckTest, ConditionAFieldCannotHold) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    rules:
      - {name: r, on: {write: AQA}, when: "CC.SHN == 4", violation: "x"}
)y");
  EXPECT_THAT(Rendered(loaded), HasSubstr("CC.SHN is 2 bits wide (0..3): 'CC.SHN == 4' is never true"));
}

// "a delay without a unit"
TEST(ReactionsCheckTest, DelayWithoutAUnit) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {rise: CC.EN}, do: [{after: 2000, set: {CSTS.RDY: 1}}]}
)y");
  EXPECT_THAT(loaded.diagnostics.all(),
              Contains(ErrorAt(18, 51, HasSubstr("is a number, expected a time (give it a unit"))))
      << Rendered(loaded);
}

// "an expression overflow"
TEST(ReactionsCheckTest, ExpressionOverflow) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {write: AQA}, do: [{set: {AQA: "0xFFFFFFFFFFFFFFFF + 1"}}]}
)y");
  EXPECT_THAT(Rendered(loaded), HasSubstr("overflows 64 bits"));
}

// "a reaction loop": two reactions setting, at once and unconditionally,
// what the other is triggered by.
TEST(ReactionsCheckTest, LoopThatCannotSettle) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: a, on: {change: CC.SHN}, do: [{set: {AQA: "AQA + 1"}}]}
      - {name: b, on: {change: AQA}, do: [{set: {CC.SHN: "CC.SHN + 1"}}]}
)y");
  EXPECT_THAT(Rendered(loaded), HasSubstr("reactions 'a' → 'b' → 'a' never settle"));
}

// A loop with a condition may end: checked at run time, not refused.
TEST(ReactionsCheckTest, ConditionalLoopIsAccepted) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: a, on: {change: AQA}, when: "AQA < 10", do: [{set: {AQA: "AQA + 1"}}]}
)y");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(ReactionsCheckTest, TriggerMistakes) {
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {rise: CC.EN, fall: CC.EN}, do: [{cancel: r}]}
)y")),
              HasSubstr("has both 'rise' and 'fall'"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {change: CC.SHN, to: 4}, do: [{cancel: r}]}
)y")),
              HasSubstr("CC.SHN can never become 4"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {rise: CC.EN}, do: [{cancel: enabel}]}
      - {name: enable, on: {rise: CC.EN}, do: [{cancel: r}]}
)y")),
              HasSubstr("cancels unknown reaction 'enabel' (did you mean 'enable'?)"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    rules:
      - {name: r, on: {write: AQA}, violation: "x", kind: protocl}
)y")),
              HasSubstr("did you mean 'protocol'"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {write: AQA}, do: [{set: {CC.SHN: 5}}]}
)y")),
              HasSubstr("CC.SHN holds 0..3: it cannot be set to 5"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {write: AQA}}
)y")),
              HasSubstr("needs `do:` (its actions) or `violation:`"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {write: AQA}, do: [{cancel: r}]}
      - {name: r, on: {write: AQA}, do: [{cancel: r}]}
)y")),
              HasSubstr("reaction 'r' is defined twice"));
}

// A delayed action reads the trigger's `value` as the trigger had it
// (the emulator keeps it until the action runs); `written` is a write's
// alone: a read trigger has none.
TEST(ReactionsCheckTest, DelayedActionsKeepTheTriggersValues) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {write: AQA}, do: [{after: 1us, set: {CSTS: value + written}}]}
)y");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {read: AQA}, do: [{set: {CSTS: written}}]}
)y")),
              HasSubstr("unknown name 'written'"));
}

// An event's arguments: a name (a number), or `{name:, max:}`, or
// `{name:, words: [...]}` (the value is the word's index); `default:` lets
// trailing ones be left off.
TEST(ReactionsCheckTest, EventArgumentsAreDeclared) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - name: r
        on: {event: kick, args: [n, {name: bit, max: 7}, {name: level, words: [pulse, "on", "off"], default: pulse}]}
        do: [{set: {AQA: "n + bit + level"}}]
)y");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const ReactionsConfig* config = ConfigNamed<ReactionsConfig>(loaded, "c");
  ASSERT_NE(config, nullptr);
  const std::vector<EventArgument>& args = config->reactions[0].trigger.args;
  ASSERT_EQ(args.size(), 3u);
  EXPECT_EQ(args[0].name, "n");
  EXPECT_EQ(args[0].max, ~uint64_t{0});
  EXPECT_EQ(args[1].max, 7u);
  EXPECT_THAT(args[2].words, ElementsAre(Pair("pulse", 0u), Pair("on", 1u), Pair("off", 2u)));
  EXPECT_EQ(args[2].max, 2u);
  EXPECT_EQ(args[2].fallback, 0u);
  loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick, args: [{name: level, words: {"on": 1, "off": 2}, default: 0}]}, do: [{set: {AQA: level}}]}
)y");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  config = ConfigNamed<ReactionsConfig>(loaded, "c");
  ASSERT_NE(config, nullptr);
  EXPECT_THAT(config->reactions[0].trigger.args[0].words, ElementsAre(Pair("on", 1u), Pair("off", 2u)));
  EXPECT_EQ(config->reactions[0].trigger.args[0].fallback, 0u);
}

TEST(ReactionsCheckTest, EventArgumentMistakesAreLocated) {
  EXPECT_THAT(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick, args: [{name: a, default: 1}, b]}, do: [{set: {AQA: a}}]}
)y").diagnostics.all(),
              ElementsAre(ErrorAt(18, 67, HasSubstr("arguments with a default come last"))));
  EXPECT_THAT(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick, args: [{name: a, words: [x, y], default: z}]}, do: [{set: {AQA: a}}]}
)y").diagnostics.all(),
              ElementsAre(ErrorAt(18, 78, HasSubstr("default of 'a'"))));
  EXPECT_THAT(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick, args: [{name: a, max: 3, words: [x]}]}, do: [{set: {AQA: a}}]}
)y").diagnostics.all(),
              ElementsAre(ErrorAt(18, 69, HasSubstr("a number (`max:`) or a word (`words:`), not both"))));
  EXPECT_THAT(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick, args: [{name: a, mx: 3}]}, do: [{set: {AQA: a}}]}
)y").diagnostics.all(),
              ElementsAre(ErrorAt(18, 54, HasSubstr("did you mean 'max'"))));
  // Two reactions of one event read its arguments alike.
  EXPECT_THAT(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick, args: [{name: a, max: 3}]}, do: [{set: {AQA: a}}]}
      - {name: s, on: {event: kick, args: [{name: a, max: 4}]}, do: [{set: {AQA: a}}]}
)y").diagnostics.all(),
              ElementsAre(ErrorAt(19, 44, HasSubstr("declares other arguments for event 'kick' than reaction 'r'"))));
}

// `value` and `before` of a change trigger: the whole register after and
// before the change.
TEST(ReactionsCheckTest, ChangeTriggersReadValueAndBefore) {
  LoadedDatabase loaded = Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {change: CC}, when: "(value & ~before) != 0", do: [{set: {AQA: "value & ~before"}}]}
)y");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_THAT(Rendered(Check(R"y(  - name: c
    kind: reactions
    reactions:
      - {name: r, on: {event: kick}, do: [{set: {AQA: value}}]}
)y")),
              HasSubstr("unknown name 'value'"));
}

TEST(InterruptsCheckTest, SourcesAndOutputs) {
  LoadedDatabase loaded = Check(R"y(  - name: irq
    kind: interrupts
    sources:
      - {name: admin, status: IS.V0, mask: IVM}
    outputs:
      - {name: pin}
      - {name: timer, sources: [admin], line: IRQ8}
)y");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const auto* config = ConfigNamed<InterruptsConfig>(loaded, "irq");
  ASSERT_NE(config, nullptr);
  EXPECT_EQ(config->outputs[1].line, "IRQ8");
  EXPECT_THAT(Rendered(Check(R"y(  - name: irq
    kind: interrupts
    sources:
      - {name: admin, status: IS.V1}
)y")),
              HasSubstr("has no field 'V1'"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: irq
    kind: interrupts
    sources:
      - {name: admin, status: IS.V0}
    outputs:
      - {name: a, sources: [admni]}
)y")),
              HasSubstr("unknown source 'admni' (did you mean 'admin'?)"));
  EXPECT_THAT(Rendered(Check(R"y(  - name: irq
    kind: interrupts
    sources:
      - {name: admin, status: IS.V0}
    outputs:
      - {name: a}
      - {name: b}
)y")),
              HasSubstr("only one output without `line:`"));
}

// A source's `when:` and an output's `route:` over `lines:` are number
// expressions over registers and fields, resolved into the config (HPET: a
// timer interrupts only while GEN_CONF.ENABLE_CNF is set, on the I/O APIC
// input Tn_INT_ROUTE_CNF names).
TEST(InterruptsCheckTest, ConditionsAndRoutedLines) {
  LoadedDatabase loaded = Check(R"y(  - name: irq
    kind: interrupts
    sources:
      - {name: admin, status: IS.V0, when: "CC.EN == 1 && CSTS.RDY == 1"}
    outputs:
      - {name: routed, lines: [IRQ0, IRQ1, IRQ2], route: CC.SHN}
      - {name: fixed, line: IRQ1}
)y");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const auto* config = ConfigNamed<InterruptsConfig>(loaded, "irq");
  ASSERT_NE(config, nullptr);
  ASSERT_TRUE(config->sources[0].when.has_value());
  EXPECT_EQ(config->sources[0].when->text(), "CC.EN == 1 && CSTS.RDY == 1");
  EXPECT_EQ(config->outputs[0].lines, (std::vector<std::string>{"IRQ0", "IRQ1", "IRQ2"}));
  ASSERT_TRUE(config->outputs[0].route.has_value());
  EXPECT_EQ(config->outputs[0].route->text(), "CC.SHN");
  EXPECT_TRUE(config->outputs[0].line.empty());
  EXPECT_EQ(config->outputs[1].line, "IRQ1");
}

TEST(InterruptsCheckTest, ConditionAndRouteMistakesAreLocated) {
  LoadedDatabase loaded = Check(R"y(  - name: irq
    kind: interrupts
    sources:
      - {name: a, status: IS.V0, when: "CC.EM == 1"}
      - {name: b, status: IS.V0, when: 2ms}
    outputs:
      - {name: o1, lines: [IRQ0, IRQ0], route: CC.SHN}
      - {name: o2, lines: [IRQ0]}
      - {name: o3, route: CC.SHN}
      - {name: o4, line: IRQ5, lines: [IRQ4], route: 0}
      - {name: o5, lines: [IRQ-1], route: now}
)y");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(18, 41, HasSubstr("unknown name 'CC.EM' (did you mean 'CC.EN'?)")),
                          ErrorAt(19, 40, HasSubstr("condition of source 'b' of interrupts behaviour 'irq' is a "
                                                    "time, expected a number")),
                          ErrorAt(21, 34, HasSubstr("output 'o1' names line 'IRQ0' twice in 'lines'")),
                          ErrorAt(22, 9, HasSubstr("output 'o2' has 'lines' but no 'route'")),
                          ErrorAt(23, 27, HasSubstr("output 'o3' has 'route' but no 'lines'")),
                          ErrorAt(24, 26, HasSubstr("output 'o4' has both 'line' and 'lines'")),
                          ErrorAt(25, 28, HasSubstr("line 'IRQ-1' is not a C identifier")),
                          ErrorAt(25, 43, HasSubstr("unknown name 'now'"))))
      << Rendered(loaded);
}

TEST(ViewsCheckTest, ViewMistakes) {
  auto with = [](const std::string& registers) {
    return Rendered(CheckYaml(R"y(device: v
spaces:
  - {name: bar0, kind: mmio, size: 0x100}
  - {name: state, kind: state, size: 0x10}
registers:
  - {name: IVM, space: state, offset: 0x0, reset: 0x3}
)y" + registers));
  };
  EXPECT_THAT(with("  - {name: A, space: bar0, offset: 0, view_of: IVN}\n"),
              HasSubstr("view_of unknown register 'IVN' (did you mean 'IVM'?)"));
  EXPECT_THAT(with("  - {name: A, space: bar0, offset: 0, view_of: A}\n"), HasSubstr("cannot be a view of itself"));
  EXPECT_THAT(with("  - {name: A, space: bar0, offset: 0, width: 16, view_of: IVM}\n"),
              HasSubstr("a view has its storage's width"));
  EXPECT_THAT(with("  - {name: A, space: bar0, offset: 0, view_of: IVM}\n"
                   "  - {name: B, space: bar0, offset: 4, view_of: A}\n"),
              HasSubstr("itself a view of 'IVM': name the storage, 'IVM'"));
  EXPECT_THAT(with("  - {name: A, space: bar0, offset: 0, view_of: IVM, reset: 1}\n"),
              HasSubstr("its reset must be the storage's (0x3)"));
  EXPECT_THAT(CheckYaml(R"y(device: v
spaces:
  - {name: state, kind: state, size: 0x10, pci_bar: 0}
)y").diagnostics.all(),
              Contains(ErrorAt(3, 53, HasSubstr("pci_bar is only for mmio and memory spaces"))));
}

}  // namespace
}  // namespace regemu::regdb
