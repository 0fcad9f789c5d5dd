#pragma once
// The device's side of a split virtqueue (virtio 1.x §2.7) in memory the
// driver shares: take the chains the driver made available, give them back
// as used. Not negotiated, so not handled: indirect descriptors, event
// index notification suppression, the packed layout (the slave never
// offers them; see VhostUserSlave).
//
// Everything in the rings is written by the other side and may be hostile
// or change under us: every index is bounded, every buffer translated, a
// chain that loops or leaves shared memory is an error value, never a
// crash. A ring whose avail index makes no sense is `broken()` (the virtio
// "needs reset" state): it yields nothing more until it is mapped again.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "regemu/uml/wire/guest_memory.hpp"
#include "regemu/uml/wire/status.hpp"

namespace regemu::uml {

// Where the three rings are, in the master's user addresses (SET_VRING_ADDR).
struct VringLayout {
  uint32_t num = 0;  // entries (SET_VRING_NUM), a power of 2
  uint64_t desc = 0;
  uint64_t avail = 0;
  uint64_t used = 0;
};

// One available descriptor chain. The buffers point into shared memory.
struct Chain {
  uint16_t head = 0;
  std::vector<std::span<uint8_t>> readable;  // device-readable, in chain order
  std::vector<std::span<uint8_t>> writable;  // device-writable, after every readable one
  bool error = false;   // malformed: complete it with length 0 and report `message`
  std::string message;

  uint64_t readable_bytes() const;
  uint64_t writable_bytes() const;
};

class SplitVirtqueue {
 public:
  // A split ring's Queue Size is a power of 2 of at most 32768 (virtio 1.x §2.7).
  static constexpr uint32_t kMaxSize = 32768;
  // A chain's buffers add up to at most this; the used length is 32 bits
  // and nothing on virt-pci comes near it.
  static constexpr uint64_t kMaxChainBytes = uint64_t{1} << 24;

  // Checks `layout` (size, alignment, every ring inside one region) and
  // maps it in `memory`, which must outlive the mapping (Unmap, or Map
  // again after the table changes). The device's next avail index is
  // `next_avail` (SET_VRING_BASE); its next used index is the ring's
  // current one, as Linux's vhost does (vhost_vq_init_access in
  // drivers/vhost/vhost.c).
  Status Map(const GuestMemory& memory, const VringLayout& layout, uint16_t next_avail);
  void Unmap();
  bool mapped() const { return memory_ != nullptr; }

  // The next available chain, or nothing when none is (or the ring broke).
  std::optional<Chain> Pop();
  // Returns chain `head` with `len` bytes written to it.
  void Push(uint16_t head, uint32_t len);

  bool broken() const { return !broken_message_.empty(); }
  const std::string& broken_message() const { return broken_message_; }
  uint16_t next_avail() const { return next_avail_; }
  uint32_t num() const { return layout_.num; }

 private:
  void Break(std::string message);
  void Walk(uint16_t head, Chain& chain) const;

  const GuestMemory* memory_ = nullptr;
  VringLayout layout_;
  std::span<uint8_t> desc_;
  std::span<uint8_t> avail_;
  std::span<uint8_t> used_;
  uint16_t next_avail_ = 0;
  uint16_t next_used_ = 0;
  std::string broken_message_;
};

}  // namespace regemu::uml
