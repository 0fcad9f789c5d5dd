#include "regemu/emulator/memory_store.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace regemu::emulator {

ExternalMemory::ExternalMemory(std::vector<ExternalRegion> regions) : regions_(std::move(regions)) {
  std::sort(regions_.begin(), regions_.end(),
            [](const ExternalRegion& a, const ExternalRegion& b) { return a.offset < b.offset; });
  for (size_t i = 0; i < regions_.size(); ++i) {
    const ExternalRegion& r = regions_[i];
    if (r.bytes.size() > UINT64_MAX - r.offset) throw std::invalid_argument("external memory region wraps past 2^64");
    if (i > 0 && regions_[i - 1].offset + regions_[i - 1].bytes.size() > r.offset) {
      throw std::invalid_argument("external memory regions overlap");
    }
  }
}

const ExternalRegion* ExternalMemory::Find(uint64_t offset) const {
  // The last region starting at or before `offset` (few regions: a kernel shares one or two).
  auto it = std::upper_bound(regions_.begin(), regions_.end(), offset,
                             [](uint64_t at, const ExternalRegion& r) { return at < r.offset; });
  if (it == regions_.begin()) return nullptr;
  --it;
  return offset - it->offset < it->bytes.size() ? &*it : nullptr;
}

bool MemoryStore::ReadExternal(uint64_t offset, std::span<uint8_t> out) const {
  bool whole = true;
  size_t done = 0;
  while (done < out.size()) {
    uint64_t at = offset + done;
    const ExternalRegion* region = external_->Find(at);
    if (region == nullptr) {
      out[done++] = 0xFF;  // as a master abort reads
      whole = false;
      continue;
    }
    uint64_t in_region = at - region->offset;
    size_t count = static_cast<size_t>(std::min<uint64_t>(region->bytes.size() - in_region, out.size() - done));
    std::memcpy(out.data() + done, region->bytes.data() + in_region, count);
    done += count;
  }
  return whole;
}

bool MemoryStore::WriteExternal(uint64_t offset, std::span<const uint8_t> bytes) const {
  bool whole = true;
  size_t done = 0;
  while (done < bytes.size()) {
    uint64_t at = offset + done;
    const ExternalRegion* region = external_->Find(at);
    if (region == nullptr) {
      ++done;
      whole = false;
      continue;
    }
    uint64_t in_region = at - region->offset;
    size_t count = static_cast<size_t>(std::min<uint64_t>(region->bytes.size() - in_region, bytes.size() - done));
    std::memcpy(region->bytes.data() + in_region, bytes.data() + done, count);
    done += count;
  }
  return whole;
}

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

bool MemoryStore::Read(uint64_t offset, std::span<uint8_t> out) const {
  if (external_) return ReadExternal(offset, out);
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
  return true;
}

bool MemoryStore::Write(uint64_t offset, std::span<const uint8_t> bytes) {
  if (external_) return WriteExternal(offset, bytes);
  size_t done = 0;
  while (done < bytes.size()) {
    uint64_t at = offset + done;
    uint64_t in_page = at % kPageBytes;
    size_t count = static_cast<size_t>(std::min<uint64_t>(kPageBytes - in_page, bytes.size() - done));
    Page& page = WritablePage(at / kPageBytes);
    std::copy_n(bytes.begin() + static_cast<ptrdiff_t>(done), count, page.begin() + static_cast<ptrdiff_t>(in_page));
    done += count;
  }
  return true;
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
