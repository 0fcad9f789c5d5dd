#include "regemu/emulator/memory_store.hpp"

#include <algorithm>

namespace regemu::emulator {

const MemoryStore::Page* MemoryStore::FindPage(uint64_t index) const {
  auto it = pages_.find(index);
  return it == pages_.end() ? nullptr : it->second.get();
}

MemoryStore::Page& MemoryStore::WritablePage(uint64_t index) {
  if (last_written_.entry == nullptr || last_written_.index != index) {
    last_written_.entry = &pages_[index];
    last_written_.index = index;
  }
  std::shared_ptr<Page>& page = *last_written_.entry;
  if (!page) {
    page = std::make_shared<Page>();  // value-initialised: zeroed
  } else if (page.use_count() > 1) {
    page = std::make_shared<Page>(*page);  // a snapshot holds it: copy before writing
  }
  return *page;
}

void MemoryStore::Read(uint64_t offset, std::span<uint8_t> out) const {
  size_t done = 0;
  while (done < out.size()) {
    uint64_t at = offset + done;
    uint64_t in_page = at % kPageBytes;
    size_t count = static_cast<size_t>(std::min<uint64_t>(kPageBytes - in_page, out.size() - done));
    if (const Page* page = FindPage(at / kPageBytes)) {
      std::copy_n(page->begin() + static_cast<ptrdiff_t>(in_page), count, out.begin() + static_cast<ptrdiff_t>(done));
    } else {
      std::fill_n(out.begin() + static_cast<ptrdiff_t>(done), count, uint8_t{0});
    }
    done += count;
  }
}

void MemoryStore::Write(uint64_t offset, std::span<const uint8_t> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    uint64_t at = offset + done;
    uint64_t in_page = at % kPageBytes;
    size_t count = static_cast<size_t>(std::min<uint64_t>(kPageBytes - in_page, bytes.size() - done));
    Page& page = WritablePage(at / kPageBytes);
    std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(done), count, page.begin() + static_cast<ptrdiff_t>(in_page));
    done += count;
  }
}

uint64_t MemoryStore::Load(uint64_t offset, unsigned bytes) const {
  std::array<uint8_t, 8> raw{};
  Read(offset, std::span<uint8_t>(raw.data(), std::min(bytes, 8u)));
  uint64_t value = 0;
  for (unsigned b = 0; b < 8; ++b) value |= uint64_t{raw[b]} << (8 * b);
  return value;
}

void MemoryStore::Store(uint64_t offset, unsigned bytes, uint64_t value) {
  std::array<uint8_t, 8> raw{};
  for (unsigned b = 0; b < 8; ++b) raw[b] = static_cast<uint8_t>(value >> (8 * b));
  Write(offset, std::span<const uint8_t>(raw.data(), std::min(bytes, 8u)));
}

}  // namespace regemu::emulator
