#pragma once
// A plain byte array satisfying regemu::hwreg::RegisterIo: little-endian,
// no semantics at all. The same generated-header code that runs on the
// emulator runs on this.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "regemu/hwreg.hpp"

namespace regemu::testing {

class ArrayIo {
 public:
  explicit ArrayIo(size_t size) : bytes_(size, 0) {}

  uint64_t Read(uint64_t offset, unsigned width) const {
    uint64_t value = 0;
    for (unsigned i = 0; i < width / 8; ++i) value |= uint64_t{bytes_.at(offset + i)} << (8 * i);
    return value;
  }
  void Write(uint64_t offset, unsigned width, uint64_t value) {
    for (unsigned i = 0; i < width / 8; ++i) bytes_.at(offset + i) = static_cast<uint8_t>(value >> (8 * i));
    ++writes_;
  }
  size_t writes() const { return writes_; }

 private:
  std::vector<uint8_t> bytes_;
  size_t writes_ = 0;
};

static_assert(hwreg::RegisterIo<ArrayIo>);

}  // namespace regemu::testing
