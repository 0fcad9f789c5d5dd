#include "regemu/uml/wire/split_virtqueue.hpp"

#include <atomic>
#include <bit>
#include <cstring>

#include "regemu/uml/wire/hex.hpp"

namespace regemu::uml {
namespace {

// Virtio 1.x rings are little endian; so is every host UML runs on. The
// loads and stores below are native.
static_assert(std::endian::native == std::endian::little, "the ring layout is read natively");

// struct vring_desc (include/uapi/linux/virtio_ring.h).
struct Descriptor {
  uint64_t addr;
  uint32_t len;
  uint16_t flags;
  uint16_t next;
};
static_assert(sizeof(Descriptor) == 16);

constexpr uint16_t kDescNext = 1;      // VRING_DESC_F_NEXT
constexpr uint16_t kDescWrite = 2;     // VRING_DESC_F_WRITE
constexpr uint16_t kDescIndirect = 4;  // VRING_DESC_F_INDIRECT

// Offsets inside struct vring_avail / struct vring_used.
constexpr size_t kIdxOffset = 2;
constexpr size_t kRingOffset = 4;
constexpr size_t kUsedElemSize = 8;  // struct vring_used_elem {u32 id; u32 len;}

// virtio 1.x §2.7: the alignment each part of a split ring needs
// (VRING_DESC_ALIGN_SIZE, VRING_AVAIL_ALIGN_SIZE, VRING_USED_ALIGN_SIZE).
constexpr uintptr_t kDescAlign = 16;
constexpr uintptr_t kAvailAlign = 2;
constexpr uintptr_t kUsedAlign = 4;

bool Aligned(std::span<uint8_t> bytes, uintptr_t alignment) {
  return reinterpret_cast<uintptr_t>(bytes.data()) % alignment == 0;
}

uint16_t AtomicLoad16(uint8_t* where, std::memory_order order) {
  return std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(where)).load(order);
}

void AtomicStore16(uint8_t* where, uint16_t value, std::memory_order order) {
  std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(where)).store(value, order);
}

uint16_t Load16(const uint8_t* where) {
  uint16_t value;
  std::memcpy(&value, where, sizeof(value));
  return value;
}

}  // namespace

uint64_t Chain::readable_bytes() const {
  uint64_t total = 0;
  for (const auto& buffer : readable) total += buffer.size();
  return total;
}

uint64_t Chain::writable_bytes() const {
  uint64_t total = 0;
  for (const auto& buffer : writable) total += buffer.size();
  return total;
}

Status SplitVirtqueue::Map(const GuestMemory& memory, const VringLayout& layout, uint16_t next_avail) {
  Unmap();
  const uint32_t num = layout.num;
  if (num == 0 || num > kMaxSize || !std::has_single_bit(num)) {
    return Status::Error("a ring of " + std::to_string(num) + " entries (a power of 2 up to 32768)");
  }
  // No EVENT_IDX: the rings end at their last entry (used_event and
  // avail_event are not there).
  auto desc = memory.TranslateUser(layout.desc, uint64_t{num} * sizeof(Descriptor));
  auto avail = memory.TranslateUser(layout.avail, kRingOffset + uint64_t{num} * 2);
  auto used = memory.TranslateUser(layout.used, kRingOffset + uint64_t{num} * kUsedElemSize);
  if (desc.empty()) return Status::Error("the descriptor table at " + Hex(layout.desc) + " is not in shared memory");
  if (avail.empty()) return Status::Error("the avail ring at " + Hex(layout.avail) + " is not in shared memory");
  if (used.empty()) return Status::Error("the used ring at " + Hex(layout.used) + " is not in shared memory");
  if (!Aligned(desc, kDescAlign) || !Aligned(avail, kAvailAlign) || !Aligned(used, kUsedAlign)) {
    return Status::Error("a ring is misaligned (descriptors " + Hex(layout.desc) + ", avail " + Hex(layout.avail) +
                         ", used " + Hex(layout.used) + "; they need 16, 2 and 4)");
  }
  memory_ = &memory;
  layout_ = layout;
  desc_ = desc;
  avail_ = avail;
  used_ = used;
  next_avail_ = next_avail;
  next_used_ = AtomicLoad16(used_.data() + kIdxOffset, std::memory_order_acquire);
  broken_message_.clear();
  return Status::Ok();
}

void SplitVirtqueue::Unmap() {
  memory_ = nullptr;
  layout_ = VringLayout{};
  desc_ = avail_ = used_ = {};
  broken_message_.clear();
}

void SplitVirtqueue::Break(std::string message) {
  if (broken_message_.empty()) broken_message_ = std::move(message);
}

std::optional<Chain> SplitVirtqueue::Pop() {
  if (!mapped() || broken()) return std::nullopt;
  // Acquire: the driver writes the descriptors and the ring entry before
  // it publishes them with the index (virtio 1.x §2.7.13).
  const uint16_t avail_idx = AtomicLoad16(avail_.data() + kIdxOffset, std::memory_order_acquire);
  const uint16_t pending = static_cast<uint16_t>(avail_idx - next_avail_);
  if (pending == 0) return std::nullopt;
  if (pending > layout_.num) {
    Break("the avail index " + std::to_string(avail_idx) + " is " + std::to_string(pending) +
          " entries ahead of the device's " + std::to_string(next_avail_) + " in a ring of " +
          std::to_string(layout_.num));
    return std::nullopt;
  }
  const size_t slot = next_avail_ & (layout_.num - 1);
  const uint16_t head = Load16(avail_.data() + kRingOffset + 2 * slot);
  if (head >= layout_.num) {
    // Not a descriptor: there is nothing to complete with a used entry.
    Break("avail entry " + std::to_string(next_avail_) + " names descriptor " + std::to_string(head) +
          " of a ring of " + std::to_string(layout_.num));
    return std::nullopt;
  }
  ++next_avail_;
  Chain chain;
  chain.head = head;
  Walk(head, chain);
  if (chain.error) {
    chain.readable.clear();
    chain.writable.clear();
  }
  return chain;
}

void SplitVirtqueue::Walk(uint16_t head, Chain& chain) const {
  auto fail = [&chain](std::string message) {
    chain.error = true;
    chain.message = "chain " + std::to_string(chain.head) + ": " + std::move(message);
  };
  uint16_t index = head;
  uint64_t total = 0;
  for (uint32_t count = 0;; ++count) {
    if (count == layout_.num) return fail("more descriptors than the ring has (a loop)");
    Descriptor desc;
    std::memcpy(&desc, desc_.data() + size_t{index} * sizeof(Descriptor), sizeof(desc));
    const std::string where = "descriptor " + std::to_string(index);
    if ((desc.flags & kDescIndirect) != 0) return fail(where + " is indirect, which was not negotiated");
    total += desc.len;
    if (total > kMaxChainBytes) return fail("its buffers exceed " + std::to_string(kMaxChainBytes) + " bytes");
    std::span<uint8_t> bytes;
    if (desc.len != 0) {
      bytes = memory_->Translate(desc.addr, desc.len);
      if (bytes.empty()) {
        return fail(where + " (" + Hex(desc.addr) + ", " + std::to_string(desc.len) +
                    " bytes) is not in shared memory");
      }
    }
    if ((desc.flags & kDescWrite) != 0) {
      chain.writable.push_back(bytes);
    } else if (!chain.writable.empty()) {
      // virtio 1.x §2.7.4.2: readable descriptors come first.
      return fail(where + " is device-readable after a device-writable one");
    } else {
      chain.readable.push_back(bytes);
    }
    if ((desc.flags & kDescNext) == 0) return;
    if (desc.next >= layout_.num) {
      return fail(where + " links to descriptor " + std::to_string(desc.next) + " of a ring of " +
                  std::to_string(layout_.num));
    }
    index = desc.next;
  }
}

void SplitVirtqueue::Push(uint16_t head, uint32_t len) {
  if (!mapped() || head >= layout_.num) return;
  uint8_t* elem = used_.data() + kRingOffset + kUsedElemSize * (next_used_ & (layout_.num - 1));
  const uint32_t id = head;
  std::memcpy(elem, &id, sizeof(id));
  std::memcpy(elem + sizeof(id), &len, sizeof(len));
  ++next_used_;
  // Release: the entry is visible before the index that publishes it
  // (virtio 1.x §2.7.14).
  AtomicStore16(used_.data() + kIdxOffset, next_used_, std::memory_order_release);
}

}  // namespace regemu::uml
