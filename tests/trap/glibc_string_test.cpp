// glibc's memcpy, memmove, memset and memcmp on a trapped BAR, through whatever
// variant glibc picked for this CPU (no GLIBC_TUNABLES): on an AVX-512 CPU
// its evex or avx512 variants, whose EVEX moves (masked ones for the short
// tails) and compares regemu emulates. Every size from 1 to 4096 bytes, at odd
// alignments, to, from and within the BAR; the device's bytes and the
// bytes read back must be what the same calls give on plain memory.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "tests/trap/trap_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAreArray;

// 16 KiB of plain 64-bit RAM: two halves, each with room for a 4096-byte
// copy at any alignment and a move beside it. Memory-like (a prefetchable
// BAR, a frame buffer), so an access may start anywhere: glibc copies a
// misaligned tail with misaligned 2-, 4- and 8-byte moves.
constexpr const char* kBigBarDatabase = R"yaml(device: big_bar
spaces:
  - {name: bar, kind: mmio, size: 0x4000, alignment: none}
registers:
  - {name: "R{n}", space: bar, offset: 0x0, width: 64, array: {count: 2048, stride: 8}}
)yaml";
constexpr size_t kBarSize = 0x4000;
constexpr size_t kHalf = kBarSize / 2;

// Called through volatile pointers so that the compiler cannot inline
// them: the point is glibc's own code.
void* (*volatile glibc_memcpy)(void*, const void*, size_t) = &std::memcpy;
void* (*volatile glibc_memmove)(void*, const void*, size_t) = &std::memmove;
void* (*volatile glibc_memset)(void*, int, size_t) = &std::memset;
int (*volatile glibc_memcmp)(const void*, const void*, size_t) = &std::memcmp;
size_t (*volatile glibc_strlen)(const char*) = &std::strlen;

// Which family of variants glibc's ifuncs pick here (sysdeps/x86_64/
// multiarch/ifunc-memmove.h): the evex and avx512 ones need AVX512F and
// AVX512VL (and BW for memset).
std::string VariantFamily() {
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw")) {
    return "evex or avx512 (EVEX moves, masked for short sizes)";
  }
  if (__builtin_cpu_supports("avx2")) return "avx2 or avx (VEX moves)";
  return "sse2 (legacy SSE moves)";
}

// 1 to 4096: every size up to 256, then the sizes around each power of two
// and a few between, where glibc changes strategy.
std::vector<size_t> Sizes() {
  std::vector<size_t> sizes;
  for (size_t size = 1; size <= 256; ++size) sizes.push_back(size);
  for (size_t power = 512; power <= 4096; power *= 2) {
    for (size_t size : {power / 2 + 31, power - 65, power - 1, power}) sizes.push_back(size);
  }
  sizes.push_back(3000);
  return sizes;
}

constexpr size_t kAlignments[] = {0, 1, 3, 17, 63};

class GlibcStringTest : public ::testing::Test {
 protected:
  GlibcStringTest()
      : device_(trap_testing::MakeDevice(kBigBarDatabase)),
        bar_(testing_support::SpaceNamed(device_->model(), "bar")),
        mapping_(TrappedMapping::Map(*device_, bar_)),
        model_(kBarSize) {
    for (size_t i = 0; i < kBarSize; ++i) model_[i] = static_cast<uint8_t>(i * 7 + (i >> 8));
    for (size_t offset = 0; offset < kBarSize; offset += 8) {
      uint64_t value;
      std::memcpy(&value, model_.data() + offset, 8);
      device_->Poke(bar_, offset, 64, value);
    }
  }

  uint8_t* mapped() const { return static_cast<uint8_t*>(mapping_.base()); }
  std::vector<uint8_t> DeviceBytes() const {
    std::vector<uint8_t> bytes(kBarSize);
    for (size_t offset = 0; offset < kBarSize; offset += 8) {
      uint64_t value = device_->Peek(bar_, offset, 64);
      std::memcpy(bytes.data() + offset, &value, 8);
    }
    return bytes;
  }

  std::unique_ptr<Device> device_;
  SpaceId bar_;
  TrappedMapping mapping_;
  std::vector<uint8_t> model_;  // what the BAR must hold: the same calls on plain memory
};

TEST_F(GlibcStringTest, EvexVariant) {
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  std::cout << "glibc's string functions here: the " << VariantFamily() << " variants"
            << (tunables != nullptr ? std::string(" (GLIBC_TUNABLES=") + tunables + ")" : std::string()) << "\n";
  RecordProperty("glibc_variant_family", VariantFamily());
  std::vector<uint8_t> source(4096 + 64), back(4096 + 64), expected_back(4096 + 64);
  unsigned round = 0;
  for (size_t size : Sizes()) {
    for (size_t alignment : kAlignments) {
      SCOPED_TRACE("size " + std::to_string(size) + ", alignment " + std::to_string(alignment));
      auto fill = static_cast<uint8_t>(++round);
      for (size_t i = 0; i < size; ++i) source[alignment + i] = static_cast<uint8_t>(fill + i * 13);
      // To the BAR, at `alignment` in its first half.
      glibc_memcpy(mapped() + alignment, source.data() + alignment, size);
      glibc_memcpy(model_.data() + alignment, source.data() + alignment, size);
      // memcmp reads it: equal, then with one byte of the other side changed.
      int same = glibc_memcmp(mapped() + alignment, source.data() + alignment, size);
      source[alignment + size / 2] ^= 0x80;
      int differs = glibc_memcmp(mapped() + alignment, source.data() + alignment, size);
      int expected_differs = glibc_memcmp(model_.data() + alignment, source.data() + alignment, size);
      source[alignment + size / 2] ^= 0x80;
      EXPECT_EQ(same, 0);
      ASSERT_EQ(differs < 0, expected_differs < 0) << "memcmp's sign";
      ASSERT_NE(differs, 0);
      // memset in its second half.
      glibc_memset(mapped() + kHalf + alignment, fill, size);
      glibc_memset(model_.data() + kHalf + alignment, fill, size);
      // Within it: forwards and backwards (overlapping by a few bytes).
      size_t shift = alignment + 5;
      if (shift + size <= kHalf) {
        glibc_memmove(mapped() + shift, mapped(), size);
        glibc_memmove(model_.data() + shift, model_.data(), size);
        glibc_memmove(mapped(), mapped() + shift, size);
        glibc_memmove(model_.data(), model_.data() + shift, size);
      }
      // And back out of it, to an odd place.
      glibc_memcpy(back.data() + 1, mapped() + kHalf - alignment, size);
      glibc_memcpy(expected_back.data() + 1, model_.data() + kHalf - alignment, size);
      ASSERT_THAT(std::vector<uint8_t>(back.begin() + 1, back.begin() + 1 + static_cast<ptrdiff_t>(size)),
                  ElementsAreArray(expected_back.data() + 1, size))
          << "the bytes read from the BAR";
    }
    ASSERT_THAT(DeviceBytes(), ElementsAreArray(model_)) << "after size " << size;
  }
  EXPECT_EQ(device_->violation_count(), 0u);
}

// strlen scans whole aligned vectors (VPCMPEQB, VPMINUB into an opmask),
// reading past the terminator up to the vector's end: still the BAR here.
TEST_F(GlibcStringTest, StrlenOfAStringOnTheBar) {
  for (size_t length : {0u, 1u, 15u, 31u, 32u, 63u, 64u, 65u, 127u, 200u, 1000u}) {
    for (size_t alignment : kAlignments) {
      SCOPED_TRACE("length " + std::to_string(length) + ", alignment " + std::to_string(alignment));
      std::string text(length, 'x');
      glibc_memcpy(mapped() + alignment, text.c_str(), length + 1);
      ASSERT_EQ(glibc_strlen(reinterpret_cast<const char*>(mapped() + alignment)), length);
    }
  }
  EXPECT_EQ(device_->violation_count(), 0u);
}

}  // namespace
}  // namespace regemu::emulator
