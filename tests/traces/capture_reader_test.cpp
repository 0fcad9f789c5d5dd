// CaptureReader (capture_reader.hpp) streaming over an istringstream: the
// line numbers it gives records and problems, the bounded problem list, what
// it does with lines too long for its buffer, NULs, a last line without a
// newline, CRLF, a given or detected format, and input that is no capture.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "tools/traces/capture_reader.hpp"

namespace regemu::traces {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Optional;

struct ReadAll {
  std::vector<CaptureRecord> records;
  std::vector<CaptureProblem> problems;
  uint64_t problem_count = 0;
  uint64_t lines = 0;
  uint64_t bytes = 0;
  std::optional<CaptureFormat> format;
  bool read_failed = false;
  std::string described;

  std::vector<uint64_t> RecordLines() const {
    std::vector<uint64_t> lines_of;
    for (const CaptureRecord& r : records) lines_of.push_back(r.line);
    return lines_of;
  }
  std::vector<uint64_t> ProblemLines() const {
    std::vector<uint64_t> lines_of;
    for (const CaptureProblem& p : problems) lines_of.push_back(p.line);
    return lines_of;
  }
};

ReadAll Read(const std::string& text, CaptureReaderOptions options = {}) {
  std::istringstream in(text);
  CaptureReader reader(in, "capture.txt", options);
  ReadAll all;
  CaptureRecord record;
  while (reader.Next(record)) all.records.push_back(record);
  all.problems = reader.problems();
  all.problem_count = reader.problem_count();
  all.lines = reader.lines();
  all.bytes = reader.bytes();
  all.format = reader.format();
  all.read_failed = reader.read_failed();
  all.described = reader.DescribeProblems();
  return all;
}

const char kMmiotrace[] =
    "VERSION 20070824\n"                                                                  // 1
    "PCIDEV 0010 80868a52 10 a0000004 0 0 0 0 0 0 1000000 0 0 0 0 0 0 i915\n"             // 2
    "\n"                                                                                  // 3
    "MAP 0.000100 1 0xa0000000 0xffffc90010000000 0x1000000 0x0 0\n"                      // 4
    "R 4 0.000200 1 0xa0190010 0x0 0x0 0\n"                                               // 5
    "R 3 0.000210 1 0xa0190010 0x0 0x0 0\n"                                               // 6: bad width
    "MARK 0.000220 probe\n"                                                               // 7
    "garbage\n"                                                                           // 8
    "W 4 0.000230 1 0xa000a278 0x10001 0x0 0\n";                                          // 9

TEST(CaptureReader, RecordsAndProblemsCarryTheirLineNumbers) {
  ReadAll all = Read(kMmiotrace);
  EXPECT_THAT(all.RecordLines(), ElementsAre(1u, 2u, 4u, 5u, 7u, 9u));
  EXPECT_THAT(all.ProblemLines(), ElementsAre(6u, 8u));
  EXPECT_EQ(all.problem_count, 2u);
  EXPECT_EQ(all.lines, 9u);
  EXPECT_EQ(all.bytes, sizeof kMmiotrace - 1);
  EXPECT_THAT(all.format, Optional(CaptureFormat::kMmiotrace));
  EXPECT_FALSE(all.read_failed);
  EXPECT_EQ(all.described,
            "capture.txt:6: error: bad access width '3' (1, 2, 4 or 8 bytes)\n"
            "capture.txt:8: error: unknown mmiotrace record 'garbage'\n");
}

TEST(CaptureReader, ProblemsAreCappedButAllCounted) {
  std::string text = "VERSION 20070824\n";
  for (int i = 0; i < 10; ++i) text += "R 3 0.000210 1 0xa0190010 0x0 0x0 0\n";  // lines 2..11
  text += "R 4 0.000210 1 0xa0190010 0x0 0x0 0\n";                              // line 12
  CaptureReaderOptions options;
  options.max_problems = 3;
  ReadAll all = Read(text, options);
  EXPECT_THAT(all.ProblemLines(), ElementsAre(2u, 3u, 4u));
  EXPECT_EQ(all.problem_count, 10u);
  EXPECT_THAT(all.RecordLines(), ElementsAre(1u, 12u));
  EXPECT_THAT(all.described, HasSubstr("capture.txt:4: error: bad access width '3'"));
  EXPECT_THAT(all.described, HasSubstr("capture.txt: 7 more malformed line(s) not shown\n"));
}

TEST(CaptureReader, NoProblemsKeptStillCountsThem) {
  CaptureReaderOptions options;
  options.max_problems = 0;
  ReadAll all = Read(kMmiotrace, options);
  EXPECT_THAT(all.problems, IsEmpty());
  EXPECT_EQ(all.problem_count, 2u);
}

// The line buffer is bounded: a longer line is reported, skipped whole,
// and the next line reads as if nothing happened.
TEST(CaptureReader, AnOverLongLineIsReportedAndSkipped) {
  CaptureReaderOptions options;
  options.max_line_length = 48;
  std::string text = "VERSION 20070824\n"
                     "MARK 0.000100 " + std::string(500, 'x') + "\n"
                     "R 4 0.000200 1 0xa0190010 0x80000000 0x0 0\n"
                     "MARK 0.000300 " + std::string(49, 'y') + "\n"
                     "MARK 0.000400 short\n";
  ReadAll all = Read(text, options);
  EXPECT_THAT(all.ProblemLines(), ElementsAre(2u, 4u));
  ASSERT_FALSE(all.problems.empty());
  EXPECT_EQ(all.problems[0].message, "line longer than 48 bytes; skipped");
  ASSERT_EQ(all.records.size(), 3u);
  EXPECT_EQ(all.records[1].line, 3u);
  EXPECT_EQ(all.records[1].value, 0x80000000u);
  EXPECT_EQ(all.records[2].line, 5u);
  EXPECT_EQ(all.records[2].text, "short");
  EXPECT_EQ(all.lines, 5u);
  EXPECT_EQ(all.bytes, text.size());  // the skipped bytes count too
}

TEST(CaptureReader, AnOverLongLastLineWithoutNewline) {
  CaptureReaderOptions options;
  options.max_line_length = 48;
  std::string text = "VERSION 20070824\nMARK 0.000100 " + std::string(500, 'x');
  ReadAll all = Read(text, options);
  EXPECT_THAT(all.ProblemLines(), ElementsAre(2u));
  EXPECT_THAT(all.RecordLines(), ElementsAre(1u));
  EXPECT_EQ(all.lines, 2u);
  EXPECT_EQ(all.bytes, text.size());
}

// A line of exactly max_line_length bytes is not too long.
TEST(CaptureReader, ALineOfTheMaximumLengthIsRead) {
  const std::string line = "R 4 0.000200 1 0xa0190010 0x80000000 0x0 0";
  CaptureReaderOptions options;
  options.max_line_length = line.size();
  ReadAll all = Read("VERSION 20070824\n" + line + "\n" + line + "\r\n", options);
  EXPECT_THAT(all.problems, IsEmpty());
  EXPECT_THAT(all.RecordLines(), ElementsAre(1u, 2u, 3u));
}

// Binary garbage: a NUL ends the line for every parser.
TEST(CaptureReader, ANulEndsTheLine) {
  std::string text = "VERSION 20070824\n";
  text += std::string("R 4 0.000200 1 0xa0190010 0x1 0x0 0") + '\0' + "\x01\x02 trailing junk\n";
  text += std::string(1, '\0') + "W 4 0.000210 1 0xa0190010 0x2 0x0 0\n";  // a NUL first: an empty line
  text += "W 4 0.000220 1 0xa0190010 0x3 0x0 0\n";
  ReadAll all = Read(text);
  EXPECT_THAT(all.problems, IsEmpty());
  EXPECT_THAT(all.RecordLines(), ElementsAre(1u, 2u, 4u));
  ASSERT_EQ(all.records.size(), 3u);
  EXPECT_EQ(all.records[1].value, 1u);
  EXPECT_EQ(all.records[2].value, 3u);
  EXPECT_EQ(all.bytes, text.size());
}

TEST(CaptureReader, TheLastLineNeedsNoNewline) {
  std::string text = "VERSION 20070824\nR 4 0.000200 1 0xa0190010 0x1 0x0 0";
  ReadAll all = Read(text);
  EXPECT_THAT(all.RecordLines(), ElementsAre(1u, 2u));
  EXPECT_EQ(all.records.back().value, 1u);
  EXPECT_EQ(all.lines, 2u);
  EXPECT_EQ(all.bytes, text.size());
}

TEST(CaptureReader, EmptyInputHasNoRecordsAndNoFormat) {
  ReadAll all = Read("");
  EXPECT_THAT(all.records, IsEmpty());
  EXPECT_THAT(all.problems, IsEmpty());
  EXPECT_EQ(all.lines, 0u);
  EXPECT_EQ(all.format, std::nullopt);
  EXPECT_FALSE(all.read_failed);
}

// Captures copied through Windows: every format reads CRLF lines alike.
TEST(CaptureReader, CrlfMmiotrace) {
  ReadAll all = Read(
      "VERSION 20070824\r\n"
      "PCIDEV 0010 80868a52 10 a0000004 0 0 0 0 0 0 1000000 0 0 0 0 0 0 i915\r\n"
      "PCIDEV 0000 80869b61 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \r\n"
      "\r\n"
      "MARK 0.000150 i915 probe\r\n"
      "R 4 0.000200 1 0xa0190010 0x80000000 0x0 0\r\n");
  EXPECT_THAT(all.problems, IsEmpty());
  ASSERT_EQ(all.records.size(), 5u);
  EXPECT_EQ(all.records[1].pci.driver, "i915");
  EXPECT_THAT(all.records[2].pci.driver, IsEmpty());
  EXPECT_EQ(all.records[3].text, "i915 probe");
  EXPECT_EQ(all.records[4].line, 6u);
  EXPECT_EQ(all.records[4].value, 0x80000000u);
}

TEST(CaptureReader, CrlfI915RegRwAndRegisterLog) {
  ReadAll i915 = Read(
      "# tracer: nop\r\n"
      "#\r\n"
      "  kworker/u16:3-123   [002] .... 1234.567890: i915_reg_rw: read reg=0x2358, len=4, val=(0x1, 0x0)\r\n");
  EXPECT_THAT(i915.problems, IsEmpty());
  EXPECT_THAT(i915.format, Optional(CaptureFormat::kI915RegRw));
  EXPECT_THAT(i915.RecordLines(), ElementsAre(3u));

  ReadAll log = Read("# intel_reg dump\r\nR 0x2358: 0x1\r\nW64 0x2358: 0x2\r\n");
  EXPECT_THAT(log.problems, IsEmpty());
  EXPECT_THAT(log.format, Optional(CaptureFormat::kRegisterLog));
  ASSERT_EQ(log.records.size(), 2u);
  EXPECT_EQ(log.records[1].width, 8u);
  EXPECT_EQ(log.records[1].value, 2u);
}

// Detection takes the first meaningful line; comments before it are not problems.
TEST(CaptureReader, FormatIsDetectedFromTheFirstMeaningfulLine) {
  std::istringstream in("# a register log\n\n  # indented comment\nR 0x2358: 0x1\n");
  CaptureReader reader(in, "capture.txt");
  EXPECT_EQ(reader.format(), std::nullopt);
  CaptureRecord record;
  ASSERT_TRUE(reader.Next(record));
  EXPECT_THAT(reader.format(), Optional(CaptureFormat::kRegisterLog));
  EXPECT_EQ(record.line, 4u);
  EXPECT_FALSE(reader.Next(record));
  EXPECT_THAT(reader.problems(), IsEmpty());
}

// A given format is known before any line and is not second-guessed: lines
// of another format are that format's malformed lines.
TEST(CaptureReader, AGivenFormatIsNotSecondGuessed) {
  CaptureReaderOptions options;
  options.format = CaptureFormat::kRegisterLog;
  std::istringstream in("R 4 0.000200 1 0xa0190010 0x1 0x0 0\nR 0x2358: 0x1\n");
  CaptureReader reader(in, "capture.txt", options);
  EXPECT_THAT(reader.format(), Optional(CaptureFormat::kRegisterLog));
  CaptureRecord record;
  ASSERT_TRUE(reader.Next(record));
  EXPECT_EQ(record.line, 2u);
  EXPECT_EQ(record.address, 0x2358u);
  ASSERT_EQ(reader.problems().size(), 1u);
  EXPECT_EQ(reader.problems()[0].line, 1u);
  EXPECT_EQ(reader.problems()[0].message, "want R|W[8|16|32|64] 0xOFFSET: 0xVALUE");
}

TEST(CaptureReader, AGivenI915FormatReadsWithoutAHeader) {
  CaptureReaderOptions options;
  options.format = CaptureFormat::kI915RegRw;
  ReadAll all = Read("  a-1 [000] .... 1.000000: i915_reg_rw: write reg=0x62, len=2, val=(0xbeef, 0x0)\n", options);
  EXPECT_THAT(all.problems, IsEmpty());
  ASSERT_EQ(all.records.size(), 1u);
  EXPECT_EQ(all.records[0].value, 0xbeefu);
}

// trace_pipe output has no `# tracer:` header, and i915:* events other than
// i915_reg_rw may come first, from tasks called anything: they are skipped
// without a word, before the format is known as after.
TEST(CaptureReader, TracePipeOutputStartingWithOtherEvents) {
  ReadAll all = Read(
      "     Web Content-5678  [001] .... 1234.567800: i915_request_add: dev=0, engine=0:0, ctx=1, seqno=2\n"
      "    Xwayland-901   [000] ....  1234.567850: i915_gem_object_create: obj=0xffff8881, size=0x1000\n"
      "  kworker/u16:3-123   [002] .... 1234.567890: i915_reg_rw: read reg=0x2358, len=4, val=(0x1, 0x0)\n"
      "       rcu_sched-10    [003] d.h.  1234.567891: irq_handler_entry: irq=30 name=i915\n"
      "  kworker/u16:3-123   [002] .... 1234.567900: i915_reg_rw: write reg=0xa188, len=4, val=(0x10001, 0x0)\n");
  EXPECT_THAT(all.problems, IsEmpty());
  EXPECT_THAT(all.format, Optional(CaptureFormat::kI915RegRw));
  EXPECT_THAT(all.RecordLines(), ElementsAre(3u, 5u));
}

// Input that is no capture at all: every line a problem, nothing else.
TEST(CaptureReader, GarbageOnly) {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += "\x7f" "ELF" + std::string(static_cast<size_t>(i % 17), static_cast<char>(0x80 + i % 64)) + "\n";
  }
  text += std::string(200'000, 'z');  // and a long last line with no newline
  ReadAll all = Read(text);
  EXPECT_THAT(all.records, IsEmpty());
  EXPECT_EQ(all.format, std::nullopt);
  EXPECT_EQ(all.problem_count, 301u);
  EXPECT_EQ(all.problems.size(), 100u);  // the default max_problems
  EXPECT_EQ(all.problems[0].message,
            "not a line of any capture format regemu reads (mmiotrace, i915_reg_rw, R/W log)");
  EXPECT_EQ(all.lines, 301u);
  EXPECT_FALSE(all.read_failed);
  EXPECT_THAT(all.described, HasSubstr("capture.txt: 201 more malformed line(s) not shown"));
}

TEST(CaptureReader, DescribeReadsLikeEveryRegemuDiagnostic) {
  std::istringstream in("");
  CaptureReader reader(in, "traces/run.mmiotrace");
  EXPECT_EQ(reader.Describe({42, "bad access width '3' (1, 2, 4 or 8 bytes)"}),
            "traces/run.mmiotrace:42: error: bad access width '3' (1, 2, 4 or 8 bytes)\n");
}

}  // namespace
}  // namespace regemu::traces
