// The event-counters behaviour (emulator/behaviours/event_counters.cpp):
//   - Goldmont, 4 GP + 3 fixed counters counting under `event-rate`: one
//     iteration is one virtual second in 10 us clock steps (100,000 steps,
//     as a driver polling or a test stepping), reported as events counted
//     per wall second next to BM_RawCountersVirtualSecond, the same sums
//     into seven plain integers;
//   - MI300, a full read of every counter: each slot's LO and HI of every
//     SE and instance through GRBM_GFX_INDEX (the way aqlprofile reads),
//     reported as counters per second next to BM_RawArrayReadCounters, the
//     same number of 64-bit values read from a plain array;
//   build/release/bin/regemu_bench --benchmark_filter='Goldmont|Mi300|RawCounters|RawArrayReadCounters'
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/regdb/behaviour_configs/event_counters.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr uint64_t kStepNs = 10'000;
constexpr uint64_t kStepsPerVirtualSecond = 1'000'000'000 / kStepNs;

struct Loaded {
  std::shared_ptr<const emulator::Model> model;
  std::shared_ptr<const regdb::Database> database;
};

Loaded Load(const char* name) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/" + name);
  auto model = emulator::Compile(loaded.database).model;
  return {model, std::make_shared<const regdb::Database>(std::move(loaded.database))};
}

emulator::DeviceOptions FastOptions() {
  emulator::DeviceOptions options;
  options.trace_capacity = 0;
  options.thread_safe = false;
  return options;
}

// The rates: 4 GP events and instructions for fixed counter 0; the core
// and reference clocks (fixed 1 and 2) run at 1100 MHz from reset.
void BM_GoldmontCountingVirtualSecond(benchmark::State& state) {
  static Loaded goldmont = Load("goldmont");
  emulator::Device device(goldmont.model, FastOptions());
  auto reg = [&](const char* name) { return *device.model().FindRegister(name); };
  const std::array<uint64_t, 4> selects{0x5300C0, 0x53412E, 0x5300C4, 0x5300C5};  // instructions, LLC misses, branches, mispredicts
  for (size_t i = 0; i < selects.size(); ++i) {
    device.WriteRegister(reg(("IA32_PERFEVTSEL" + std::to_string(i)).c_str()), selects[i]);
  }
  device.WriteRegister(reg("IA32_FIXED_CTR_CTRL"), 0x333);
  device.WriteRegister(reg("IA32_PERF_GLOBAL_CTRL"), 0x70000000F);
  for (auto [event, rate] : std::array<std::pair<const char*, const char*>, 4>{
           {{"INST_RETIRED.ANY", "2200"}, {"LONGEST_LAT_CACHE.MISS", "3.5"}, {"BR_INST_RETIRED.ALL_BRANCHES", "400"},
            {"BR_MISP_RETIRED.ALL_BRANCHES", "7.25"}}}) {
    if (!device.Inject("event-rate", std::vector<std::string>{event, rate}).empty()) state.SkipWithError("rate");
  }
  std::vector<emulator::RegisterId> counters;
  for (const char* name : {"IA32_PMC0", "IA32_PMC1", "IA32_PMC2", "IA32_PMC3", "IA32_FIXED_CTR0", "IA32_FIXED_CTR1",
                           "IA32_FIXED_CTR2"}) {
    counters.push_back(reg(name));
  }
  auto total = [&] {
    uint64_t sum = 0;
    for (emulator::RegisterId id : counters) sum += device.PeekRegister(id);
    return sum;
  };
  uint64_t counted = 0;
  for (auto _ : state) {
    uint64_t before = total();
    for (uint64_t step = 0; step < kStepsPerVirtualSecond; ++step) device.Advance(kStepNs);
    counted += total() - before;  // 48-bit counters: no wrap in one virtual second at these rates
  }
  if (!device.violations().empty()) state.SkipWithError("violations");
  state.counters["events"] = benchmark::Counter(static_cast<double>(counted), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GoldmontCountingVirtualSecond)->Unit(benchmark::kMillisecond);

// The baseline: the same per-step sums (rates in milli-events per us, with
// carries) into seven plain counters.
void BM_RawCountersVirtualSecond(benchmark::State& state) {
  const std::array<uint64_t, 7> rates{2'200'000, 3'500, 400'000, 7'250, 2'200'000, 1'100'000, 1'100'000};
  std::array<uint64_t, 7> counters{};
  std::array<uint64_t, 7> carries{};
  uint64_t counted = 0;
  for (auto _ : state) {
    uint64_t before = 0;
    for (uint64_t c : counters) before += c;
    for (uint64_t step = 0; step < kStepsPerVirtualSecond; ++step) {
      for (size_t i = 0; i < rates.size(); ++i) {
        uint64_t part = rates[i] * kStepNs + carries[i];
        counters[i] += part / 1'000'000;
        carries[i] = part % 1'000'000;
      }
      benchmark::DoNotOptimize(counters);
    }
    uint64_t after = 0;
    for (uint64_t c : counters) after += c;
    counted += after - before;
  }
  state.counters["events"] = benchmark::Counter(static_cast<double>(counted), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RawCountersVirtualSecond)->Unit(benchmark::kMillisecond);

// Every slot's counter on every SE and instance: GRBM_GFX_INDEX, LO, HI.
void BM_Mi300ReadEveryCounter(benchmark::State& state) {
  static Loaded mi300 = Load("mi300");
  emulator::Device device(mi300.model, FastOptions());
  const auto* config = dynamic_cast<const regdb::EventCountersConfig*>(mi300.database->behaviours[0].config.get());
  if (config == nullptr) {
    state.SkipWithError("no event-counters config");
    return;
  }
  auto reg = [&](const char* name) { return *device.model().FindRegister(name); };
  const emulator::RegisterId index = reg("GRBM_GFX_INDEX"), cntl = reg("CP_PERFMON_CNTL");
  device.WriteRegister(cntl, 0);
  device.WriteRegister(cntl, 1);
  device.Inject("event", std::vector<std::string>{"TCC_HIT", "1000000"});
  device.WriteRegister(cntl, 0x401);
  struct Read {
    uint32_t steering;
    emulator::RegisterId lo, hi;
  };
  std::vector<Read> reads;
  for (const auto& slot : config->slots) {
    for (uint32_t se = 0; se < slot.dims.se; ++se) {
      for (uint32_t i = 0; i < slot.dims.instance; ++i) {
        uint32_t steering = (slot.dims.se > 1 ? se << 16 : 0x80000000u) | (slot.dims.instance > 1 ? i : 0x40000000u) |
                            0x20000000u;
        reads.push_back({steering, static_cast<emulator::RegisterId>(slot.lo.reg),
                         static_cast<emulator::RegisterId>(slot.hi)});
      }
    }
  }
  uint64_t sum = 0;
  for (auto _ : state) {
    for (const Read& read : reads) {
      device.WriteRegister(index, read.steering);
      sum += device.ReadRegister(read.lo) | device.ReadRegister(read.hi) << 32;
    }
    device.WriteRegister(index, 0xE0000000);
  }
  benchmark::DoNotOptimize(sum);
  if (!device.violations().empty()) state.SkipWithError("violations");
  state.counters["counters"] = benchmark::Counter(static_cast<double>(reads.size()) * static_cast<double>(state.iterations()),
                                                  benchmark::Counter::kIsRate);
  state.counters["per_read"] = static_cast<double>(reads.size());
}
BENCHMARK(BM_Mi300ReadEveryCounter)->Unit(benchmark::kMicrosecond);

// The baseline: as many 64-bit values from a plain array.
void BM_RawArrayReadCounters(benchmark::State& state) {
  std::vector<uint64_t> values(1000, 7);  // about the MI300 database's counter instances
  uint64_t sum = 0;
  for (auto _ : state) {
    for (uint64_t value : values) sum += value;
    benchmark::DoNotOptimize(sum);
  }
  state.counters["counters"] =
      benchmark::Counter(static_cast<double>(values.size()) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_RawArrayReadCounters)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace regemu::bench
