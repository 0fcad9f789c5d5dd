// The inject verbs each behaviour declares (BehaviourProgram::InjectForms,
// emulator/inject_forms.hpp) are the ones its Inject takes: on every
// shipped database each declared form, filled with its smallest arguments,
// is accepted by a device, and a verb none declares is refused by the
// device and by the script parser, which suggests the closest declared one.
// The usage text each form shows (`regemu show --injects`, the parser's
// messages) follows its shape.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/emulator/inject_forms.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/regdb/loader.hpp"
#include "tests/shipped_databases.hpp"

namespace regemu::emulator {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using Argument = InjectArgument;

TEST(InjectUsage, ShowsOptionalGroupsInBrackets) {
  InjectForm form{"event",
                  {Argument::Choice("NAME", {"a"}), Argument::Number("COUNT"), Argument::Word("se").Optional(),
                   Argument::Number("S"), Argument::Word("instance").Optional(), Argument::Number("I")},
                  0, 0, ""};
  EXPECT_EQ(InjectUsage(form), "event NAME COUNT [se S] [instance I]");
  InjectForm bit{"gt", {Argument::Number("BIT", 0, 31), Argument::Choice("", {"on", "off"}).Optional()}, 0, 0, ""};
  EXPECT_EQ(InjectUsage(bit), "gt BIT [on|off]");
}

TEST(InjectUsage, ShowsRepeatedArgumentsAndWhatFollowsThem) {
  InjectForm input{"sin", {Argument::Bytes("BYTES", 0xFF), Argument::Word("every").Optional(), Argument::Duration("DURATION")},
                   0, 1, ""};
  EXPECT_EQ(InjectUsage(input), "sin BYTES... [every DURATION]");
  InjectForm pairs{"oa-load", {Argument::Choice("SIGNAL", {"gpu-busy"}), Argument::Fraction("VALUE", 1000)}, 0, 2, ""};
  EXPECT_EQ(InjectUsage(pairs), "oa-load SIGNAL VALUE [SIGNAL VALUE ...]");
  InjectForm none{"line_break", {}, 0, 0, ""};
  EXPECT_EQ(InjectUsage(none), "line_break");
}

// A form at its smallest: each required argument's least value, what
// repeats once, optional groups left off; nothing for an open choice.
TEST(SmallestArguments, TakeEachRequiredArgumentAtItsLeast) {
  InjectForm event{"event",
                   {Argument::Choice("NAME", {"cycles", "refs"}), Argument::Number("COUNT", 3, 9),
                    Argument::Word("se").Optional(), Argument::Number("S")},
                   0, 0, ""};
  EXPECT_EQ(SmallestArguments(event), (std::vector<std::string>{"cycles", "3"}));
  InjectForm pairs{"oa-load", {Argument::Choice("SIGNAL", {"gpu-busy"}), Argument::Fraction("VALUE", 1000)}, 0, 2, ""};
  EXPECT_EQ(SmallestArguments(pairs), (std::vector<std::string>{"gpu-busy", "0.000"}));
  InjectForm input{"sin", {Argument::Bytes("BYTES", 0xFF), Argument::Word("every").Optional(), Argument::Duration("D")},
                   0, 1, ""};
  EXPECT_EQ(SmallestArguments(input), (std::vector<std::string>{"0"}));
  EXPECT_EQ(SmallestArgument(Argument::Duration("D")), "1us");
  EXPECT_EQ(SmallestArgument(Argument::Word("push")), "push");
  InjectForm open{"dma", {Argument::Choice("SPACE", {}), Argument::Number("AT")}, 0, 0, ""};
  EXPECT_EQ(SmallestArguments(open), std::nullopt);
  EXPECT_TRUE(Argument::Fraction("F", 1000).ranged());
  EXPECT_FALSE(Argument::Duration("D").ranged());
}

using testing_support::ShippedDatabases;

std::shared_ptr<const Model> CompileShipped(const std::string& name) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(fs::path(REGEMU_SOURCE_DIR) / "yaml" / name);
  if (loaded.diagnostics.has_errors()) return nullptr;
  return std::shared_ptr<const Model>(Compile(loaded.database).model);
}

class DeclaredInjectsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DeclaredInjectsTest, EveryDeclaredFormIsTakenAndNothingElse) {
  std::shared_ptr<const Model> model = CompileShipped(GetParam());
  ASSERT_NE(model, nullptr);
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();  // an inject may break a rule (mi-rpc with OA off)
  for (const DeclaredInject& declared : DeclaredInjects(*model)) {
    std::optional<std::vector<std::string>> args = SmallestArguments(declared.form);
    if (!args) continue;  // a name only a test knows
    Device device(model, options);
    EXPECT_EQ(device.Inject(declared.form.verb, *args), "") << "inject " << InjectUsage(declared.form) << " as "
                                                            << ::testing::PrintToString(*args);
  }
  Device device(model, options);
  EXPECT_THAT(device.Inject("no-such-verb", {}), HasSubstr("no behaviour"));
}

INSTANTIATE_TEST_SUITE_P(Shipped, DeclaredInjectsTest, ::testing::ValuesIn(ShippedDatabases()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

TEST(DeclaredInjects, TheParserRefusesAnUndeclaredVerbWithTheClosestDeclaredOne) {
  std::shared_ptr<const Model> model = CompileShipped("icl");
  ASSERT_NE(model, nullptr);
  Script good = ParseScript("inject irq RCS0 0x1\ninject forcewake-latency 100\n", "t.script", *model);
  EXPECT_TRUE(good.ok()) << good.FormatErrors();
  Script bad = ParseScript("inject forcewake-latncy 100\n", "t.script", *model);
  ASSERT_FALSE(bad.ok());
  std::string message = bad.FormatErrors();
  EXPECT_THAT(message, HasSubstr("no behaviour of device 'icl' handles 'inject forcewake-latncy'"));
  EXPECT_THAT(message, HasSubstr("did you mean 'forcewake-latency'"));
}

}  // namespace
}  // namespace regemu::emulator
