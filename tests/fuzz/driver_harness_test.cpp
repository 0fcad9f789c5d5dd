// driver_fuzz's round trip, per selectable bug of the example driver: the
// input driver_fuzz found for it and libFuzzer's -minimize_crash shrank
// (tests/fuzz/data/driver/<bug>) fails with the bug on and passes without
// it (the hardware it describes is one a correct driver handles), and the
// script the harness writes makes a strict `regemu run yaml/icl`
// (ParseScript + RunScript, what the command runs) stop at the same
// violation, on the script's last access.
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "examples/i915_mini/bugs.hpp"
#include "tests/fuzz/driver_harness.hpp"
#include "tests/fuzz/shipped_devices.hpp"

namespace regemu::fuzz {
namespace {

std::vector<uint8_t> InputFor(i915_mini::Bug bug) {
  std::string path = std::string(REGEMU_SOURCE_DIR "/tests/fuzz/data/driver/") + std::string(i915_mini::BugName(bug));
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file) << path;
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// The last line of `script` that is not a comment.
uint32_t LastCommandLine(const std::string& script) {
  uint32_t line = 0, last = 0;
  size_t start = 0;
  while (start < script.size()) {
    size_t end = script.find('\n', start);
    if (end == std::string::npos) end = script.size();
    ++line;
    if (end > start && script[start] != '#') last = line;
    start = end + 1;
  }
  return last;
}

class DriverHarnessRoundTrip : public testing::TestWithParam<i915_mini::Bug> {};

TEST_P(DriverHarnessRoundTrip, TheBugsInputFailsWithItOnlyAndItsScriptStopsAtTheViolation) {
  const ShippedDevice& icl = ShippedDeviceNamed("icl");
  DriverHarness harness(icl.model, icl.yaml_path);
  std::vector<uint8_t> input = InputFor(GetParam());

  EXPECT_FALSE(harness.Run(input.data(), input.size(), {}, nullptr).has_value())
      << "the correct driver fails on this hardware";

  ScriptWriter writer;
  std::optional<DriverFailure> failure = harness.Run(input.data(), input.size(), {GetParam()}, &writer);
  const std::string& script = writer.text();
  ASSERT_TRUE(failure.has_value()) << "the bug went unnoticed";

  emulator::Script parsed = emulator::ParseScript(script, "reproducer.script", *icl.model);
  ASSERT_TRUE(parsed.ok()) << parsed.FormatErrors();
  emulator::Device device(icl.model);
  emulator::RunResult run = emulator::RunScript(parsed, device);
  EXPECT_FALSE(run.passed()) << script;
  ASSERT_EQ(run.violations.size(), 1u) << script;
  EXPECT_FALSE(run.violations[0].announced);
  // The same violation (its first line: the context after it carries the
  // trace's sequence numbers, which go on across the harness's runs).
  auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  EXPECT_EQ(first_line(run.violations[0].violation.Describe(*icl.model)), first_line(failure->message));
  EXPECT_EQ(run.violations[0].loc.line, LastCommandLine(script)) << script;
  EXPECT_TRUE(run.failures.empty()) << "every read before the violation replays as recorded:\n" << script;
}

INSTANTIATE_TEST_SUITE_P(EveryBug, DriverHarnessRoundTrip, testing::ValuesIn(i915_mini::kAllBugs),
                         [](const testing::TestParamInfo<i915_mini::Bug>& param) {
                           std::string name;
                           for (char c : i915_mini::BugName(param.param)) name += c == '-' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace regemu::fuzz
