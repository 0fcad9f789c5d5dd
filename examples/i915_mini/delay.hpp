#pragma once
// Waiting, the way a driver waits on hardware: it calls a delay (udelay)
// between polls and gives up after a budget. The delay is injected, so on
// real hardware it is udelay and in a test it advances the emulator's
// virtual clock (Device::Advance): polling makes progress without sleeping
// and without reading the wall clock.

#include <cstdint>
#include <functional>

namespace regemu::i915_mini {

// Waits `ns` nanoseconds.
using Delay = std::function<void(uint64_t ns)>;

// Evaluates `done` until it holds, calling `delay(interval_ns)` between
// tries, and gives up once the delays add up to `timeout_ns` (i915's
// wait_for / wait_for_atomic_us). The number of tries is bounded by
// timeout_ns / interval_ns + 1 even if the delay does not move any clock.
template <typename Condition>
bool PollUntil(const Delay& delay, uint64_t timeout_ns, uint64_t interval_ns, Condition done) {
  for (uint64_t waited = 0;; waited += interval_ns) {
    if (done()) return true;
    if (waited >= timeout_ns) return false;
    delay(interval_ns);
  }
}

}  // namespace regemu::i915_mini
