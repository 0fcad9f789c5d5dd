// The concise vocabulary (yaml/README.md: counters' expression rates,
// computed fields, block behaviours) against same-run baselines:
// - a down-counter whose rate is an expression ("25MHz / DIVIDER", a `let`
//   over a prescale field) against the same counter at a constant 25 MHz,
//   each reloading every 16 ticks so that every advance fires limit events:
//   the cost per tick must be the same;
// - reading a register whose field is computed (MIS = RIS & INTEN) against
//   reading a plain register of the same device;
// - loading, checking and compiling a block of 8 instances with their
//   behaviours (the SP804's timer, 8 times) against the same block with one.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

std::shared_ptr<const emulator::Model> CompileText(const std::string& yaml) {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"bench.yaml", yaml}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("bench.yaml", options);
  if (loaded.diagnostics.has_errors()) return nullptr;
  return emulator::Compile(loaded.database).model;
}

emulator::DeviceOptions Quiet() {
  emulator::DeviceOptions options;
  options.thread_safe = false;
  options.trace_capacity = 0;
  options.policy = emulator::ViolationPolicy::Lenient();
  return options;
}

// One SP804-style timer: VALUE counts down at RATE, reloads from LOAD at 0
// and sets RIS.INT; MIS.INT is RIS.INT & CONTROL.INTEN, computed.
std::string TimerYaml(const std::string& rate) {
  return R"y(device: bench
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
let:
  DIVIDER: "CONTROL.PRESCALE == 0 ? 1 : CONTROL.PRESCALE == 1 ? 16 : 256"
registers:
  - {name: LOAD, space: mmio, offset: 0x0, reset: 15}
  - {name: VALUE, space: mmio, offset: 0x4, access: ro, volatile: true, reset: 15}
  - name: CONTROL
    space: mmio
    offset: 0x8
    fields: [{name: PRESCALE, bits: "3:2"}, {name: INTEN, bits: 5, reset: 1}, {name: ENABLE, bits: 7, reset: 1}]
  - {name: RIS, space: mmio, offset: 0x10, fields: [{name: INT, bits: 0, access: w1c}]}
  - {name: MIS, space: mmio, offset: 0x14, fields: [{name: INT, bits: 0, access: ro, value: "RIS.INT & CONTROL.INTEN"}]}
  - {name: PLAIN, space: mmio, offset: 0x18, fields: [{name: INT, bits: 0, access: ro}]}
behaviours:
  - name: count
    kind: counter
    register: VALUE
    direction: down
    frequency: ")y" + rate + R"y("
    enable: CONTROL.ENABLE
    at_limit: {set: RIS.INT, reload: LOAD}
)y";
}

const std::shared_ptr<const emulator::Model>& ConstantRateModel() {
  static const auto model = CompileText(TimerYaml("25MHz"));
  return model;
}

const std::shared_ptr<const emulator::Model>& ExpressionRateModel() {
  static const auto model = CompileText(TimerYaml("25MHz / DIVIDER"));
  return model;
}

// Each iteration advances 16 ticks (640 ns at 25 MHz): one reload, one limit event.
void AdvanceTicks(benchmark::State& state, const std::shared_ptr<const emulator::Model>& model) {
  if (!model) {
    state.SkipWithError("the benchmark's database does not compile");
    return;
  }
  emulator::Device device(model, Quiet());
  for (auto _ : state) device.Advance(640);
  state.SetItemsProcessed(state.iterations() * 16);  // items = ticks
}

// Baseline: the counter at a constant rate.
void BM_CounterTicksConstantRate(benchmark::State& state) { AdvanceTicks(state, ConstantRateModel()); }
BENCHMARK(BM_CounterTicksConstantRate);

void BM_CounterTicksExpressionRate(benchmark::State& state) { AdvanceTicks(state, ExpressionRateModel()); }
BENCHMARK(BM_CounterTicksExpressionRate);

// Baseline: a plain read-only register of the same device.
void BM_ReadPlainField(benchmark::State& state) {
  emulator::Device device(ConstantRateModel(), Quiet());
  for (auto _ : state) benchmark::DoNotOptimize(device.Read(0, 0x18, 32));
}
BENCHMARK(BM_ReadPlainField);

void BM_ReadComputedField(benchmark::State& state) {
  emulator::Device device(ConstantRateModel(), Quiet());
  for (auto _ : state) benchmark::DoNotOptimize(device.Read(0, 0x14, 32));
}
BENCHMARK(BM_ReadComputedField);

// A block of the timer with `instances` copies, each with its behaviours.
std::string BlockYaml(int instances) {
  std::string yaml = R"y(device: bench
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
blocks:
  - name: timer
    space: mmio
    instances: {)y";
  for (int i = 0; i < instances; ++i) {
    yaml += (i == 0 ? "" : ", ") + std::string("TIMER") + std::to_string(i) + ": " + std::to_string(i * 0x20);
  }
  yaml += R"y(}
    let:
      DIVIDER: "CONTROL.PRESCALE == 0 ? 1 : CONTROL.PRESCALE == 1 ? 16 : 256"
    registers:
      - {name: LOAD, offset: 0x0}
      - {name: VALUE, offset: 0x4, access: ro, volatile: true, reset: 0xFFFFFFFF}
      - name: CONTROL
        offset: 0x8
        fields: [{name: PRESCALE, bits: "3:2"}, {name: INTEN, bits: 5, reset: 1}, {name: ENABLE, bits: 7}]
      - {name: RIS, offset: 0x10, fields: [{name: INT, bits: 0, access: w1c}]}
      - {name: MIS, offset: 0x14, fields: [{name: INT, bits: 0, access: ro, value: "RIS.INT & CONTROL.INTEN"}]}
    behaviours:
      - {name: count, kind: counter, register: VALUE, direction: down, frequency: "25MHz / DIVIDER",
         enable: CONTROL.ENABLE, at_limit: {set: RIS.INT, reload: LOAD}}
      - kind: interrupts
        sources: [{name: timer, status: RIS.INT, enable: CONTROL.INTEN}]
        outputs: [{name: out, sources: [timer], line: TIMINT}]
)y";
  return yaml;
}

// Load, check and compile; items = instances.
void LoadBlock(benchmark::State& state, int instances) {
  const std::string yaml = BlockYaml(instances);
  if (!CompileText(yaml)) {
    state.SkipWithError("the benchmark's database does not compile");
    return;
  }
  for (auto _ : state) benchmark::DoNotOptimize(CompileText(yaml));
  state.SetItemsProcessed(state.iterations() * instances);
}

// Baseline: the block with one instance.
void BM_LoadBlockOfOneInstance(benchmark::State& state) { LoadBlock(state, 1); }
BENCHMARK(BM_LoadBlockOfOneInstance);

void BM_LoadBlockOfEightInstances(benchmark::State& state) { LoadBlock(state, 8); }
BENCHMARK(BM_LoadBlockOfEightInstances);

}  // namespace
}  // namespace regemu::bench
