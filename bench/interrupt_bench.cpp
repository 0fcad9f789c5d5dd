// The `gen11-interrupts` behaviour on the shipped yaml/icl: one render
// interrupt injected and serviced by i915's full Gen11 handler sequence
// (i915_irq.c gen11_irq_handler, gt/intel_gt_irq.c) through the frontdoor:
// master disable, master read,
// DW0 read, selector write, identity read, identity DATA_VALID write, DW0
// clear, master enable (8 accesses). Reported as interrupts/s, against the
// same 8 accesses on a raw array in the same run.
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

namespace regemu::bench {
namespace {

constexpr uint64_t kMaster = 0x190010;
constexpr uint64_t kDw0 = 0x190018;
constexpr uint64_t kIdentity0 = 0x190060;
constexpr uint64_t kSelector0 = 0x190070;

std::shared_ptr<const emulator::Model> IclModel() {
  static const std::shared_ptr<const emulator::Model> model = [] {
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
    if (loaded.diagnostics.has_errors()) return std::shared_ptr<const emulator::Model>();
    return emulator::Compile(loaded.database).model;
  }();
  return model;
}

void BM_Gen11InterruptService(benchmark::State& state) {
  if (!IclModel()) {
    state.SkipWithError("yaml/icl does not load or compile");
    return;
  }
  emulator::Device device(IclModel());
  const emulator::Model& model = device.model();
  emulator::SpaceId mmio = *model.FindSpace("mmio");
  device.Write(*model.FindSpace("config"), 0x04, 16, 0x0006);  // PCICMD: memory decode on
  device.Write(mmio, 0x190030, 32, 0x09090909);                // RENDER_COPY enable
  device.Write(mmio, 0x190090, 32, 0xF6F6FFFF);                // RCS0 mask
  device.Write(mmio, kMaster, 32, 0x80000000);
  const std::vector<std::string> args{"RCS0", "0x1"};
  for (auto _ : state) {
    device.Inject("irq", args);
    device.Write(mmio, kMaster, 32, 0);
    benchmark::DoNotOptimize(device.Read(mmio, kMaster, 32));
    uint64_t dw = device.Read(mmio, kDw0, 32);
    device.Write(mmio, kSelector0, 32, dw);
    benchmark::DoNotOptimize(device.Read(mmio, kIdentity0, 32));
    device.Write(mmio, kIdentity0, 32, 0x80000000);
    device.Write(mmio, kDw0, 32, dw);
    device.Write(mmio, kMaster, 32, 0x80000000);
  }
  state.counters["interrupts"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  if (device.violation_count() != 0 || device.interrupt_asserted() ||
      device.interrupt_edges() != static_cast<uint64_t>(state.iterations())) {
    state.SkipWithError("the service loop broke a rule or lost an interrupt");
  }
}
BENCHMARK(BM_Gen11InterruptService);

// The baseline: the handler's 8 accesses on a plain array (no decode, no rules).
void BM_Gen11InterruptServiceRawArray(benchmark::State& state) {
  std::array<uint32_t, 64> regs{};
  regs[4] = 0x80000000;
  for (auto _ : state) {
    regs[6] = 1;  // the "event"
    benchmark::DoNotOptimize(regs.data());
    regs[4] = 0;
    benchmark::DoNotOptimize(regs[4]);
    uint32_t dw = regs[6];
    regs[28] = dw;
    benchmark::DoNotOptimize(regs[24]);
    regs[24] = 0x80000000;
    regs[6] &= ~dw;
    regs[4] = 0x80000000;
    benchmark::ClobberMemory();
  }
  state.counters["interrupts"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_Gen11InterruptServiceRawArray);

}  // namespace
}  // namespace regemu::bench
