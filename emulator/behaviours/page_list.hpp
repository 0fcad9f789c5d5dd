#pragma once
// A command's data as a page list (NVMe's Physical Region Page entries,
// NVM Express Base Specification 2.0c §4.1.1; `kind: ring`'s `data:`):
// which byte ranges of memory hold `bytes` bytes of data.
//
// `first` points at the data, at any dword-aligned offset in its page;
// the data runs to the end of that page. When the rest fits one page,
// `second` is that page's address; when it needs more, `second` points (at
// a qword-aligned offset) to a list of 8-byte page addresses, and while
// more pages remain than a list page has room for, the list page's last
// entry points to the next list page. Every page after the first starts
// at offset 0.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace regemu::emulator {

struct MemorySegment {
  uint64_t address = 0;
  uint64_t bytes = 0;
  bool operator==(const MemorySegment&) const = default;
};

struct PageListWalk {
  std::vector<MemorySegment> segments;  // in data order; empty with an error
  std::string error;                    // what is malformed, for the violation
};

// `read_entries(address, out)` reads list entries (little-endian, 8 bytes
// each) from memory. `page_size` must be a power of two of at least 16 (a list page then
// always has room for a data entry besides its chain entry).
PageListWalk WalkPageList(uint64_t first, uint64_t second, uint64_t page_size, uint64_t bytes,
                          const std::function<void(uint64_t address, std::span<uint8_t> out)>& read_entries);

}  // namespace regemu::emulator
