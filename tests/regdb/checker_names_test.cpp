// Checker: names. Every name a database refers to (a register's or block's
// space, an alias window's target space, enabled_by's register and field)
// exists, and register, space, range and block names are unique in the
// device. Line 1 is the `device:` line of each raw string; a `# L:C` comment
// marks the line an expected diagnostic points at.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

// ---------------------------------------------------------------- unknown spaces

TEST(CheckerNamesTest, ARegisterInAnUnknownSpaceIsAnErrorWithASuggestion) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmoi         # 6:12 error: did you mean 'mmio'
    offset: 0x10
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 12,
                                  AllOf(HasSubstr("register 'R'"), HasSubstr("unknown space 'mmoi'"),
                                        HasSubstr("did you mean 'mmio'?")))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, AnUnknownSpaceFarFromEveryKnownNameGetsNoSuggestion) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: gtt          # 6:12 error, nothing close to suggest
    offset: 0x10
)");
  ASSERT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(6, 12, HasSubstr("unknown space 'gtt'"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].message, Not(HasSubstr("did you mean")));
}

TEST(CheckerNamesTest, AnArrayInAnUnknownSpaceIsReportedOnceNamingTheArray) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: PERF{n}
    space: mmoi         # 6:12 error, once for all 8 elements
    offset: 0x10
    array: {count: 8, stride: 4}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 12,
                                  AllOf(HasSubstr("register 'PERF{n}'"), HasSubstr("unknown space 'mmoi'"),
                                        HasSubstr("did you mean 'mmio'?")))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, ABlockInAnUnknownSpaceIsReportedOnceNamingTheBlock) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100000}
blocks:
  - name: ring
    space: mmoi         # 6:12 error, once for 2 instances of 2 registers
    instances: {RCS0: 0x2000, BCS0: 0x22000}
    registers:
      - {name: TAIL, offset: 0x30}
      - {name: HEAD, offset: 0x34}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 12,
                                  AllOf(HasSubstr("block 'ring'"), HasSubstr("unknown space 'mmoi'"),
                                        HasSubstr("did you mean 'mmio'?")))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, ABlockWithoutRegistersInAnUnknownSpaceIsStillAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100000}
blocks:
  - name: ring
    space: mmoi         # 6:12 error, though no register carries it
    instances: {RCS0: 0x2000}
    registers: []
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 12, AllOf(HasSubstr("block 'ring'"), HasSubstr("unknown space 'mmoi'")))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, ARangeInAnUnknownSpaceIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
ranges:
  - name: HOLE
    kind: reserved
    space: mmoi         # 7:12 error
    base: 0x80
    size: 0x10
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 12,
                                  AllOf(HasSubstr("range 'HOLE'"), HasSubstr("unknown space 'mmoi'"),
                                        HasSubstr("did you mean 'mmio'?")))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, AnAliasWindowTargetingAnUnknownSpaceIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x0
    size: 0x100
    target: {space: memroy, offset: 0x0}   # 11:21 error
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 21,
                                  AllOf(HasSubstr("alias range 'WINDOW'"), HasSubstr("unknown space 'memroy'"),
                                        HasSubstr("did you mean 'memory'?")))))
      << Rendered(loaded);
}

// ---------------------------------------------------------------- enabled_by

// The smallest PCI device with a memory BAR whose decoding PCICMD.MSE gates.
constexpr const char* kEnabledByHead = R"(device: t
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
registers:
  - name: PCICMD
    space: config
    offset: 0x4
    width: 16
    fields:
      - {name: IOSE, bits: 0}
      - {name: MSE, bits: 1}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x0
    size: 0x100
    target: {space: memory, offset: 0x0}
)";  // 20 lines; `enabled_by` comes on line 21

TEST(CheckerNamesTest, EnabledByAnUnknownRegisterIsAnErrorWithASuggestion) {
  LoadedDatabase loaded = CheckYaml(std::string(kEnabledByHead) + R"(    enabled_by: PCICMX.MSE
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(21, 17,
                                  AllOf(HasSubstr("enabled_by of range 'WINDOW'"),
                                        HasSubstr("unknown register 'PCICMX'"),
                                        HasSubstr("did you mean 'PCICMD'?")))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, EnabledByAnUnknownFieldIsAnErrorWithASuggestionAndANoteAtTheRegister) {
  LoadedDatabase loaded = CheckYaml(std::string(kEnabledByHead) + R"(    enabled_by: PCICMD.MSX
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(21, 17,
                                  AllOf(HasSubstr("enabled_by of range 'WINDOW'"), HasSubstr("unknown field 'MSX'"),
                                        HasSubstr("of register 'PCICMD'"), HasSubstr("did you mean 'MSE'?")))))
      << Rendered(loaded);
  // Line 7 is `  - name: PCICMD`.
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 11, HasSubstr("'PCICMD' is defined here"))));
}

TEST(CheckerNamesTest, EnabledByAnExistingRegisterAndFieldIsAccepted) {
  LoadedDatabase loaded = CheckYaml(std::string(kEnabledByHead) + R"(    enabled_by: PCICMD.MSE
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

// ---------------------------------------------------------------- duplicates

TEST(CheckerNamesTest, TwoRegistersWithOneNameAreAnErrorWithANoteAtTheFirst) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: CTRL          # 5:11 note: first defined here
    space: mmio
    offset: 0x10
  - name: CTRL          # 8:11 error: defined twice
    space: mmio
    offset: 0x14
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 11, AllOf(HasSubstr("register 'CTRL'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 11, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, ARegisterNamedLikeAnArrayElementIsADuplicate) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: PERF{n}       # 5:11 note: PERF1 is made here
    space: mmio
    offset: 0x10
    array: {count: 2, stride: 4}
  - name: PERF1         # 9:11 error: PERF1 again
    space: mmio
    offset: 0x40
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 11, AllOf(HasSubstr("register 'PERF1'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 11, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, TwoArraysWithOneNameAreReportedOnceNotPerElement) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: PERF{n}       # 5:11 note
    space: mmio
    offset: 0x10
    array: {count: 8, stride: 4}
  - name: PERF{n}       # 9:11 error, once for all 8 elements
    space: mmio
    offset: 0x40
    array: {count: 8, stride: 4}
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 11, AllOf(HasSubstr("register 'PERF0'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 11, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, TwoBlocksWithAnInstanceOfOneNameMakeDuplicateRegisters) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100000}
blocks:
  - name: ring
    space: mmio
    instances: {RCS0: 0x2000, BCS0: 0x22000}
    registers:
      - name: TAIL      # 9:15 note: RCS0_TAIL is first made here
        offset: 0x30
  - name: context
    space: mmio
    instances: {RCS0: 0x4000}
    registers:
      - name: TAIL      # 15:15 error: RCS0_TAIL again
        offset: 0x30
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 15, AllOf(HasSubstr("register 'RCS0_TAIL'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(9, 15, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, InstanceAndRegisterNamesThatConcatenateAlikeMakeDuplicateRegisters) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100000}
blocks:
  - name: ring
    space: mmio
    instances: {VCS: 0x1000, VCS_RING: 0x2000}
    registers:
      - name: RING_TAIL # 9:15 note: VCS + RING_TAIL
        offset: 0x30
      - name: TAIL      # 11:15 error: VCS_RING + TAIL
        offset: 0x40
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 15, AllOf(HasSubstr("register 'VCS_RING_TAIL'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(9, 15, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, ARegisterNameRepeatedInsideABlockIsReportedOnceNotPerInstance) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
blocks:
  - name: ring
    space: mmio
    instances: {RCS0: 0x2000, BCS0: 0x22000, VCS0: 0x1c0000}
    registers:
      - name: TAIL      # 9:15 note
        offset: 0x30
      - name: TAIL      # 11:15 error, once for the three instances
        offset: 0x34
)");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(11, 15, HasSubstr("defined twice"))))
      << Rendered(loaded);
}

TEST(CheckerNamesTest, TwoSpacesWithOneNameAreAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}     # 3:12 note
  - {name: mmio, kind: mmio, size: 0x200}     # 4:12 error
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(4, 12, AllOf(HasSubstr("space 'mmio'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(3, 12, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, TwoRangesWithOneNameAreAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - {name: HOLE, kind: reserved, space: mmio, base: 0x100, size: 0x10}   # 5:12 note
  - {name: HOLE, kind: reserved, space: mmio, base: 0x200, size: 0x10}   # 6:12 error
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 12, AllOf(HasSubstr("range 'HOLE'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 12, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, TwoBlocksWithOneNameAreAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100000}
blocks:
  - name: ring          # 5:11 note
    space: mmio
    instances: {RCS0: 0x2000}
    registers:
      - {name: TAIL, offset: 0x30}
  - name: ring          # 10:11 error (its registers have other names)
    space: mmio
    instances: {BCS0: 0x22000}
    registers:
      - {name: TAIL, offset: 0x30}
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 11, AllOf(HasSubstr("block 'ring'"), HasSubstr("defined twice")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 11, HasSubstr("first defined here"))));
}

TEST(CheckerNamesTest, DistinctNamesEverywhereAreAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100000}
  - {name: config, kind: pci-config, size: 0x100}
registers:
  - {name: CTRL, space: mmio, offset: 0x10}
  - {name: CTRL_CFG, space: config, offset: 0x10}
  - name: PERF{n}
    space: mmio
    offset: 0x100
    array: {count: 2, stride: 4}
  - {name: PERF2, space: mmio, offset: 0x108}
blocks:
  - name: ring
    space: mmio
    instances: {RCS0: 0x2000, BCS0: 0x22000}
    registers:
      - {name: TAIL, offset: 0x30}
ranges:
  - {name: HOLE, kind: reserved, space: mmio, base: 0x1000, size: 0x10}
  - {name: HOLE_CFG, kind: reserved, space: config, base: 0x80, size: 0x10}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  EXPECT_NE(loaded.database.RegisterNamed("RCS0_TAIL"), nullptr);
  EXPECT_NE(loaded.database.RegisterNamed("PERF1"), nullptr);
}

}  // namespace
}  // namespace regemu::regdb
