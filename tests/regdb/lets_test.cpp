// `let:` named expressions (yaml/README.md "Expressions"): usable wherever
// an expression is, compiled in place of their names (so what they read is
// what the using expression reads), per instance inside a block; a cycle,
// a name clash and a mistake inside one are located errors.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/behaviour_configs/counter.hpp"
#include "regemu/regdb/register_scope.hpp"
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

constexpr const char* kHead = R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: CONTROL, space: mmio, offset: 0x0, fields: [{name: PRESCALE, bits: "3:2"}, {name: ENABLE, bits: 7}]}
  - {name: VALUE, space: mmio, offset: 0x4, volatile: true}
)";

TEST(LetsTest, ANamedExpressionStandsWhereItsNameIs) {
  LoadedDatabase loaded = CheckYaml(std::string(kHead) + R"(let:
  RUNNING: "CONTROL.ENABLE != 0"
  DIVIDER: "CONTROL.PRESCALE == 0 ? 1 : CONTROL.PRESCALE == 1 ? 16 : 256"
  TICK: "40ns * DIVIDER"
behaviours:
  - {kind: counter, register: VALUE, direction: down, frequency: "25MHz / DIVIDER", enable: RUNNING}
)");
  ASSERT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const auto* config = ConfigAs<CounterConfig>(loaded.database.behaviours.at(0));
  ASSERT_NE(config, nullptr);
  ASSERT_TRUE(config->rate.scale.has_value());
  EXPECT_EQ(config->rate.scale->max_value(), 256u);
  EXPECT_EQ(config->rate.scale->min_value(), 1u);
  // The enable reads what RUNNING reads: the counter hooks CONTROL.
  ASSERT_EQ(config->enable->operands().size(), 1u);
  EXPECT_EQ(OperandRegister(config->enable->operands()[0]), loaded.database.FindRegister("CONTROL"));
  EXPECT_EQ(loaded.database.lets.at(2).expression->type(), ExpressionType::kTime);
}

TEST(LetsTest, MistakesAreLocated) {
  LoadedDatabase loaded = CheckYaml(std::string(kHead) + R"(let:
  A: "B + 1"
  B: "A * 2"
  VALUE: "1"
  C: "CONTROL.ENABLED"
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 7, HasSubstr("lets refer to each other in a cycle: A -> B -> A")),
                          ErrorAt(10, 3, HasSubstr("let 'VALUE' has the name of a register")),
                          ErrorAt(11, 7, HasSubstr("unknown name 'CONTROL.ENABLED' (did you mean 'CONTROL.ENABLE'?)"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
