#pragma once
// What device.cpp (state, backdoor, time) and device_frontdoor.cpp (the
// access path) share, and the built-in kinds' inline use of the event
// queue (ContextFastPath); not part of the public API.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "regemu/emulator/coverage/coverage_recorder.hpp"
#include "regemu/emulator/device.hpp"

namespace regemu::emulator {

// A frontdoor access in progress. Its trace entry is the ring's open slot
// (Device::OpenAccess), filled in as the access goes and committed by Finish.
struct Device::Access {
  explicit Access(TraceEntry& entry_in) : entry(entry_in) {}

  TraceEntry& entry;
  bool violated = false;
  // Read-modify-write bookkeeping over the registers one write covers (a
  // dword write of PCI COMMAND + STATUS is two): the first register whose
  // stored bits it changes, and the first whose status bits it carries back
  // as the driver read them, acting on them (see Device::WriteBits).
  RegisterId changed_reg = kNoRegister;
  uint64_t changed_bits = 0;
  RegisterId carried_reg = kNoRegister;
  uint64_t carried_bits = 0;
  // What a read the gate refused answers (AccessRefusal::reads_as).
  uint64_t refused_reads_as = 0;
  // Its violations wait in Device::pending_violations_ until it finishes.
};

inline Device::Access Device::OpenAccess(const TraceEntry& entry) {
  TraceEntry& slot = trace_.Open();
  slot = entry;
  return Access(slot);
}

// std::push_heap and pop_heap build a max-heap: "later" puts the earliest
// event (and, at one instant, the first scheduled) on top. A function
// object, not a function: the heap algorithms inline it (a function
// pointer they call, every comparison).
inline constexpr auto kLater = [](const PendingEvent& a, const PendingEvent& b) {
  return a.due_ns != b.due_ns ? a.due_ns > b.due_ns : a.id > b.id;
};

// Inline: a reaction that starts or cancels a delayed action does so on
// the write path of the register that triggers it (ContextFastPath).
inline uint64_t Device::ScheduleLocked(uint32_t behaviour, uint64_t delay_ns, uint64_t tag, PollWait poll) {
  uint64_t due = delay_ns > ~uint64_t{0} - now_ns_ ? ~uint64_t{0} : now_ns_ + delay_ns;
  uint64_t id = next_event_id_++;
  PendingEvent event{due, id, tag, behaviour, poll};
  // std::push_heap's sift-up, written out: the library's generic one moves
  // the new event through a temporary and costs a write twice as much.
  events_.push_back(event);
  size_t at = events_.size() - 1;
  while (at > 0) {
    size_t parent = (at - 1) / 2;
    if (!kLater(events_[parent], event)) break;
    events_[at] = events_[parent];
    at = parent;
  }
  events_[at] = event;
  return id;
}

// Removes the events `hit` selects from `first` on (events[first] among
// them) out of the middle of the heap, then makes what is left a heap again.
// (Removing only the newest event, a leaf, needs neither: pop_back.)
template <typename Hit>
void RemoveFromHeap(std::vector<PendingEvent>& events, std::vector<PendingEvent>::iterator first, Hit hit) {
  events.erase(std::remove_if(first, events.end(), hit), events.end());
  std::make_heap(events.begin(), events.end(), kLater);
}

inline bool Device::CancelLocked(uint32_t behaviour, uint64_t id) {
  auto is_it = [&](const PendingEvent& e) { return e.id == id && e.behaviour == behaviour; };
  // The common case first, cancelling what was just scheduled: the last
  // event is a leaf of the heap, and what is left without it is a heap.
  if (!events_.empty() && is_it(events_.back())) {
    events_.pop_back();
    return true;
  }
  auto it = std::find_if(events_.begin(), events_.end(), is_it);
  if (it == events_.end()) return false;
  RemoveFromHeap(events_, it, is_it);
  return true;
}

// What BehaviourContext::Schedule, Cancel and Cover do, inline, for the
// built-in kinds whose hot paths use them (a reaction scheduling on every
// write of its register); behaviours outside the library call the
// context's own (out of line, the same code).
struct ContextFastPath {
  static uint64_t Schedule(BehaviourContext& context, uint64_t delay_ns, uint64_t tag,
                           PollWait poll = PollWait::kEndsAtEvent) {
    return context.device_.ScheduleLocked(context.self_, delay_ns, tag, poll);
  }
  static bool Cancel(BehaviourContext& context, uint64_t id) { return context.device_.CancelLocked(context.self_, id); }
  // Removes every pending event of this behaviour whose tag `matches` (a
  // reaction's `cancel`: the tags say which reaction scheduled them).
  template <typename Match>
  [[gnu::always_inline]] static void CancelWhere(BehaviourContext& context, Match matches) {
    std::vector<PendingEvent>& events = context.device_.events_;
    uint32_t self = context.self_;
    size_t count = events.size();
    for (size_t i = 0; i < count; ++i) {
      if (events[i].behaviour != self || !matches(events[i].tag)) continue;
      // Only the newest event (a leaf) to remove: what is left is still a heap.
      if (i + 1 == count) {
        events.pop_back();
        return;
      }
      CancelFrom(events, i, self, matches);
      return;
    }
  }
  // Out of line: CancelWhere past its common case.
  template <typename Match>
  [[gnu::noinline]] static void CancelFrom(std::vector<PendingEvent>& events, size_t first, uint32_t self,
                                           Match matches) {
    RemoveFromHeap(events, events.begin() + static_cast<std::ptrdiff_t>(first),
                   [&](const PendingEvent& e) { return e.behaviour == self && matches(e.tag); });
  }
  static void Cover(BehaviourContext& context, uint32_t point) {
    if (context.device_.coverage_ != nullptr) [[unlikely]] context.device_.coverage_->Hit(context.self_, point);
  }
};

inline bool IsAccessWidth(unsigned width) { return width == 8 || width == 16 || width == 32 || width == 64; }
inline uint64_t WidthMask(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

}  // namespace regemu::emulator
