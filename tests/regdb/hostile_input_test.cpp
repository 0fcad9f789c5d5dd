// Hostile input (yaml_tree.hpp InputLimits): deep nesting, alias bombs,
// binary or oversized files, expansions that overflow or exhaust the
// register budget, malformed YAML. Each is a located error found with
// bounded work, and loading never throws. No test measures time: work is
// bounded by showing where the loader stopped.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using namespace std::string_literals;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Le;
using ::testing::SizeIs;
using testing_support::CheckFiles;
using testing_support::CheckYaml;
using testing_support::ErrorAt;
using testing_support::NoteAt;
using testing_support::Rendered;

template <typename... Matchers>
auto WithNotes(Matchers... notes) {
  return Field(&Diagnostic::notes, ElementsAre(notes...));
}

// Loading must never throw, whatever the input.
LoadedDatabase Load(const std::string& yaml, const LoadOptions& options = {}) {
  LoadedDatabase loaded;
  EXPECT_NO_THROW(loaded = CheckYaml(yaml, options));
  return loaded;
}

LoadedDatabase LoadFiles(const std::map<std::string, std::string>& files, const std::string& root,
                         const LoadOptions& options = {}) {
  LoadedDatabase loaded;
  EXPECT_NO_THROW(loaded = CheckFiles(files, root, options));
  return loaded;
}

// --- Nesting ----------------------------------------------------------------

TEST(HostileInputTest, HundredThousandOpenBracketsStopAtTheDepthLimit) {
  LoadedDatabase loaded = Load(std::string(100'000, '['));
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(Field(&Diagnostic::message, HasSubstr("nesting deeper than 64 levels"))))
      << Rendered(loaded);
  // The parser gave up within the first 65 brackets, not after reading 100k.
  const SourceLoc& loc = loaded.diagnostics.all()[0].loc;
  EXPECT_EQ(loc.line, 1u);
  EXPECT_THAT(loc.column, Le(65u));
}

TEST(HostileInputTest, SixtyFourLevelsAreAllowedAndTheSixtyFifthIsNot) {
  // The root mapping is level 1: 63 sequences inside it make 64 levels.
  std::string at_limit = "device: d\ndoc: " + std::string(63, '[') + std::string(63, ']') + "\n";
  LoadedDatabase ok = Load(at_limit);
  EXPECT_THAT(ok.diagnostics.all(), ElementsAre(ErrorAt(2, 6, HasSubstr("expected doc as a scalar, got a sequence"))))
      << Rendered(ok);

  std::string past_limit = "device: d\ndoc: " + std::string(64, '[') + std::string(64, ']') + "\n";
  LoadedDatabase deep = Load(past_limit);
  EXPECT_THAT(deep.diagnostics.all(), ElementsAre(ErrorAt(2, 69, HasSubstr("nesting deeper than 64 levels"))))
      << Rendered(deep);
}

TEST(HostileInputTest, DepthLimitIsConfigurable) {
  LoadOptions options;
  options.limits.max_depth = 4;
  LoadedDatabase at_limit = Load("device: d\ndoc: {a: {b: {c: 1}}}\n", options);  // 4 levels
  EXPECT_THAT(at_limit.diagnostics.all(), ElementsAre(ErrorAt(2, 6, HasSubstr("expected doc as a scalar"))))
      << Rendered(at_limit);
  LoadedDatabase loaded = Load("device: d\ndoc: {a: {b: {c: {d: 1}}}}\n", options);
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(2, 18, HasSubstr("nesting deeper than 4 levels"))))
      << Rendered(loaded);
}

// --- Aliases ----------------------------------------------------------------

// Nine levels of nine aliases: fully expanded, 9^9 (387 million) "lol"s.
std::string BillionLaughs() {
  std::string text = "device: d\n";
  text += "a: &a [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n";
  const std::string levels = "abcdefghi";
  for (size_t level = 1; level < levels.size(); ++level) {
    text += std::string(1, levels[level]) + ": &" + levels[level] + " [";
    for (int i = 0; i < 9; ++i) text += (i ? ", *" : "*") + std::string(1, levels[level - 1]);
    text += "]\n";
  }
  return text;
}

TEST(HostileInputTest, BillionLaughsIsRejectedAtTheFirstAliasPastTheBudget) {
  // Level sizes are 10, 91, 820, 7381, 66430 nodes; the aliases of levels b..e
  // copy 74718 nodes, and the first '*e' of level f (line 7) would pass 100000.
  // Stopping there bounds the work to the budget plus one copy.
  LoadedDatabase loaded = Load(BillionLaughs());
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(7, 8, AllOf(HasSubstr("aliases expand to more than 100000 nodes"),
                                              HasSubstr("billion-laughs")))))
      << Rendered(loaded);
}

TEST(HostileInputTest, AliasBudgetIsConfigurable) {
  // With a budget of 1000, levels b and c copy 909 nodes; the first '*c' (820 more) on line 5 is refused.
  LoadOptions options;
  options.limits.max_alias_nodes = 1000;
  LoadedDatabase loaded = Load(BillionLaughs(), options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(5, 8, HasSubstr("aliases expand to more than 1000 nodes"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, ModestAliasesAreOrdinaryYaml) {
  // Sharing one field list between two registers is a legitimate use of anchors.
  LoadedDatabase loaded = Load(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: CEC0_0
    space: mmio
    offset: 0
    fields: &cec_fields
      - {name: SELECT, bits: "3:0"}
      - {name: ENABLE, bits: "31"}
  - {name: CEC0_1, space: mmio, offset: 4, fields: *cec_fields}
)");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  const Register* copy = loaded.database.RegisterNamed("CEC0_1");
  ASSERT_NE(copy, nullptr);
  EXPECT_THAT(copy->fields, SizeIs(2));
}

TEST(HostileInputTest, AliasInsideItsOwnSequenceIsRejected) {
  LoadedDatabase loaded = Load("device: d\ndoc: &x [*x]\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 10, HasSubstr("alias '*x' refers to a node that contains it"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, AliasInsideItsOwnMappingIsRejected) {
  LoadedDatabase loaded = Load("device: d\ndoc: &x {b: *x}\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 13, HasSubstr("alias '*x' refers to a node that contains it"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, AliasDeepInsideItsAnchorIsRejected) {
  LoadedDatabase loaded = Load("device: d\ndoc: &loop {a: [1, {b: [*loop]}]}\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 25, HasSubstr("alias '*loop' refers to a node that contains it"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, AliasOfAnUndefinedAnchorIsInvalidYaml) {
  LoadedDatabase loaded = Load("device: d\ndoc: *nowhere\n");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(2, 6, HasSubstr("invalid YAML"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, NodeBudgetStopsAtTheNodeThatExceedsIt) {
  // Nodes: the root mapping, device, d, doc, the sequence (5), then i0 is node 6:
  // node 21 is i15 on line 18.
  std::string yaml = "device: d\ndoc:\n";
  for (int i = 0; i < 30; ++i) yaml += "  - i" + std::to_string(i) + "\n";
  LoadOptions options;
  options.limits.max_nodes = 20;
  LoadedDatabase loaded = Load(yaml, options);
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(18, 5, HasSubstr("document has more than 20 nodes"))))
      << Rendered(loaded);
}

// --- Binary and oversized files ---------------------------------------------

TEST(HostileInputTest, NulByteIsRejectedAtItsPosition) {
  LoadedDatabase loaded = Load("device: d\ndoc: a\0b\n"s);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 7, AllOf(HasSubstr("not a text file"), HasSubstr("byte 16")))))
      << Rendered(loaded);
}

TEST(HostileInputTest, InvalidUtf8IsRejectedAtItsPosition) {
  LoadedDatabase loaded = Load("device: d\nspaces: []\ndoc: caf\xE9\n");  // Latin-1 'é'
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 9, AllOf(HasSubstr("not a text file"), HasSubstr("is not UTF-8 text")))))
      << Rendered(loaded);
}

TEST(HostileInputTest, IllFormedUtf8SequencesAreRejected) {
  // Well-formed means Unicode's table 3-7, not just "a lead byte and continuation bytes".
  for (const std::string& bad : {"\xC0\x80"s,            // overlong NUL
                                 "\xE0\x80\xAF"s,        // overlong '/'
                                 "\xED\xA0\x80"s,        // UTF-16 surrogate U+D800
                                 "\xF4\x90\x80\x80"s,    // U+110000, past Unicode
                                 "\xF8\x88\x80\x80\x80"s,  // 5-byte form
                                 "\xE2\x82"s}) {         // truncated at the end of the file
    LoadedDatabase loaded = Load("device: d\ndoc: " + bad);
    EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(2, 6, HasSubstr("not a text file"))))
        << Rendered(loaded);
  }
}

TEST(HostileInputTest, WellFormedUtf8IsText) {
  // A byte-order mark, then 2-, 3- and 4-byte characters.
  LoadedDatabase loaded =
      Load("\xEF\xBB\xBF" "device: d\ndoc: \"period \xC2\xB5s, \xE2\x89\xA4 80ns \xF0\x9F\x99\x82\"\n");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.doc, "period \xC2\xB5s, \xE2\x89\xA4 80ns \xF0\x9F\x99\x82");
}

TEST(HostileInputTest, RootFileOverTheSizeLimitIsRejected) {
  LoadOptions options;
  options.limits.max_file_bytes = 100;
  std::string yaml = "device: d\ndoc: " + std::string(200, 'x') + "\n";
  LoadedDatabase loaded = Load(yaml, options);
  ASSERT_THAT(loaded.diagnostics.all(),
              ElementsAre(Field(&Diagnostic::message,
                                HasSubstr("cannot read 'test.yaml': file is 216 bytes, more than the limit of 100"))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.sources.size(), 1u);  // never stored
}

TEST(HostileInputTest, IncludedFileOverTheSizeLimitIsAnErrorAtItsInclude) {
  LoadOptions options;
  options.limits.max_file_bytes = 100;
  std::string exactly_100 = "doc: " + std::string(94, 'x') + "\n";
  ASSERT_EQ(exactly_100.size(), 100u);
  LoadedDatabase loaded = LoadFiles({{"device.yaml", "device: d\ninclude: [fits.yaml, big.yaml]\n"},
                                     {"fits.yaml", exactly_100},
                                     {"big.yaml", exactly_100 + " "}},
                                    "device.yaml", options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 22, HasSubstr("cannot read 'big.yaml': file is 101 bytes, more than the limit"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, TotalSizeOfAllFilesIsLimited) {
  std::string root = "device: d\ninclude: [a.yaml, b.yaml]\n";
  std::string a = "doc: " + std::string(50, 'a') + "\n";
  std::string b = "doc: " + std::string(50, 'b') + "\n";
  LoadOptions options;
  options.limits.max_total_bytes = root.size() + a.size() + b.size() - 1;
  LoadedDatabase loaded = LoadFiles({{"device.yaml", root}, {"a.yaml", a}, {"b.yaml", b}}, "device.yaml", options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 19, HasSubstr("database files total more than " +
                                                   std::to_string(options.limits.max_total_bytes) + " bytes"))))
      << Rendered(loaded);

  options.limits.max_total_bytes += 1;  // exactly the total is allowed
  LoadedDatabase fits = LoadFiles({{"device.yaml", root}, {"a.yaml", a}, {"b.yaml", b}}, "device.yaml", options);
  EXPECT_THAT(fits.diagnostics.all(), IsEmpty()) << Rendered(fits);
}

TEST(HostileInputTest, NumberOfFilesIsLimited) {
  LoadOptions options;
  options.limits.max_files = 2;
  LoadedDatabase loaded = LoadFiles({{"device.yaml", "device: d\ninclude: [a.yaml, b.yaml, c.yaml]\n"},
                                     {"a.yaml", "spaces: [{name: mmio, kind: mmio, size: 16}]\n"},
                                     {"b.yaml", "doc: b\n"},
                                     {"c.yaml", "doc: c\n"}},
                                    "device.yaml", options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(2, 19, HasSubstr("database has more than 2 files")),
                          ErrorAt(2, 27, HasSubstr("database has more than 2 files"))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.sources.size(), 3u);  // "no file", device.yaml and a.yaml
  EXPECT_THAT(loaded.database.spaces, SizeIs(1));
}

// --- Expansion: offsets and the register budget -----------------------------

TEST(HostileInputTest, ArrayWhoseLastElementOverflowsSixtyFourBitsIsAnError) {
  // 2^20 elements at stride 2^32-1 from 0xFFFF_F000_0000_0000 run past 2^64.
  LoadOptions options;
  options.max_registers = size_t{1} << 21;  // the budget is not what stops it
  LoadedDatabase loaded = Load(R"(device: d
spaces:
  - {name: mem, kind: memory, size: 0x8000_0000_0000_0000}
registers:
  - name: HUGE{n}
    space: mem
    offset: 0xFFFF_F000_0000_0000
    array: {count: 0x10_0000, stride: 0xFFFF_FFFF}
)",
                               options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(8, 12, HasSubstr("array of 1048576 elements at stride 0xffffffff overflows "
                                                   "64-bit offsets"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.registers, IsEmpty());
}

TEST(HostileInputTest, BlockBasePlusOffsetOverflowIsAnError) {
  LoadedDatabase loaded = Load(R"(device: d
spaces:
  - {name: mem, kind: memory, size: 0x8000_0000_0000_0000}
blocks:
  - name: TOP
    space: mem
    instances: {HIGH: 0xFFFF_FFFF_FFFF_FFF0}
    registers:
      - {name: R, offset: 0x20}
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(9, 27, HasSubstr("offset 0x20 + base 0xfffffffffffffff0 overflows 64 bits"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.registers, IsEmpty());
}

TEST(HostileInputTest, RegisterBudgetIsAnErrorNotAnAllocation) {
  LoadOptions options;
  options.max_registers = 8;
  LoadedDatabase loaded = Load(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: A, space: mmio, offset: 0}
  - {name: B, space: mmio, offset: 4}
  - name: MANY{n}
    space: mmio
    offset: 0x100
    array: {count: 7, stride: 4}
)",
                               options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 12, HasSubstr("database expands to more than 8 registers"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.registers, SizeIs(2));  // nothing of the array was built
}

TEST(HostileInputTest, RegisterBudgetCountsBlockInstances) {
  // 4 instances of 2 registers need 8; the budget of 5 stops at instance 3's second register.
  LoadOptions options;
  options.max_registers = 5;
  LoadedDatabase loaded = Load(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
blocks:
  - name: RING
    space: mmio
    instances: {R0: 0x1000, R1: 0x2000, R2: 0x3000, R3: 0x4000}
    registers:
      - {name: HEAD, offset: 0}
      - {name: TAIL, offset: 4}
)",
                               options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(10, 16, HasSubstr("database expands to more than 5 registers"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.registers, SizeIs(5));
}

TEST(HostileInputTest, RegisterBudgetSpansEveryFile) {
  LoadOptions options;
  options.max_registers = 3;
  LoadedDatabase loaded = LoadFiles({{"device.yaml", R"(device: d
include: [more.yaml]
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: A, space: mmio, offset: 0}
  - {name: B, space: mmio, offset: 4}
)"},
                                     {"more.yaml", R"(registers:
  - {name: C, space: mmio, offset: 8}
  - {name: D, space: mmio, offset: 12}
)"}},
                                    "device.yaml", options);
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 12, HasSubstr("database expands to more than 3 registers"))))
      << Rendered(loaded);
  EXPECT_THAT(loaded.database.registers, SizeIs(3));
}

// --- Malformed YAML ---------------------------------------------------------

TEST(HostileInputTest, SecondDocumentInAFileIsRejected) {
  LoadedDatabase loaded = Load(R"(device: d
---
device: e
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(3, 1, HasSubstr("expected one YAML document per file, found a second one"))))
      << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "");  // nothing of the file is used
}

TEST(HostileInputTest, DocumentEndMarkerAloneIsFine) {
  LoadedDatabase loaded = Load("%YAML 1.2\n---\ndevice: d\n...\n");
  EXPECT_THAT(loaded.diagnostics.all(), IsEmpty()) << Rendered(loaded);
  EXPECT_EQ(loaded.database.device, "d");
}

TEST(HostileInputTest, UnclosedBracketIsInvalidYamlWithANoteAtTheBracket) {
  // yaml-cpp gives up on line 3, far from the cause; the note points at the '['.
  LoadedDatabase loaded = Load(R"(device: d
spaces: [{name: mmio, kind: mmio, size: 16}
doc: unterminated
)");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(3, 1, HasSubstr("invalid YAML: end of sequence flow not found")),
                                WithNotes(NoteAt(2, 9, HasSubstr("the '[' opened here is not closed"))))))
      << Rendered(loaded);
}

TEST(HostileInputTest, UnclosedBraceIsInvalidYamlWithANoteAtTheBrace) {
  LoadedDatabase loaded = Load("device: d\ndoc: [1, {a: 2, b: [3]\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(AllOf(ErrorAt(3, 1, HasSubstr("invalid YAML: end of map flow not found")),
                                WithNotes(NoteAt(2, 10, HasSubstr("the '{' opened here is not closed"))))))
      << Rendered(loaded);
}

TEST(HostileInputTest, BadIndentationIsInvalidYamlAtItsPosition) {
  LoadedDatabase loaded = Load("device: d\n  doc: x\n");
  EXPECT_THAT(loaded.diagnostics.all(), ElementsAre(ErrorAt(2, 6, HasSubstr("invalid YAML"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, EmptyRootFileIsAnError) {
  for (const std::string& empty : {""s, "\n\n"s, "# only a comment\n"s, "---\n"s}) {
    LoadedDatabase loaded = Load(empty);
    EXPECT_THAT(loaded.diagnostics.all(),
                ElementsAre(ErrorAt(1, 1, HasSubstr("the device file is empty: expected a mapping with 'device'"))))
        << "input: '" << empty << "'\n"
        << Rendered(loaded);
  }
}

TEST(HostileInputTest, ScalarRootIsAnError) {
  LoadedDatabase loaded = Load("just some text\n");
  EXPECT_THAT(loaded.diagnostics.all(),
              ElementsAre(ErrorAt(1, 1, HasSubstr("expected a database file as a mapping, got a scalar"))))
      << Rendered(loaded);
}

TEST(HostileInputTest, OddInputsNeverThrowAndAlwaysSayWhy) {
  // Every one of these is wrong somehow; each must be reported, never thrown.
  const std::vector<std::string> inputs = {
      "{",        "}",          "]",          ":",          "&",           "*",          "? : -",
      "[a, b}",   "!!binary x", "device: !",  "%YAML 9.9",  "device: \"\\", "- - - - -",  "\t- x",
      "\xEF\xBB", "<<: *x",     "device: [d]", "? [a]\n: b", "device: d\n\x7F: 1", "a: &a 1\nb: &a 2\nc: *a",
  };
  for (const std::string& input : inputs) {
    LoadedDatabase loaded = Load(input);
    EXPECT_TRUE(loaded.diagnostics.has_errors()) << "input: '" << input << "'";
  }
}

}  // namespace
}  // namespace regemu::regdb
