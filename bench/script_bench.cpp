// A 1,000-line driver-style script end to end against yaml/hsw: parse (names
// resolved against the model), run on a fresh device, render the trace. The
// database is loaded and compiled once, outside the loop, as `regemu run`
// does once per process; BM_RunScript1000WithDatabase adds that load.
#include <benchmark/benchmark.h>

#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

const std::string kHsw = std::string(REGEMU_SOURCE_DIR) + "/yaml/hsw";

// 1,000 commands cycling through what a driver does: program, read back,
// poll, wait, inspect; every expectation holds.
std::string Script1000() {
  std::string text = "# generated: 1000 commands against yaml/hsw\n";
  for (int i = 0; i < 100; ++i) {
    std::string n = std::to_string(i % 45);
    std::string value = std::to_string(i * 64);
    text += "write32 OAPERF_A" + n + " " + value + "\n";
    text += "expect32 OAPERF_A" + n + " " + value + "\n";
    text += "write32 OABUFFER 0x01000000\n";
    text += "expect32 OABUFFER 0x01000000 mask 0xFFFFFFC0\n";
    text += "read32 OASTATUS1\n";
    text += "poll32 OASTATUS2 0x1 mask 0x1 timeout 1us\n";
    text += "write32 mmio 0x2360 0x00000001\n";
    text += "step 100ns\n";
    text += "peek32 mmio 0x2368\n";
    text += "expect16 mmio 0x2360 0x0001\n";
  }
  return text;
}

emulator::CompileResult CompileHsw() {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(kHsw);
  return emulator::Compile(loaded.database);
}

void RunOnce(benchmark::State& state, const emulator::Model& model, std::shared_ptr<const emulator::Model> shared,
             const std::string& text) {
  emulator::Script script = emulator::ParseScript(text, "bench.script", model);
  emulator::DeviceOptions options;
  options.trace_capacity = 2048;
  emulator::Device device(std::move(shared), options);
  emulator::RunResult result = emulator::RunScript(script, device);
  if (!result.passed()) state.SkipWithError("the benchmark script failed");
  std::string trace = emulator::RenderTrace(device.model(), device.Trace());
  benchmark::DoNotOptimize(trace);
}

void BM_RunScript1000(benchmark::State& state) {
  emulator::CompileResult compiled = CompileHsw();
  if (!compiled.model) {
    state.SkipWithError("yaml/hsw does not compile");
    return;
  }
  const std::string text = Script1000();
  for (auto _ : state) RunOnce(state, *compiled.model, compiled.model, text);
  state.counters["lines"] = 1000;
}
BENCHMARK(BM_RunScript1000)->Unit(benchmark::kMillisecond);

void BM_RunScript1000WithDatabase(benchmark::State& state) {
  const std::string text = Script1000();
  for (auto _ : state) {
    emulator::CompileResult compiled = CompileHsw();
    if (!compiled.model) {
      state.SkipWithError("yaml/hsw does not compile");
      return;
    }
    RunOnce(state, *compiled.model, compiled.model, text);
  }
}
BENCHMARK(BM_RunScript1000WithDatabase)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace regemu::bench
