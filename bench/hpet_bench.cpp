// yaml/hpet, the IA-PC HPET in data alone: timer interrupts per wall
// second while the virtual clock runs a 1 kHz tick, against same-run
// baselines:
// - the same device with its counter running and no event due (what a
//   virtual millisecond costs when nothing happens in it);
// - a bare event queue: one reaction toggling a status bit every virtual
//   millisecond (`after: 1ms`), rolled up into a line (what any behaviour's
//   periodic event costs, without the counter, the comparator's re-plan
//   and the HPET's event chain).
// Each iteration is one virtual millisecond; items are interrupts (line
// edges; the baseline's: its events), so items_per_second is interrupts
// per wall second (real time, not CPU time). Numbers from the release
// preset only.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "bench/shipped_device.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr uint64_t kMillisecond = 1'000'000;

std::shared_ptr<const emulator::Model> CompileText(const std::string& yaml) {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"bench.yaml", yaml}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("bench.yaml", options);
  if (loaded.diagnostics.has_errors()) return nullptr;
  return emulator::Compile(loaded.database).model;
}

const std::shared_ptr<const emulator::Model>& HpetModel() { return ShippedModel("hpet"); }

// Linux's bring-up and periodic tick (tests/scripts/hpet_linux_enable.script):
// the counter reset and running, LegacyReplacement, timer 0 periodic in
// 32-bit mode every `delta` ticks. delta 0: the counter runs, no timer is
// enabled.
void Start(emulator::Device& device, uint32_t delta) {
  device.Write(0, 0x010, 32, 0x0);
  device.Write(0, 0x0F0, 32, 0x0);
  device.Write(0, 0x0F4, 32, 0x0);
  if (delta != 0) {
    device.Write(0, 0x100, 32, 0x817C);  // ENABLE | PERIODIC | SETVAL | 32BIT
    device.Write(0, 0x108, 32, delta);
    device.Write(0, 0x108, 32, delta);
  }
  device.Write(0, 0x010, 32, 0x3);
}

void Report(benchmark::State& state, const emulator::Device& device, uint64_t edges) {
  state.SetItemsProcessed(static_cast<int64_t>(edges));
  state.counters["virtual_ms"] = benchmark::Counter(static_cast<double>(state.iterations()));
  state.counters["violations"] = benchmark::Counter(static_cast<double>(device.violation_count()));
}

// The 1 kHz tick (14318 ticks of 69841279 fs): one interrupt per virtual
// millisecond, through the counter's match, the periodic reload, the
// `timers` reactions' pulse and the roll-up's routed line.
void BM_HpetTick1kHz(benchmark::State& state) {
  emulator::Device device(HpetModel(), QuietOptions());
  Start(device, 14318);
  uint64_t before = device.line_edges("IRQ0");
  for (auto _ : state) device.Advance(kMillisecond);
  Report(state, device, device.line_edges("IRQ0") - before);
}
BENCHMARK(BM_HpetTick1kHz)->UseRealTime();

// Baseline: the same device, its counter running, no timer enabled.
void BM_HpetCounterOnly(benchmark::State& state) {
  emulator::Device device(HpetModel(), QuietOptions());
  Start(device, 0);
  for (auto _ : state) device.Advance(kMillisecond);
  Report(state, device, 0);
}
BENCHMARK(BM_HpetCounterOnly)->UseRealTime();

// Baseline: the event queue alone, a reaction toggling TICK every 1 ms,
// its rising edges rolled up into a line.
const std::shared_ptr<const emulator::Model>& TogglerModel() {
  static const auto model = CompileText(R"y(device: toggler
spaces:
  - {name: mmio, kind: mmio, size: 0x10}
registers:
  - {name: CTL, space: mmio, offset: 0x0, fields: [{name: GO, bits: 0}]}
  - {name: STS, space: mmio, offset: 0x4, fields: [{name: TICK, bits: 0, access: hw}]}
behaviours:
  - name: clock
    kind: reactions
    reactions:
      - {name: start, on: {rise: CTL.GO}, do: [{after: 1ms, set: {STS.TICK: 1}}]}
      - {name: rise, on: {rise: STS.TICK}, do: [{after: 1ms, set: {STS.TICK: 0}}]}
      - {name: fall, on: {fall: STS.TICK}, do: [{after: 1ms, set: {STS.TICK: 1}}]}
  - name: irq
    kind: interrupts
    sources: [{name: tick, status: STS.TICK}]
    outputs: [{name: line, sources: [tick], line: TICK}]
)y");
  return model;
}

// Items are the toggles (one event a virtual millisecond, as the tick's
// interrupts are); the line rises at every other one.
void BM_EventQueueToggle1kHz(benchmark::State& state) {
  emulator::Device device(TogglerModel(), QuietOptions());
  device.Write(0, 0x0, 32, 1);
  uint64_t before = device.line_edges("TICK");
  for (auto _ : state) device.Advance(kMillisecond);
  Report(state, device, static_cast<uint64_t>(state.iterations()));
  state.counters["line_rises"] = benchmark::Counter(static_cast<double>(device.line_edges("TICK") - before));
}
BENCHMARK(BM_EventQueueToggle1kHz)->UseRealTime();

}  // namespace
}  // namespace regemu::bench
