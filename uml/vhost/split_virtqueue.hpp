#pragma once
// A split virtqueue (Virtio 1.1 §2.6) as the device side walks it: the
// descriptor table, the available ring the driver fills and the used ring
// the device fills, all in the kernel's shared memory (GuestMemory). Only
// what UML negotiates here is supported: no indirect descriptors, no event
// index, not packed (this side never offers those features).
//
// Everything read from the rings is the other side's and is checked: an
// index past the table, a chain longer than the table (a loop), a buffer
// outside shared memory, an available index running more than the ring
// ahead. A bad chain comes back with its error; it is completed with
// length 0 and the queue goes on.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "regemu/uml/vhost/guest_memory.hpp"

namespace regemu::uml {

struct DescriptorChain {
  uint16_t head = 0;
  std::vector<std::span<uint8_t>> readable;  // device-readable buffers, in order
  std::vector<std::span<uint8_t>> writable;  // then the device-writable ones
  std::string error;                         // non-empty: the chain is malformed
};

class SplitVirtqueue {
 public:
  // Virtio's limit on a split queue's size (§2.6: at most 32768, a power of 2).
  static constexpr uint32_t kMaxSize = 32768;
  // The bytes one chain may carry in all.
  static constexpr uint64_t kMaxChainBytes = 1u << 20;

  void SetSize(uint32_t num) { num_ = num; }
  void SetBase(uint16_t base) {
    last_avail_ = base;
    used_idx_ = base;
  }
  void SetAddresses(uint64_t desc, uint64_t avail, uint64_t used) {
    desc_ = desc;
    avail_ = avail;
    used_ = used;
    configured_ = true;
  }
  void SetEnabled(bool enabled) { enabled_ = enabled; }
  uint16_t base() const { return last_avail_; }
  bool ready() const { return configured_ && enabled_ && num_ != 0; }
  // "" or why the configuration cannot be used (a size that is not a power of two, rings outside memory).
  std::string Check(const GuestMemory& memory) const;

  // The next chain the driver made available, if any. A ring that cannot
  // be read at all (outside memory) gives nothing and sets `error`.
  std::optional<DescriptorChain> Pop(const GuestMemory& memory, std::string& error);
  // Returns `head` to the driver with `length` bytes written. False when
  // the used ring cannot be written.
  bool Push(const GuestMemory& memory, uint16_t head, uint32_t length);

 private:
  uint32_t num_ = 0;
  uint64_t desc_ = 0, avail_ = 0, used_ = 0;
  bool configured_ = false;
  bool enabled_ = false;
  uint16_t last_avail_ = 0;
  uint16_t used_idx_ = 0;
};

}  // namespace regemu::uml
