// The OA unit's periodic sampling (emulator/behaviours/oa_unit.cpp) on the
// Broadwell database at the fastest exponent (0: a 256-byte report every
// 2 timestamp ticks = 160 ns): one iteration is one virtual millisecond,
// 6250 reports composed from the workload model and written into the
// 16 MiB buffer in `ggtt`, with the driver's head write-back. Reported as
// reports per second next to BM_MemcpyReport256 (memory_bench.cpp), a
// memcpy of the same bytes into a plain ring, from the same run:
//   build/release/bin/regemu_bench --benchmark_filter='MemcpyReport256|Oa'
// The target is >= 10 M reports/s.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr uint64_t kBuffer = 0x01000000;
constexpr uint64_t kBufferBytes = 16 << 20;

std::shared_ptr<const emulator::Model> BdwModel() {
  static std::shared_ptr<const emulator::Model> model = [] {
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/bdw");
    return emulator::Compile(loaded.database).model;
  }();
  return model;
}

void BM_OaPeriodicReportsPerVirtualMs(benchmark::State& state) {
  emulator::DeviceOptions options;
  options.trace_capacity = 0;
  options.thread_safe = false;
  emulator::Device device(BdwModel(), options);
  auto reg = [&](const char* name) { return *device.model().FindRegister(name); };
  std::vector<std::string> load{"gpu-busy", "0.75", "eu-active", "0.5", "eu-stall", "0.25", "pixels", "3"};
  if (!device.Inject("oa-load", load).empty()) state.SkipWithError("oa-load refused");
  device.WriteRegister(reg("OACTXCONTROL"), 0x3);  // exponent 0, timer, resume
  device.WriteRegister(reg("OASTATUS"), 0);
  device.WriteRegister(reg("OAHEADPTR"), kBuffer);
  device.WriteRegister(reg("OABUFFER_UDW"), 0);
  device.WriteRegister(reg("OABUFFER"), kBuffer | 0x39);
  device.WriteRegister(reg("OATAILPTR"), kBuffer);
  device.WriteRegister(reg("OACONTROL"), 0x15);
  const emulator::RegisterId head = reg("OAHEADPTR"), tail = reg("OATAILPTR");
  uint64_t reports = 0;
  for (auto _ : state) {
    uint64_t before = device.PeekRegister(tail);
    device.Advance(1'000'000);  // one virtual millisecond
    uint64_t after = device.PeekRegister(tail);
    reports += ((after - before) & (kBufferBytes - 1)) / 256;
    device.WriteRegister(head, after);  // the driver consumed everything
  }
  if (device.PeekRegister(reg("OASTATUS")) & 0xF) state.SkipWithError("the unit lost reports");
  state.counters["reports"] = benchmark::Counter(static_cast<double>(reports), benchmark::Counter::kIsRate);
  state.counters["reports_per_vms"] =
      benchmark::Counter(static_cast<double>(reports) / static_cast<double>(state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(reports * 256));
}
BENCHMARK(BM_OaPeriodicReportsPerVirtualMs)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace regemu::bench
