// yaml/uart16550, the 16550A in data alone: bytes per wall second through
// the model at 115200 8N1 with its 16-byte FIFOs, the way an 8250-style
// driver moves them (16 THR writes per THRE, RBR reads while LSR.DR),
// against a same-run baseline:
// - the same accesses and the same virtual time on registers with no
//   behaviour (16 writes of SCR, one read of SCR in place of LSR, the same
//   Advance with nothing due): what the FIFOs, their paced drain, the
//   reactions behind THRE / IIR / the character timeout and the roll-up
//   cost on top of plain register accesses.
// Each iteration moves 16 bytes (one FIFO's worth, 16 character times of
// virtual time); items are bytes, so items_per_second is bytes per wall
// second (real time). Numbers from the release preset only.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bench/shipped_device.hpp"
#include "regemu/emulator/device.hpp"

namespace regemu::bench {
namespace {

// Register offsets (serial_reg.h) in the UART's one 8-byte space.
constexpr uint64_t kRbrThr = 0, kIer = 1, kFcr = 2, kLcr = 3, kMcr = 4, kLsr = 5, kScr = 7;
constexpr uint64_t kLsrDr = 0x01, kLsrThre = 0x20;
// One 8N1 character at divisor 1: 160 periods of 1.8432 MHz, rounded up.
constexpr uint64_t kCharNs = 86'806;
constexpr unsigned kBurst = 16;

const std::shared_ptr<const emulator::Model>& UartModel() { return ShippedModel("uart16550"); }

// serial8250_do_startup at 115200 8N1: divisor 1, FIFOs on and cleared
// (trigger 1), OUT2, every interrupt enabled; `loopback` sets MCR.LOOP.
void Start(emulator::Device& device, bool loopback) {
  device.Write(0, kLcr, 8, 0x83);
  device.Write(0, kRbrThr, 8, 0x01);
  device.Write(0, kIer, 8, 0x00);
  device.Write(0, kLcr, 8, 0x03);
  device.Write(0, kFcr, 8, 0x07);
  device.Write(0, kMcr, 8, loopback ? 0x1B : 0x0B);
  device.Write(0, kIer, 8, 0x0F);
}

void Report(benchmark::State& state, const emulator::Device& device, uint64_t bytes) {
  state.SetItemsProcessed(static_cast<int64_t>(bytes));
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  state.counters["violations"] = benchmark::Counter(static_cast<double>(device.violation_count()));
}

// Transmit: wait for THRE, fill the FIFO, let the line drain it. The bytes
// leave on the `sout` stream at the character rate.
void BM_UartTransmit(benchmark::State& state) {
  emulator::Device device(UartModel(), QuietOptions());
  Start(device, false);
  uint64_t bytes = 0;
  for (auto _ : state) {
    while ((device.Read(0, kLsr, 8) & kLsrThre) == 0) device.Advance(kCharNs);
    for (unsigned i = 0; i < kBurst; ++i) device.Write(0, kRbrThr, 8, 'a' + i);
    device.Advance(kBurst * kCharNs);
    bytes += kBurst;
  }
  Report(state, device, bytes);
}
BENCHMARK(BM_UartTransmit)->UseRealTime();

// Receive: 16 characters arrive on SIN at the line's pace (`inject sin`),
// the driver reads RBR while LSR.DR.
void BM_UartReceive(benchmark::State& state) {
  emulator::Device device(UartModel(), QuietOptions());
  Start(device, false);
  std::vector<std::string> burst;
  for (unsigned i = 0; i < kBurst; ++i) burst.push_back(std::to_string('a' + i));
  uint64_t bytes = 0;
  for (auto _ : state) {
    device.Inject("sin", burst);
    device.Advance(kBurst * kCharNs);
    while ((device.Read(0, kLsr, 8) & kLsrDr) != 0) {
      benchmark::DoNotOptimize(device.Read(0, kRbrThr, 8));
      ++bytes;
    }
  }
  Report(state, device, bytes);
}
BENCHMARK(BM_UartReceive)->UseRealTime();

// Both at once in loopback (MCR.LOOP): what is written comes back through
// the receive FIFO a character time later each.
void BM_UartLoopback(benchmark::State& state) {
  emulator::Device device(UartModel(), QuietOptions());
  Start(device, true);
  uint64_t bytes = 0;
  for (auto _ : state) {
    for (unsigned i = 0; i < kBurst; ++i) device.Write(0, kRbrThr, 8, 'a' + i);
    device.Advance(kBurst * kCharNs);
    while ((device.Read(0, kLsr, 8) & kLsrDr) != 0) {
      benchmark::DoNotOptimize(device.Read(0, kRbrThr, 8));
      ++bytes;
    }
  }
  Report(state, device, bytes);
}
BENCHMARK(BM_UartLoopback)->UseRealTime();

// Baseline: the transmit loop's accesses and virtual time on SCR, which no
// behaviour hooks.
void BM_UartPlainRegisterBaseline(benchmark::State& state) {
  emulator::Device device(UartModel(), QuietOptions());
  Start(device, false);
  uint64_t bytes = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(device.Read(0, kScr, 8));
    for (unsigned i = 0; i < kBurst; ++i) device.Write(0, kScr, 8, 'a' + i);
    device.Advance(kBurst * kCharNs);
    bytes += kBurst;
  }
  Report(state, device, bytes);
}
BENCHMARK(BM_UartPlainRegisterBaseline)->UseRealTime();

}  // namespace
}  // namespace regemu::bench
