// Writing OA-sized reports (256 bytes) into a 16 MiB report ring in a
// `memory` space, as the OA unit will: MemoryStore::Write (sparse pages,
// copy-on-write) and Device::WriteMemory (plus the device lock and the
// bounds check), against memcpy into a plain 16 MiB buffer in the same run.
// The OA issue's target is >= 10 M reports/s (100 ns per report).
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <numeric>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/memory_store.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr size_t kReportBytes = 256;
constexpr size_t kRingBytes = 16 << 20;  // i915's OA buffer

std::array<uint8_t, kReportBytes> Report() {
  std::array<uint8_t, kReportBytes> report{};
  std::iota(report.begin(), report.end(), uint8_t{1});
  return report;
}

void SetReports(benchmark::State& state) {
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(kReportBytes));
  state.counters["reports"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

// Baseline: the bytes copied into a plain buffer.
void BM_MemcpyReport256(benchmark::State& state) {
  std::vector<uint8_t> ring(kRingBytes);
  auto report = Report();
  size_t at = 0;
  for (auto _ : state) {
    std::memcpy(ring.data() + at, report.data(), kReportBytes);
    benchmark::ClobberMemory();
    at = (at + kReportBytes) % kRingBytes;
  }
  SetReports(state);
}
BENCHMARK(BM_MemcpyReport256);

void BM_MemoryStoreWriteReport256(benchmark::State& state) {
  emulator::MemoryStore store;
  auto report = Report();
  size_t at = 0;
  for (auto _ : state) {
    store.Write(at, report);
    benchmark::ClobberMemory();
    at = (at + kReportBytes) % kRingBytes;
  }
  SetReports(state);
}
BENCHMARK(BM_MemoryStoreWriteReport256);

void BM_DeviceWriteMemoryReport256(benchmark::State& state) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
  std::shared_ptr<const emulator::Model> model =
      loaded.diagnostics.has_errors() ? nullptr : emulator::Compile(loaded.database).model;
  if (!model || !model->FindSpace("ggtt")) {
    state.SkipWithError("yaml/icl does not load, or has no ggtt space");
    return;
  }
  emulator::Device device(model);
  emulator::SpaceId ggtt = *model->FindSpace("ggtt");
  auto report = Report();
  size_t at = 0;
  for (auto _ : state) {
    device.WriteMemory(ggtt, 0x1000000 + at, report);
    at = (at + kReportBytes) % kRingBytes;
  }
  SetReports(state);
}
BENCHMARK(BM_DeviceWriteMemoryReport256);

}  // namespace
}  // namespace regemu::bench
