// Diagnostics in the compiler style (diagnostics.hpp): `path:line:col:
// severity: message`, the source line and a caret, notes, the error limit;
// and the SourceSet positions they rely on.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"
#include "tests/regdb/test_support.hpp"

namespace regemu::regdb {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::SizeIs;
using testing_support::CheckYaml;
using testing_support::Rendered;

Diagnostic ErrorDiagnostic(SourceLoc loc, std::string message) {
  return Diagnostic{Severity::kError, loc, std::move(message), {}};
}

// --- FormatDiagnostic -------------------------------------------------------

TEST(FormatDiagnosticTest, RendersLocationSourceLineAndCaret) {
  SourceSet sources;
  uint32_t file = sources.Add("yaml/hsw/oa.yaml", "device: hsw\nregisters:\n  - name: OACONTROL\n");
  std::string out = FormatDiagnostic(sources, ErrorDiagnostic({file, 3, 11}, "register 'OACONTROL' is defined twice"));
  EXPECT_EQ(out,
            "yaml/hsw/oa.yaml:3:11: error: register 'OACONTROL' is defined twice\n"
            " 3 |   - name: OACONTROL\n"
            "   |           ^\n");
}

TEST(FormatDiagnosticTest, GutterWidensWithTheLineNumber) {
  std::string text;
  for (int i = 1; i < 12; ++i) text += "doc: line " + std::to_string(i) + "\n";
  SourceSet sources;
  uint32_t file = sources.Add("a.yaml", text);
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 11, 6}, "m")),
            "a.yaml:11:6: error: m\n"
            " 11 | doc: line 11\n"
            "    |      ^\n");
}

TEST(FormatDiagnosticTest, CaretKeepsTabsSoItLinesUpHoweverTabsRender) {
  SourceSet sources;
  uint32_t file = sources.Add("t.yaml", "device: d\n\tname:\tX\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 2, 8}, "bad name")),
            "t.yaml:2:8: error: bad name\n"
            " 2 | \tname:\tX\n"
            "   | \t     \t^\n");
}

TEST(FormatDiagnosticTest, CaretCountsAMultiByteCharacterOnce) {
  // Columns count bytes: 'n' is byte 13, after the two bytes of 'µ'.
  SourceSet sources;
  uint32_t file = sources.Add("u.yaml", "doc: \"\xC2\xB5s\", nme: X\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 1, 13}, "unknown key 'nme'")),
            "u.yaml:1:13: error: unknown key 'nme'\n"
            " 1 | doc: \"\xC2\xB5s\", nme: X\n"
            "   |            ^\n");
}

TEST(FormatDiagnosticTest, NotesFollowWithTheirOwnLocationAndSource) {
  SourceSet sources;
  uint32_t a = sources.Add("a.yaml", "registers:\n  - {name: X, offset: 0}\n");
  uint32_t b = sources.Add("b.yaml", "registers:\n  - {name: X, offset: 4}\n");
  Diagnostic d = ErrorDiagnostic({b, 2, 12}, "register 'X' is defined twice");
  d.notes.push_back({{a, 2, 12}, "first defined here"});
  EXPECT_EQ(FormatDiagnostic(sources, d),
            "b.yaml:2:12: error: register 'X' is defined twice\n"
            " 2 |   - {name: X, offset: 4}\n"
            "   |            ^\n"
            "a.yaml:2:12: note: first defined here\n"
            " 2 |   - {name: X, offset: 0}\n"
            "   |            ^\n");
}

TEST(FormatDiagnosticTest, WarningsSayWarning) {
  SourceSet sources;
  uint32_t file = sources.Add("w.yaml", "x: 1\n");
  Diagnostic d{Severity::kWarning, {file, 1, 1}, "careful", {}};
  EXPECT_EQ(FormatDiagnostic(sources, d), "w.yaml:1:1: warning: careful\n 1 | x: 1\n   | ^\n");
}

TEST(FormatDiagnosticTest, UnknownPositionShowsNoSource) {
  SourceSet sources;
  uint32_t file = sources.Add("f.yaml", "x: 1\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 0, 0}, "whole file")), "f.yaml: error: whole file\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({}, "no file at all")), "error: no file at all\n");
  // A position past the end of the file (yaml-cpp's end-of-input errors) has no line to show.
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 2, 1}, "at the end")), "f.yaml:2:1: error: at the end\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 9, 1}, "past it")), "f.yaml:9:1: error: past it\n");
}

TEST(FormatDiagnosticTest, LongLineIsWindowedAroundTheCaret) {
  // 120 bytes are shown, 60 of them before the caret, with "..." for what is cut.
  std::string line = std::string(199, 'a') + "X" + std::string(100, 'b');
  SourceSet sources;
  uint32_t file = sources.Add("min.yaml", line + "\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 1, 200}, "here")),
            "min.yaml:1:200: error: here\n"
            " 1 | ..." + std::string(60, 'a') + "X" + std::string(59, 'b') + "...\n" +
            "   |    " + std::string(60, ' ') + "^\n");
}

TEST(FormatDiagnosticTest, LongLineWindowAtEitherEndHasOneEllipsis) {
  std::string line = "X" + std::string(299, 'a') + "Y";
  SourceSet sources;
  uint32_t file = sources.Add("min.yaml", line);
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 1, 1}, "start")),
            "min.yaml:1:1: error: start\n"
            " 1 | X" + std::string(119, 'a') + "...\n" +
            "   | ^\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 1, 301}, "end")),
            "min.yaml:1:301: error: end\n"
            " 1 | ..." + std::string(60, 'a') + "Y\n" +
            "   |    " + std::string(60, ' ') + "^\n");
}

TEST(FormatDiagnosticTest, LineOfExactlyTheWindowIsNotCut) {
  std::string line(120, 'c');
  SourceSet sources;
  uint32_t file = sources.Add("w.yaml", line + "\n");
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 1, 61}, "m")),
            "w.yaml:1:61: error: m\n 1 | " + line + "\n   | " + std::string(60, ' ') + "^\n");
}

TEST(FormatDiagnosticTest, ControlBytesAreShownAsQuestionMarks) {
  // A terminal must never receive raw control bytes from a file (escape sequences, bells).
  SourceSet sources;
  uint32_t file = sources.Add("c.yaml", std::string("a\x01" "b\x7f" "c\x1b[2Jd\rz\n"));
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 1, 5}, "m")),
            "c.yaml:1:5: error: m\n"
            " 1 | a?b?c?[2Jd?z\n"
            "   |     ^\n");
}

TEST(FormatDiagnosticTest, RenderedLoadErrorReadsLikeACompiler) {
  LoadedDatabase loaded = CheckYaml(R"(device: d
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - name: A
    space: mmio
    offset: 0
    widht: 32
)");
  EXPECT_THAT(Rendered(loaded), HasSubstr("test.yaml:8:5: error: unknown key 'widht' in a register (did you mean "
                                          "'width'?); known keys: "));
  EXPECT_THAT(Rendered(loaded), HasSubstr("\n 8 |     widht: 32\n   |     ^\n"));
}

// --- The error limit --------------------------------------------------------

TEST(DiagnosticsTest, ErrorsPastTheLimitAreCountedNotStored) {
  Diagnostics diagnostics(2);
  diagnostics.Error({1, 1, 1}, "first");
  diagnostics.Error({1, 2, 1}, "second");
  EXPECT_FALSE(diagnostics.truncated());
  Diagnostic& third = diagnostics.Error({1, 3, 1}, "third");
  third.notes.push_back({{1, 4, 1}, "a note on a dropped error goes nowhere"});
  EXPECT_THAT(diagnostics.all(), SizeIs(2));
  EXPECT_EQ(diagnostics.all()[1].message, "second");
  EXPECT_THAT(diagnostics.all()[1].notes, IsEmpty());
  EXPECT_EQ(diagnostics.error_count(), 3u);
  EXPECT_TRUE(diagnostics.has_errors());
  EXPECT_TRUE(diagnostics.truncated());
}

TEST(DiagnosticsTest, WarningsAreNotLimitedAndAreNotErrors) {
  Diagnostics diagnostics(1);
  diagnostics.Warning(WarningCode::kCounterNotVolatile, {1, 1, 1}, "w1");
  diagnostics.Warning(WarningCode::kCounterNotVolatile, {1, 2, 1}, "w2");
  EXPECT_FALSE(diagnostics.has_errors());
  EXPECT_EQ(diagnostics.warning_count(), 2u);
  diagnostics.Error({1, 3, 1}, "e1");
  diagnostics.Error({1, 4, 1}, "e2");
  diagnostics.Warning(WarningCode::kCounterNotVolatile, {1, 5, 1}, "w3");
  EXPECT_THAT(diagnostics.all(), SizeIs(4));  // w1, w2, e1, w3
  EXPECT_EQ(diagnostics.all()[3].message, "w3");
  EXPECT_EQ(diagnostics.error_count(), 2u);
}

TEST(DiagnosticsTest, DefaultLimitIsFifty) {
  Diagnostics diagnostics;
  EXPECT_EQ(diagnostics.error_limit(), 50u);
  for (uint32_t i = 1; i <= 60; ++i) diagnostics.Error({1, i, 1}, "e");
  EXPECT_THAT(diagnostics.all(), SizeIs(50));
  EXPECT_EQ(diagnostics.error_count(), 60u);
}

TEST(DiagnosticsTest, FormatDiagnosticsSummarisesWhatWasDropped) {
  SourceSet sources;
  uint32_t file = sources.Add("e.yaml", "a: 1\nb: 2\nc: 3\n");
  Diagnostics diagnostics(1);
  diagnostics.Error({file, 1, 1}, "first");
  diagnostics.Error({file, 2, 1}, "second");
  diagnostics.Error({file, 3, 1}, "third");
  EXPECT_EQ(FormatDiagnostics(sources, diagnostics),
            "e.yaml:1:1: error: first\n 1 | a: 1\n   | ^\n"
            "note: 2 more error(s) not shown (limit 1)\n");
}

TEST(DiagnosticsTest, FormatDiagnosticsWithinTheLimitHasNoSummary) {
  SourceSet sources;
  uint32_t file = sources.Add("e.yaml", "a: 1\n");
  Diagnostics diagnostics(1);
  diagnostics.Error({file, 1, 1}, "only");
  EXPECT_EQ(FormatDiagnostics(sources, diagnostics), "e.yaml:1:1: error: only\n 1 | a: 1\n   | ^\n");
  EXPECT_EQ(FormatDiagnostics(sources, Diagnostics()), "");
}

TEST(DiagnosticsTest, SeverityNames) {
  EXPECT_STREQ(SeverityName(Severity::kError), "error");
  EXPECT_STREQ(SeverityName(Severity::kWarning), "warning");
  EXPECT_STREQ(SeverityName(Severity::kNote), "note");
}

// --- SourceSet --------------------------------------------------------------

TEST(SourceSetTest, FileZeroMeansNoFile) {
  SourceSet sources;
  EXPECT_EQ(sources.size(), 1u);
  EXPECT_EQ(sources.Add("a.yaml", "a"), 1u);
  EXPECT_EQ(sources.Add("b.yaml", "b"), 2u);
  EXPECT_EQ(sources.file(2).path, "b.yaml");
  EXPECT_EQ(sources.LineText({0, 1, 1}), "");
  EXPECT_FALSE(SourceLoc{}.known());
}

TEST(SourceSetTest, LocOfOffsetCountsLinesAndColumnsFromOne) {
  SourceSet sources;
  uint32_t file = sources.Add("f.yaml", "ab\ncd\n");
  EXPECT_EQ(sources.LocOfOffset(file, 0), (SourceLoc{file, 1, 1}));
  EXPECT_EQ(sources.LocOfOffset(file, 1), (SourceLoc{file, 1, 2}));
  EXPECT_EQ(sources.LocOfOffset(file, 2), (SourceLoc{file, 1, 3}));  // the newline ends line 1
  EXPECT_EQ(sources.LocOfOffset(file, 3), (SourceLoc{file, 2, 1}));
  EXPECT_EQ(sources.LocOfOffset(file, 5), (SourceLoc{file, 2, 3}));
  EXPECT_EQ(sources.LocOfOffset(file, 6), (SourceLoc{file, 3, 1}));  // the end of the file
}

TEST(SourceSetTest, LineTextDropsTheNewline) {
  SourceSet sources;
  uint32_t file = sources.Add("f.yaml", "first\n\nthird");
  EXPECT_EQ(sources.LineText({file, 1, 1}), "first");
  EXPECT_EQ(sources.LineText({file, 2, 1}), "");
  EXPECT_EQ(sources.LineText({file, 3, 4}), "third");  // the last line needs no newline
  EXPECT_EQ(sources.LineText({file, 4, 1}), "");
  EXPECT_EQ(sources.LineText({file, 0, 0}), "");
}

TEST(SourceSetTest, CrlfLineEndings) {
  // "a: 1\r\nbb: 2\r\n": the '\r' belongs to no line's text, and columns are unaffected.
  SourceSet sources;
  uint32_t file = sources.Add("dos.yaml", "a: 1\r\nbb: 2\r\n");
  EXPECT_EQ(sources.LineText({file, 1, 1}), "a: 1");
  EXPECT_EQ(sources.LineText({file, 2, 1}), "bb: 2");
  EXPECT_EQ(sources.LocOfOffset(file, 4), (SourceLoc{file, 1, 5}));  // the '\r'
  EXPECT_EQ(sources.LocOfOffset(file, 6), (SourceLoc{file, 2, 1}));
  EXPECT_EQ(sources.LocOfOffset(file, 9), (SourceLoc{file, 2, 4}));
  EXPECT_EQ(FormatDiagnostic(sources, ErrorDiagnostic({file, 2, 5}, "m")),
            "dos.yaml:2:5: error: m\n 2 | bb: 2\n   |     ^\n");
}

TEST(SourceSetTest, CrlfFileLoadsWithTheSamePositions) {
  LoadedDatabase loaded = CheckYaml("device: d\r\nspaces:\r\n  - {name: m, kind: mmio, size: 16, oops: 1}\r\n");
  ASSERT_THAT(loaded.diagnostics.all(), SizeIs(1)) << Rendered(loaded);
  EXPECT_EQ(loaded.diagnostics.all()[0].loc.line, 3u);
  EXPECT_EQ(loaded.diagnostics.all()[0].loc.column, 37u);
  EXPECT_THAT(Rendered(loaded), HasSubstr(" 3 |   - {name: m, kind: mmio, size: 16, oops: 1}\n"));
}

TEST(SourceSetTest, LoneCarriageReturnIsNotALineBreak) {
  SourceSet sources;
  uint32_t file = sources.Add("mac.yaml", "a\rb\n");
  EXPECT_EQ(sources.LineText({file, 1, 1}), "a\rb");
  EXPECT_EQ(sources.LocOfOffset(file, 2), (SourceLoc{file, 1, 3}));
}

}  // namespace
}  // namespace regemu::regdb
