// The Device's register access path against a raw array, and the cost of
// creating, snapshotting and restoring a 10,000-register device.
//
// Access benchmarks cycle over 1024 distinct registers of one kind (offset
// index masked), so the decode table is exercised and the working set is more
// than one cache line; the raw baselines cycle over the same offsets.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <vector>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "bench/synthetic_database.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/emulator/spin_lock.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr size_t kRegisters = 10'000;
constexpr uint64_t kCycle = 1024;  // distinct registers one access benchmark touches
constexpr uint64_t kCycleMask = kCycle - 1;
static_assert(kCycle <= kRegisters / 4, "each kind has a quarter of the registers");
constexpr emulator::SpaceId kMmio = 0;

// The 10k-register model, loaded, checked and compiled once.
const std::shared_ptr<const emulator::Model>& Model10k() {
  static const std::shared_ptr<const emulator::Model> model = [] {
    regdb::LoadOptions options;
    options.read_file = regdb::InMemoryFileReader({{"synthetic.yaml", SyntheticEmulatorYaml(kRegisters)}});
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck("synthetic.yaml", options);
    if (loaded.diagnostics.has_errors()) return std::shared_ptr<const emulator::Model>();
    return emulator::Compile(loaded.database).model;
  }();
  return model;
}

uint64_t Offset(SyntheticKind kind, uint64_t i) {
  return SyntheticOffset(kRegisters, kind, static_cast<size_t>(i & kCycleMask));
}

// The baseline: a raw array of the same register count. A driver's MMIO
// accessor is a call (readl()/writel() behind a bus hook), and Device::Read
// is an out-of-line call into the emulator library, so the fair comparison
// reads the array through a call too: noinline keeps the compiler from
// folding the accessor into the benchmark loop. BM_RawArrayRead32Inline shows
// the plain inline index as well.
class RawBus {
 public:
  explicit RawBus(size_t registers) : registers_(registers, 0) {}
  [[gnu::noinline]] uint32_t Read32(uint64_t offset) { return registers_[offset / 4]; }
  [[gnu::noinline]] void Write32(uint64_t offset, uint32_t value) { registers_[offset / 4] = value; }
  uint32_t InlineRead32(uint64_t offset) const { return registers_[offset / 4]; }

 private:
  std::vector<uint32_t> registers_;
};

void BM_RawArrayRead32(benchmark::State& state) {
  RawBus bus(kRegisters);
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bus.Read32(Offset(SyntheticKind::kPlain, i++)));
}
BENCHMARK(BM_RawArrayRead32);

void BM_RawArrayRead32Inline(benchmark::State& state) {
  RawBus bus(kRegisters);
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bus.InlineRead32(Offset(SyntheticKind::kPlain, i++)));
}
BENCHMARK(BM_RawArrayRead32Inline);

void BM_RawArrayWrite32(benchmark::State& state) {
  RawBus bus(kRegisters);
  uint64_t i = 0;
  for (auto _ : state) {
    bus.Write32(Offset(SyntheticKind::kPlain, i), static_cast<uint32_t>(i));
    ++i;
  }
  benchmark::DoNotOptimize(bus.Read32(0));
}
BENCHMARK(BM_RawArrayWrite32);

// The same raw array behind the device's own lock: what the thread-safety
// guarantee alone costs, before any register semantics. A thread-safe
// device compares with these; a single-threaded one with the plain ones.
class LockedRawBus {
 public:
  explicit LockedRawBus(size_t registers) : registers_(registers, 0) {}
  [[gnu::noinline]] uint32_t Read32(uint64_t offset) {
    lock_.lock();
    uint32_t value = registers_[offset / 4];
    lock_.unlock();
    return value;
  }
  [[gnu::noinline]] void Write32(uint64_t offset, uint32_t value) {
    lock_.lock();
    registers_[offset / 4] = value;
    lock_.unlock();
  }

 private:
  emulator::SpinLock lock_;
  std::vector<uint32_t> registers_;
};

void BM_RawArrayRead32Locked(benchmark::State& state) {
  LockedRawBus bus(kRegisters);
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(bus.Read32(Offset(SyntheticKind::kPlain, i++)));
}
BENCHMARK(BM_RawArrayRead32Locked);

void BM_RawArrayWrite32Locked(benchmark::State& state) {
  LockedRawBus bus(kRegisters);
  uint64_t i = 0;
  for (auto _ : state) {
    bus.Write32(Offset(SyntheticKind::kPlain, i), static_cast<uint32_t>(i));
    ++i;
  }
  benchmark::DoNotOptimize(bus.Read32(0));
}
BENCHMARK(BM_RawArrayWrite32Locked);

// Default options (strict policy, 1024-entry trace ring, no access cost): a
// test's device. Any violation would take the slow path, so none may happen.
void SkipIfViolated(benchmark::State& state, const emulator::Device& device) {
  if (device.violation_count() != 0) state.SkipWithError("the benchmark's accesses broke a rule");
}

bool HaveModel(benchmark::State& state) {
  if (Model10k()) return true;
  state.SkipWithError("the synthetic database does not load or compile");
  return false;
}

void DeviceRead(benchmark::State& state, SyntheticKind kind, emulator::DeviceOptions options = {}) {
  if (!HaveModel(state)) return;
  emulator::Device device(Model10k(), std::move(options));
  uint64_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(device.Read(kMmio, Offset(kind, i++), 32));
  SkipIfViolated(state, device);
}

void BM_DeviceRead32Plain(benchmark::State& state) { DeviceRead(state, SyntheticKind::kPlain); }
BENCHMARK(BM_DeviceRead32Plain);

// The same without the lock (DeviceOptions::thread_safe = false), and
// without the lock and the trace: what the lock and the trace cost.
emulator::DeviceOptions SingleThreaded(size_t trace_capacity) {
  emulator::DeviceOptions options;
  options.thread_safe = false;
  options.trace_capacity = trace_capacity;
  return options;
}
void BM_DeviceRead32PlainSingleThread(benchmark::State& state) {
  DeviceRead(state, SyntheticKind::kPlain, SingleThreaded(1024));
}
BENCHMARK(BM_DeviceRead32PlainSingleThread);
void BM_DeviceRead32PlainSingleThreadNoTrace(benchmark::State& state) {
  DeviceRead(state, SyntheticKind::kPlain, SingleThreaded(0));
}
BENCHMARK(BM_DeviceRead32PlainSingleThreadNoTrace);

// RC_n: EVENTS (15:0) clears on read.
void BM_DeviceReadClearOnRead32(benchmark::State& state) { DeviceRead(state, SyntheticKind::kRc); }
BENCHMARK(BM_DeviceReadClearOnRead32);

template <typename ValueOf>
void DeviceWrite(benchmark::State& state, SyntheticKind kind, ValueOf value_of, emulator::DeviceOptions options = {}) {
  if (!HaveModel(state)) return;
  emulator::Device device(Model10k(), std::move(options));
  uint64_t i = 0;
  for (auto _ : state) {
    device.Write(kMmio, Offset(kind, i), 32, value_of(i));
    ++i;
  }
  SkipIfViolated(state, device);
}

void BM_DeviceWrite32Plain(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kPlain, [](uint64_t i) { return i & 0xFFFF'FFFF; });
}
BENCHMARK(BM_DeviceWrite32Plain);

void BM_DeviceWrite32PlainSingleThread(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kPlain, [](uint64_t i) { return i & 0xFFFF'FFFF; }, SingleThreaded(1024));
}
BENCHMARK(BM_DeviceWrite32PlainSingleThread);

void BM_DeviceWrite32PlainSingleThreadNoTrace(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kPlain, [](uint64_t i) { return i & 0xFFFF'FFFF; }, SingleThreaded(0));
}
BENCHMARK(BM_DeviceWrite32PlainSingleThreadNoTrace);

// W1C_n: ENABLE (bit 0) stays 1, a 1 clears STATUS bits (7:1), mbz bits stay 0.
void BM_DeviceWrite32W1C(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kW1c, [](uint64_t i) { return 1 | ((i & 0x7F) << 1); });
}
BENCHMARK(BM_DeviceWrite32W1C);

// The same single-threaded and untraced: against BM_DeviceWrite32PlainSingleThreadNoTrace,
// what the write-1-to-clear semantics alone cost.
void BM_DeviceWrite32W1CSingleThreadNoTrace(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kW1c, [](uint64_t i) { return 1 | ((i & 0x7F) << 1); }, SingleThreaded(0));
}
BENCHMARK(BM_DeviceWrite32W1CSingleThreadNoTrace);

// MASKED_n: every enable bit set, so all of bits 15:0 take the value.
void BM_DeviceWrite32Masked(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kMasked, [](uint64_t i) { return 0xFFFF'0000 | (i & 0xFFFF); });
}
BENCHMARK(BM_DeviceWrite32Masked);

// Coverage on (DeviceOptions::coverage, emulator/coverage/coverage.hpp): against the
// same benchmarks without it, what counting costs. Off, each access path
// pays one predictable branch on a null pointer.
emulator::DeviceOptions WithCoverage() {
  emulator::DeviceOptions options;
  options.coverage = true;
  return options;
}
void BM_DeviceRead32PlainCoverage(benchmark::State& state) {
  DeviceRead(state, SyntheticKind::kPlain, WithCoverage());
}
BENCHMARK(BM_DeviceRead32PlainCoverage);
void BM_DeviceReadClearOnRead32Coverage(benchmark::State& state) {
  DeviceRead(state, SyntheticKind::kRc, WithCoverage());
}
BENCHMARK(BM_DeviceReadClearOnRead32Coverage);
void BM_DeviceWrite32PlainCoverage(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kPlain, [](uint64_t i) { return i & 0xFFFF'FFFF; }, WithCoverage());
}
BENCHMARK(BM_DeviceWrite32PlainCoverage);
void BM_DeviceWrite32W1CCoverage(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kW1c, [](uint64_t i) { return 1 | ((i & 0x7F) << 1); }, WithCoverage());
}
BENCHMARK(BM_DeviceWrite32W1CCoverage);
void BM_DeviceWrite32MaskedCoverage(benchmark::State& state) {
  DeviceWrite(state, SyntheticKind::kMasked, [](uint64_t i) { return 0xFFFF'0000 | (i & 0xFFFF); }, WithCoverage());
}
BENCHMARK(BM_DeviceWrite32MaskedCoverage);

// Heap bytes a Device made with `options` holds (glibc's allocator
// statistics; 0 elsewhere).
double DeviceHeapBytes(emulator::DeviceOptions options) {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  size_t before = mallinfo2().uordblks;
  auto device = std::make_unique<emulator::Device>(Model10k(), std::move(options));
  size_t after = mallinfo2().uordblks;
  benchmark::DoNotOptimize(device.get());
  return static_cast<double>(after - before);
#else
  (void)options;
  return 0;
#endif
}

// Counters: model_bytes is Model::memory_bytes(); state_B_per_reg is a
// device's heap (register values, write-once bits, behaviours, the Device
// itself) with the trace off, divided by the register count;
// device_B_per_reg the same with the default 1024-entry trace ring.
void BM_DeviceCreate10k(benchmark::State& state) {
  if (!HaveModel(state)) return;
  const std::shared_ptr<const emulator::Model>& model = Model10k();
  for (auto _ : state) {
    emulator::Device device(model);
    benchmark::DoNotOptimize(&device);
  }
  emulator::DeviceOptions no_trace;
  no_trace.trace_capacity = 0;
  double registers = static_cast<double>(model->registers().size());
  state.counters["registers"] = registers;
  state.counters["model_bytes"] = static_cast<double>(model->memory_bytes());
  state.counters["state_B_per_reg"] = DeviceHeapBytes(no_trace) / registers;
  state.counters["device_B_per_reg"] = DeviceHeapBytes({}) / registers;
}
BENCHMARK(BM_DeviceCreate10k)->Unit(benchmark::kMicrosecond);

void BM_SnapshotRestore10k(benchmark::State& state) {
  if (!HaveModel(state)) return;
  emulator::Device device(Model10k());
  for (auto _ : state) {
    emulator::DeviceSnapshot snapshot = device.Snapshot();
    device.Restore(snapshot);
  }
  state.counters["registers"] = static_cast<double>(Model10k()->registers().size());
}
BENCHMARK(BM_SnapshotRestore10k)->Unit(benchmark::kMicrosecond);

// BM_RunScript1000 is in script_bench.cpp.

}  // namespace
}  // namespace regemu::bench
