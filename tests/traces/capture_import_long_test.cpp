// A long capture through ImportCapture (capture_import.hpp): a generated
// mmiotrace of more than a million lines, made on the fly by a streambuf
// (nothing is written to disk or held whole in memory) and imported into a
// counting null stream. The import streams: the counts come out exact, and
// the time stays well inside a test's budget in the Debug build.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <istream>
#include <ostream>
#include <streambuf>
#include <string>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"
#include "tools/traces/capture_import.hpp"

namespace regemu::traces {
namespace {

using ::testing::IsEmpty;

// The records, one per line, in a cycle of four after a three-line header:
//   W 4 ... 0xa0002038 V        RCS0_RING_START, stored
//   R 4 ... 0xa0002038 V        read back
//   R 4 ... 0xa0145998 0x60b16  RP_STATE_CAP through the MCHBAR mirror
//   MARK ... step N
// one microsecond apart. Every 100,000th record is malformed (width 3).
class GeneratedMmiotrace : public std::streambuf {
 public:
  explicit GeneratedMmiotrace(uint64_t records) : records_(records) {}

  static constexpr uint64_t kHeaderLines = 3;
  static constexpr uint64_t kMalformedEvery = 100'000;

 protected:
  int_type underflow() override {
    if (gptr() < egptr()) return traits_type::to_int_type(*gptr());
    chunk_.clear();
    while (chunk_.size() < 60'000 && Fill()) {}
    if (chunk_.empty()) return traits_type::eof();
    setg(chunk_.data(), chunk_.data(), chunk_.data() + chunk_.size());
    return traits_type::to_int_type(*gptr());
  }

 private:
  bool Fill() {
    if (header_ < kHeaderLines) {
      static const char* const kHeader[] = {
          "VERSION 20070824\n",
          "PCIDEV 0010 80868a52 10 a0000004 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 i915\n",
          "MAP 0.000001 1 0xa0000000 0xffffc90002000000 0x1000000 0x0 0\n"};
      chunk_ += kHeader[header_++];
      return true;
    }
    if (next_ == records_) return false;
    uint64_t i = next_++;
    uint64_t us = 2 + i;
    char line[96];
    int n = 0;
    char time[32];
    std::snprintf(time, sizeof time, "%llu.%06llu", static_cast<unsigned long long>(us / 1'000'000),
                  static_cast<unsigned long long>(us % 1'000'000));
    unsigned long long start = (i / 4 % 0x1000) << 12;
    if (i % kMalformedEvery == kMalformedEvery - 1) {
      n = std::snprintf(line, sizeof line, "R 3 %s 1 0xa0002038 0x0 0x0 0\n", time);
    } else {
      switch (i % 4) {
        case 0: n = std::snprintf(line, sizeof line, "W 4 %s 1 0xa0002038 0x%llx 0x0 0\n", time, start); break;
        case 1: n = std::snprintf(line, sizeof line, "R 4 %s 1 0xa0002038 0x%llx 0x0 0\n", time, start); break;
        case 2: n = std::snprintf(line, sizeof line, "R 4 %s 1 0xa0145998 0x60b16 0x0 0\n", time); break;
        default: n = std::snprintf(line, sizeof line, "MARK %s step %llu\n", time, static_cast<unsigned long long>(i)); break;
      }
    }
    chunk_.append(line, static_cast<size_t>(n));
    return true;
  }

  uint64_t records_;
  uint64_t next_ = 0;
  uint64_t header_ = 0;
  std::string chunk_;
};

// Discards the script, counting its bytes and lines.
class CountingNullBuffer : public std::streambuf {
 public:
  uint64_t bytes = 0;
  uint64_t lines = 0;

 protected:
  int_type overflow(int_type c) override {
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      ++bytes;
      if (traits_type::to_char_type(c) == '\n') ++lines;
    }
    return traits_type::not_eof(c);
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    bytes += static_cast<uint64_t>(n);
    for (std::streamsize i = 0; i < n; ++i) lines += s[i] == '\n';
    return n;
  }
};

TEST(ImportCaptureLong, AMillionLineMmiotraceStreamsThrough) {
  constexpr uint64_t kRecords = 1'000'000;
  constexpr uint64_t kLines = GeneratedMmiotrace::kHeaderLines + kRecords;
  constexpr uint64_t kMalformed = kRecords / GeneratedMmiotrace::kMalformedEvery;
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
  ASSERT_FALSE(loaded.diagnostics.has_errors());
  emulator::CompileResult compiled = emulator::Compile(loaded.database);
  ASSERT_TRUE(compiled.model);

  GeneratedMmiotrace generated(kRecords);
  std::istream capture(&generated);
  CountingNullBuffer sink;
  std::ostream script(&sink);
  std::string error;
  auto start = std::chrono::steady_clock::now();
  ImportStats stats =
      ImportCapture(capture, "generated.mmiotrace", loaded.database, *compiled.model, ImportOptions{}, script, error);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_THAT(error, IsEmpty());
  RecordProperty("import_seconds", std::to_string(seconds));
  std::printf("[          ] %llu lines imported in %.2f s (%.0f lines/s, %.1f MB of script)\n",
              static_cast<unsigned long long>(kLines), seconds, static_cast<double>(kLines) / seconds,
              static_cast<double>(sink.bytes) / 1e6);

  EXPECT_EQ(stats.format, "mmiotrace");
  EXPECT_EQ(stats.lines, kLines);
  // Of each four records two are reads, one a write, one a MARK; the
  // malformed ones (every 100,000th: i % 4 == 3) replace MARKs.
  EXPECT_EQ(stats.writes, kRecords / 4);
  EXPECT_EQ(stats.reads, kRecords / 2);
  EXPECT_EQ(stats.marks, kRecords / 4 - kMalformed);
  EXPECT_EQ(stats.problem_count, kMalformed);
  ASSERT_EQ(stats.problems.size(), kMalformed);
  EXPECT_EQ(stats.problems.front().line, GeneratedMmiotrace::kHeaderLines + GeneratedMmiotrace::kMalformedEvery);
  EXPECT_EQ(stats.outside, 0u);
  EXPECT_FALSE(stats.read_failed);
  EXPECT_FALSE(stats.missing_bars);
  // One script line per record, a step before each access after the first
  // (1 us apart, or 2 us after a MARK), and a header of five lines: the
  // title, the PCI core's decode enable (comment and write), and the
  // PCIDEV and MAP comments; the address map's note comes before the first access.
  uint64_t records = kRecords - kMalformed + 2;  // + the PCIDEV and MAP comments
  uint64_t steps = stats.reads + stats.writes - 1;
  EXPECT_EQ(sink.lines, 3 + records + steps + 1);
  EXPECT_TRUE(script.good());
}

}  // namespace
}  // namespace regemu::traces
