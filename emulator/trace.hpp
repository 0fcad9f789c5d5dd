#pragma once
// The trace: a bounded ring of what happened to a device, in order. It is
// rendered as script text (`regemu run` can replay it), so a failing test's
// last accesses can be pasted into a reproducer.

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace regemu::emulator {

class Model;

enum class TraceOp : uint8_t { kRead, kWrite, kPeek, kPoke, kStep, kReset };

// How the access was decoded and whether it broke a rule.
enum class TraceOutcome : uint8_t { kOk, kReserved, kAlias, kUnclaimed, kViolation, kDropped };

inline constexpr uint32_t kNoRegister = ~uint32_t{0};

struct TraceEntry {
  uint64_t sequence = 0;
  uint64_t time_ns = 0;
  uint64_t offset = 0;
  uint64_t value = 0;  // read or written; for kStep the nanoseconds advanced
  uint32_t reg = kNoRegister;
  uint16_t space = 0;
  uint8_t width = 0;
  TraceOp op = TraceOp::kRead;
  TraceOutcome outcome = TraceOutcome::kOk;
  uint8_t violation = 0;  // the first ViolationKind when outcome is kViolation
  uint16_t violation_kinds = 0;  // every kind the access recorded, bit (1 << kind)
};

// Sees every entry as it is pushed, whatever the ring's capacity.
using TraceObserver = std::function<void(const TraceEntry&)>;

// Fixed capacity; the oldest entry is overwritten. Capacity 0 records
// nothing, but the observer still sees every entry.
class TraceRing {
 public:
  // The ring always has a slot to build the next entry in, also at capacity
  // 0 (where the entry is built, shown to the observer and forgotten).
  explicit TraceRing(size_t capacity = 1024, TraceObserver observer = {})
      : entries_(capacity == 0 ? 1 : capacity), capacity_(capacity), observer_(std::move(observer)) {}

  // Pass the entry as a braced temporary: inlined, it is built straight into
  // its slot. Copying a just-built 48-byte entry from the stack stalls on
  // store forwarding (narrow stores, wide loads), several ns on every access.
  void Push(const TraceEntry& entry) {
    TraceEntry& slot = entries_[slot_];
    slot = entry;
    if (observer_) [[unlikely]] observer_(slot);
    if (capacity_ == 0) return;
    // `slot_` is next_ % capacity, kept without a division: every access pushes.
    if (++slot_ == capacity_) slot_ = 0;
    ++next_;
  }
  size_t capacity() const { return capacity_; }
  size_t size() const { return next_ < capacity_ ? next_ : capacity_; }
  uint64_t total() const { return next_; }  // entries ever pushed
  void Clear() { next_ = 0; slot_ = 0; }

  // The newest `count` entries (or all), oldest first.
  std::vector<TraceEntry> Last(size_t count) const;
  std::vector<TraceEntry> All() const { return Last(size()); }

 private:
  std::vector<TraceEntry> entries_;
  size_t capacity_;
  TraceObserver observer_;
  uint64_t next_ = 0;
  size_t slot_ = 0;  // where the next entry goes
};

// One script line for an entry, with a comment naming time, register and outcome:
//   write32 mmio 0x2360 0x00000001  # t=40ns seq=3 OACONTROL
//   expect32 mmio 0x2364 0x00000000  # t=50ns seq=4 OASTATUS1
std::string RenderTraceEntry(const Model& model, const TraceEntry& entry);
std::string RenderTrace(const Model& model, const std::vector<TraceEntry>& entries);

}  // namespace regemu::emulator
