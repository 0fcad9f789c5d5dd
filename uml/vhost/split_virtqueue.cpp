#include "regemu/uml/vhost/split_virtqueue.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>

namespace regemu::uml {
namespace {

constexpr uint16_t kDescNext = 1;
constexpr uint16_t kDescWrite = 2;
constexpr uint16_t kDescIndirect = 4;

#pragma pack(push, 1)
struct Descriptor {
  uint64_t addr;
  uint32_t len;
  uint16_t flags;
  uint16_t next;
};
struct UsedElement {
  uint32_t id;
  uint32_t len;
};
#pragma pack(pop)

std::string Hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
  return text;
}

template <typename T>
T Load(std::span<const uint8_t> bytes, size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

}  // namespace

std::string SplitVirtqueue::Check(const GuestMemory& memory) const {
  if (num_ == 0 || num_ > kMaxSize || (num_ & (num_ - 1)) != 0) {
    return "vring size " + std::to_string(num_) + " is not a power of two up to " + std::to_string(kMaxSize);
  }
  if (desc_ % 16 != 0 || avail_ % 2 != 0 || used_ % 4 != 0) {
    return "a vring is not aligned as Virtio 1.1 §2.6 requires (descriptors 16, available 2, used 4 bytes)";
  }
  if (memory.TranslateUser(desc_, uint64_t{num_} * sizeof(Descriptor)).empty() ||
      memory.TranslateUser(avail_, 4 + 2 * uint64_t{num_}).empty() ||
      memory.TranslateUser(used_, 4 + sizeof(UsedElement) * uint64_t{num_}).empty()) {
    return "a vring lies outside the shared memory";
  }
  return "";
}

std::optional<DescriptorChain> SplitVirtqueue::Pop(const GuestMemory& memory, std::string& error) {
  if (!ready()) return std::nullopt;
  if (std::string problem = Check(memory); !problem.empty()) {
    error = problem;
    return std::nullopt;
  }
  std::span<uint8_t> avail = memory.TranslateUser(avail_, 4 + 2 * uint64_t{num_});
  std::span<uint8_t> table = memory.TranslateUser(desc_, uint64_t{num_} * sizeof(Descriptor));
  auto idx = std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(avail.data() + 2)).load(std::memory_order_acquire);
  uint16_t pending = static_cast<uint16_t>(idx - last_avail_);
  if (pending == 0) return std::nullopt;
  if (pending > num_) {
    error = "the available index ran " + std::to_string(pending) + " entries ahead of a ring of " +
            std::to_string(num_);
    last_avail_ = idx;  // resynchronise rather than walk garbage forever
    return std::nullopt;
  }
  DescriptorChain chain;
  chain.head = Load<uint16_t>(avail, 4 + 2 * (last_avail_ % num_));
  ++last_avail_;
  if (chain.head >= num_) {
    chain.error = "descriptor index " + std::to_string(chain.head) + " is past the table of " + std::to_string(num_);
    chain.head = 0;
    return chain;
  }
  uint16_t index = chain.head;
  uint64_t total = 0;
  for (uint32_t count = 0;; ++count) {
    if (count >= num_) {
      chain.error = "the descriptor chain from " + std::to_string(chain.head) + " loops";
      break;
    }
    auto d = Load<Descriptor>(table, size_t{index} * sizeof(Descriptor));
    if ((d.flags & kDescIndirect) != 0) {
      chain.error = "an indirect descriptor, which was not negotiated";
      break;
    }
    total += d.len;
    if (total > kMaxChainBytes) {
      chain.error = "the descriptor chain carries more than " + std::to_string(kMaxChainBytes) + " bytes";
      break;
    }
    std::span<uint8_t> buffer = memory.Translate(d.addr, d.len);
    if (buffer.empty() && d.len != 0) {
      chain.error = "a descriptor's buffer (" + std::to_string(d.len) + " bytes at " + Hex(d.addr) +
                    ") lies outside the shared memory";
      break;
    }
    if ((d.flags & kDescWrite) != 0) {
      chain.writable.push_back(buffer);
    } else if (!chain.writable.empty()) {
      chain.error = "a device-readable descriptor after a writable one";
      break;
    } else {
      chain.readable.push_back(buffer);
    }
    if ((d.flags & kDescNext) == 0) break;
    if (d.next >= num_) {
      chain.error = "descriptor index " + std::to_string(d.next) + " is past the table of " + std::to_string(num_);
      break;
    }
    index = d.next;
  }
  return chain;
}

bool SplitVirtqueue::Push(const GuestMemory& memory, uint16_t head, uint32_t length) {
  std::span<uint8_t> used = memory.TranslateUser(used_, 4 + sizeof(UsedElement) * uint64_t{num_});
  if (used.empty() || num_ == 0) return false;
  UsedElement element{head, length};
  std::memcpy(used.data() + 4 + sizeof(UsedElement) * (used_idx_ % num_), &element, sizeof element);
  ++used_idx_;
  std::atomic_ref<uint16_t>(*reinterpret_cast<uint16_t*>(used.data() + 2)).store(used_idx_, std::memory_order_release);
  return true;
}

}  // namespace regemu::uml
