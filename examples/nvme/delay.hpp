#pragma once
// Waiting the way nvme-core waits: usleep_range(1000, 2000) between polls
// of a register or a completion entry, giving up after a budget. The delay
// is injected: usleep on real hardware, Device::Advance (the device's
// virtual clock) in tests, so polling makes progress without sleeping.

#include <cstdint>
#include <functional>

namespace regemu::nvme {

// Waits `ns` nanoseconds.
using Delay = std::function<void(uint64_t ns)>;

inline constexpr uint64_t kMillisecond = 1'000'000;
inline constexpr uint64_t kSecond = 1000 * kMillisecond;
// The sleep between two polls: usleep_range(1000, 2000) sleeps at least 1 ms.
inline constexpr uint64_t kPollInterval = kMillisecond;

// Evaluates `done` until it holds, calling `delay(kPollInterval)` between
// tries; false once the delays add up to more than `timeout_ns` (Linux
// checks time_after(jiffies, timeout) after the sleep).
template <typename Condition>
bool PollUntil(const Delay& delay, uint64_t timeout_ns, Condition done) {
  for (uint64_t waited = 0;; waited += kPollInterval) {
    if (done()) return true;
    if (waited > timeout_ns) return false;
    delay(kPollInterval);
  }
}

}  // namespace regemu::nvme
