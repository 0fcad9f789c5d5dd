// The loader's schema reading (yaml/README.md): keys, required values, node
// kinds, numbers, names, access policies, arrays, blocks, ranges, the
// top-level header, and that every error of a file is reported.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Optional;
using ::testing::SizeIs;
using ::testing::UnorderedElementsAre;
using testing_support::CheckFiles;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

template <typename... Matchers>
auto WithNotes(Matchers... notes) {
  return Field(&Diagnostic::notes, ElementsAre(notes...));
}

const Register& Reg(const LoadedDatabase& loaded, const std::string& name) {
  const Register* reg = loaded.database.RegisterNamed(name);
  static const Register kMissing;
  EXPECT_NE(reg, nullptr) << "no register " << name << "\n" << Rendered(loaded);
  return reg ? *reg : kMissing;
}

std::vector<std::string> RegisterNames(const LoadedDatabase& loaded) {
  std::vector<std::string> names;
  for (const Register& reg : loaded.database.registers) names.push_back(reg.name);
  return names;
}

// --- A clean file -------------------------------------------------------------

TEST(SchemaTest, MinimalDeviceLoadsCleanly) {
  // A device, a space and a register with only the required keys.
  LoadedDatabase loaded = CheckYaml(R"(device: hsw
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
registers:
  - {name: OACONTROL, space: mmio, offset: 0x2360}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "hsw");
  const Register& reg = Reg(loaded, "OACONTROL");
  EXPECT_EQ(reg.offset, 0x2360u);
  EXPECT_EQ(reg.width, 32u);                   // default width
  EXPECT_EQ(reg.default_access, Access::kRw);  // no fields: rw
  EXPECT_EQ(reg.loc.line, 5u);
  EXPECT_EQ(reg.loc.column, 12u);  // the name's value
  EXPECT_EQ(reg.offset_loc.column, 44u);
}

TEST(SchemaTest, SpaceDefaultsFollowItsKind) {
  // README: widths default to [8, 16, 32] for pci-config, [64] for msr, all four otherwise.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: msr, kind: msr, size: 0x1000}
  - {name: mmio, kind: mmio, size: 0x1000, widths: [32], alignment: none, unclaimed: 0xFFFFFFFF}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  ASSERT_THAT(loaded.database.spaces, SizeIs(3));
  EXPECT_EQ(loaded.database.spaces[0].widths, WidthSet::Of({8, 16, 32}));
  EXPECT_EQ(loaded.database.spaces[1].widths, WidthSet::Of({64}));
  EXPECT_EQ(loaded.database.spaces[2].widths, WidthSet::Of({32}));
  EXPECT_TRUE(loaded.database.spaces[0].natural_alignment);
  EXPECT_FALSE(loaded.database.spaces[2].natural_alignment);
  EXPECT_EQ(loaded.database.spaces[2].unclaimed, 0xFFFFFFFFu);
}

// A capture's bus addresses map to the space its BAR names.
TEST(SchemaTest, SpacePciBarIsReadForMmioAndMemorySpaces) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: regs, kind: mmio, size: 0x1000, pci_bar: 0}
  - {name: vram, kind: memory, size: 0x1000, pci_bar: 2}
  - {name: other, kind: mmio, size: 0x1000}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  ASSERT_THAT(loaded.database.spaces, SizeIs(3));
  EXPECT_EQ(loaded.database.spaces[0].pci_bar, 0u);
  EXPECT_EQ(loaded.database.spaces[1].pci_bar, 2u);
  EXPECT_FALSE(loaded.database.spaces[2].pci_bar.has_value());
}

TEST(SchemaTest, SpacePciBarMustBeABarOfAMemorySpaceAndUnique) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: config, kind: pci-config, size: 0x100, pci_bar: 0}
  - {name: a, kind: mmio, size: 0x1000, pci_bar: 6}
  - {name: b, kind: mmio, size: 0x1000, pci_bar: 1}
  - {name: c, kind: mmio, size: 0x1000, pci_bar: 1}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 60, HasSubstr("pci_bar is only for mmio and memory spaces")),
                          ErrorAt(4, 50, HasSubstr("pci_bar 6 is out of range")),
                          ErrorAt(6, 50, HasSubstr("spaces 'b' and 'c' are both pci_bar 1"))))
      << Rendered(loaded);
}

// --- Keys -------------------------------------------------------------------

TEST(SchemaTest, UnknownKeyIsReportedAtTheKeyWithASuggestion) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: A
    space: mmio
    ofset: 0x10
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 5, AllOf(HasSubstr("unknown key 'ofset' in a register"),
                                              HasSubstr("(did you mean 'offset'?)"),
                                              HasSubstr("known keys: name, space, offset, width"))),
                          ErrorAt(5, 5, HasSubstr("register has no 'offset' (required)"))))
      << Rendered(loaded);
}

TEST(SchemaTest, UnknownKeyFarFromEveryKnownKeyHasNoSuggestion) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000, colour: red}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 44, AllOf(HasSubstr("unknown key 'colour' in a space"),
                                               Not(HasSubstr("did you mean")), HasSubstr("known keys: name, kind")))))
      << Rendered(loaded);
}

TEST(SchemaTest, UnknownTopLevelKeyIsReported) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
regsters: []
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 1, AllOf(HasSubstr("unknown key 'regsters' in a database file"),
                                              HasSubstr("did you mean 'registers'?")))))
      << Rendered(loaded);
}

TEST(SchemaTest, KeyGivenTwiceIsAnErrorWithANoteAtTheFirst) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: A
    space: mmio
    offset: 0x10
    offset: 0x20
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(8, 5, HasSubstr("key 'offset' given twice in a register")),
                                WithNotes(NoteAt(7, 5, HasSubstr("first given here"))))))
      << Rendered(loaded);
}

TEST(SchemaTest, EveryMissingRequiredKeyIsReportedAtOnce) {
  // OpenTitan's check_keys: all missing keys in one pass, at the mapping.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio}
registers:
  - doc: a register with nothing else
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 5, HasSubstr("space has no 'kind' (required)")),
                          ErrorAt(3, 5, HasSubstr("space has no 'size' (required)")),
                          ErrorAt(5, 5, HasSubstr("register has no 'name' (required)")),
                          ErrorAt(5, 5, HasSubstr("register has no 'space' (required)")),
                          ErrorAt(5, 5, HasSubstr("register has no 'offset' (required)"))))
      << Rendered(loaded);
}

TEST(SchemaTest, FieldAndEnumValueRequireTheirKeys) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: CTL
    space: mmio
    offset: 0
    fields:
      - {name: EN}
      - name: MODE
        bits: "3:1"
        values:
          - {name: FAST}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 9, HasSubstr("field has no 'bits' (required)")),
                          ErrorAt(13, 13, HasSubstr("enumerated value has no 'value' (required)"))))
      << Rendered(loaded);
}

TEST(SchemaTest, EmptyValueIsLocatedAtItsKey) {
  // yaml-cpp marks an empty value at the next token (here line 8); the error
  // belongs to the key that has no value.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: A
    space: mmio
    offset:
    width: 32
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 5, HasSubstr("expected offset as a number, got nothing (null)"))))
      << Rendered(loaded);
}

// --- Node kinds -------------------------------------------------------------

TEST(SchemaTest, WrongNodeKindsNameWhatWasExpectedAndWhatWasGiven) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces: {name: mmio, kind: mmio, size: 0x1000}
registers:
  - [name, A]
  - name: {B: 1}
    space: mmio
    offset: 0
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              UnorderedElementsAre(ErrorAt(2, 9, HasSubstr("expected spaces as a sequence, got a mapping")),
                                   ErrorAt(4, 5, HasSubstr("expected a register as a mapping, got a sequence")),
                                   ErrorAt(5, 11, HasSubstr("expected register name as a scalar, got a mapping"))))
      << Rendered(loaded);
}

TEST(SchemaTest, FileThatIsNotAMappingIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(- device: d
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(1, 1, HasSubstr("expected a database file as a mapping, got a sequence"))))
      << Rendered(loaded);
}

TEST(SchemaTest, NestedListsMustBeSequencesAndInstancesAMapping) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000, widths: 32}
registers:
  - {name: A, space: mmio, offset: 0, fields: {name: EN, bits: "0"}}
blocks:
  - {name: RING, space: mmio, instances: [RCS0, BCS0], registers: []}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 52, HasSubstr("expected widths as a sequence, got a scalar")),
                          ErrorAt(5, 47, HasSubstr("expected fields as a sequence, got a mapping")),
                          ErrorAt(7, 42, HasSubstr("expected block instances as a mapping INSTANCE: base, "
                                                   "got a sequence"))))
      << Rendered(loaded);
}

// --- Numbers ----------------------------------------------------------------

TEST(SchemaTest, QuotedNumberIsRejected) {
  // A quoted value is a string, never a number (YAML would keep "0x10" as text).
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: '4096'}
registers:
  - {name: A, space: mmio, offset: "0x10"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 36, HasSubstr("expected space size as a number, got a quoted string")),
                          ErrorAt(5, 36, HasSubstr("expected offset as a number, got a quoted string"))))
      << Rendered(loaded);
}

TEST(SchemaTest, BadNumberSyntaxIsReportedAtTheValue) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: A, space: mmio, offset: 0x1G}
  - {name: B, space: mmio, offset: 1__0}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 36, HasSubstr("offset: '0x1G' is not a number: 'G' is not a hexadecimal digit")),
                          ErrorAt(6, 36, HasSubstr("offset: '1__0' has '__' in it"))))
      << Rendered(loaded);
}

TEST(SchemaTest, WidthMustBeOneOfTheAccessWidths) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: A, space: mmio, offset: 0, width: 12}
  - {name: B, space: mmio, offset: 8, width: 128}
  - {name: C, space: mmio, offset: 16, width: 64}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 46, HasSubstr("width must be 8, 16, 32 or 64 bits, got 12")),
                          ErrorAt(6, 46, HasSubstr("width must be 8, 16, 32 or 64 bits, got 128"))))
      << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "C").width, 64u);
}

// The width is the only error: the register stays (at the next width up),
// so a behaviour naming it and its fields are not reported in cascade.
TEST(SchemaTest, ABadWidthDoesNotCascadeIntoUnknownRegisterErrors) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: UART_CTL
    space: mmio
    offset: 0
    width: 24
    fields:
      - {name: ENABLE, bits: 0, access: rw}
      - {name: DIVISOR, bits: "23:8", access: hw}
  - {name: UART_TICKS, space: mmio, offset: 8, width: 32, access: hw}
behaviours:
  - {kind: counter, register: UART_CTL, field: DIVISOR, period: 1us}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 12, HasSubstr("width must be 8, 16, 32 or 64 bits, got 24"))))
      << Rendered(loaded);
}

TEST(SchemaTest, NumbersOutOfTheirKeysRangeAreErrors) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0}
  - {name: big, kind: memory, size: 0x8000_0000_0000_0001}
  - {name: io, kind: mmio, size: 0x1000, widths: [8, 24]}
registers:
  - {name: "A{n}", space: io, offset: 0, array: {count: 0, stride: 4}}
  - {name: "B{n}", space: io, offset: 0, array: {count: 0x10_0001, stride: 4}}
  - {name: "C{n}", space: io, offset: 0, array: {count: 2, stride: 0}}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 36, HasSubstr("space size 0 is out of range [0x1, 0x8000000000000000]")),
                          ErrorAt(4, 37, HasSubstr("space size 0x8000_0000_0000_0001 is out of range")),
                          ErrorAt(5, 54, HasSubstr("access width must be 8, 16, 32 or 64 bits, got 24")),
                          ErrorAt(7, 57, HasSubstr("array count 0 is out of range [0x1, 0x100000]")),
                          ErrorAt(8, 57, HasSubstr("array count 0x10_0001 is out of range [0x1, 0x100000]")),
                          ErrorAt(9, 68, HasSubstr("array stride 0 is out of range [0x1, 0xffffffff]"))))
      << Rendered(loaded);
}

TEST(SchemaTest, LargestAllowedValuesAreAccepted) {
  // Boundaries: a 2^63-byte space and a 1<<20-element array pass the schema.
  // A small register budget stops the array at expansion, so the test
  // shows the count was accepted without building a million registers.
  LoadOptions options;
  options.max_registers = 10;
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: big, kind: memory, size: 0x8000_0000_0000_0000}
registers:
  - {name: "A{n}", space: big, offset: 0, width: 8, array: {count: 0x10_0000, stride: 1}}
)",
                                    options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 60, HasSubstr("database expands to more than 10 registers"))))
      << Rendered(loaded);
  ASSERT_THAT(loaded.database.spaces, SizeIs(1));
  EXPECT_EQ(loaded.database.spaces[0].size, uint64_t{1} << 63);
}

TEST(SchemaTest, BooleansAreUnquotedTrueOrFalse) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: A, space: mmio, offset: 0, volatile: yes}
  - {name: B, space: mmio, offset: 4, masked: "true"}
  - {name: C, space: mmio, offset: 8, volatile: true}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 49, HasSubstr("expected volatile as true or false")),
                          ErrorAt(6, 47, HasSubstr("expected masked as true or false"))))
      << Rendered(loaded);
  EXPECT_TRUE(Reg(loaded, "C").is_volatile);
}

TEST(SchemaTest, BitsAreCheckedAsABitRange) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: CTL
    space: mmio
    offset: 0
    fields:
      - {name: LOW, bits: "0:3"}
      - {name: HIGH, bits: "64"}
      - {name: OK, bits: "31:16"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 27, HasSubstr("have the high bit first: write \"3:0\"")),
                          ErrorAt(10, 28, HasSubstr("bit 64 is beyond bit 63"))))
      << Rendered(loaded);
}

// --- Names ------------------------------------------------------------------

TEST(SchemaTest, NamesMustBeCIdentifiers) {
  // README: datasheet names that are not identifiers are spelled with '_' (CEC0-0 is CEC0_0).
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: pci config, kind: pci-config, size: 0x100}
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: CEC0-0, space: mmio, offset: 0}
  - {name: CEC0_1, space: mmio, offset: 4, fields: [{name: 1-ST, bits: "0"}]}
  - {name: CEC0_2, space: mmio, offset: 8}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 12, HasSubstr("space name 'pci config' is not a C identifier")),
                          ErrorAt(6, 12, HasSubstr("register name 'CEC0-0' is not a C identifier")),
                          ErrorAt(7, 60, HasSubstr("field name '1-ST' is not a field name"))))
      << Rendered(loaded);
  // A register with a bad field keeps its place without the field; its neighbours load.
  ASSERT_NE(loaded.database.RegisterNamed("CEC0_1"), nullptr);
  EXPECT_TRUE(loaded.database.RegisterNamed("CEC0_1")->fields.empty());
  EXPECT_NE(loaded.database.RegisterNamed("CEC0_2"), nullptr);
}

// A field may keep a datasheet name that starts with a digit (HPET's
// Tn_32MODE_CNF is 32MODE_CNF), reached as REG.FIELD; a name that reads as
// a number, or has no letter, is refused. Registers and the rest stay C
// identifiers.
TEST(SchemaTest, AFieldNameMayStartWithADigit) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: T0_CONF
    space: mmio
    offset: 0
    fields:
      - {name: 32MODE_CNF, bits: 8}
      - {name: 0x10, bits: 9}
      - {name: 1_000, bits: 10}
      - {name: "12", bits: 11}
  - {name: 2ND, space: mmio, offset: 4}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 16, HasSubstr("field name '0x10' is not a field name")),
                          ErrorAt(11, 16, HasSubstr("field name '1_000' is not a field name")),
                          ErrorAt(12, 16, HasSubstr("field name '12' is not a field name")),
                          ErrorAt(13, 12, HasSubstr("register name '2ND' is not a C identifier"))))
      << Rendered(loaded);
  const Register* conf = loaded.database.RegisterNamed("T0_CONF");
  ASSERT_NE(conf, nullptr);
  ASSERT_EQ(conf->fields.size(), 1u);
  EXPECT_EQ(conf->fields[0].name, "32MODE_CNF");
  EXPECT_TRUE(IsFieldName("32MODE_CNF"));
  EXPECT_TRUE(IsFieldName("ENABLE_CNF"));
  EXPECT_FALSE(IsFieldName("0b101"));
  EXPECT_FALSE(IsFieldName("32MODE-CNF"));
}

TEST(SchemaTest, FieldAndEnumValueNamesAreUniqueInTheirScope) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: CTL
    space: mmio
    offset: 0
    fields:
      - name: MODE
        bits: "1:0"
        values: [{name: SLOW, value: 0}, {name: SLOW, value: 1}]
      - {name: MODE, bits: "2"}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(11, 49, HasSubstr("enumerated value 'SLOW' defined twice in field 'MODE'")),
                                // both point at the names, the part that clashes
                                WithNotes(NoteAt(11, 25, HasSubstr("first defined here")))),
                          AllOf(ErrorAt(12, 9, HasSubstr("field 'MODE' defined twice in register 'CTL'")),
                                WithNotes(NoteAt(9, 15, HasSubstr("first defined here"))))))
      << Rendered(loaded);
}

// --- Choices: access policies, space kinds ----------------------------------

TEST(SchemaTest, UnknownAccessPolicySuggestsTheClosestOne) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: STATUS
    space: mmio
    offset: 0
    access: rO
    fields:
      - {name: DONE, bits: "0", access: w1cc}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 41, AllOf(HasSubstr("unknown access policy 'w1cc' (did you mean 'w1c'?)"),
                                                HasSubstr("expected one of: rw, ro, wo, rc"), HasSubstr("mbz, hw"))),
                          ErrorAt(8, 13, HasSubstr("unknown access policy 'rO' (did you mean 'ro'?)"))))
      << Rendered(loaded);
}

TEST(SchemaTest, UnknownSpaceKindListsTheKnownOnes) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmmio, size: 0x1000}
  - {name: cfg, kind: pci_config, size: 0x100}
  - {name: other, kind: flash, size: 0x100}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 24, AllOf(HasSubstr("unknown space kind 'mmmio' (did you mean 'mmio'?)"),
                                               HasSubstr("expected one of: pci-config, mmio, msr, memory"))),
                          ErrorAt(4, 23, HasSubstr("unknown space kind 'pci_config' (did you mean 'pci-config'?)")),
                          ErrorAt(5, 25,
                                  AllOf(HasSubstr("unknown space kind 'flash'"), Not(HasSubstr("did you mean"))))))
      << Rendered(loaded);
}

TEST(SchemaTest, AccessDefaultsDependOnFields) {
  // README: `access` defaults to rw without fields, rsvd with fields; fields default to rw.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: PLAIN, space: mmio, offset: 0}
  - {name: SPLIT, space: mmio, offset: 4, fields: [{name: EN, bits: "0"}]}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "PLAIN").default_access, Access::kRw);
  EXPECT_EQ(Reg(loaded, "SPLIT").default_access, Access::kRsvd);
  EXPECT_EQ(Reg(loaded, "SPLIT").fields.at(0).access, Access::kRw);
}

TEST(SchemaTest, HwImpliesVolatile) {
  // README: `hw` "value maintained by hardware (a behaviour); implies volatile", even when volatile says false.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: TIMESTAMP, space: mmio, offset: 0, access: hw}
  - name: STATUS
    space: mmio
    offset: 4
    fields:
      - {name: COUNT, bits: "7:0", access: hw, volatile: false}
      - {name: EN, bits: "8", access: ro}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_TRUE(Reg(loaded, "TIMESTAMP").is_volatile);
  const Register& status = Reg(loaded, "STATUS");
  ASSERT_THAT(status.fields, SizeIs(2));
  EXPECT_TRUE(status.fields[0].is_volatile);
  EXPECT_FALSE(status.fields[1].is_volatile);
  EXPECT_FALSE(status.is_volatile);  // a hw field does not make the other bits volatile
}

TEST(SchemaTest, RegisterResetDefaultsToTheFieldsResets) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: CTL
    space: mmio
    offset: 0
    fields:
      - {name: MODE, bits: "3:1", reset: 5}
      - {name: EN, bits: "8", reset: 1}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "CTL").reset, 0x10Au);
  EXPECT_FALSE(Reg(loaded, "CTL").reset_given);
}

// --- Arrays -----------------------------------------------------------------

TEST(SchemaTest, ArrayExpandsIntoNumberedRegistersAtStrideOffsets) {
  LoadedDatabase loaded = CheckYaml(R"(device: hsw
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - name: OAPERF_A{n}
    space: mmio
    offset: 0x2800
    array: {count: 3, stride: 8}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), ElementsAre("OAPERF_A0", "OAPERF_A1", "OAPERF_A2"));
  EXPECT_EQ(Reg(loaded, "OAPERF_A0").offset, 0x2800u);
  EXPECT_EQ(Reg(loaded, "OAPERF_A1").offset, 0x2808u);
  EXPECT_EQ(Reg(loaded, "OAPERF_A2").offset, 0x2810u);
  const Register& last = Reg(loaded, "OAPERF_A2");
  ASSERT_TRUE(last.array.has_value());
  EXPECT_EQ(last.array->name_template, "OAPERF_A{n}");
  EXPECT_EQ(last.array->index, 2u);
  EXPECT_EQ(last.array->count, 3u);
  EXPECT_EQ(last.array->stride, 8u);
  EXPECT_EQ(last.array->first_offset, 0x2800u);
  EXPECT_EQ(last.loc.line, 5u);  // every element points back at the template
}

TEST(SchemaTest, ArrayStartNumbersTheFirstElement) {
  // Haswell's A counters 40..44 live apart from 0..39: `start` keeps the datasheet's names.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: "CEC{n}_0", space: mmio, offset: 0x100, array: {count: 2, stride: 8, start: 40}}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), ElementsAre("CEC40_0", "CEC41_0"));
  EXPECT_EQ(Reg(loaded, "CEC40_0").offset, 0x100u);
  EXPECT_EQ(Reg(loaded, "CEC41_0").offset, 0x108u);
  EXPECT_EQ(Reg(loaded, "CEC41_0").array->index, 1u);
  EXPECT_EQ(Reg(loaded, "CEC41_0").array->start, 40u);
}

TEST(SchemaTest, ArrayNameMustHoldThePlaceholderExactlyOnce) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: OAPERF_A, space: mmio, offset: 0, array: {count: 2, stride: 4}}
  - {name: "A{n}_{n}", space: mmio, offset: 0x100, array: {count: 2, stride: 4}}
  - {name: "B{n}", space: mmio, offset: 0x200}
  - {name: "{n}C", space: mmio, offset: 0x300, array: {count: 2, stride: 4}}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 12, HasSubstr("array register name 'OAPERF_A' must contain '{n}' exactly once")),
                          ErrorAt(6, 12, HasSubstr("array register name 'A{n}_{n}' must contain '{n}' exactly once")),
                          ErrorAt(7, 12, HasSubstr("register name 'B{n}' has '{n}' but the register has no 'array'")),
                          ErrorAt(8, 12, HasSubstr("array register name '{n}C' does not make C identifiers "
                                                   "(e.g. '0C')"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.registers, IsEmpty());
}

TEST(SchemaTest, ArrayRequiresCountAndStrideAndNoOtherKeys) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: "A{n}", space: mmio, offset: 0, array: {count: 2}}
  - {name: "B{n}", space: mmio, offset: 0x100, array: {count: 2, stride: 4, step: 4}}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 51, HasSubstr("array has no 'stride' (required)")),
                          ErrorAt(6, 77, AllOf(HasSubstr("unknown key 'step' in an array"),
                                               HasSubstr("known keys: count, stride, start")))))
      << Rendered(loaded);
}

// --- Blocks -----------------------------------------------------------------

TEST(SchemaTest, BlockInstancesPrefixNamesAndAddTheirBase) {
  // README: instance RCS0 of RING_TAIL is RCS0_RING_TAIL at base + offset.
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
blocks:
  - name: RING
    space: mmio
    instances: {RCS0: 0x2000, BCS0: 0x22000}
    registers:
      - {name: RING_TAIL, offset: 0x30}
      - {name: RING_HEAD, offset: 0x34}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded),
              ElementsAre("RCS0_RING_TAIL", "RCS0_RING_HEAD", "BCS0_RING_TAIL", "BCS0_RING_HEAD"));
  EXPECT_EQ(Reg(loaded, "RCS0_RING_TAIL").offset, 0x2030u);
  EXPECT_EQ(Reg(loaded, "RCS0_RING_HEAD").offset, 0x2034u);
  EXPECT_EQ(Reg(loaded, "BCS0_RING_TAIL").offset, 0x22030u);
  EXPECT_EQ(Reg(loaded, "BCS0_RING_HEAD").offset, 0x22034u);
  const Register& tail = Reg(loaded, "BCS0_RING_TAIL");
  EXPECT_EQ(tail.space_name, "mmio");
  ASSERT_TRUE(tail.block.has_value());
  EXPECT_EQ(tail.block->block, "RING");
  EXPECT_EQ(tail.block->instance, "BCS0");
  EXPECT_EQ(tail.block->base, 0x22000u);
  EXPECT_EQ(tail.block->local_name, "RING_TAIL");
  ASSERT_THAT(loaded.database.blocks, SizeIs(1));
  EXPECT_THAT(loaded.database.blocks[0].instances, SizeIs(2));
}

TEST(SchemaTest, ArraysInsideBlocksExpandPerInstance) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
blocks:
  - name: RING
    space: mmio
    instances: {RCS0: 0x2000, VCS0: 0x12000}
    registers:
      - {name: "CTX{n}", offset: 0x100, array: {count: 2, stride: 4}}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), ElementsAre("RCS0_CTX0", "RCS0_CTX1", "VCS0_CTX0", "VCS0_CTX1"));
  EXPECT_EQ(Reg(loaded, "VCS0_CTX1").offset, 0x12104u);
  EXPECT_EQ(Reg(loaded, "VCS0_CTX1").block->local_name, "CTX1");
  EXPECT_EQ(Reg(loaded, "VCS0_CTX1").array->first_offset, 0x12100u);
}

TEST(SchemaTest, BlockRegistersTakeTheirSpaceFromTheBlock) {
  // README: `space` in a block register is "inherited from the block, not allowed here".
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
blocks:
  - name: RING
    space: mmio
    instances: {RCS0: 0x2000}
    registers:
      - {name: RING_TAIL, space: mmio, offset: 0x30}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 34, HasSubstr("a block register has no 'space' of its own"))))
      << Rendered(loaded);
}

TEST(SchemaTest, BlockInstanceGivenTwiceIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
blocks:
  - name: RING
    space: mmio
    instances: {RCS0: 0x2000, RCS0: 0x3000, 1CS: 0x4000}
    registers:
      - {name: RING_TAIL, offset: 0x30}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(7, 31, HasSubstr("block instance 'RCS0' given twice in block 'RING'")),
                                WithNotes(NoteAt(7, 17, HasSubstr("first given here")))),
                          ErrorAt(7, 45, HasSubstr("block instance name '1CS' is not a C identifier"))))
      << Rendered(loaded);
  EXPECT_THAT(RegisterNames(loaded), ElementsAre("RCS0_RING_TAIL"));
  EXPECT_EQ(Reg(loaded, "RCS0_RING_TAIL").offset, 0x2030u);  // the first base is kept
}

TEST(SchemaTest, BlockNeedsItsKeysAndAtLeastOneInstance) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
blocks:
  - {name: RING, space: mmio, registers: []}
  - {name: EMPTY, space: mmio, instances: {}, registers: []}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 5, HasSubstr("block has no 'instances' (required)")),
                          ErrorAt(6, 43, HasSubstr("block 'EMPTY' has no instances"))))
      << Rendered(loaded);
}

// --- Ranges -----------------------------------------------------------------

TEST(SchemaTest, AliasRangeWithEnabledByLoads) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: mmio, kind: mmio, size: 0x10000}
  - {name: mchbar, kind: mmio, size: 0x8000}
registers:
  - {name: PCICMD, space: config, offset: 4, width: 16, fields: [{name: MSE, bits: "1"}]}
ranges:
  - name: MCHBAR_WINDOW
    kind: alias
    space: mmio
    base: 0x8000
    size: 0x8000
    target: {space: mchbar, offset: 0}
    widths: [32]
    writes: forward
    enabled_by: PCICMD.MSE
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  ASSERT_THAT(loaded.database.ranges, SizeIs(1));
  const Range& range = loaded.database.ranges[0];
  EXPECT_EQ(range.kind, RangeKind::kAlias);
  EXPECT_EQ(range.target_space_name, "mchbar");
  EXPECT_EQ(range.writes, AliasWrites::kForward);
  EXPECT_EQ(range.widths, WidthSet::Of({32}));
  ASSERT_TRUE(range.enabled_by.has_value());
  EXPECT_EQ(range.enabled_by->register_name, "PCICMD");
  EXPECT_EQ(range.enabled_by->field_name, "MSE");
}

TEST(SchemaTest, AliasOnlyKeysOnAReservedRangeAreErrors) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: mmio, kind: mmio, size: 0x10000}
ranges:
  - name: HOLE
    kind: reserved
    space: mmio
    base: 0x100
    size: 0x100
    target: {space: config, offset: 0}
    widths: [32]
    writes: ignore
    enabled_by: PCICMD.MSE
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 13, HasSubstr("'target' applies to alias ranges only; range 'HOLE' is reserved")),
                          ErrorAt(12, 13, HasSubstr("'widths' applies to alias ranges only")),
                          ErrorAt(13, 13, HasSubstr("'writes' applies to alias ranges only")),
                          ErrorAt(14, 17, HasSubstr("'enabled_by' applies to alias ranges only"))))
      << Rendered(loaded);
}

TEST(SchemaTest, EnabledByMustBeRegisterDotField) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
  - {name: mch, kind: mmio, size: 0x8000}
ranges:
  - {name: W1, kind: alias, space: mmio, base: 0x8000, size: 16, target: {space: mch, offset: 0}, enabled_by: PCICMD}
  - {name: W2, kind: alias, space: mmio, base: 0x9000, size: 16, target: {space: mch, offset: 0}, enabled_by: PCICMD.}
  - {name: W3, kind: alias, space: mmio, base: 0xA000, size: 16, target: {space: mch, offset: 0}, enabled_by: A.B.C}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 111, HasSubstr("enabled_by 'PCICMD' must be REGISTER.FIELD (e.g. PCICMD.MSE)")),
                          ErrorAt(7, 111, HasSubstr("enabled_by 'PCICMD.' must be REGISTER.FIELD")),
                          ErrorAt(8, 111, HasSubstr("enabled_by 'A.B.C' must be REGISTER.FIELD"))))
      << Rendered(loaded);
}

TEST(SchemaTest, AliasRangeNeedsATargetAndKnownWords) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
  - {name: mchbar, kind: mmio, size: 0x8000}
ranges:
  - {name: W1, kind: alias, space: mmio, base: 0x8000, size: 0x10}
  - {name: W2, kind: alias, space: mmio, base: 0x9000, size: 0x10, target: {space: mchbar, offset: 0}, writes: drop}
  - {name: W3, kind: window, space: mmio, base: 0xA000, size: 0x10}
  - {name: W4, kind: reserved, space: mmio, base: 0xFFFF_FFFF_FFFF_FFF0, size: 0x20}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(6, 5, HasSubstr("alias range 'W1' has no 'target' (required)")),
                          ErrorAt(7, 112, AllOf(HasSubstr("unknown alias write handling 'drop'"),
                                                HasSubstr("expected one of: ignore, forward"))),
                          ErrorAt(8, 22, HasSubstr("unknown range kind 'window'")),
                          ErrorAt(9, 80, HasSubstr("range 'W4' runs past the end of the 64-bit offset range"))))
      << Rendered(loaded);
}

// --- The top level ----------------------------------------------------------

TEST(SchemaTest, RootFileWithoutDeviceIsAnError) {
  LoadedDatabase loaded = CheckYaml(R"(doc: registers without a device
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(1, 1, HasSubstr("the device file has no 'device' (required: the device's name)"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.spaces, SizeIs(1));  // the rest of the file is still read
}

TEST(SchemaTest, DeviceNameMustBeAnIdentifier) {
  LoadedDatabase loaded = CheckYaml(R"(device: hsw-gt2
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(1, 9, HasSubstr("device name 'hsw-gt2' is not a C identifier"))))
      << Rendered(loaded);
}

TEST(SchemaTest, DeviceInAnIncludedFileIsAnErrorPointingBackAtTheRoot) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: hsw
include: [oa.yaml]
)"},
                                      {"oa.yaml", R"(device: hsw_oa
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
)"}},
                                     "device.yaml");
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(1, 9, HasSubstr("'device' belongs in the root file only")),
                                WithNotes(NoteAt(1, 9, HasSubstr("the device is named here"))))))
      << Rendered(loaded);
  const Diagnostic& d = loaded.diagnostics.all()[0];
  EXPECT_EQ(loaded.sources.file(d.loc.file).path, "oa.yaml");
  EXPECT_EQ(loaded.sources.file(d.notes[0].loc.file).path, "device.yaml");
  EXPECT_EQ(loaded.database.device, "hsw");
  EXPECT_THAT(loaded.database.spaces, SizeIs(1));
}

TEST(SchemaTest, RefDefaultsToTheFilesTopLevelRef) {
  // README: a register's `ref` defaults to the file's top-level `ref`; a block's `ref` to its registers.
  LoadedDatabase loaded = CheckYaml(R"(device: d
ref: "HSW PRM Observability"
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
registers:
  - {name: PLAIN, space: mmio, offset: 0}
  - {name: OWN, space: mmio, offset: 4, ref: "HSW PRM Observability, OACONTROL"}
blocks:
  - {name: RING, space: mmio, instances: {RCS0: 0x2000}, registers: [{name: TAIL, offset: 0}]}
  - name: CTX
    space: mmio
    ref: "PRM vol 2"
    instances: {RCS0: 0x3000}
    registers:
      - {name: CTL, offset: 0}
      - {name: MINE, offset: 4, ref: "errata"}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.ref, "HSW PRM Observability");
  EXPECT_EQ(Reg(loaded, "PLAIN").ref, "HSW PRM Observability");
  EXPECT_EQ(Reg(loaded, "OWN").ref, "HSW PRM Observability, OACONTROL");
  EXPECT_EQ(Reg(loaded, "RCS0_TAIL").ref, "HSW PRM Observability");
  EXPECT_EQ(Reg(loaded, "RCS0_CTL").ref, "PRM vol 2");
  EXPECT_EQ(Reg(loaded, "RCS0_MINE").ref, "errata");
}

TEST(SchemaTest, IncludedFileHasItsOwnDefaultRef) {
  LoadedDatabase loaded = CheckFiles({{"device.yaml", R"(device: hsw
ref: "root document"
include: [oa.yaml]
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: ROOT_REG, space: mmio, offset: 0}
)"},
                                      {"oa.yaml", R"(ref: "HSW PRM Observability"
registers:
  - {name: OA_REG, space: mmio, offset: 4}
)"}},
                                     "device.yaml");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(Reg(loaded, "ROOT_REG").ref, "root document");
  EXPECT_EQ(Reg(loaded, "OA_REG").ref, "HSW PRM Observability");
}

// --- Reporting every error, up to a limit -----------------------------------

TEST(SchemaTest, EveryErrorOfAFileIsReportedNotJustTheFirst) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmoi, size: 0x1000}
  - {name: io, kind: mmio, size: 0x1000}
registers:
  - {name: A, space: io, offset: 0, width: 12}
  - {name: B-1, space: io, offset: 4}
  - {name: C, space: io, offset: 8, acess: ro}
  - {name: D, space: io, offset: 12, fields: [{name: EN, bits: "0:1"}]}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 24, HasSubstr("unknown space kind 'mmoi'")),
                          ErrorAt(6, 44, HasSubstr("width must be 8, 16, 32 or 64 bits")),
                          ErrorAt(7, 12, HasSubstr("register name 'B-1' is not a C identifier")),
                          ErrorAt(8, 37, HasSubstr("unknown key 'acess' in a register (did you mean 'access'?)")),
                          ErrorAt(9, 64, HasSubstr("have the high bit first"))))
      << Rendered(loaded);
}

constexpr const char* kFiveBadRegisters = R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: A, space: mmio, offset: x1}
  - {name: B, space: mmio, offset: x2}
  - {name: C, space: mmio, offset: x3}
  - {name: D, space: mmio, offset: x4}
  - {name: E, space: mmio, offset: x5}
)";

TEST(SchemaTest, ErrorLimitKeepsTheFirstErrorsAndCountsTheRest) {
  LoadOptions options;
  options.error_limit = 3;
  LoadedDatabase loaded = CheckYaml(kFiveBadRegisters, options);
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(5, 36, HasSubstr("'x1' is not a number")),
                                                    ErrorAt(6, 36, HasSubstr("'x2' is not a number")),
                                                    ErrorAt(7, 36, HasSubstr("'x3' is not a number"))));
  EXPECT_EQ(loaded.diagnostics.error_count(), 5u);
  EXPECT_TRUE(loaded.diagnostics.truncated());
  EXPECT_THAT(Rendered(loaded), HasSubstr("note: 2 more error(s) not shown (limit 3)"));
}

TEST(SchemaTest, ErrorsUpToTheLimitAreNotTruncated) {
  LoadOptions options;
  options.error_limit = 5;
  LoadedDatabase loaded = CheckYaml(kFiveBadRegisters, options);
  EXPECT_THAT(loaded.diagnostics.all(), SizeIs(5));
  EXPECT_EQ(loaded.diagnostics.error_count(), 5u);
  EXPECT_FALSE(loaded.diagnostics.truncated());
  EXPECT_THAT(Rendered(loaded), Not(HasSubstr("more error(s) not shown")));
}


TEST(SchemaTest, ARegisterWithABadFieldIsStillDefinedSoReferencesToItDoNotCascade) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: TICKS
    space: mmio
    offset: 0x10
    access: hw
    fields:
      - {name: BAD, bits: "40:0", access: hw}  # 10:27, from the checker
      - {name: LOW, bits: "15:0", access: rw1c}
behaviours:
  - {kind: counter, register: TICKS, period: 10ns}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(11, 43, HasSubstr("unknown access policy 'rw1c'")),
                          ErrorAt(10, 27, HasSubstr("lie outside 32-bit register 'TICKS'"))))
      << Rendered(loaded);
  EXPECT_NE(loaded.database.RegisterNamed("TICKS"), nullptr);
}

}  // namespace
}  // namespace regemu::regdb
