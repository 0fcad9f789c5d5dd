// The checks of computed fields (`value:`) and write gates (`write_gate:`):
// each mistake at its line and column (yaml/README.md "fields").
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::Rendered;

constexpr const char* kHead = R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: KEY, space: mmio, offset: 0x0, access: wo, fields: [{name: LOCKED, bits: 0, access: hw}]}
  - {name: CTRL, space: mmio, offset: 0x4, fields: [{name: EN, bits: 0}]}
)";

TEST(FieldExpressionsTest, ComputedFieldsAndGatesCheckClean) {
  LoadedDatabase loaded = CheckYaml(std::string(kHead) + R"(  - {name: MIS, space: mmio, offset: 0x8, fields: [{name: INT, bits: 0, value: "CTRL.EN & !KEY.LOCKED"}]}
  - {name: LOAD, space: mmio, offset: 0xC, write_gate: "KEY.LOCKED == 0"}
  - name: MODE
    space: mmio
    offset: 0x10
    fields: [{name: M, bits: "1:0", write_gate: {when: "!KEY.LOCKED", violation: locked, kind: protocol, ref: TRM}}]
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Register* mis = loaded.database.RegisterNamed("MIS");
  ASSERT_NE(mis, nullptr);
  EXPECT_TRUE(mis->fields[0].value.has_value());
  EXPECT_EQ(mis->fields[0].access, Access::kHw);
  const Register* mode = loaded.database.RegisterNamed("MODE");
  ASSERT_TRUE(mode->fields[0].write_gate.has_value());
  EXPECT_EQ(mode->fields[0].write_gate->violation, "locked");
}

TEST(FieldExpressionsTest, MistakesAreLocated) {
  LoadedDatabase loaded = CheckYaml(std::string(kHead) + R"(  - {name: A, space: mmio, offset: 0x8, write_gate: "KEY != 0x1ACCE551"}
  - {name: B, space: mmio, offset: 0xC, fields: [{name: X, bits: 0, access: rw, value: "CTRL.EN"}]}
  - {name: C, space: mmio, offset: 0x10, fields: [{name: X, bits: 0, value: "CTRL.EN"}, {name: Y, bits: 1, value: "C.X"}]}
  - {name: D, space: mmio, offset: 0x14, fields: [{name: X, bits: 0, value: "CTRL.ENN"}]}
  - {name: E, space: mmio, offset: 0x18, write_gate: {when: "CTRL.EN", kind: lockedd, violation: no}}
  - {name: F, space: mmio, offset: 0x1C, fields: [{name: X, bits: 0, reset: 1, value: "CTRL.EN"}]}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 77, HasSubstr("its access is 'hw' or 'ro', not 'rw'")),
                          ErrorAt(12, 77, HasSubstr("it has no reset of its own")),
                          ErrorAt(7, 53, HasSubstr("reads 'KEY', which is write-only")),
                          ErrorAt(9, 115, HasSubstr("reads 'C.X', a computed field")),
                          ErrorAt(10, 78, HasSubstr("unknown name 'CTRL.ENN' (did you mean 'CTRL.EN'?)")),
                          ErrorAt(11, 78, HasSubstr("unknown violation kind 'lockedd'"))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
