// Checker: where registers sit in their spaces. Every register lies inside
// its space, at an offset aligned for its width (unless the space says
// `alignment: none`), and overlaps no other register unless one is declared
// an `alias_of` the other. Line 1 is the `device:` line of each raw string;
// a `# L:C` comment marks the line an expected diagnostic points at.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

// ---------------------------------------------------------------- overlaps

TEST(CheckerLayoutTest, OverlappingRegistersAreReportedAtTheLaterOneWithANoteAtTheEarlier) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: A
    space: mmio
    offset: 0x10        # 7:13 note: 'A' is placed here
  - name: B
    space: mmio
    offset: 0x12        # 10:13 error: B [0x12, 0x13] overlaps A [0x10, 0x13]
    width: 16
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 13,
                                  AllOf(HasSubstr("register 'B'"), HasSubstr("[0x12, 0x13]"),
                                        HasSubstr("overlaps register 'A'"), HasSubstr("[0x10, 0x13]")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 13, HasSubstr("'A' is placed here"))));
}

TEST(CheckerLayoutTest, TheLaterWrittenRegisterIsBlamedEvenWhenItSitsAtTheLowerOffset) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: HIGH
    space: mmio
    offset: 0x14        # 7:13 note: the earlier one
  - name: LOW
    space: mmio
    offset: 0x10        # 10:13 error: LOW [0x10, 0x17] overlaps HIGH
    width: 64
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 13, AllOf(HasSubstr("register 'LOW'"), HasSubstr("overlaps register 'HIGH'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 13, HasSubstr("'HIGH'"))));
}

TEST(CheckerLayoutTest, AdjacentRegistersAndEqualOffsetsInDifferentSpacesDoNotOverlap) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
  - {name: mchbar, kind: mmio, size: 0x100}
registers:
  - {name: A, space: mmio, offset: 0x10}
  - {name: B, space: mmio, offset: 0x14}
  - {name: C, space: mmio, offset: 0x18, width: 64}
  - {name: D, space: mchbar, offset: 0x10}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, OverlapWithAnArrayNamesTheElement) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: PERF{n}
    space: mmio
    offset: 0x20        # 7:13 note: the array's elements are placed here
    array: {count: 4, stride: 4}
  - name: CTRL
    space: mmio
    offset: 0x28        # 11:13 error: overlaps PERF2 at 0x28
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 13,
                                  AllOf(HasSubstr("register 'CTRL'"),
                                        HasSubstr("overlaps element 2 ('PERF2') of array 'PERF{n}'"),
                                        HasSubstr("[0x28, 0x2b]")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 13, HasSubstr("'PERF2'"))));
}

TEST(CheckerLayoutTest, AnArrayWrittenAfterARegisterItOverlapsIsBlamedByElement) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: CTRL
    space: mmio
    offset: 0x28        # 7:13 note: CTRL is placed here
  - name: PERF{n}
    space: mmio
    offset: 0x20        # 10:13 error: element 2 overlaps CTRL
    array: {count: 4, stride: 4}
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 13,
                                  AllOf(HasSubstr("element 2 ('PERF2') of array 'PERF{n}'"),
                                        HasSubstr("overlaps register 'CTRL'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 13, HasSubstr("'CTRL'"))));
}

TEST(CheckerLayoutTest, AnArrayWhoseStrideIsSmallerThanItsWidthIsReportedOnceAtTheStride) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: packed, kind: memory, size: 0x100, alignment: none}
registers:
  - name: PERF{n}
    space: packed
    offset: 0x20
    array: {count: 4, stride: 2}   # 8:31 error: stride 0x2 < 4 bytes; not one overlap per element pair
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 31,
                                  AllOf(HasSubstr("array 'PERF{n}' has stride 0x2"), HasSubstr("32-bit"),
                                        HasSubstr("elements overlap")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, ACrampedArrayStillOverlapsOtherRegisters) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: packed, kind: memory, size: 0x100, alignment: none}
registers:
  - {name: OTHER, space: packed, offset: 0x22, width: 8}   # 5:45 note
  - name: PERF{n}
    space: packed
    offset: 0x20        # 8:13 error: PERF0 [0x20, 0x23] overlaps OTHER
    array: {count: 2, stride: 2}   # 9:31 error: stride
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 31, HasSubstr("has stride 0x2")),
                          ErrorAt(8, 13, AllOf(HasSubstr("element 0 ('PERF0')"), HasSubstr("overlaps register 'OTHER'")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, MsrArraysStepOneIndexPerRegisterWhateverTheirWidth) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: msr, kind: msr, size: 0x1000}
registers:
  - name: IA32_PMC{n}
    space: msr
    offset: 0xC1
    width: 64
    array: {count: 4, stride: 1}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, AliasOfInsideABlockNamesTheSameInstancesSibling) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
blocks:
  - name: ring
    space: mmio
    instances: {RCS0: 0x2000, BCS0: 0x3000}
    registers:
      - {name: CTL, offset: 0x3C}
      - {name: CTL_VIEW, offset: 0x3C, alias_of: CTL}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  const Register* view = loaded.database.RegisterNamed("BCS0_CTL_VIEW");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->alias_of, "BCS0_CTL");
}

TEST(CheckerLayoutTest, RegistersOfTwoBlockInstancesThatOverlapNameTheirInstances) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
blocks:
  - name: ring
    space: mmio
    instances: {RCS0: 0x100, BCS0: 0x104}
    registers:
      - name: TAIL
        offset: 0x0     # 10:17 error: BCS0_TAIL at 0x104 overlaps RCS0_HEAD
      - name: HEAD
        offset: 0x4     # 12:17 note: RCS0_HEAD is placed here
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 17,
                                  AllOf(HasSubstr("register 'BCS0_TAIL' in instance 'BCS0' of block 'ring'"),
                                        HasSubstr("overlaps register 'RCS0_HEAD' in instance 'RCS0'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(12, 17, HasSubstr("'RCS0_HEAD'"))));
}

// ---------------------------------------------------------------- aliases

TEST(CheckerLayoutTest, ARegisterDeclaredAnAliasMayOverlapItsTarget) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: STATUS, space: mmio, offset: 0x10, width: 64}
  - {name: STATUS_LO, space: mmio, offset: 0x10, alias_of: STATUS}
  - {name: STATUS_HI, space: mmio, offset: 0x14, alias_of: STATUS}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnAliasMayBeDeclaredOnTheEarlierOfTheTwoRegisters) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: VIEW, space: mmio, offset: 0x10, alias_of: REAL}
  - {name: REAL, space: mmio, offset: 0x10}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnAliasOfAnotherRegisterDoesNotExcuseOverlappingAThirdOne) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: REAL
    space: mmio
    offset: 0x10
  - name: VIEW
    space: mmio
    offset: 0x10
    alias_of: REAL
  - name: OTHER
    space: mmio
    offset: 0x10        # 14:13 error: OTHER overlaps REAL, declares no alias
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(14, 13, AllOf(HasSubstr("register 'OTHER'"), HasSubstr("overlaps")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnAliasThatDoesNotOverlapItsTargetIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: REAL
    space: mmio
    offset: 0x10        # 7:13 note: REAL is placed here
  - name: VIEW
    space: mmio
    offset: 0x14
    alias_of: REAL      # 11:15 error: VIEW is declared an alias but does not overlap
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 15,
                                  AllOf(HasSubstr("register 'VIEW'"), HasSubstr("alias of 'REAL'"),
                                        HasSubstr("does not overlap")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 13, HasSubstr("'REAL' is placed here"))));
}

TEST(CheckerLayoutTest, AnAliasOfARegisterInAnotherSpaceDoesNotOverlapIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: REAL
    space: config
    offset: 0x10
  - name: VIEW
    space: mmio
    offset: 0x10
    alias_of: REAL      # 12:15 error: same offset, but another space
)");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(12, 15, HasSubstr("does not overlap"))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnAliasOfAnUnknownRegisterIsAnErrorWithASuggestion) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: STATUS, space: mmio, offset: 0x10}
  - name: VIEW
    space: mmio
    offset: 0x14
    alias_of: STATSU    # 9:15 error: unknown register, did you mean STATUS
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 15,
                               AllOf(HasSubstr("register 'VIEW'"), HasSubstr("unknown register 'STATSU'"),
                                     HasSubstr("did you mean 'STATUS'")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnArrayAliasOfAnUnknownRegisterIsReportedOnceNamingTheArray) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: VIEW{n}
    space: mmio
    offset: 0x10
    alias_of: NOWHERE   # 8:15 error, once for all 4 elements
    array: {count: 4, stride: 4}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 15,
                                  AllOf(HasSubstr("register 'VIEW{n}'"), HasSubstr("unknown register 'NOWHERE'")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnArrayDeclaredAnAliasOfOneRegisterIsReportedOnceForItsElementsOutsideIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: REAL, space: mmio, offset: 0x10}
  - name: VIEW{n}
    space: mmio
    offset: 0x10
    alias_of: REAL      # 9:15 error: VIEW1..VIEW3 do not overlap REAL; one error
    array: {count: 4, stride: 4}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 15, AllOf(HasSubstr("register 'VIEW1'"), HasSubstr("does not overlap")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, ARegisterCannotBeAnAliasOfItself) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: SELF
    space: mmio
    offset: 0x10
    alias_of: SELF      # 8:15 error: an alias of itself
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 15, AllOf(HasSubstr("register 'SELF'"), HasSubstr("alias of itself")))))
      << Rendered(loaded);
}

// ---------------------------------------------------------------- alignment

TEST(CheckerLayoutTest, AnOffsetThatIsNotAMultipleOfTheRegisterSizeIsMisaligned) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x12        # 7:13 error: a 32-bit register at 0x12
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 13,
                                  AllOf(HasSubstr("register 'R'"), HasSubstr("offset 0x12"), HasSubstr("misaligned"),
                                        HasSubstr("32-bit"), HasSubstr("multiple of 4")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, A64BitRegisterMustSitOnAnEightByteBoundary) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x14        # 7:13 error: aligned for 32 bits, not for 64
    width: 64
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 13, AllOf(HasSubstr("misaligned"), HasSubstr("multiple of 8")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, NaturallyAlignedOffsetsOfEveryWidthAreAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: B8, space: mmio, offset: 0x3, width: 8}
  - {name: B16, space: mmio, offset: 0x6, width: 16}
  - {name: B32, space: mmio, offset: 0xc, width: 32}
  - {name: B64, space: mmio, offset: 0x18, width: 64}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, ASpaceWithAlignmentNoneAcceptsMisalignedOffsets) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: packed, kind: memory, size: 0x100, alignment: none}
registers:
  - {name: R32, space: packed, offset: 0x1}
  - {name: R64, space: packed, offset: 0x5, width: 64}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, AMisalignedArrayIsReportedOnceAtItsFirstMisalignedElement) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R{n}
    space: mmio
    offset: 0x0         # 7:13 error: elements 1 and 3 (0x6, 0x12) are misaligned
    array: {count: 4, stride: 6}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 13,
                                  AllOf(HasSubstr("element 1 ('R1') of array 'R{n}'"), HasSubstr("offset 0x6"),
                                        HasSubstr("misaligned")))))
      << Rendered(loaded);
}

// ---------------------------------------------------------------- bounds

TEST(CheckerLayoutTest, ARegisterStartingAtTheEndOfItsSpaceRunsPastIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - name: mmio
    kind: mmio
    size: 0x100         # 5:11 note: the size is set here
registers:
  - name: R
    space: mmio
    offset: 0x100       # 9:13 error: [0x100, 0x103] is past 0xff
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 13,
                                  AllOf(HasSubstr("register 'R'"), HasSubstr("[0x100, 0x103]"),
                                        HasSubstr("runs past the end of space 'mmio'"), HasSubstr("size 0x100")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(5, 11, HasSubstr("size of 'mmio'"))));
}

TEST(CheckerLayoutTest, ARegisterStraddlingTheEndOfItsSpaceRunsPastIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x104}
registers:
  - name: R
    space: mmio
    offset: 0x100       # 7:13 error: the last 4 of its 8 bytes are outside
    width: 64
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 13, AllOf(HasSubstr("[0x100, 0x107]"), HasSubstr("runs past the end")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, ARegisterEndingExactlyAtTheEndOfItsSpaceFits) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: LAST, space: mmio, offset: 0xf8, width: 64}
  - {name: LAST_BYTE, space: mmio, offset: 0xf7, width: 8}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnArrayRunningPastItsSpaceIsReportedOnceAtItsFirstElementOutside) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R{n}
    space: mmio
    offset: 0x0         # 7:13 error: elements 4..7 are outside; one error
    array: {count: 8, stride: 0x40}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 13,
                                  AllOf(HasSubstr("element 4 ('R4') of array 'R{n}'"), HasSubstr("[0x100, 0x103]"),
                                        HasSubstr("runs past the end")))))
      << Rendered(loaded);
}

TEST(CheckerLayoutTest, AnArrayWhoseLastElementEndsAtTheEndOfItsSpaceFits) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R{n}
    space: mmio
    offset: 0x0
    array: {count: 4, stride: 0x40}
  - name: S{n}
    space: mmio
    offset: 0x3c
    array: {count: 4, stride: 0x40}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, ABlockInstanceRunningPastItsSpaceIsReportedOncePerInstance) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x180}
blocks:
  - name: ring
    space: mmio
    instances:
      RCS0: 0x0
      BCS0: 0x100       # 9:7 note: BCS0's HEAD lands at 0x180, past the end
      VCS0: 0x200       # 10:7 note: every register of VCS0 is past the end
    registers:
      - name: TAIL
        offset: 0x0     # 13:17 error for VCS0 (VCS0_TAIL is its first register outside)
      - name: HEAD
        offset: 0x80    # 15:17 error for BCS0
      - name: CTL{n}
        offset: 0x90
        array: {count: 2, stride: 4}
)");
  // One error per instance that does not fit, not one per register of it.
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 17,
                                  AllOf(HasSubstr("register 'BCS0_HEAD' in instance 'BCS0' of block 'ring'"),
                                        HasSubstr("[0x180, 0x183]"), HasSubstr("runs past the end"))),
                          ErrorAt(13, 17,
                                  AllOf(HasSubstr("register 'VCS0_TAIL' in instance 'VCS0' of block 'ring'"),
                                        HasSubstr("[0x200, 0x203]"), HasSubstr("runs past the end")))))
      << Rendered(loaded);
  ASSERT_EQ(loaded.diagnostics.all().size(), 2u);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes,
              Contains(NoteAt(9, 7, AllOf(HasSubstr("instance 'BCS0'"), HasSubstr("0x100")))));
  EXPECT_THAT(loaded.diagnostics.all()[1].notes,
              Contains(NoteAt(10, 7, AllOf(HasSubstr("instance 'VCS0'"), HasSubstr("0x200")))));
}

TEST(CheckerLayoutTest, BlockInstancesThatFitTheirSpaceAreAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x200}
blocks:
  - name: ring
    space: mmio
    instances: {RCS0: 0x0, BCS0: 0x100}
    registers:
      - {name: TAIL, offset: 0x0}
      - {name: HEAD, offset: 0xfc}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

// ---------------------------------------------------------------- MSR spaces

TEST(CheckerLayoutTest, AdjacentMsrsOccupyOneIndexEachWhateverTheirWidth) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: msr, kind: msr, size: 0x1000}
registers:
  - {name: IA32_PERF_STATUS, space: msr, offset: 0x198, width: 64}
  - {name: IA32_PERF_CTL, space: msr, offset: 0x199, width: 64}
  - {name: IA32_CLOCK_MODULATION, space: msr, offset: 0x19a, width: 64}
  - {name: LAST, space: msr, offset: 0xfff, width: 64}
)");
  // 0x199 is not a multiple of 8, and 0xfff is the last index: both fine.
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerLayoutTest, TwoMsrsAtTheSameIndexOverlap) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: msr, kind: msr, size: 0x1000}
registers:
  - name: IA32_PERF_CTL
    space: msr
    offset: 0x199       # 7:13 note
    width: 64
  - name: PERF_CTL_COPY
    space: msr
    offset: 0x199       # 11:13 error: same index
    width: 64
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 13,
                                  AllOf(HasSubstr("register 'PERF_CTL_COPY'"), HasSubstr("[0x199, 0x199]"),
                                        HasSubstr("overlaps register 'IA32_PERF_CTL'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(7, 13, HasSubstr("'IA32_PERF_CTL'"))));
}

TEST(CheckerLayoutTest, AnMsrIndexAtOrPastTheSizeOfItsSpaceIsOutside) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: msr, kind: msr, size: 0x1000}
registers:
  - name: BEYOND
    space: msr
    offset: 0x1000      # 7:13 error: indices are 0..0xfff
    width: 64
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 13,
                                  AllOf(HasSubstr("register 'BEYOND'"), HasSubstr("[0x1000, 0x1000]"),
                                        HasSubstr("runs past the end of space 'msr'")))))
      << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
