// Behaviour as data against same-run baselines:
// - a write that fires a reaction and schedules a delayed action, against a
//   plain write of a register nothing hooks, in the same device;
// - the event queue: events scheduled and fired per second;
// - yaml/nvme: an enable/disable cycle (CC.EN 0 -> 1, wait for RDY, 1 -> 0,
//   wait for not RDY) and an admin command round trip (SQE into host memory,
//   tail doorbell, completion posted, head doorbell), against the same
//   number of plain register writes.
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

std::shared_ptr<const emulator::Model> CompilePath(const std::string& path) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(path);
  if (loaded.diagnostics.has_errors()) return nullptr;
  return emulator::Compile(loaded.database).model;
}

// PLAIN has no behaviour; CC.EN rising schedules RDY 2 us later, falling
// cancels it and clears RDY; TICK counts as a reaction of every write.
const std::shared_ptr<const emulator::Model>& ReactionModel() {
  static const auto model = CompileText(R"y(device: bench
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: PLAIN, space: mmio, offset: 0x0}
  - {name: CC, space: mmio, offset: 0x14, fields: [{name: EN, bits: 0}]}
  - {name: CSTS, space: mmio, offset: 0x1c, fields: [{name: RDY, bits: 0, access: hw}]}
behaviours:
  - name: c
    kind: reactions
    reactions:
      - name: enable
        on: {rise: CC.EN}
        do: [{after: 2us, set: {CSTS.RDY: 1}}]
      - name: disable
        on: {fall: CC.EN}
        do: [{cancel: enable}, {set: {CSTS.RDY: 0}}]
)y");
  return model;
}

emulator::DeviceOptions Quiet() {
  emulator::DeviceOptions options;
  options.thread_safe = false;
  options.trace_capacity = 0;
  options.policy = emulator::ViolationPolicy::Lenient();
  return options;
}

// Baseline: the plain write of a register no behaviour hooks.
void BM_PlainWrite(benchmark::State& state) {
  emulator::Device device(ReactionModel(), Quiet());
  uint64_t i = 0;
  for (auto _ : state) device.Write(0, 0x0, 32, i++);
}
BENCHMARK(BM_PlainWrite);

// A write whose field rises, firing a reaction that schedules an action
// (and, every other write, the fall that cancels it): the same call.
void BM_WriteFiringReaction(benchmark::State& state) {
  emulator::Device device(ReactionModel(), Quiet());
  uint64_t i = 0;
  for (auto _ : state) device.Write(0, 0x14, 32, i++ & 1);
}
BENCHMARK(BM_WriteFiringReaction);

// The same pair with the device as a test gets it by default (thread-safe,
// a 1024-entry trace): what the pair costs a DeviceTest.
void BM_PlainWriteDefaultOptions(benchmark::State& state) {
  emulator::Device device(ReactionModel());
  uint64_t i = 0;
  for (auto _ : state) device.Write(0, 0x0, 32, i++);
}
BENCHMARK(BM_PlainWriteDefaultOptions);

void BM_WriteFiringReactionDefaultOptions(benchmark::State& state) {
  emulator::Device device(ReactionModel());
  uint64_t i = 0;
  for (auto _ : state) device.Write(0, 0x14, 32, i++ & 1);
}
BENCHMARK(BM_WriteFiringReactionDefaultOptions);

// The event queue alone: each iteration schedules one delayed action (the
// rise) and lets the clock run past it, so it fires; items = events.
void BM_EventQueueScheduleAndFire(benchmark::State& state) {
  emulator::Device device(ReactionModel(), Quiet());
  for (auto _ : state) {
    device.Write(0, 0x14, 32, 1);  // schedules RDY in 2 us
    device.Advance(2'000);         // fires it
    device.Write(0, 0x14, 32, 0);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_EventQueueScheduleAndFire);

const std::shared_ptr<const emulator::Model>& NvmeModel() {
  static const auto model = CompilePath(std::string(REGEMU_SOURCE_DIR) + "/yaml/nvme");
  return model;
}

struct Nvme {
  explicit Nvme(const std::shared_ptr<const emulator::Model>& model) : device(model, Quiet()) {
    const emulator::Model& m = device.model();
    bar0 = *m.FindSpace("bar0");
    host = *m.FindSpace("host");
    device.Write(*m.FindSpace("config"), 0x04, 16, 0x0006);
    device.Write(bar0, 0x24, 32, 0x001F001F);
    device.Write(bar0, 0x28, 64, 0x10000);
    device.Write(bar0, 0x30, 64, 0x20000);
  }
  emulator::Device device;
  emulator::SpaceId bar0 = 0;
  emulator::SpaceId host = 0;
};

// Baseline for the cycle: the same four writes to a register no behaviour hooks (AQA).
void BM_NvmePlainWrites4(benchmark::State& state) {
  Nvme nvme(NvmeModel());
  for (auto _ : state) {
    for (int k = 0; k < 4; ++k) nvme.device.Write(nvme.bar0, 0x24, 32, 0x001F001F);
  }
}
BENCHMARK(BM_NvmePlainWrites4);

// CC.EN 0 -> 1, the 2 ms until RDY, 1 -> 0, the 1 ms until not RDY.
void BM_NvmeEnableDisableCycle(benchmark::State& state) {
  Nvme nvme(NvmeModel());
  for (auto _ : state) {
    nvme.device.Write(nvme.bar0, 0x14, 32, 0x00460001);
    nvme.device.Advance(2'000'000);
    nvme.device.Write(nvme.bar0, 0x14, 32, 0x00460000);
    nvme.device.Advance(1'000'000);
  }
}
BENCHMARK(BM_NvmeEnableDisableCycle);

// Baseline for the round trip: a 64-byte copy into host memory and two plain writes.
void BM_NvmeSqeCopyAndTwoWrites(benchmark::State& state) {
  Nvme nvme(NvmeModel());
  uint8_t sqe[64] = {0x06};
  for (auto _ : state) {
    nvme.device.WriteMemory(nvme.host, 0x10000, sqe);
    nvme.device.Write(nvme.bar0, 0x24, 32, 0x001F001F);
    nvme.device.Write(nvme.bar0, 0x24, 32, 0x001F001F);
  }
}
BENCHMARK(BM_NvmeSqeCopyAndTwoWrites);

// One admin command: the SQE copied in, the tail doorbell (the ring reads
// it, runs Set Features, posts the completion with its phase, raises the
// interrupt), the head doorbell (drops it).
void BM_NvmeAdminRoundTrip(benchmark::State& state) {
  Nvme nvme(NvmeModel());
  nvme.device.Write(nvme.bar0, 0x14, 32, 0x00460001);
  nvme.device.Advance(2'000'000);
  uint8_t sqe[64] = {0x09};  // Set Features
  uint32_t tail = 0;
  for (auto _ : state) {
    nvme.device.WriteMemory(nvme.host, 0x10000 + 64 * tail, sqe);
    tail = (tail + 1) % 32;
    nvme.device.Write(nvme.bar0, 0x1000, 32, tail);
    nvme.device.Write(nvme.bar0, 0x1004, 32, tail);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_NvmeAdminRoundTrip);

}  // namespace
}  // namespace regemu::bench
