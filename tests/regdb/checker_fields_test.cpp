// Checker: fields and reset values. Fields lie inside their register and do
// not overlap; resets and enumerated values fit; a field's reset agrees with
// the register's; no reset sets a must-be-zero bit; masked registers are 32
// bits with fields in 15:0. Line 1 is the `device:` line of each raw string;
// a `# L:C` comment marks the line an expected diagnostic points at.
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

// ---------------------------------------------------------------- field placement

TEST(CheckerFieldsTest, AFieldBeyondTheRegisterWidthIsAnErrorWithANoteAtTheWidth) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    width: 16           # 8:12 note: the width is set here
    fields:
      - {name: LOW, bits: "15:0"}
      - name: HIGH
        bits: 16        # 12:15 error: bit 16 of a 16-bit register
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(12, 15,
                                  AllOf(HasSubstr("field 'HIGH' bits 16"), HasSubstr("outside 16-bit register 'R'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(8, 12, HasSubstr("width"))));
}

TEST(CheckerFieldsTest, AFieldStraddlingTheTopOfTheRegisterIsOutsideIt) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - name: WIDE
        bits: "35:28"   # 10:15 error: bits 35:32 are outside the default 32 bits
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 15,
                                  AllOf(HasSubstr("field 'WIDE' bits 35:28"),
                                        HasSubstr("outside 32-bit register 'R'")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, FieldsFillingTheWholeRegisterAreInside) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R64
    space: mmio
    offset: 0x10
    width: 64
    fields:
      - {name: HI, bits: "63:32", reset: 0xffffffff}
      - {name: LO, bits: "31:1"}
      - {name: EN, bits: 0, reset: 1}
  - name: R8
    space: mmio
    offset: 0x18
    width: 8
    fields:
      - {name: ALL, bits: "7:0", reset: 0xff}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerFieldsTest, OverlappingFieldsAreReportedAtTheLaterWithANoteAtTheOther) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - name: MODE
        bits: "7:4"     # 10:15 note: 'MODE' is defined here
      - name: ENABLE
        bits: 5         # 12:15 error: bit 5 is inside MODE
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(12, 15,
                                  AllOf(HasSubstr("field 'ENABLE' bits 5"), HasSubstr("overlap field 'MODE' bits 7:4"),
                                        HasSubstr("register 'R'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(10, 15, HasSubstr("'MODE' is defined here"))));
}

TEST(CheckerFieldsTest, AdjacentFieldsDoNotOverlap) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - {name: MODE, bits: "7:4"}
      - {name: ENABLE, bits: 3}
      - {name: LOW, bits: "2:0"}
      - {name: HIGH, bits: "31:8"}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerFieldsTest, AFieldErrorInAnArrayIsReportedOnceNotPerElement) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R{n}
    space: mmio
    offset: 0x10
    array: {count: 8, stride: 4}
    fields:
      - name: F
        bits: 32        # 11:15 error, once for all 8 elements
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 15, AllOf(HasSubstr("field 'F'"), HasSubstr("register 'R{n}'")))))
      << Rendered(loaded);
}

// ---------------------------------------------------------------- resets

TEST(CheckerFieldsTest, ARegisterResetWiderThanTheRegisterIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    width: 16
    reset: 0x10000      # 9:12 error: 17 bits in a 16-bit register
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 12,
                                  AllOf(HasSubstr("reset 0x10000"), HasSubstr("register 'R'"),
                                        HasSubstr("does not fit in 16 bits")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, ARegisterResetUsingEveryBitFits) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: R16, space: mmio, offset: 0x10, width: 16, reset: 0xffff}
  - {name: R64, space: mmio, offset: 0x18, width: 64, reset: 0xffff_ffff_ffff_ffff}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerFieldsTest, AFieldResetWiderThanTheFieldIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - name: MODE
        bits: "5:4"
        reset: 4        # 11:16 error: 4 needs 3 bits
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 16,
                                  AllOf(HasSubstr("reset 0x4 of field 'MODE'"),
                                        HasSubstr("does not fit in its 2 bits")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, AFieldResetDisagreeingWithTheRegisterResetIsAnErrorWithANoteAtTheRegisterReset) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    reset: 0x10         # 8:12 note: gives MODE (bits 7:4) the value 1
    fields:
      - name: MODE
        bits: "7:4"
        reset: 2        # 12:16 error: 2, not 1
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(12, 16,
                                  AllOf(HasSubstr("reset 0x2 of field 'MODE'"),
                                        HasSubstr("disagrees with register 'R' reset 0x10"),
                                        HasSubstr("which gives the field 0x1")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(8, 12, HasSubstr("register's reset"))));
}

TEST(CheckerFieldsTest, FieldResetsThatAgreeWithTheRegisterResetAreAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    reset: 0x8021
    fields:
      - {name: TOP, bits: 15, reset: 1}
      - {name: MODE, bits: "7:4", reset: 2}
      - {name: EN, bits: 0, reset: 1}
      - {name: IDLE, bits: 1, reset: 0}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerFieldsTest, TheDefaultResetIsTheFieldResetsCombined) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: COMBINED
    space: mmio
    offset: 0x10
    fields:
      - {name: LOW, bits: "3:0", reset: 0x5}
      - {name: NONE, bits: "7:4"}
      - {name: HIGH, bits: "15:8", reset: 0xab}
      - {name: TOP, bits: 31, reset: 1}
  - name: NO_RESETS
    space: mmio
    offset: 0x14
    fields:
      - {name: F, bits: "7:0"}
  - {name: NO_FIELDS, space: mmio, offset: 0x18}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  ASSERT_EQ(loaded.database.registers.size(), 3u);
  EXPECT_EQ(loaded.database.registers[0].reset, 0x8000'ab05u);
  EXPECT_FALSE(loaded.database.registers[0].reset_given);
  EXPECT_EQ(loaded.database.registers[1].reset, 0u);
  EXPECT_EQ(loaded.database.registers[2].reset, 0u);
}

TEST(CheckerFieldsTest, AGivenRegisterResetIsKeptAsWritten) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    reset: 0x0000_0301
    fields:
      - {name: EN, bits: 0, reset: 1}
      - {name: MODE, bits: "9:8"}
)");
  ASSERT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
  ASSERT_EQ(loaded.database.registers.size(), 1u);
  EXPECT_EQ(loaded.database.registers[0].reset, 0x301u);
  EXPECT_TRUE(loaded.database.registers[0].reset_given);
}

// ---------------------------------------------------------------- must-be-zero

TEST(CheckerFieldsTest, ARegisterResetSettingAnMbzBitIsAnErrorWithANoteAtTheField) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: OASTATUS2
    space: mmio
    offset: 0x10
    reset: 0x21         # 8:12 error: bit 5 is mbz
    fields:
      - {name: ENABLE, bits: 0}
      - name: RESERVED_5
        bits: 5         # 12:15 note: 'RESERVED_5' is mbz here
        access: mbz
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 12,
                                  AllOf(HasSubstr("reset 0x21 of register 'OASTATUS2'"), HasSubstr("sets bits 0x20"),
                                        HasSubstr("must-be-zero field 'RESERVED_5'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(12, 15, HasSubstr("'RESERVED_5' is mbz"))));
}

TEST(CheckerFieldsTest, AFieldResetSettingItsOwnMbzBitsIsAnErrorAtTheFieldReset) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - name: RSVD
        bits: "7:6"     # 10:15 note: 'RSVD' is mbz here
        access: mbz
        reset: 2        # 12:16 error: the register's reset becomes 0x80
)");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(12, 16,
                                  AllOf(HasSubstr("register 'R'"), HasSubstr("sets bits 0x80"),
                                        HasSubstr("must-be-zero field 'RSVD'")))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.diagnostics.all()[0].notes, ElementsAre(NoteAt(10, 15, HasSubstr("'RSVD' is mbz"))));
}

TEST(CheckerFieldsTest, AnMbzBitSetByAnOverlappingFieldsResetIsReportedAtThatReset) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - name: ALL
        bits: "7:0"
        reset: 0xff     # 11:16 error: sets RSVD's bit 5
      - name: RSVD
        bits: 5         # 13:15 error: overlaps ALL
        access: mbz
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(13, 15, HasSubstr("overlap field 'ALL'")),
                          ErrorAt(11, 16, AllOf(HasSubstr("sets bits 0x20"), HasSubstr("must-be-zero field 'RSVD'")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, AnMbzFieldResettingToZeroBesideSetBitsIsAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: GIVEN
    space: mmio
    offset: 0x10
    reset: 0xdf
    fields:
      - {name: LOW, bits: "4:0"}
      - {name: RSVD, bits: 5, access: mbz}
      - {name: HIGH, bits: "7:6"}
  - name: FROM_FIELDS
    space: mmio
    offset: 0x14
    fields:
      - {name: LOW, bits: "4:0", reset: 0x1f}
      - {name: RSVD, bits: 5, access: mbz, reset: 0}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

TEST(CheckerFieldsTest, AnMbzRegisterWithoutFieldsMustResetToZero) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: RESERVED
    space: mmio
    offset: 0x10
    access: mbz
    reset: 1            # 9:12 error: an mbz register resetting to 1
  - {name: ZERO, space: mmio, offset: 0x14, access: mbz, reset: 0}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 12,
                                  AllOf(HasSubstr("reset 0x1"), HasSubstr("must-be-zero register 'RESERVED'"),
                                        HasSubstr("not zero")))))
      << Rendered(loaded);
}

// ---------------------------------------------------------------- enumerated values

TEST(CheckerFieldsTest, AnEnumeratedValueWiderThanItsFieldIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: R
    space: mmio
    offset: 0x10
    fields:
      - name: MODE
        bits: "1:0"
        values:
          - {name: OFF, value: 0}
          - {name: MAX, value: 3}
          - name: TOO_BIG
            value: 4    # 15:20 error: needs 3 bits
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(15, 20,
                                  AllOf(HasSubstr("value 0x4 of 'TOO_BIG'"), HasSubstr("does not fit field 'MODE'"),
                                        HasSubstr("2 bits")))))
      << Rendered(loaded);
}

// ---------------------------------------------------------------- masked registers

TEST(CheckerFieldsTest, AMaskedRegisterMustBe32BitsWide) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: MODE64
    space: mmio
    offset: 0x10
    masked: true
    width: 64           # 9:12 error: masked registers are 32 bits
  - name: MODE16
    space: mmio
    offset: 0x18
    masked: true
    width: 16           # 14:12 error
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 12,
                                  AllOf(HasSubstr("masked register 'MODE64'"), HasSubstr("must be 32 bits wide"),
                                        HasSubstr("not 64"))),
                          ErrorAt(14, 12, AllOf(HasSubstr("masked register 'MODE16'"), HasSubstr("not 16")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, AFieldOfAMaskedRegisterInTheMaskHalfIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: GFX_MODE
    space: mmio
    offset: 0x10
    masked: true
    fields:
      - {name: LOW, bits: "3:0"}
      - name: STRADDLE
        bits: "16:15"   # 12:15 error: bit 16 is a mask bit
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(12, 15,
                                  AllOf(HasSubstr("field 'STRADDLE' bits 16:15"),
                                        HasSubstr("masked register 'GFX_MODE'"),
                                        HasSubstr("mask half (31:16)")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, AMasked32BitRegisterWithFieldsInTheLowHalfIsAccepted) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: GFX_MODE
    space: mmio
    offset: 0x10
    masked: true
    width: 32
    fields:
      - {name: TOP, bits: 15}
      - {name: LOW, bits: "14:0", reset: 0x7}
)");
  EXPECT_FALSE(loaded.diagnostics.has_errors()) << Rendered(loaded);
}

// ---------------------------------------------------------------- on_write

// `on_write: violation` sharpens the read-only rule, so it belongs on a
// read-only field; on a writable (or discarding) one it means nothing.
TEST(CheckerFieldsTest, OnWriteViolationIsForReadOnlyFieldsOnly) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: CTL
    space: mmio
    offset: 0x10
    fields:
      - {name: LOCK, bits: 31, access: ro, on_write: violation}
      - {name: BUSY, bits: 30, access: hw, on_write: violation}
      - {name: EN, bits: 0, access: rw, on_write: violation}      # 11:51 error: EN is rw
      - {name: SPARE, bits: 1, access: rsvd, on_write: ignore}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 51, AllOf(HasSubstr("'on_write: violation' applies to read-only fields"),
                                                HasSubstr("field 'EN' is rw")))))
      << Rendered(loaded);
}

TEST(CheckerFieldsTest, OnWriteTakesIgnoreOrViolation) {
  LoadedDatabase loaded = CheckYaml(R"(device: t
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: CTL
    space: mmio
    offset: 0x10
    fields:
      - {name: LOCK, bits: 31, access: ro, on_write: fail}   # 9:54 error
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 54, AllOf(HasSubstr("fail"), HasSubstr("violation"))))) << Rendered(loaded);
}

}  // namespace
}  // namespace regemu::regdb
