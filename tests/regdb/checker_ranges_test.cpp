// Checker: reserved ranges and alias windows. A range lies inside its space
// and overlaps no other range of it; an alias window fits its target space,
// which is another space; no register is defined inside a reserved range or
// under an alias window; enabled_by is linked to its register and field.
// Line 1 is the `device:` line of each raw string; a `# L:C` comment marks
// the line an expected diagnostic points at.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

// ---------------------------------------------------------------- registers inside ranges

TEST(CheckerRangesTest, ARegisterInsideAReservedRangeIsAnErrorWithANoteAtTheRange) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - name: HOLE
    kind: reserved
    space: mmio
    base: 0x100         # 8:11 note: 'HOLE' is placed here
    size: 0x100
registers:
  - name: R
    space: mmio
    offset: 0x180       # 13:13 error: inside HOLE
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(13, 13,
                                  AllOf(HasSubstr("register 'R' at 0x180"), HasSubstr("inside reserved range 'HOLE'"),
                                        HasSubstr("[0x100, 0x1ff]"),
                                        HasSubstr("no register may be defined in a reserved range")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(8, 11, HasSubstr("'HOLE' is placed here"))));
}

TEST(CheckerRangesTest, ARegisterReachingIntoAReservedRangeFromBelowIsInsideIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - {name: HOLE, kind: reserved, space: mmio, base: 0x104, size: 0xfc}
registers:
  - name: R
    space: mmio
    offset: 0x100       # 9:13 error: its upper half is 0x104..0x107
    width: 64
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 13, AllOf(HasSubstr("register 'R'"), HasSubstr("reserved range 'HOLE'")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, AnArrayInsideAReservedRangeIsReportedOnceNotPerElement) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - {name: HOLE, kind: reserved, space: mmio, base: 0x100, size: 0x100}
registers:
  - name: PERF{n}
    space: mmio
    offset: 0xf8        # 9:13 error: PERF2..PERF31 are in HOLE; one error
    array: {count: 32, stride: 4}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 13, AllOf(HasSubstr("register 'PERF2' at 0x100"), HasSubstr("'HOLE'")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, RegistersJustOutsideAReservedRangeOrInAnotherSpaceAreAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: config, kind: pci-config, size: 0x1000}
ranges:
  - {name: HOLE, kind: reserved, space: mmio, base: 0x100, size: 0x100}
registers:
  - {name: BELOW, space: mmio, offset: 0xf8, width: 64}
  - {name: ABOVE, space: mmio, offset: 0x200}
  - {name: ELSEWHERE, space: config, offset: 0x180}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerRangesTest, ARegisterUnderAnAliasWindowIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x800         # 9:11 note: 'WINDOW' is placed here
    size: 0x800
    target: {space: memory, offset: 0x0}
registers:
  - name: R
    space: bar
    offset: 0x804       # 15:13 error: under WINDOW
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 13,
                                  AllOf(HasSubstr("register 'R' at 0x804"), HasSubstr("under alias window 'WINDOW'"),
                                        HasSubstr("[0x800, 0xfff]"), HasSubstr("define the register there")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(9, 11, HasSubstr("'WINDOW' is placed here"))));
}

// ---------------------------------------------------------------- ranges in their spaces

TEST(CheckerRangesTest, ARangeRunningPastTheEndOfItsSpaceIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - name: HOLE
    kind: reserved
    space: mmio
    base: 0xf00         # 8:11 error: [0xf00, 0x10ff] in a 0x1000-byte space
    size: 0x200
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 11,
                                  AllOf(HasSubstr("reserved range 'HOLE'"), HasSubstr("[0xf00, 0x10ff]"),
                                        HasSubstr("runs past the end of space 'mmio'"), HasSubstr("size 0x1000")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, AnAliasWindowStartingAtTheEndOfItsSpaceIsOutsideIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x1000        # 9:11 error
    size: 0x10
    target: {space: memory, offset: 0x0}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 11, AllOf(HasSubstr("alias window 'WINDOW'"), HasSubstr("runs past the end")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, AnAliasWindowRunningPastTheEndOfItsTargetIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x0
    size: 0x200
    target: {space: memory, offset: 0xf00}    # 11:21 error: maps [0xf00, 0x10ff]
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 21,
                                  AllOf(HasSubstr("alias window 'WINDOW'"), HasSubstr("maps [0xf00, 0x10ff]"),
                                        HasSubstr("of space 'memory', past its end"), HasSubstr("size 0x1000")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, AnAliasWindowTargetingItsOwnSpaceIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x0
    size: 0x100
    target: {space: bar, offset: 0x800}       # 10:21 error: a window onto itself
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 21, AllOf(HasSubstr("alias window 'WINDOW'"), HasSubstr("own space 'bar'")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, RangesFillingTheirSpacesExactlyAreAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
ranges:
  - {name: LOW_HOLE, kind: reserved, space: bar, base: 0x0, size: 0x800}
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x800
    size: 0x800
    target: {space: memory, offset: 0x800}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

// ---------------------------------------------------------------- overlapping ranges

TEST(CheckerRangesTest, OverlappingRangesAreReportedAtTheHigherWithANoteAtTheLower) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: bar, kind: mmio, size: 0x1000}
  - {name: memory, kind: memory, size: 0x1000}
ranges:
  - name: WINDOW
    kind: alias
    space: bar
    base: 0x180         # 9:11 error: overlaps HOLE's last 0x80 bytes
    size: 0x100
    target: {space: memory, offset: 0x0}
  - name: HOLE
    kind: reserved
    space: bar
    base: 0x100         # 15:11 note: 'HOLE' is placed here
    size: 0x100
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 11,
                                  AllOf(HasSubstr("alias window 'WINDOW' [0x180, 0x27f]"),
                                        HasSubstr("overlaps reserved range 'HOLE' [0x100, 0x1ff]")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(15, 11, HasSubstr("'HOLE' is placed here"))));
}

TEST(CheckerRangesTest, OfTwoRangesAtOneBaseTheLaterWrittenIsBlamed) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - {name: FIRST, kind: reserved, space: mmio, base: 0x100, size: 0x10}    # 5:54 note
  - {name: SECOND, kind: reserved, space: mmio, base: 0x100, size: 0x20}   # 6:55 error
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 55, AllOf(HasSubstr("'SECOND'"), HasSubstr("overlaps reserved range 'FIRST'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 54, HasSubstr("'FIRST'"))));
}

TEST(CheckerRangesTest, EveryRangeOverlappingALargeOneIsReportedNotJustItsNeighbour) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
ranges:
  - {name: LARGE, kind: reserved, space: mmio, base: 0x100, size: 0x100}    # 5:54 note (twice)
  - {name: NESTED, kind: reserved, space: mmio, base: 0x110, size: 0x10}    # 6:55 error
  - {name: TAIL, kind: reserved, space: mmio, base: 0x180, size: 0x100}     # 7:53 error
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 55, AllOf(HasSubstr("'NESTED'"), HasSubstr("overlaps reserved range 'LARGE'"))),
                          ErrorAt(7, 53, AllOf(HasSubstr("'TAIL'"), HasSubstr("overlaps reserved range 'LARGE'")))))
      << Rendered(loaded);
}

TEST(CheckerRangesTest, AdjacentRangesAndRangesOfDifferentSpacesDoNotOverlap) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: config, kind: pci-config, size: 0x1000}
ranges:
  - {name: A, kind: reserved, space: mmio, base: 0x100, size: 0x100}
  - {name: B, kind: reserved, space: mmio, base: 0x200, size: 0x100}
  - {name: C, kind: reserved, space: config, base: 0x100, size: 0x100}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

// ---------------------------------------------------------------- a clean window

TEST(CheckerRangesTest, ACleanAliasWindowHasItsSpacesAndEnabledByLinked) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: bar, kind: mmio, size: 0x1000}
registers:
  - {name: VID, space: config, offset: 0x0, width: 16, access: ro, reset: 0x8086}
  - name: PCICMD
    space: config
    offset: 0x4
    width: 16
    fields:
      - {name: IOSE, bits: 0}
      - {name: MSE, bits: 1}
  - {name: BAR_CTL, space: bar, offset: 0x0}
ranges:
  - name: CONFIG_WINDOW
    kind: alias
    space: bar
    base: 0x100
    size: 0x100
    target: {space: config, offset: 0x0}
    writes: forward
    enabled_by: PCICMD.MSE
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Database& db = loaded.database;
  ASSERT_EQ(db.ranges.size(), 1u);
  const Range& window = db.ranges[0];
  EXPECT_EQ(window.space, *db.FindSpace("bar"));
  EXPECT_EQ(window.target_space, *db.FindSpace("config"));
  ASSERT_TRUE(window.enabled_by.has_value());
  EXPECT_EQ(window.enabled_by->reg, *db.FindRegister("PCICMD"));
  EXPECT_EQ(window.enabled_by->reg, 1u);
  EXPECT_EQ(window.enabled_by->field, 1u);  // MSE, the second field
  EXPECT_EQ(db.registers[window.enabled_by->reg].fields[window.enabled_by->field].name, "MSE");
}

}  // namespace
}  // namespace regemu::regdb
