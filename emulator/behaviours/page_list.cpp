// The page-list walk of page_list.hpp.
#include "regemu/emulator/behaviours/page_list.hpp"

#include <algorithm>
#include <bit>

#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

uint64_t LittleEndian64(std::span<const uint8_t> bytes) {
  uint64_t value = 0;
  for (size_t b = 0; b < 8; ++b) value |= uint64_t{bytes[b]} << (8 * b);
  return value;
}

PageListWalk Refuse(std::string error) { return PageListWalk{{}, std::move(error)}; }

}  // namespace

PageListWalk WalkPageList(uint64_t first, uint64_t second, uint64_t page_size, uint64_t bytes,
                          const std::function<void(uint64_t address, std::span<uint8_t> out)>& read_entries) {
  using regdb::Hex;
  if (page_size < 16 || !std::has_single_bit(page_size)) {
    return Refuse("the page size " + std::to_string(page_size) + " is not a power of two of 16 or more");
  }
  PageListWalk walk;
  if (bytes == 0) return walk;
  const uint64_t offset_mask = page_size - 1;
  if ((first & 0x3) != 0) return Refuse("the first entry " + Hex(first) + " is not dword aligned (bits 1:0 set)");
  uint64_t in_first = std::min(bytes, page_size - (first & offset_mask));
  walk.segments.push_back({first, in_first});
  uint64_t left = bytes - in_first;
  if (left == 0) return walk;
  if (left <= page_size) {
    if ((second & offset_mask) != 0) {
      return Refuse("the second entry " + Hex(second) + " points at the data's second page, so its offset must be 0");
    }
    walk.segments.push_back({second, left});
    return walk;
  }
  if ((second & 0x7) != 0) return Refuse("the list pointer " + Hex(second) + " is not qword aligned (bits 2:0 set)");
  uint64_t pages = (left + page_size - 1) / page_size;
  uint64_t list = second;
  std::vector<uint8_t> entries;
  while (pages > 0) {
    uint64_t room = (page_size - (list & offset_mask)) / 8;  // entries left in this list page
    bool chained = pages > room;
    uint64_t data_entries = chained ? room - 1 : pages;
    entries.assign((data_entries + (chained ? 1 : 0)) * 8, 0);
    read_entries(list, entries);
    for (uint64_t i = 0; i < data_entries; ++i) {
      uint64_t page = LittleEndian64(std::span<const uint8_t>(entries).subspan(i * 8, 8));
      if ((page & offset_mask) != 0) {
        return Refuse("list entry " + std::to_string(i) + " at " + Hex(list + 8 * i) + " is " + Hex(page) +
                      ": a page after the first must start at offset 0");
      }
      uint64_t take = std::min(left, page_size);
      walk.segments.push_back({page, take});
      left -= take;
    }
    pages -= data_entries;
    if (!chained) break;
    list = LittleEndian64(std::span<const uint8_t>(entries).subspan(data_entries * 8, 8));
    if ((list & offset_mask) != 0) {
      return Refuse("the list's last entry " + Hex(list) + " points to the next list page, so its offset must be 0");
    }
  }
  return walk;
}

}  // namespace regemu::emulator
