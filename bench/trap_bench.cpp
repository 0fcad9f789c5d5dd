// A trapped 32-bit read and write (emulator/trap: a page fault, the signal
// round trip, Zydis decoding the instruction, the frontdoor access, the
// registers written back) against, in the same run, the same access
// through the MmioBus seam (fakes::FakeMmioBus: Device::Read/Write) and a
// plain load from memory. All three on one plain 32-bit register with the
// same access cost, so the difference is what the trap costs.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <optional>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr const char* kDatabase = R"yaml(device: bench
spaces:
  - {name: bar0, kind: mmio, size: 0x1000}
registers:
  - {name: SCRATCH, space: bar0, offset: 0x10}
)yaml";

std::shared_ptr<const emulator::Model> BenchModel() {
  static const std::shared_ptr<const emulator::Model> model = []() -> std::shared_ptr<const emulator::Model> {
    regdb::LoadOptions options;
    options.read_file = regdb::InMemoryFileReader({{"bench.yaml", kDatabase}});
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck("bench.yaml", options);
    if (loaded.diagnostics.has_errors()) return nullptr;
    return emulator::Compile(loaded.database).model;
  }();
  return model;
}

// A device whose accesses cost what a trapped mapping gives them (1 us of
// virtual time: the clock's advance is part of every variant).
std::unique_ptr<emulator::Device> BenchDevice() {
  emulator::DeviceOptions options;
  options.access_cost_ns = emulator::kDefaultTrappedAccessCostNs;
  return std::make_unique<emulator::Device>(BenchModel(), options);
}

void TrappedRead32(benchmark::State& state) {
  if (!BenchModel()) return state.SkipWithError("the benchmark database does not load");
  auto device = BenchDevice();
  emulator::TrappedMapping mapping = emulator::TrappedMapping::Map(*device, 0);
  auto* scratch = static_cast<volatile uint32_t*>(mapping.base()) + 4;
  for (auto _ : state) {
    uint32_t value = *scratch;  // one load (DoNotOptimize of the volatile lvalue would read it twice)
    benchmark::DoNotOptimize(value);
  }
  state.SetItemsProcessed(state.iterations());
  if (device->access_count() < static_cast<uint64_t>(state.iterations())) state.SkipWithError("the loads did not reach the device");
}
BENCHMARK(TrappedRead32);

void TrappedWrite32(benchmark::State& state) {
  if (!BenchModel()) return state.SkipWithError("the benchmark database does not load");
  auto device = BenchDevice();
  emulator::TrappedMapping mapping = emulator::TrappedMapping::Map(*device, 0);
  auto* scratch = static_cast<volatile uint32_t*>(mapping.base()) + 4;
  uint32_t value = 0;
  for (auto _ : state) *scratch = ++value;
  state.SetItemsProcessed(state.iterations());
  if (device->Peek(0, 0x10, 32) != value) state.SkipWithError("the stores did not reach the device");
}
BENCHMARK(TrappedWrite32);

void MmioBusRead32(benchmark::State& state) {
  if (!BenchModel()) return state.SkipWithError("the benchmark database does not load");
  auto device = BenchDevice();
  fakes::FakeMmioBus fake(*device, "bar0");
  fakes::MmioBus& bus = fake;
  for (auto _ : state) benchmark::DoNotOptimize(bus.Read32(0x10));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(MmioBusRead32);

void MmioBusWrite32(benchmark::State& state) {
  if (!BenchModel()) return state.SkipWithError("the benchmark database does not load");
  auto device = BenchDevice();
  fakes::FakeMmioBus fake(*device, "bar0");
  fakes::MmioBus& bus = fake;
  uint32_t value = 0;
  for (auto _ : state) bus.Write32(0x10, ++value);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(MmioBusWrite32);

void PlainLoad32(benchmark::State& state) {
  volatile uint32_t memory[8] = {};
  for (auto _ : state) {
    uint32_t value = memory[4];
    benchmark::DoNotOptimize(value);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(PlainLoad32);

}  // namespace
}  // namespace regemu::bench
