// The capture line parsers (capture.hpp): each record a tracer prints, as it
// prints it, becomes one CaptureRecord; a malformed line is rejected with a
// message that says what is wrong; a line that carries nothing (a header, a
// comment, another ftrace event) is skipped without one. Then format
// detection and the lexical pieces every format shares (capture_tokens.hpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tools/traces/capture.hpp"
#include "tools/traces/capture_tokens.hpp"

namespace regemu::traces {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Optional;

struct Parsed {
  bool ok = false;
  CaptureRecord record;
  std::string error;
};

Parsed Mmiotrace(std::string_view line) {
  Parsed p;
  p.ok = ParseMmiotraceLine(line, p.record, p.error);
  return p;
}
Parsed I915(std::string_view line) {
  Parsed p;
  p.ok = ParseI915RegRwLine(line, p.record, p.error);
  return p;
}
Parsed Log(std::string_view line) {
  Parsed p;
  p.ok = ParseRegisterLogLine(line, p.record, p.error);
  return p;
}

// ----------------------------------------------------------------- mmiotrace
// Layouts: kernel/trace/trace_mmiotrace.c's printf formats
// (Documentation/trace/mmiotrace.rst).

TEST(MmiotraceLine, ReadOfEachWidth) {
  struct Case {
    const char* line;
    unsigned width;
    uint64_t address;
    uint64_t value;
  };
  for (const Case& c : {Case{"R 1 0.000320 1 0xa0002038 0xff 0x0 0", 1, 0xa0002038, 0xff},
                        Case{"R 2 0.000320 1 0xa000203a 0xffff 0x0 0", 2, 0xa000203a, 0xffff},
                        Case{"R 4 0.000320 1 0xa0002038 0xffffffff 0x0 0", 4, 0xa0002038, 0xffffffff},
                        Case{"R 8 0.000320 1 0xa0002358 0xffffffffffffffff 0x0 0", 8, 0xa0002358, ~uint64_t{0}}}) {
    SCOPED_TRACE(c.line);
    Parsed p = Mmiotrace(c.line);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.record.kind, CaptureKind::kRead);
    EXPECT_EQ(p.record.width, c.width);
    EXPECT_EQ(p.record.address, c.address);
    EXPECT_EQ(p.record.value, c.value);
    EXPECT_TRUE(p.record.has_time);
    EXPECT_EQ(p.record.time_ns, 320'000u);
    EXPECT_EQ(p.record.map_id, 1u);
    EXPECT_TRUE(p.record.is_access());
  }
}

// The program counter is printed when known ("0x%lx"); the last field is the PID, always 0.
TEST(MmiotraceLine, WriteWithAProgramCounter) {
  Parsed p = Mmiotrace("W 8 12.345678 3 0xa0002358 0x1234000000ab 0xffffffffc0a1b2c3 0");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kWrite);
  EXPECT_EQ(p.record.width, 8u);
  EXPECT_EQ(p.record.time_ns, 12'345'678'000u);
  EXPECT_EQ(p.record.map_id, 3u);
  EXPECT_EQ(p.record.address, 0xa0002358u);
  EXPECT_EQ(p.record.value, 0x1234000000abu);
}

TEST(MmiotraceLine, MapHasTheBusAddressAndLength) {
  Parsed p = Mmiotrace("MAP 0.000100 1 0xa0000000 0xffffc90010000000 0x1000000 0x0 0");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kMap);
  EXPECT_EQ(p.record.time_ns, 100'000u);
  EXPECT_EQ(p.record.map_id, 1u);
  EXPECT_EQ(p.record.address, 0xa0000000u);  // the bus address, not the virtual one
  EXPECT_EQ(p.record.length, 0x1000000u);
  EXPECT_FALSE(p.record.is_access());
}

TEST(MmiotraceLine, UnmapNamesItsMapping) {
  Parsed p = Mmiotrace("UNMAP 0.001000 7 0x0 0");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kUnmap);
  EXPECT_EQ(p.record.time_ns, 1'000'000u);
  EXPECT_EQ(p.record.map_id, 7u);
}

// "MARK <ts> <text...>": the text runs to the end of the line, as written.
TEST(MmiotraceLine, MarkKeepsItsTextAsWritten) {
  Parsed p = Mmiotrace("MARK 0.000150 i915 probe: step  2\r");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kMark);
  EXPECT_EQ(p.record.time_ns, 150'000u);
  EXPECT_EQ(p.record.text, "i915 probe: step  2");
}

TEST(MmiotraceLine, MarkWithoutText) {
  Parsed p = Mmiotrace("MARK 0.000150");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kMark);
  EXPECT_THAT(p.record.text, IsEmpty());
}

// The tracer's own note: "MARK 0.000000 Lost %d events.\n".
TEST(MmiotraceLine, LostEventsAreTheirOwnRecord) {
  Parsed p = Mmiotrace("MARK 0.000000 Lost 12 events.");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kLost);
  EXPECT_EQ(p.record.value, 12u);
}

TEST(MmiotraceLine, AMarkThatOnlyLooksLikeLostIsAMark) {
  Parsed p = Mmiotrace("MARK 0.000000 Lost many events.");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kMark);
  EXPECT_EQ(p.record.text, "Lost many events.");
}

TEST(MmiotraceLine, UnknownKeepsTheOpcodeBytes) {
  Parsed p = Mmiotrace("UNKNOWN 0.000400 1 0xa0002030 8b,04,25 0xffffffffc0a1b2c3 0");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kUnknown);
  EXPECT_EQ(p.record.address, 0xa0002030u);
  EXPECT_EQ(p.record.text, "8b,04,25");
  EXPECT_EQ(p.record.time_ns, 400'000u);
}

// "PCIDEV %02x%02x %04x%04x %x" + 7 x (start | flags & PCI_REGION_FLAG_MASK)
// + 7 x size + " %s" with the driver. The flags are the low 4 bits: 0x4 a
// 64-bit memory BAR, 0xc 64-bit prefetchable, 0x1 an I/O BAR.
TEST(MmiotraceLine, PciDevWithADriverMasksTheBarFlags) {
  Parsed p = Mmiotrace("PCIDEV 0010 80868a52 8b a0000004 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 i915");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kPciDev);
  const CapturePciDevice& pci = p.record.pci;
  EXPECT_EQ(pci.bus_devfn, 0x0010u);  // 00:02.0
  EXPECT_EQ(pci.vendor, 0x8086u);
  EXPECT_EQ(pci.device, 0x8a52u);
  EXPECT_EQ(pci.start[0], 0xa0000000u);
  EXPECT_EQ(pci.size[0], 0x1000000u);
  EXPECT_FALSE(pci.io[0]);
  EXPECT_EQ(pci.start[2], 0xb0000000u);
  EXPECT_EQ(pci.size[2], 0x10000000u);
  EXPECT_FALSE(pci.io[2]);
  EXPECT_EQ(pci.start[4], 0x3000u);
  EXPECT_EQ(pci.size[4], 0x40u);
  EXPECT_TRUE(pci.io[4]);
  EXPECT_EQ(pci.start[6], 0u);  // no ROM
  EXPECT_EQ(pci.driver, "i915");
}

// No driver bound: the kernel prints " \n", so the line ends in a blank.
TEST(MmiotraceLine, PciDevWithoutADriver) {
  Parsed p = Mmiotrace("PCIDEV 0301 1002740c 0 d000000c 0 0 0 0 0 0 10000000 0 0 0 0 0 0 ");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.pci.bus_devfn, 0x0301u);
  EXPECT_EQ(p.record.pci.vendor, 0x1002u);
  EXPECT_EQ(p.record.pci.device, 0x740cu);
  EXPECT_EQ(p.record.pci.start[0], 0xd0000000u);
  EXPECT_THAT(p.record.pci.driver, IsEmpty());
}

TEST(MmiotraceLine, Version) {
  Parsed p = Mmiotrace("VERSION 20070824");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kVersion);
  EXPECT_EQ(p.record.value, 20070824u);
}

// LSPCI lines are lspci -v's text for people; blank lines carry nothing.
TEST(MmiotraceLine, LspciAndBlankLinesAreSkippedWithoutAnError) {
  for (const char* line : {"LSPCI 00:02.0 VGA compatible controller: Intel Corporation Iris Plus Graphics G7 (rev 07)",
                           "", "   ", "\t\r"}) {
    SCOPED_TRACE(line);
    Parsed p = Mmiotrace(line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, IsEmpty());
  }
}

TEST(MmiotraceLine, MalformedLinesSayWhatIsWrong) {
  struct Case {
    const char* line;
    const char* message;
  };
  for (const Case& c : {
           Case{"R 3 0.000510 1 0xa0002038 0x0 0x0 0", "bad access width '3'"},
           Case{"R 16 0.000510 1 0xa0002038 0x0 0x0 0", "bad access width '16'"},
           Case{"R four 0.000510 1 0xa0002038 0x0 0x0 0", "bad access width 'four'"},
           Case{"R 4 0.000520 1 0xa0002038 0x100000000 0x0 0", "value 0x100000000 does not fit in 4 byte(s)"},
           Case{"W 1 0.000520 1 0xa0002038 0x100 0x0 0", "value 0x100 does not fit in 1 byte(s)"},
           Case{"W 2 0.000520 1 0xa0002038 0x10000 0x0 0", "value 0x10000 does not fit in 2 byte(s)"},
           Case{"R 8 0.000520 1 0xa0002038 0x10000000000000000 0x0 0", "bad value '0x10000000000000000'"},
           Case{"W 4 0.000530 1 0xa0002038", "an access record has 8 fields"},
           Case{"W 4 0.000530 1 0xa0002038 0x0 0x0 0 extra", "an access record has 8 fields"},
           Case{"R 4 0.000520 1 0xa00020zz 0x0 0x0 0", "bad address '0xa00020zz' (want 0x hex)"},
           Case{"R 4 0.000520 1 a0002038 0x0 0x0 0", "bad address 'a0002038'"},
           Case{"R 4 0.000520 1 0xa0002038 0xg 0x0 0", "bad value '0xg'"},
           Case{"R 4 0.000520 1 0xa0002038 0x0 pc 0", "bad program counter 'pc'"},
           Case{"R 4 0.5x 1 0xa0002038 0x0 0x0 0", "bad timestamp '0.5x'"},
           Case{"R 4 0.000520 one 0xa0002038 0x0 0x0 0", "bad map id 'one'"},
           Case{"MARK", "MARK without a timestamp"},
           Case{"MARK soon text", "bad timestamp 'soon'"},
           Case{"MAP 0.000100 1 0xa0000000", "a MAP record has 8 fields"},
           Case{"MAP 0.000100 1 0xa0000000 0xffffc90010000000 big 0x0 0", "bad length 'big'"},
           Case{"UNMAP 0.001000", "an UNMAP record has 5 fields"},
           Case{"UNKNOWN 0.000400 1 0xa0002030", "an UNKNOWN record has 7 fields"},
           Case{"PCIDEV 0010 80868a52", "a PCIDEV record has"},
           Case{"PCIDEV 10 80868a52 10 a0000004 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 i915",
                "bad PCIDEV device fields '10 80868a52'"},
           Case{"PCIDEV 0010 80868a52 10 a000000x 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 i915",
                "bad PCIDEV BAR 0"},
           Case{"VERSION", "VERSION takes one number"},
           Case{"VERSION 2007-08-24", "VERSION takes one number"},
           Case{"this line is not mmiotrace", "unknown mmiotrace record 'this'"},
       }) {
    SCOPED_TRACE(c.line);
    Parsed p = Mmiotrace(c.line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, HasSubstr(c.message));
  }
}

// An unknown word is quoted, but no more than 40 bytes of it.
TEST(MmiotraceLine, AnUnknownRecordIsQuotedShort) {
  Parsed p = Mmiotrace(std::string(1000, 'X'));
  EXPECT_FALSE(p.ok);
  EXPECT_EQ(p.error, "unknown mmiotrace record '" + std::string(40, 'X') + "'");
}

// --------------------------------------------------------------- i915_reg_rw
// i915_trace.h: TP_printk("%s reg=0x%x, len=%d, val=(0x%x, 0x%x)", write ?
// "write" : "read", reg, len, low, high), after ftrace's context columns.

TEST(I915RegRwLine, ReadAsFtracePrintsIt) {
  Parsed p = I915("  kworker/u16:3-123   [002] .... 1234.567890: i915_reg_rw: read reg=0x2358, len=4, val=(0x1, 0x0)");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kRead);
  EXPECT_EQ(p.record.address, 0x2358u);
  EXPECT_EQ(p.record.width, 4u);
  EXPECT_EQ(p.record.value, 1u);
  EXPECT_TRUE(p.record.has_time);
  EXPECT_EQ(p.record.time_ns, 1'234'567'890'000u);
}

TEST(I915RegRwLine, Write) {
  Parsed p = I915("            perf-2231  [001] d..1   512.220574: i915_reg_rw: write reg=0x2368, len=4, val=(0x1000001, 0x0)");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kWrite);
  EXPECT_EQ(p.record.address, 0x2368u);
  EXPECT_EQ(p.record.value, 0x1000001u);
  EXPECT_EQ(p.record.time_ns, 512'220'574'000u);
}

// A 64-bit access prints its low half first.
TEST(I915RegRwLine, Len8JoinsTheHighHalf) {
  Parsed p = I915("  kworker/u16:3-123   [002] .... 1234.567890: i915_reg_rw: read reg=0x2358, len=8, val=(0x89abcdef, 0x1234567)");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.width, 8u);
  EXPECT_EQ(p.record.value, 0x0123456789abcdefu);
}

TEST(I915RegRwLine, Len1And2) {
  Parsed one = I915("  a-1 [000] .... 1.000000: i915_reg_rw: read reg=0x61, len=1, val=(0xff, 0x0)");
  ASSERT_TRUE(one.ok) << one.error;
  EXPECT_EQ(one.record.width, 1u);
  EXPECT_EQ(one.record.value, 0xffu);
  Parsed two = I915("  a-1 [000] .... 1.000000: i915_reg_rw: write reg=0x62, len=2, val=(0xbeef, 0x0)");
  ASSERT_TRUE(two.ok) << two.error;
  EXPECT_EQ(two.record.width, 2u);
  EXPECT_EQ(two.record.value, 0xbeefu);
}

// `perf script` prints the event as SYSTEM:EVENT and the PID apart from the task.
TEST(I915RegRwLine, PerfScriptStyle) {
  Parsed p = I915("            perf  2231 [001]   512.220578: i915:i915_reg_rw: write reg=0x2360, len=4, val=(0x435, 0x0)");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.record.kind, CaptureKind::kWrite);
  EXPECT_EQ(p.record.address, 0x2360u);
  EXPECT_EQ(p.record.value, 0x435u);
  EXPECT_TRUE(p.record.has_time);
  EXPECT_EQ(p.record.time_ns, 512'220'578'000u);
}

TEST(I915RegRwLine, WithoutATimestampColumnTheRecordHasNoTime) {
  Parsed p = I915("i915_reg_rw: read reg=0x2358, len=4, val=(0x1, 0x0)");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_FALSE(p.record.has_time);
}

// A trace holds other events (enabled with i915:*, or irq:*): not an error.
TEST(I915RegRwLine, OtherFtraceEventsAreSkippedSilently) {
  for (const char* line : {
           "  kworker/u16:3-123   [002] .... 1234.567890: i915_request_add: dev=0, engine=0:0, ctx=1, seqno=2",
           "          <idle>-0     [000] d.h.   512.210409: irq_handler_entry: irq=30 name=i915",
           "            perf  2231 [001]   512.220578: i915:i915_gem_object_create: obj=0xffff88810c0d8000, size=0x1000000",
       }) {
    SCOPED_TRACE(line);
    Parsed p = I915(line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, IsEmpty());
  }
}

TEST(I915RegRwLine, HeaderLinesAreSkippedSilently) {
  for (const char* line : {"# tracer: nop", "#", "# entries-in-buffer/entries-written: 89/89   #P:4",
                           "#           TASK-PID   CPU#  ||||    TIMESTAMP  FUNCTION",
                           "#              | |       |   ||||       |         |", "", "   \r"}) {
    SCOPED_TRACE(line);
    Parsed p = I915(line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, IsEmpty());
  }
}

TEST(I915RegRwLine, MalformedLinesSayWhatIsWrong) {
  const std::string head = "  kworker/u16:3-123   [002] .... 1234.567890: i915_reg_rw: ";
  struct Case {
    std::string line;
    const char* message;
  };
  for (const Case& c : {
           Case{head + "poke reg=0x2358, len=4, val=(0x1, 0x0)", "i915_reg_rw without 'read' or 'write'"},
           Case{head + "read len=4, val=(0x1, 0x0)", "i915_reg_rw without reg="},
           Case{head + "read reg=2358, len=4, val=(0x1, 0x0)", "bad reg= or no len="},
           Case{head + "read reg=0x2358 len=4 val=(0x1, 0x0)", "bad reg= or no len="},
           Case{head + "read reg=0x2358, len=3, val=(0x1, 0x0)", "bad len= (1, 2, 4 or 8)"},
           Case{head + "read reg=0x2358, len=4", "bad len= (1, 2, 4 or 8)"},
           Case{head + "read reg=0x2358, len=4, val=0x1", "i915_reg_rw without val=(LOW, HIGH)"},
           Case{head + "read reg=0x2358, len=4, val=(0x1)", "bad val=(LOW, HIGH)"},
           Case{head + "read reg=0x2358, len=4, val=(0x100000000, 0x0)", "bad val=(LOW, HIGH)"},
           Case{head + "read reg=0x2358, len=4, val=(0x1, 0x1)", "val does not fit in len=4"},
           Case{head + "read reg=0x2358, len=1, val=(0x100, 0x0)", "val does not fit in len=1"},
           Case{"hello world", "not an ftrace event line"},
       }) {
    SCOPED_TRACE(c.line);
    Parsed p = I915(c.line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, HasSubstr(c.message));
  }
}

// -------------------------------------------------------------- register log

TEST(RegisterLogLine, ReadAndWriteDefaultTo32Bits) {
  Parsed r = Log("R 0x2358: 0x1");
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.record.kind, CaptureKind::kRead);
  EXPECT_EQ(r.record.width, 4u);
  EXPECT_EQ(r.record.address, 0x2358u);
  EXPECT_EQ(r.record.value, 1u);
  EXPECT_FALSE(r.record.has_time);
  Parsed w = Log("W 0xa188: 0x00010001");
  ASSERT_TRUE(w.ok) << w.error;
  EXPECT_EQ(w.record.kind, CaptureKind::kWrite);
  EXPECT_EQ(w.record.value, 0x10001u);
}

TEST(RegisterLogLine, WidthInBits) {
  struct Case {
    const char* line;
    CaptureKind kind;
    unsigned width;
    uint64_t value;
  };
  for (const Case& c : {Case{"R8 0x61: 0xff", CaptureKind::kRead, 1, 0xff},
                        Case{"W16 0x62: 0xbeef", CaptureKind::kWrite, 2, 0xbeef},
                        Case{"r32 0x2358: 0x1", CaptureKind::kRead, 4, 1},
                        Case{"W64 0x2358: 0x123456789abcdef0", CaptureKind::kWrite, 8, 0x123456789abcdef0},
                        Case{"w 0x2358: 0xFFFFFFFF", CaptureKind::kWrite, 4, 0xffffffff}}) {
    SCOPED_TRACE(c.line);
    Parsed p = Log(c.line);
    ASSERT_TRUE(p.ok) << p.error;
    EXPECT_EQ(p.record.kind, c.kind);
    EXPECT_EQ(p.record.width, c.width);
    EXPECT_EQ(p.record.value, c.value);
  }
}

TEST(RegisterLogLine, CommentsAndBlankLines) {
  for (const char* line : {"# dumped with intel_reg", "   # indented", "", "  \t\r"}) {
    SCOPED_TRACE(line);
    Parsed p = Log(line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, IsEmpty());
  }
  Parsed trailing = Log("R 0x2358: 0x1   # after the record\r");
  ASSERT_TRUE(trailing.ok) << trailing.error;
  EXPECT_EQ(trailing.record.value, 1u);
}

TEST(RegisterLogLine, MalformedLinesSayWhatIsWrong) {
  struct Case {
    const char* line;
    const char* message;
  };
  for (const Case& c : {
           Case{"R 0x2358 0x1", "want ':' after the offset"},
           Case{"R 0x2358:0x1", "want R|W[8|16|32|64] 0xOFFSET: 0xVALUE"},
           Case{"R 0x2358: 0x1 0x2", "want R|W[8|16|32|64] 0xOFFSET: 0xVALUE"},
           Case{"R12 0x2358: 0x1", "bad width in 'R12' (R8, R16, R32 or R64)"},
           Case{"Rx 0x2358: 0x1", "bad width in 'Rx'"},
           Case{"X 0x2358: 0x1", "want R or W, not 'X'"},
           Case{"R 2358: 0x1", "bad offset '2358:'"},
           Case{"R 0x2358: 1", "bad value '1' (want 0x hex)"},
           Case{"R 0x2358: 0xzz", "bad value '0xzz'"},
           Case{"R8 0x61: 0x100", "value does not fit in 8 bits"},
           Case{"R 0x2358: 0x100000000", "value does not fit in 32 bits"},
       }) {
    SCOPED_TRACE(c.line);
    Parsed p = Log(c.line);
    EXPECT_FALSE(p.ok);
    EXPECT_THAT(p.error, HasSubstr(c.message));
  }
}

// ------------------------------------------------------------ format detection

std::optional<CaptureFormat> Detect(std::string_view line) {
  CaptureFormat format;
  if (!DetectCaptureFormat(line, format)) return std::nullopt;
  return format;
}

TEST(DetectCaptureFormat, MmiotraceRecords) {
  for (const char* line : {"VERSION 20070824", "PCIDEV 0010 80868a52 10 a0000004 0 0 0 0 0 0 1000000 0 0 0 0 0 0 ",
                           "MAP 0.000100 1 0xa0000000 0xffffc90010000000 0x1000000 0x0 0", "UNMAP 0.001000 1 0x0 0",
                           "MARK 0.000150 i915 probe", "LSPCI 00:02.0 VGA compatible controller",
                           "UNKNOWN 0.000400 1 0xa0002030 8b,04,25 0x0 0", "R 4 0.000200 1 0xa0190010 0x0 0x0 0",
                           "W 4 0.000210 1 0xa0190010 0x80000000 0x0 0"}) {
    SCOPED_TRACE(line);
    EXPECT_THAT(Detect(line), Optional(CaptureFormat::kMmiotrace));
  }
}

TEST(DetectCaptureFormat, FtraceHeaderAndI915RegRwEvents) {
  for (const char* line : {"# tracer: nop",
                           "  kworker/u16:3-123   [002] .... 1234.567890: i915_reg_rw: read reg=0x2358, len=4, val=(0x1, 0x0)",
                           "            perf  2231 [001]   512.220578: i915:i915_reg_rw: write reg=0x2360, len=4, val=(0x435, 0x0)"}) {
    SCOPED_TRACE(line);
    EXPECT_THAT(Detect(line), Optional(CaptureFormat::kI915RegRw));
  }
}

TEST(DetectCaptureFormat, RegisterLogLines) {
  for (const char* line : {"R 0x2358: 0x1", "W 0xa188: 0x10001", "W64 0x2358: 0x1", "r8 0x61: 0xff"}) {
    SCOPED_TRACE(line);
    EXPECT_THAT(Detect(line), Optional(CaptureFormat::kRegisterLog));
  }
}

TEST(DetectCaptureFormat, NothingToGoOn) {
  for (const char* line : {"", "   ", "# a comment", "#", "hello", "0xa0000000"}) {
    SCOPED_TRACE(line);
    EXPECT_EQ(Detect(line), std::nullopt);
  }
}

// trace_pipe has no header: the first line may be another event, and the
// task that caused it may be called anything, "Web Content" or "rcu_sched"
// too. It is still an ftrace line, not a register log's R or W.
TEST(DetectCaptureFormat, AnotherFtraceEventIsFtraceWhateverTheTaskIsCalled) {
  for (const char* line : {"     Web Content-5678  [001] .... 1234.567890: i915_request_add: dev=0, engine=0:0, ctx=1, seqno=2",
                           "       rcu_sched-10    [003] d.h.  1234.567891: irq_handler_entry: irq=30 name=i915",
                           "    Xwayland-901   [000] ....   12.000001: i915_gem_object_create: obj=0xffff8881, size=0x1000",
                           "    weston  4321 [002]   512.220578: i915:i915_request_wait_begin: dev=0, engine=0:0"}) {
    SCOPED_TRACE(line);
    EXPECT_THAT(Detect(line), Optional(CaptureFormat::kI915RegRw));
  }
}

// ------------------------------------------------------------------- tokens

TEST(CaptureTokens, TimestampsInNanoseconds) {
  EXPECT_THAT(ParseTimestampNs("1234.567890"), Optional(1'234'567'890'000u));
  EXPECT_THAT(ParseTimestampNs("0.000001"), Optional(1'000u));
  EXPECT_THAT(ParseTimestampNs("0.000000"), Optional(0u));
  EXPECT_THAT(ParseTimestampNs("5"), Optional(5'000'000'000u));
  EXPECT_THAT(ParseTimestampNs("1.5"), Optional(1'500'000'000u));
  EXPECT_THAT(ParseTimestampNs("1.123456789"), Optional(1'123'456'789u));  // trace_clock=mono_raw prints ns
  EXPECT_THAT(ParseTimestampNs("18000000000.000000"), Optional(18'000'000'000'000'000'000u));
}

TEST(CaptureTokens, BadTimestamps) {
  for (const char* text : {"", ".", "1.", ".5", "1.1234567890", "1.2.3", "-1.0", "1,5", "abc", "0x10",
                           "18000000001.0", "99999999999999999999.0"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(ParseTimestampNs(text), std::nullopt);
  }
}

TEST(CaptureTokens, HexAndDecimal) {
  EXPECT_THAT(ParseHexToken("0xA0000000"), Optional(0xa0000000u));
  EXPECT_THAT(ParseHexToken("a0000004"), Optional(0xa0000004u));
  EXPECT_THAT(ParseHexToken("ffffffffffffffff"), Optional(~uint64_t{0}));
  EXPECT_EQ(ParseHexToken("1ffffffffffffffff"), std::nullopt);  // 17 digits
  EXPECT_EQ(ParseHexToken("0x"), std::nullopt);
  EXPECT_EQ(ParseHexToken(""), std::nullopt);
  EXPECT_EQ(ParseHexToken("0xg"), std::nullopt);
  EXPECT_THAT(ParsePrefixedHex("0x10"), Optional(0x10u));
  EXPECT_EQ(ParsePrefixedHex("10"), std::nullopt);
  EXPECT_THAT(ParseDecimalToken("18446744073709551615"), Optional(~uint64_t{0}));
  EXPECT_EQ(ParseDecimalToken("18446744073709551616"), std::nullopt);  // overflows
  EXPECT_EQ(ParseDecimalToken("12a"), std::nullopt);
  EXPECT_EQ(ParseDecimalToken(""), std::nullopt);
  EXPECT_EQ(ParseDecimalToken("-1"), std::nullopt);
}

TEST(CaptureTokens, SplitLeavesTheRestToTheCaller) {
  std::string_view rest;
  auto tokens = SplitTokens("MARK  0.000150\ti915 probe  done\r", 2, &rest);
  ASSERT_EQ(tokens.size(), 2u);
  EXPECT_EQ(tokens[0], "MARK");
  EXPECT_EQ(tokens[1], "0.000150");
  EXPECT_EQ(rest, "i915 probe  done\r");
  tokens = SplitTokens(" a b ", 8, &rest);
  EXPECT_EQ(tokens.size(), 2u);
  EXPECT_THAT(rest, IsEmpty());
}

TEST(CaptureTokens, AccessWidths) {
  for (uint64_t bytes : {1u, 2u, 4u, 8u}) EXPECT_TRUE(IsAccessWidth(bytes)) << bytes;
  for (uint64_t bytes : {0u, 3u, 5u, 16u, 32u}) EXPECT_FALSE(IsAccessWidth(bytes)) << bytes;
}

}  // namespace
}  // namespace regemu::traces
