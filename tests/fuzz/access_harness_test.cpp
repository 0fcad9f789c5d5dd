// access_fuzz's reproducer round trip: when the reference model and the
// device disagree, the script the harness writes fails under `regemu run
// --lenient` (ParseScript + RunScript, what the command runs) at the
// operation where the harness saw the disagreement. The disagreement is
// made by flipping one policy in the model (a test-only hook) on a tiny
// database, tests/fuzz/data/roundtrip.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/regdb/loader.hpp"
#include "tests/fuzz/access_harness.hpp"

namespace regemu::fuzz {
namespace {

constexpr emulator::RegisterId kCtrl = 0;

HarnessSetup RoundTripSetup() {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(REGEMU_SOURCE_DIR "/tests/fuzz/data/roundtrip");
  EXPECT_FALSE(loaded.diagnostics.has_errors());
  emulator::CompileResult compiled = emulator::Compile(loaded.database);
  EXPECT_TRUE(compiled.model);
  auto database = std::make_shared<const regdb::Database>(std::move(loaded.database));
  return HarnessSetup{"roundtrip", "tests/fuzz/data/roundtrip", compiled.model, database, ""};
}

// FuzzedDataProvider takes integers from the end of the input: the last
// byte picks the operation (0: read a register, 3: write one), the two
// before it the register index, the eight before those a write's value.
const std::vector<uint8_t> kReadCtrl = {0x00, 0x00, 0x00};
const std::vector<uint8_t> kWriteCtrl = {0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0x00, 0x00, 0x03};

// The operation a script line belongs to: the `# op N` tag on it or on the
// nearest line before it (a failed state check adds its `expect` after the
// operation's line).
int OpOfLine(const std::string& script, uint32_t line) {
  std::istringstream lines(script);
  std::string text;
  int op = -1;
  for (uint32_t n = 1; n <= line && std::getline(lines, text); ++n) {
    if (size_t tag = text.find("# op "); tag != std::string::npos) op = std::stoi(text.substr(tag + 5));
  }
  return op;
}

emulator::RunResult Replay(const HarnessSetup& setup, const std::string& script_text) {
  emulator::Script script = emulator::ParseScript(script_text, "reproducer.script", *setup.model);
  EXPECT_TRUE(script.ok()) << script.FormatErrors();
  emulator::Device device(setup.model);
  return emulator::RunScript(script, device, {.policy = emulator::ViolationPolicy::Lenient()});
}

// Replayed, the reproducer fails once, at `line`, which belongs to operation `op`.
void ExpectReplayFailsOnlyAt(const HarnessSetup& setup, const std::string& script, uint32_t line, int op) {
  emulator::RunResult run = Replay(setup, script);
  ASSERT_FALSE(run.passed()) << script;
  ASSERT_EQ(run.failures.size(), 1u) << script;
  EXPECT_EQ(run.failures[0].loc.line, line) << script;
  EXPECT_EQ(OpOfLine(script, run.failures[0].loc.line), op) << script;
}

TEST(AccessHarness, WhereModelAndDeviceAgreeTheReproducerPasses) {
  HarnessSetup setup = RoundTripSetup();
  AccessHarness harness(setup);
  for (const std::vector<uint8_t>& input : {kReadCtrl, kWriteCtrl}) {
    ScriptWriter script;
    EXPECT_FALSE(harness.Run(input.data(), input.size(), &script).has_value());
    emulator::RunResult run = Replay(setup, script.text());
    EXPECT_TRUE(run.passed()) << script.text();
    EXPECT_EQ(run.checks, input == kReadCtrl ? 1u : 0u);  // the read of CTRL is an `expect`
  }
}

TEST(AccessHarness, AReadTheModelMispredictsFailsTheReproducerAtThatRead) {
  HarnessSetup setup = RoundTripSetup();
  AccessHarness harness(setup);
  harness.OverridePolicyForTest(kCtrl, 0xFFFFFFFF, regdb::Access::kWo);  // the model now reads CTRL as 0
  ScriptWriter writer;
  auto failure = harness.Run(kReadCtrl.data(), kReadCtrl.size(), &writer);
  const std::string& script = writer.text();
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->op_index, 0u);
  EXPECT_EQ(failure->message, "the read returned 0x1234, the model predicts 0x0");
  ASSERT_NE(failure->script_line, 0u);

  ExpectReplayFailsOnlyAt(setup, script, failure->script_line, 0);
}

TEST(AccessHarness, AStateTheModelMispredictsFailsTheReproducerAfterThatOperation) {
  HarnessSetup setup = RoundTripSetup();
  AccessHarness harness(setup);
  harness.OverridePolicyForTest(kCtrl, 0xFFFFFFFF, regdb::Access::kRo);  // the model now ignores writes of CTRL
  ScriptWriter writer;
  auto failure = harness.Run(kWriteCtrl.data(), kWriteCtrl.size(), &writer);
  const std::string& script = writer.text();
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->op_index, 0u);
  EXPECT_EQ(failure->op, "write32 CTRL 0x55555555");
  EXPECT_EQ(failure->message, "CTRL holds 0x55555555, the model 0x1234");
  ASSERT_NE(failure->script_line, 0u);

  ExpectReplayFailsOnlyAt(setup, script, failure->script_line, 0);
}

// A hang never returns from Run: the script must already be in the file,
// up to the operation that hung. The mirror holds every piece as soon as
// it is written.
TEST(ScriptWriter, TheMirrorFileHoldsEachPieceAsSoonAsItIsWritten) {
  std::string path = testing::TempDir() + "script_writer_test.script";
  auto file_text = [&] {
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  };
  {
    ScriptWriter writer(path.c_str());
    writer += "write32 CTRL 0x1\n";
    EXPECT_EQ(file_text(), "write32 CTRL 0x1\n");
    writer += "step 10ns\n";
    EXPECT_EQ(file_text(), "write32 CTRL 0x1\nstep 10ns\n");
    EXPECT_EQ(writer.text(), file_text());
  }
  ScriptWriter truncating(path.c_str());
  EXPECT_EQ(file_text(), "") << "each input's script starts a fresh file";
}

}  // namespace
}  // namespace regemu::fuzz
