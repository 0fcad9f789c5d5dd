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
  // One slot more than the capacity: the slot the next entry is built in is
  // never one of the `capacity` newest entries, so Last() can be read while
  // an access is still filling in its entry.
  explicit TraceRing(size_t capacity = 1024, TraceObserver observer = {})
      : entries_(capacity + 1), capacity_(capacity), observer_(std::move(observer)) {}

  // Where the next entry is built: the frontdoor fills in its access's entry
  // there as the access goes, then commits it. Building entries in place
  // matters: copying a just-built 48-byte entry stalls on store forwarding
  // (narrow stores, wide loads), several ns on every access.
  TraceEntry& Open() { return entries_[slot_]; }
  // The open entry is done: the observer sees it, the ring keeps it (unless
  // the capacity is 0).
  void Commit() {
    if (observer_) [[unlikely]] observer_(entries_[slot_]);
    if (capacity_ == 0) return;
    // `slot_` is next_ % entries_.size(), kept without a division: every access commits.
    if (++slot_ == entries_.size()) slot_ = 0;
    ++next_;
  }
  // Pass a braced temporary: inlined, it is built straight into its slot.
  void Push(const TraceEntry& entry) {
    Open() = entry;
    Commit();
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
  size_t slot_ = 0;  // the open slot: where the next entry goes
};

// One script line for an entry, with a comment naming time, register and outcome:
//   write32 mmio 0x2360 0x00000001  # t=40ns seq=3 OACONTROL
//   expect32 mmio 0x2364 0x00000000  # t=50ns seq=4 OASTATUS1
std::string RenderTraceEntry(const Model& model, const TraceEntry& entry);
std::string RenderTrace(const Model& model, const std::vector<TraceEntry>& entries);

}  // namespace regemu::emulator
