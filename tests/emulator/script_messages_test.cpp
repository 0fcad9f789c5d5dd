// Messages (MSI) in scripts: expect-no-msi, and expect-msi with `*` for any
// address or any data, on a PCI function whose MSI the script enables.
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/emulator/script_test_support.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using regdb::testing_support::ErrorAt;
using script_testing::Ran;

// `inject pci-request 1` is the function's interrupt source
// (yaml/README.md "kind: pci-config"); with MSI enabled it sends a message.
const std::shared_ptr<const Model>& MsiModel() {
  static const std::shared_ptr<const Model> model = script_testing::CompileYaml(R"(device: f
spaces:
  - {name: config, kind: pci-config, size: 0x100}
registers:
  - {name: CMD, space: config, offset: 0x04, width: 16}
  - {name: MC, space: config, offset: 0x42, width: 16}
  - {name: MA, space: config, offset: 0x44, width: 32}
  - {name: MD, space: config, offset: 0x48, width: 16}
behaviours:
  - {kind: pci-config, command: CMD, msi: {control: MC, address: MA, data: MD}}
)");
  return model;
}

Ran RunOnMsi(const std::string& text) {
  Ran ran;
  ran.script = ParseScript(text, "msi.script", *MsiModel());
  EXPECT_TRUE(ran.script.ok()) << ran.script.FormatErrors();
  ran.device = std::make_unique<Device>(MsiModel());
  if (ran.script.ok()) ran.result = RunScript(ran.script, *ran.device);
  return ran;
}

regdb::Diagnostic OnlyError(const std::string& text) {
  Script script = ParseScript(text, "msi.script", *MsiModel());
  EXPECT_EQ(script.diagnostics.error_count(), 1u) << script.FormatErrors();
  return script.diagnostics.all().empty() ? regdb::Diagnostic{} : script.diagnostics.all().front();
}

// Lines 1-4.
constexpr const char* kEnableMsi = "write16 CMD 0x4\nwrite32 MA 0xFEE00000\nwrite16 MD 0x21\nwrite16 MC 0x1\n";

TEST(ScriptMessages, ExpectNoMsiHoldsWhileNothingWasSent) {
  Ran ran = RunOnMsi(std::string("expect-no-msi\n") + kEnableMsi + "expect-no-msi\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  EXPECT_EQ(ran.result.checks, 2u);
}

// A message expect-msi already checked is not one "since the last one checked".
TEST(ScriptMessages, ExpectNoMsiHoldsAfterTheMessagesCheckedSoFar) {
  Ran ran = RunOnMsi(std::string(kEnableMsi) + "inject pci-request 1\nexpect-msi 0xFEE00000 0x21\n"
                                               "inject pci-request 0\nexpect-no-msi\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
}

TEST(ScriptMessages, ExpectNoMsiFailsNamingWhatWasSentAndPassesItOver) {
  Ran ran = RunOnMsi(std::string(kEnableMsi) + "inject pci-request 1\nexpect-no-msi\nexpect-no-msi\n");
  EXPECT_THAT(ran.result.failures,
              ElementsAre(Field(&ScriptFailure::message,
                                "expected no message since the last one checked, but the device sent 1: "
                                "message 1 wrote 0x21 to 0xfee00000 at t=0ns")));
  EXPECT_EQ(ran.result.failures[0].loc.line, 6u);
}

TEST(ScriptMessages, AStarAddressMatchesTheDataOnly) {
  Ran ran = RunOnMsi(std::string(kEnableMsi) + "inject pci-request 1\nexpect-msi * 0x21\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  Ran wrong = RunOnMsi(std::string(kEnableMsi) + "inject pci-request 1\nexpect-msi * 0x22\n");
  EXPECT_THAT(wrong.result.failures,
              ElementsAre(Field(&ScriptFailure::message, "expected a message writing 0x22 to any address, but "
                                                         "message 1 wrote 0x21 to 0xfee00000")));
}

TEST(ScriptMessages, AStarDataMatchesTheAddressOnlyAndTwoStarsAnyMessage) {
  Ran ran = RunOnMsi(std::string(kEnableMsi) + "inject pci-request 1\nexpect-msi 0xFEE00000 *\n"
                                               "inject pci-request 0\ninject pci-request 1\nexpect-msi * *\n");
  EXPECT_TRUE(ran.result.passed()) << ran.Failures();
  Ran none = RunOnMsi("expect-msi * *\n");
  EXPECT_THAT(none.result.failures,
              ElementsAre(Field(&ScriptFailure::message, "expected a message writing anything to any address, but "
                                                         "the device sent no message since the last one checked")));
}

TEST(ScriptMessages, BadLinesAreErrorsBeforeAnythingRuns) {
  EXPECT_THAT(OnlyError("expect-no-msi 0x21\n"), ErrorAt(1, 15, HasSubstr("usage: expect-no-msi")));
  EXPECT_THAT(OnlyError("expect-msi ** 1\n"), ErrorAt(1, 12, HasSubstr("bad ADDRESS")));
  EXPECT_THAT(OnlyError("expect-msi *\n"), ErrorAt(1, 13, HasSubstr("missing DATA (usage: expect-msi ADDRESS|* DATA|*)")));
  EXPECT_THAT(OnlyError("expect-no-mis\n"), ErrorAt(1, 1, HasSubstr("did you mean 'expect-no-msi'?")));
}

}  // namespace
}  // namespace regemu::emulator
