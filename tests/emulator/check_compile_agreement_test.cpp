// `regemu check` finds everything compiling the model refuses: every
// shipped database (each folder of yaml/ with a device.yaml) that checks
// clean compiles, and a database breaking a rule across behaviours is
// refused by the check, at its line, before the compiler sees it
// (regdb/checks/model_rules.cpp; the rules one by one: model_rules_test).
#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"
#include "tests/shipped_databases.hpp"

namespace regemu::emulator {
namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;

using testing_support::ShippedDatabases;

class CheckCompileAgreementTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CheckCompileAgreementTest, WhatChecksCleanCompiles) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(fs::path(REGEMU_SOURCE_DIR) / "yaml" / GetParam());
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
  CompileResult compiled = Compile(loaded.database);
  EXPECT_THAT(compiled.errors, IsEmpty());
  EXPECT_NE(compiled.model, nullptr);
}

INSTANTIATE_TEST_SUITE_P(Shipped, CheckCompileAgreementTest, ::testing::ValuesIn(ShippedDatabases()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) { return param_info.param; });

// The same rule the compiler keeps as a backstop (for behaviours of plugin
// kinds whose configs say nothing of their lines) is the check's: a line
// driven twice never reaches it.
TEST(CheckCompileAgreement, ALineDrivenTwiceIsTheChecksToRefuse) {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"twice.yaml", R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: STATUS, space: mmio, offset: 0x0, fields: [{name: A, bits: 0, access: w1c}, {name: B, bits: 1, access: w1c}]}
behaviours:
  - {name: first, kind: interrupts, sources: [{name: a, status: STATUS.A}], outputs: [{name: o, sources: [a], line: IRQ0}]}
  - {name: second, kind: interrupts, sources: [{name: b, status: STATUS.B}], outputs: [{name: o, sources: [b], line: IRQ0}]}
)"}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("twice.yaml", options);
  ASSERT_TRUE(loaded.diagnostics.has_errors());
  EXPECT_EQ(loaded.diagnostics.all().front().loc.line, 8u);
  EXPECT_THAT(loaded.diagnostics.all().front().message, ::testing::HasSubstr("driven by another behaviour too"));
}

}  // namespace
}  // namespace regemu::emulator
