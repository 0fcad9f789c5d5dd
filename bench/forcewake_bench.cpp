// The `forcewake` behaviour: a driver's get + put cycle (request write, ack
// read, put write) with a zero ack latency, so no virtual-time wait is in the
// loop, and a read of a gated register while its domain is awake (what the
// access gate adds to a plain register), and the cycle with a 500ns ack
// latency (the ack an event on the device's queue). Compare with BM_RawArrayRead32 /
// BM_RawArrayWrite32 and BM_DeviceRead32Plain in the same binary.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr const char* kForcewakeYaml = R"(device: fw_bench
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: FW_RENDER, space: mmio, offset: 0xA278, masked: true}
  - {name: FW_ACK_RENDER, space: mmio, offset: 0x0D84, access: ro}
  - {name: RENDER_REG, space: mmio, offset: 0x2010}
behaviours:
  - kind: forcewake
    latency: 0ns
    domains:
      - {name: render, request: FW_RENDER, ack: FW_ACK_RENDER}
    ranges:
      - {first: 0x0000, last: 0x1FFF, domains: []}
      - {first: 0x2000, last: 0x26FF, domains: [render]}
)";

constexpr emulator::SpaceId kMmio = 0;
constexpr uint64_t kRequest = 0xA278;
constexpr uint64_t kAck = 0x0D84;
constexpr uint64_t kRenderReg = 0x2010;

std::shared_ptr<const emulator::Model> CompileForcewake(std::string_view latency) {
  std::string yaml = kForcewakeYaml;
  yaml.replace(yaml.find("latency: 0ns"), 12, "latency: " + std::string(latency));
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"fw.yaml", yaml}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("fw.yaml", options);
  if (loaded.diagnostics.has_errors()) return nullptr;
  return emulator::Compile(loaded.database).model;
}

std::shared_ptr<const emulator::Model> ForcewakeModel() {
  static const std::shared_ptr<const emulator::Model> model = CompileForcewake("0ns");
  return model;
}

void BM_ForcewakeGetPut(benchmark::State& state) {
  if (!ForcewakeModel()) {
    state.SkipWithError("the forcewake database does not load or compile");
    return;
  }
  emulator::Device device(ForcewakeModel());
  for (auto _ : state) {
    device.Write(kMmio, kRequest, 32, 0x00010001);
    benchmark::DoNotOptimize(device.Read(kMmio, kAck, 32));
    device.Write(kMmio, kRequest, 32, 0x00010000);
  }
  if (device.violation_count() != 0 || device.PeekRegister(*ForcewakeModel()->FindRegister("FW_ACK_RENDER")) != 0) {
    state.SkipWithError("the get/put cycle broke a rule or left the domain awake");
  }
}
BENCHMARK(BM_ForcewakeGetPut);

// The same cycle on a device without the lock (DeviceOptions::thread_safe =
// false): what the thread-safety guarantee costs of the three accesses.
void BM_ForcewakeGetPutSingleThread(benchmark::State& state) {
  if (!ForcewakeModel()) {
    state.SkipWithError("the forcewake database does not load or compile");
    return;
  }
  emulator::DeviceOptions options;
  options.thread_safe = false;
  emulator::Device device(ForcewakeModel(), options);
  for (auto _ : state) {
    device.Write(kMmio, kRequest, 32, 0x00010001);
    benchmark::DoNotOptimize(device.Read(kMmio, kAck, 32));
    device.Write(kMmio, kRequest, 32, 0x00010000);
  }
  if (device.violation_count() != 0) state.SkipWithError("the get/put cycle broke a rule");
}
BENCHMARK(BM_ForcewakeGetPutSingleThread);

// The cycle with the acks 500ns late, as yaml/icl has them: each request
// write puts an ack on the device's queue, and the clock steps to it.
void BM_ForcewakeGetPutWithLatency(benchmark::State& state) {
  static const std::shared_ptr<const emulator::Model> model = CompileForcewake("500ns");
  if (!model) {
    state.SkipWithError("the forcewake database does not load or compile");
    return;
  }
  emulator::Device device(model);
  for (auto _ : state) {
    device.Write(kMmio, kRequest, 32, 0x00010001);
    device.Advance(500);
    benchmark::DoNotOptimize(device.Read(kMmio, kAck, 32));
    device.Write(kMmio, kRequest, 32, 0x00010000);
    device.Advance(500);
  }
  if (device.violation_count() != 0 || device.PeekRegister(*model->FindRegister("FW_ACK_RENDER")) != 0) {
    state.SkipWithError("the get/put cycle broke a rule or left the domain awake");
  }
}
BENCHMARK(BM_ForcewakeGetPutWithLatency);

void BM_ForcewakeGatedRead32Awake(benchmark::State& state) {
  if (!ForcewakeModel()) {
    state.SkipWithError("the forcewake database does not load or compile");
    return;
  }
  emulator::Device device(ForcewakeModel());
  device.Write(kMmio, kRequest, 32, 0x00010001);
  for (auto _ : state) benchmark::DoNotOptimize(device.Read(kMmio, kRenderReg, 32));
  if (device.violation_count() != 0) state.SkipWithError("the gated read was refused");
}
BENCHMARK(BM_ForcewakeGatedRead32Awake);

// The same gated read with the domain's gate as data (`kind: gate`, its
// condition an expression over the ack), against BM_ForcewakeGatedRead32Awake.
constexpr const char* kGateYaml = R"(device: gate_bench
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - {name: FW_ACK_RENDER, space: mmio, offset: 0x0D84}
  - {name: RENDER_REG, space: mmio, offset: 0x2010}
behaviours:
  - kind: gate
    space: mmio
    gates: [{name: render, when: "(FW_ACK_RENDER & 0x8003) != 0", kind: forcewake, violation: "render is asleep"}]
    ranges: [{first: 0x2000, last: 0x26FF}]
)";

void BM_GateRead32Open(benchmark::State& state) {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"gate.yaml", kGateYaml}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("gate.yaml", options);
  if (loaded.diagnostics.has_errors()) {
    state.SkipWithError("the gate database does not load");
    return;
  }
  emulator::Device device(emulator::Compile(loaded.database).model);
  device.Write(kMmio, kAck, 32, 1);
  for (auto _ : state) benchmark::DoNotOptimize(device.Read(kMmio, kRenderReg, 32));
  if (device.violation_count() != 0) state.SkipWithError("the gated read was refused");
}
BENCHMARK(BM_GateRead32Open);

}  // namespace
}  // namespace regemu::bench
