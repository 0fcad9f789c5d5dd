#pragma once
// A test-and-test-and-set lock for the device's short critical sections: an
// uncontended acquire is one atomic exchange, cheaper than a mutex, which
// matters because every register access takes it. Contenders yield.

#include <atomic>
#include <thread>

namespace regemu::emulator {

class SpinLock {
 public:
  void lock() {
    while (locked_.exchange(true, std::memory_order_acquire)) {
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
    }
  }
  void unlock() { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace regemu::emulator
