// The example driver's Gen11 handler (examples/i915_mini/gen11_irq.hpp,
// i915's gen11_irq_handler) servicing one injected RCS0 interrupt per
// iteration on the shipped yaml/icl: 8 frontdoor accesses (master disable,
// master read, DW0 read, selector, identity read, identity clear, DW0
// clear, master enable) plus the injection. The same handler template runs
// on three IOs, reported as interrupts/s (items_per_second):
//   DirectDevice    emulator::Device::Read/Write, no seam: the baseline
//   FakeBus         fakes::FakeMmioBus: one virtual call per access more
//   MockDelegating  a gmock NiceMock<MockMmioBus> delegating to the fake:
//                   what a test that EXPECT_CALLs a few accesses pays
#include <benchmark/benchmark.h>
#include <gmock/gmock.h>

#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "examples/i915_mini/device_io.hpp"
#include "examples/i915_mini/gen11_irq.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"
#include "regemu/fakes/mock_mmio_bus.hpp"

namespace regemu::bench {
namespace {

std::shared_ptr<const emulator::Model> IclModel() {
  static const std::shared_ptr<const emulator::Model> model = []() -> std::shared_ptr<const emulator::Model> {
    try {
      return fakes::CompileDatabase(fakes::ShippedDatabase("icl"));
    } catch (const std::exception&) {
      return nullptr;
    }
  }();
  return model;
}

// A device with memory decode on, so GTTMMADR answers.
std::unique_ptr<emulator::Device> MakeDevice() {
  auto device = std::make_unique<emulator::Device>(IclModel());
  device->Write(*device->model().FindSpace("config"), 0x04, 16, 0x0006);  // PCICMD: MSE | BME
  return device;
}

template <fakes::MmioBusLike Io>
void ServiceLoop(benchmark::State& state, emulator::Device& device, Io& io) {
  i915_mini::Gen11Irq<Io> irq(io, [&device](uint64_t ns) { device.Advance(ns); });
  irq.Reset();
  irq.Postinstall();
  const std::vector<std::string> args{"RCS0", "0x1"};
  int64_t serviced = 0;
  for (auto _ : state) {
    device.Inject("irq", args);
    i915_mini::IrqReport report = irq.Handle();
    serviced += static_cast<int64_t>(report.serviced().size());
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations());
  if (device.violation_count() != 0 || serviced != static_cast<int64_t>(state.iterations()) ||
      device.interrupt_asserted()) {
    state.SkipWithError("the handler broke a rule or lost an interrupt");
  }
}

void BM_ExampleIrqDirectDevice(benchmark::State& state) {
  if (!IclModel()) return state.SkipWithError("yaml/icl does not load or compile");
  auto device = MakeDevice();
  i915_mini::DeviceIo io(*device, *device->model().FindSpace("mmio"));
  ServiceLoop(state, *device, io);
}
BENCHMARK(BM_ExampleIrqDirectDevice);

void BM_ExampleIrqFakeBus(benchmark::State& state) {
  if (!IclModel()) return state.SkipWithError("yaml/icl does not load or compile");
  auto device = MakeDevice();
  fakes::FakeMmioBus fake(*device, "mmio");
  fakes::MmioBus& bus = fake;
  ServiceLoop(state, *device, bus);
}
BENCHMARK(BM_ExampleIrqFakeBus);

void BM_ExampleIrqMockDelegating(benchmark::State& state) {
  if (!IclModel()) return state.SkipWithError("yaml/icl does not load or compile");
  auto device = MakeDevice();
  ::testing::NiceMock<fakes::MockMmioBus> mock;
  mock.DelegateToFake(*device, "mmio");
  fakes::MmioBus& bus = mock;
  ServiceLoop(state, *device, bus);
}
BENCHMARK(BM_ExampleIrqMockDelegating);

}  // namespace
}  // namespace regemu::bench
