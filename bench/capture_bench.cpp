// `regemu import` on a 100,000-line mmiotrace against yaml/icl, in bytes of
// capture per second, split so each stage's cost shows: the same-run
// baseline that only reads the same lines with std::getline, CaptureReader
// (the lines parsed into records), and ImportCapture (records placed in the
// database's spaces and written as a script, into a null stream).
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"
#include "tools/traces/capture_import.hpp"
#include "tools/traces/capture_reader.hpp"

namespace regemu::bench {
namespace {

constexpr uint64_t kRecords = 100'000;

// What a driver's run looks like to mmiotrace: a register written and read
// back, a read through an alias window, a marker; one microsecond apart.
const std::string& Capture() {
  static const std::string text = [] {
    std::string t =
        "VERSION 20070824\n"
        "PCIDEV 0010 80868a52 10 a0000004 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 i915\n"
        "MAP 0.000001 1 0xa0000000 0xffffc90002000000 0x1000000 0x0 0\n";
    char line[96];
    for (uint64_t i = 0; i < kRecords; ++i) {
      uint64_t us = 2 + i;
      unsigned long long secs = us / 1'000'000, frac = us % 1'000'000, start = (i / 4 % 0x1000) << 12;
      int n = 0;
      switch (i % 4) {
        case 0: n = std::snprintf(line, sizeof line, "W 4 %llu.%06llu 1 0xa0002038 0x%llx 0x0 0\n", secs, frac, start); break;
        case 1: n = std::snprintf(line, sizeof line, "R 4 %llu.%06llu 1 0xa0002038 0x%llx 0x0 0\n", secs, frac, start); break;
        case 2: n = std::snprintf(line, sizeof line, "R 4 %llu.%06llu 1 0xa0145998 0x60b16 0x0 0\n", secs, frac); break;
        default: n = std::snprintf(line, sizeof line, "MARK %llu.%06llu step %llu\n", secs, frac, static_cast<unsigned long long>(i)); break;
      }
      t.append(line, static_cast<size_t>(n));
    }
    return t;
  }();
  return text;
}

class NullBuffer : public std::streambuf {
 protected:
  int_type overflow(int_type c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

void SetBytes(benchmark::State& state) {
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(Capture().size()));
  state.counters["lines"] = benchmark::Counter(static_cast<double>(kRecords + 3) * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate);
}

// The baseline: the same lines read with std::getline from the same kind of stream.
void BM_CaptureBaselineGetline(benchmark::State& state) {
  for (auto _ : state) {
    std::istringstream in(Capture());
    uint64_t lines = 0;
    for (std::string line; std::getline(in, line);) ++lines;
    benchmark::DoNotOptimize(lines);
  }
  SetBytes(state);
}
BENCHMARK(BM_CaptureBaselineGetline)->Unit(benchmark::kMillisecond);

// The lines parsed into records (bounded line buffer, format detection).
void BM_ReadCaptureRecords(benchmark::State& state) {
  for (auto _ : state) {
    std::istringstream in(Capture());
    traces::CaptureReader reader(in, "bench.mmiotrace");
    traces::CaptureRecord record;
    uint64_t records = 0;
    while (reader.Next(record)) ++records;
    if (records != kRecords + 3) state.SkipWithError("records lost");
    benchmark::DoNotOptimize(records);
  }
  SetBytes(state);
}
BENCHMARK(BM_ReadCaptureRecords)->Unit(benchmark::kMillisecond);

// `regemu import` minus loading the database: every record placed and written as a script.
void BM_ImportMmiotrace(benchmark::State& state) {
  static const regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
  static const emulator::CompileResult compiled = emulator::Compile(loaded.database);
  if (!compiled.model) {
    state.SkipWithError("yaml/icl does not compile");
    return;
  }
  NullBuffer null;
  std::ostream script(&null);
  for (auto _ : state) {
    std::istringstream in(Capture());
    std::string error;
    traces::ImportStats stats =
        traces::ImportCapture(in, "bench.mmiotrace", loaded.database, *compiled.model, {}, script, error);
    if (!error.empty() || stats.reads + stats.writes != kRecords * 3 / 4) state.SkipWithError("import failed");
  }
  SetBytes(state);
}
BENCHMARK(BM_ImportMmiotrace)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace regemu::bench
