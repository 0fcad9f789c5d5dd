#pragma once
// A Linux-perf-style driver for the Goldmont core PMU, over the MSRs
// (an MmioBus on the `msr` space: offset = MSR number, 64-bit accesses),
// written against the generated header of yaml/goldmont
// (regemu/regs/goldmont.hpp). What it does, in Linux's order
// (Linux arch/x86/events/intel/core.c):
//   - Probe: capabilities (full-width writes), selects and fixed control
//     left by firmware, and the write/read-back check of a free counter;
//   - Start: counting or sampling events on the fixed counters (INST_RETIRED
//     .ANY 0x00C0, CPU_CLK_UNHALTED.CORE 0x003C, .REF_TSC 0x0300) or the
//     first free GP counter: PMU disabled, period set (-left, through the
//     full-width alias when the CPU has one), event enabled, PMU enabled;
//   - Read: x86_perf_event_update's 48-bit sign-corrected deltas;
//   - HandlePmi: intel_pmu_handle_irq's early-ACK loop: disable, read
//     status, ack, update and restart each overflowed counter, re-read,
//     re-enable.

#include <array>
#include <cstdint>
#include <optional>

#include "examples/goldmont_perf/bugs.hpp"
#include "regemu/fakes/mmio_bus.hpp"

namespace regemu::goldmont_perf {

struct EventConfig {
  uint16_t code = 0;  // (umask << 8) | event, as perf's raw config (0x00C0: instructions)
  bool user = true;
  bool kernel = true;
  uint64_t period = 0;  // 0: counting; N: sample every N events
};

class GoldmontPmu {
 public:
  static constexpr unsigned kGpCounters = 4;
  static constexpr unsigned kFixedCounters = 3;
  static constexpr unsigned kCounterBits = 48;

  explicit GoldmontPmu(fakes::MmioBus& msr, Bugs bugs = {}) : msr_(msr), bugs_(bugs) {}

  // false when the PMU fails the read-back check (Linux: "broken PMU hardware").
  bool Probe();
  bool full_width_writes() const { return full_width_; }

  // Starts an event; its handle, or nothing when no counter can take it.
  std::optional<unsigned> Start(const EventConfig& event);
  void Stop(unsigned handle);
  // The event's count so far (counting) or events since the last sample.
  uint64_t Read(unsigned handle);
  uint64_t samples(unsigned handle) const { return events_[handle].samples; }

  // The PMI (NMI) handler; true when there was an overflow to handle.
  bool HandlePmi();

 private:
  struct Event {
    bool active = false;
    bool fixed = false;
    unsigned index = 0;  // GP counter or fixed counter number
    EventConfig config;
    uint64_t prev = 0;   // last raw counter value (48 bits)
    uint64_t count = 0;  // accumulated
    int64_t period_left = 0;
    uint64_t samples = 0;
  };
  static constexpr unsigned kHandles = kGpCounters + kFixedCounters;
  static constexpr uint64_t kCounterMask = (uint64_t{1} << kCounterBits) - 1;

  void DisableAll();
  void EnableAll();
  void SetPeriod(Event& event);
  void EnableEvent(const Event& event);
  void DisableEvent(const Event& event);
  uint64_t ReadCounter(const Event& event);
  void WriteCounter(const Event& event, uint64_t value);
  void Update(Event& event);
  uint64_t StatusBit(const Event& event) const;
  void HandleStatus(uint64_t status);
  void Reset();

  fakes::MmioBus& msr_;
  Bugs bugs_;
  bool full_width_ = false;
  std::array<Event, kHandles> events_{};  // GP 0-3, then fixed 0-2
};

}  // namespace regemu::goldmont_perf
