// Interrupt lines in scripts: read-irq, expect-irq, expect-edges and
// mark-edges on a named line and on the device's interrupt output (`irq`),
// the parse errors of each, and a run's trace still replaying.
#include <memory>
#include <algorithm>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/script_test_support.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using regdb::testing_support::ErrorAt;
using script_testing::Ran;

// IS.V0 drives the interrupt output, IS.T1 line IRQ8; `inject complete` and
// `inject tick` raise them, a write of 1 acknowledges (w1c). A tick and its
// acknowledgement make one pulse, as an edge-triggered timer does.
constexpr const char* kLinesYaml = R"(device: lines
spaces:
  - {name: bar0, kind: mmio, size: 0x100}
registers:
  - name: IS
    space: bar0
    offset: 0x0
    fields:
      - {name: V0, bits: 0, access: w1c}
      - {name: T1, bits: 1, access: w1c}
behaviours:
  - name: roll
    kind: interrupts
    sources:
      - {name: admin, status: IS.V0}
      - {name: timer1, status: IS.T1}
    outputs:
      - {name: pin, sources: [admin]}
      - {name: irq8, sources: [timer1], line: IRQ8}
  - name: raise
    kind: reactions
    reactions:
      - {name: complete, on: {event: complete}, do: [{set: {IS.V0: 1}}]}
      - {name: tick, on: {event: tick}, do: [{set: {IS.T1: 1}}]}
)";

const std::shared_ptr<const Model>& LinesModel() {
  static const std::shared_ptr<const Model> model = script_testing::CompileYaml(kLinesYaml);
  return model;
}

Ran RunOnLines(const std::string& text, RunOptions options = {}) {
  Ran ran;
  ran.script = ParseScript(text, "lines.script", *LinesModel());
  EXPECT_TRUE(ran.script.ok()) << ran.script.FormatErrors();
  ran.device = std::make_unique<Device>(LinesModel());
  if (ran.script.ok()) ran.result = RunScript(ran.script, *ran.device, options);
  return ran;
}

// The one error of a one-line script on the lines device.
regdb::Diagnostic OnlyError(const std::string& text) {
  Script script = ParseScript(text, "lines.script", *LinesModel());
  EXPECT_EQ(script.diagnostics.error_count(), 1u) << script.FormatErrors();
  return script.diagnostics.all().empty() ? regdb::Diagnostic{} : script.diagnostics.all().front();
}

constexpr const char* kTwoPulses = "inject tick\nwrite32 IS 0x2\ninject tick\nwrite32 IS 0x2\n";

TEST(ScriptLines, ReadIrqPrintsTheLevelAndTheEdgesSinceTheMark) {
  Ran ran = RunOnLines("inject tick\nread-irq IRQ8\nwrite32 IS 0x2\nread-irq IRQ8\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.values, ElementsAre(Field(&ScriptValue::text, "read-irq IRQ8 = 1 (edges 1)"),
                                             Field(&ScriptValue::text, "read-irq IRQ8 = 0 (edges 1)")));
  EXPECT_EQ(ran.result.checks, 0u);  // reading is not a check
}

// A pulse leaves the line low, as it found it: only its edge shows it came.
TEST(ScriptLines, ExpectEdgesSeesPulsesTheLevelCannot) {
  Ran ran = RunOnLines(std::string(kTwoPulses) + "expect-irq IRQ8 0\nexpect-edges IRQ8 2\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.result.checks, 2u);
}

TEST(ScriptLines, EachExpectEdgesCountsFromTheLastOneOfItsLine) {
  Ran ran = RunOnLines(std::string(kTwoPulses) + "expect-edges IRQ8 2\ninject tick\nexpect-edges IRQ8 1\n"
                                                 "expect-edges IRQ8 0\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
}

TEST(ScriptLines, AWrongCountFailsNamingWhereTheCountBegan) {
  Ran ran = RunOnLines(std::string(kTwoPulses) + "expect-edges IRQ8 1\nmark-edges IRQ8\ninject tick\n"
                                                 "expect-edges IRQ8 2\n");
  EXPECT_THAT(ran.result.failures,
              ElementsAre(Field(&ScriptFailure::message,
                                "expected 1 rising edge(s) of IRQ8 since the script began, but it rose 2 time(s)"),
                          Field(&ScriptFailure::message,
                                "expected 2 rising edge(s) of IRQ8 since line 6, but it rose 1 time(s)")));
}

// Edges the device counted before the script ran are not the script's.
TEST(ScriptLines, TheCountBeginsWithTheScript) {
  Script script = ParseScript("expect-edges IRQ8 0\n", "lines.script", *LinesModel());
  Device device(LinesModel());
  ASSERT_EQ(device.Inject("tick", {}), "");
  EXPECT_TRUE(RunScript(script, device).passed());
}

TEST(ScriptLines, IrqNamesTheInterruptOutputAsTheDefaultDoes) {
  Ran ran = RunOnLines(
      "inject complete\nexpect-irq irq 1\nexpect-irq 1\nread-irq irq\nread-irq\nwrite32 IS 0x1\n"
      "expect-edges irq 1\ninject complete\nexpect-edges 1\nmark-edges\nexpect-edges irq 0\n"
      "expect-edges IRQ8 0\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_THAT(ran.result.values, ElementsAre(Field(&ScriptValue::text, "read-irq irq = 1 (edges 1)"),
                                             Field(&ScriptValue::text, "read-irq irq = 1 (edges 1)")));
}

// A restore brings the device's edge counts back with its state; a count
// restored to before its mark counts again from there.
TEST(ScriptLines, ARestoreToBeforeTheMarkCountsFromTheRestoredState) {
  Ran ran = RunOnLines("snapshot\n" + std::string(kTwoPulses) +
                       "mark-edges IRQ8\nrestore\ninject tick\nexpect-edges IRQ8 1\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
}

TEST(ScriptLines, RecordedCommandsCarryTheLevelAndTheEdges) {
  RunOptions options;
  options.record_commands = true;
  Ran ran = RunOnLines(std::string(kTwoPulses) + "read-irq IRQ8\nexpect-edges IRQ8 2\n", options);
  ASSERT_EQ(ran.result.commands.size(), 6u);
  EXPECT_EQ(ran.result.commands[4].value, 0u);
  EXPECT_EQ(ran.result.commands[4].edges, 2u);
  EXPECT_EQ(ran.result.commands[5].value, 2u);
}

// The commands observe and add nothing to the trace, so the rendered trace
// of a run using them is a script that replays to the same trace.
TEST(ScriptLines, ARunsTraceStillReplays) {
  Ran ran = RunOnLines(std::string(kTwoPulses) + "read-irq IRQ8\nexpect-edges IRQ8 2\nexpect-irq 0\n");
  std::string trace = RenderRunTrace(*LinesModel(), ran.device->Trace(), ran.result.polls, ran.result.injects);
  Ran replay = RunOnLines(trace);
  EXPECT_TRUE(replay.result.passed()) << replay.Failures();
  EXPECT_EQ(RenderRunTrace(*LinesModel(), replay.device->Trace(), replay.result.polls, replay.result.injects), trace);
  EXPECT_EQ(replay.device->line_edges("IRQ8"), 2u);
}

// --------------------------------------------------------------- parse errors

TEST(ScriptLines, AMisspeltLineIsAnErrorWithASuggestion) {
  EXPECT_THAT(OnlyError("expect-edges IRQ9 1\n"),
              ErrorAt(1, 14, "device 'lines' has no interrupt line 'IRQ9' (did you mean 'IRQ8'?)"));
  EXPECT_THAT(OnlyError("read-irq IRQ9\n"), ErrorAt(1, 10, HasSubstr("no interrupt line 'IRQ9'")));
  EXPECT_THAT(OnlyError("mark-edges IRQ9\n"), ErrorAt(1, 12, HasSubstr("no interrupt line 'IRQ9'")));
  EXPECT_THAT(OnlyError("expect-irq IRQ9 1\n"), ErrorAt(1, 12, HasSubstr("no interrupt line 'IRQ9'")));
}

TEST(ScriptLines, ADeviceWithoutNamedLinesSaysItHasOnlyItsOutput) {
  Script script = script_testing::Parse("expect-edges IRQ0 1\n");
  EXPECT_THAT(script.FormatErrors(), HasSubstr("has no interrupt line 'IRQ0' (it has only its interrupt output, 'irq')"));
  EXPECT_TRUE(script_testing::Parse("expect-edges irq 0\nread-irq irq\nmark-edges irq\n").ok());
}

TEST(ScriptLines, ExpectEdgesNeedsACountAndNothingMore) {
  EXPECT_THAT(OnlyError("expect-edges\n"), ErrorAt(1, 13, HasSubstr("missing N (rising edges)")));
  EXPECT_THAT(OnlyError("expect-edges IRQ8\n"), ErrorAt(1, 14, HasSubstr("bad N (rising edges)")));
  EXPECT_THAT(OnlyError("expect-edges IRQ8 1 2\n"), ErrorAt(1, 21, HasSubstr("unexpected '2'")));
  EXPECT_THAT(OnlyError("read-irq IRQ8 1\n"), ErrorAt(1, 15, HasSubstr("usage: read-irq [LINE]")));
  EXPECT_THAT(OnlyError("mark-edges irq IRQ8\n"), ErrorAt(1, 16, HasSubstr("usage: mark-edges [LINE]")));
}

// `irq` is taken: a line of that name could not be told from the output.
// The check refuses it at the line's name (regdb/checks/model_rules.cpp),
// before the model is compiled.
TEST(ScriptLines, NoNamedLineMayBeCalledIrq) {
  std::string yaml = kLinesYaml;
  yaml.replace(yaml.find("line: IRQ8"), 10, "line: irq");
  regdb::LoadedDatabase loaded = regdb::testing_support::CheckYaml(yaml);
  ASSERT_EQ(loaded.diagnostics.error_count(), 1u) << regdb::testing_support::Rendered(loaded);
  const regdb::Diagnostic& error = loaded.diagnostics.all().front();
  EXPECT_THAT(error.message, HasSubstr("interrupt line 'irq' is the name scripts and the C shim give"));
  size_t at = yaml.find("line: irq") + 6;
  auto newlines = std::count(yaml.begin(), yaml.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  EXPECT_EQ(error.loc.line, 1u + static_cast<uint32_t>(newlines));
}

}  // namespace
}  // namespace regemu::emulator
