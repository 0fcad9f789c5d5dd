// SSE/AVX moves and the string instructions against the CPU itself, as in
// instruction_test.cpp: the same code on plain memory and on a trapped
// mapping must leave the same register and the same bytes. Then how wide
// the device accesses are when the space allows fewer widths than the
// instruction moves.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "tests/trap/trap_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using trap_testing::Read;
using trap_testing::Write;

constexpr uint8_t PatternByte(size_t i) { return static_cast<uint8_t>(0x81 + 37 * i); }

// `code` runs with YMM0 and YMM1 loaded from `in` (64 bytes); their values
// afterwards go to `out`. %[p] is the memory.
using VectorSnippet = void (*)(uint8_t* p, const uint8_t* in, uint8_t* out);
#define REGEMU_VECTOR_SNIPPET(code)                                                               \
  +[](uint8_t* p, const uint8_t* in, uint8_t* out) {                                              \
    asm volatile("vmovdqu (%[in]), %%ymm0\n\tvmovdqu 32(%[in]), %%ymm1\n\t" code                  \
                 "\n\tvmovdqu %%ymm0, (%[out])\n\tvmovdqu %%ymm1, 32(%[out])\n\tvzeroupper"       \
                 :                                                                                \
                 : [p] "r"(p), [in] "r"(in), [out] "r"(out)                                       \
                 : "memory", "xmm0", "xmm1");                                                     \
  }

struct VectorCase {
  const char* name;
  VectorSnippet run;
};

const VectorCase kVectorCases[] = {
    // Loads: legacy SSE keeps bits 255:128; the scalar ones zero the rest
    // of the XMM register; MOVLPS/MOVHPS merge.
    {"movd_load", REGEMU_VECTOR_SNIPPET("movd 4(%[p]), %%xmm0")},
    {"movq_load", REGEMU_VECTOR_SNIPPET("movq 8(%[p]), %%xmm0")},
    {"movss_load", REGEMU_VECTOR_SNIPPET("movss 4(%[p]), %%xmm1")},
    {"movsd_load", REGEMU_VECTOR_SNIPPET("movsd 8(%[p]), %%xmm0")},
    {"movdqu_load", REGEMU_VECTOR_SNIPPET("movdqu 16(%[p]), %%xmm0")},
    {"movdqa_load", REGEMU_VECTOR_SNIPPET("movdqa 32(%[p]), %%xmm1")},
    {"movups_load", REGEMU_VECTOR_SNIPPET("movups 8(%[p]), %%xmm0")},
    {"movaps_load", REGEMU_VECTOR_SNIPPET("movaps 16(%[p]), %%xmm0")},
    {"movupd_load", REGEMU_VECTOR_SNIPPET("movupd 24(%[p]), %%xmm0")},
    {"lddqu_load", REGEMU_VECTOR_SNIPPET("lddqu 8(%[p]), %%xmm1")},
    {"movntdqa_load", REGEMU_VECTOR_SNIPPET("movntdqa 32(%[p]), %%xmm0")},
    {"movlps_load", REGEMU_VECTOR_SNIPPET("movlps 8(%[p]), %%xmm0")},
    {"movhps_load", REGEMU_VECTOR_SNIPPET("movhps 8(%[p]), %%xmm0")},
    {"movlpd_load", REGEMU_VECTOR_SNIPPET("movlpd 16(%[p]), %%xmm1")},
    {"movhpd_load", REGEMU_VECTOR_SNIPPET("movhpd 16(%[p]), %%xmm1")},
    // VEX loads zero everything above what they write.
    {"vmovd_load", REGEMU_VECTOR_SNIPPET("vmovd 4(%[p]), %%xmm0")},
    {"vmovq_load", REGEMU_VECTOR_SNIPPET("vmovq 8(%[p]), %%xmm0")},
    {"vmovss_load", REGEMU_VECTOR_SNIPPET("vmovss 4(%[p]), %%xmm0")},
    {"vmovsd_load", REGEMU_VECTOR_SNIPPET("vmovsd 8(%[p]), %%xmm1")},
    {"vmovdqu_load_xmm", REGEMU_VECTOR_SNIPPET("vmovdqu 16(%[p]), %%xmm0")},
    {"vmovdqu_load_ymm", REGEMU_VECTOR_SNIPPET("vmovdqu 8(%[p]), %%ymm0")},
    {"vmovdqa_load_ymm", REGEMU_VECTOR_SNIPPET("vmovdqa 32(%[p]), %%ymm1")},
    {"vmovups_load_ymm", REGEMU_VECTOR_SNIPPET("vmovups 0(%[p]), %%ymm0")},
    {"vmovapd_load_xmm", REGEMU_VECTOR_SNIPPET("vmovapd 16(%[p]), %%xmm1")},
    {"vlddqu_load_ymm", REGEMU_VECTOR_SNIPPET("vlddqu 24(%[p]), %%ymm0")},
    {"vmovlps_load", REGEMU_VECTOR_SNIPPET("vmovlps 8(%[p]), %%xmm1, %%xmm0")},
    {"vmovhpd_load", REGEMU_VECTOR_SNIPPET("vmovhpd 16(%[p]), %%xmm0, %%xmm1")},
    // Stores: the register's low bytes, or its high quadword (MOVHPS).
    {"movd_store", REGEMU_VECTOR_SNIPPET("movd %%xmm0, 4(%[p])")},
    {"movq_store", REGEMU_VECTOR_SNIPPET("movq %%xmm1, 8(%[p])")},
    {"movss_store", REGEMU_VECTOR_SNIPPET("movss %%xmm0, 12(%[p])")},
    {"movsd_store", REGEMU_VECTOR_SNIPPET("movsd %%xmm1, 16(%[p])")},
    {"movdqu_store", REGEMU_VECTOR_SNIPPET("movdqu %%xmm0, 8(%[p])")},
    {"movaps_store", REGEMU_VECTOR_SNIPPET("movaps %%xmm1, 32(%[p])")},
    {"movntdq_store", REGEMU_VECTOR_SNIPPET("movntdq %%xmm0, 16(%[p])")},
    {"movlps_store", REGEMU_VECTOR_SNIPPET("movlps %%xmm0, 8(%[p])")},
    {"movhps_store", REGEMU_VECTOR_SNIPPET("movhps %%xmm0, 8(%[p])")},
    {"vmovd_store", REGEMU_VECTOR_SNIPPET("vmovd %%xmm1, 4(%[p])")},
    {"vmovq_store", REGEMU_VECTOR_SNIPPET("vmovq %%xmm0, 24(%[p])")},
    {"vmovdqu_store_ymm", REGEMU_VECTOR_SNIPPET("vmovdqu %%ymm0, 8(%[p])")},
    {"vmovdqa_store_ymm", REGEMU_VECTOR_SNIPPET("vmovdqa %%ymm1, 32(%[p])")},
    {"vmovntdq_store_ymm", REGEMU_VECTOR_SNIPPET("vmovntdq %%ymm0, 0(%[p])")},
    {"vmovups_store_xmm", REGEMU_VECTOR_SNIPPET("vmovups %%xmm1, 40(%[p])")},
    {"vmovhps_store", REGEMU_VECTOR_SNIPPET("vmovhps %%xmm1, 16(%[p])")},
};

class TrappedRamTest : public ::testing::Test {
 protected:
  TrappedRamTest()
      : device_(trap_testing::MakeDevice(trap_testing::kRamDatabase)),
        bar_(testing_support::SpaceNamed(device_->model(), "bar")),
        mapping_(TrappedMapping::Map(*device_, bar_)) {}

  uint8_t* mapped() const { return static_cast<uint8_t*>(mapping_.base()); }

  // Both memories start with the pattern.
  void Fill(uint8_t (&memory)[128]) {
    for (size_t i = 0; i < sizeof memory; ++i) memory[i] = PatternByte(i);
    for (size_t offset = 0; offset < sizeof memory; offset += 8) {
      uint64_t value;
      std::memcpy(&value, memory + offset, 8);
      device_->Poke(bar_, offset, 64, value);
    }
  }
  std::vector<uint8_t> DeviceBytes(size_t size) const {
    std::vector<uint8_t> bytes(size);
    for (size_t offset = 0; offset < size; offset += 8) {
      uint64_t value = device_->Peek(bar_, offset, 64);
      std::memcpy(bytes.data() + offset, &value, 8);
    }
    return bytes;
  }

  std::unique_ptr<Device> device_;
  SpaceId bar_;
  TrappedMapping mapping_;
};

class VectorTest : public TrappedRamTest, public ::testing::WithParamInterface<VectorCase> {};

TEST_P(VectorTest, DoesOnTheDeviceWhatItDoesOnMemory) {
  if (!__builtin_cpu_supports("avx")) GTEST_SKIP() << "this CPU has no AVX";
  alignas(64) uint8_t memory[128];
  Fill(memory);
  alignas(32) uint8_t in[64];
  for (size_t i = 0; i < sizeof in; ++i) in[i] = static_cast<uint8_t>(0x5a ^ (i * 13));
  alignas(32) uint8_t expected[64] = {};
  alignas(32) uint8_t trapped[64] = {};
  GetParam().run(memory, in, expected);
  uint64_t before = device_->access_count();
  GetParam().run(mapped(), in, trapped);
  EXPECT_THAT(trapped, ElementsAreArray(expected)) << "YMM0 and YMM1 afterwards";
  EXPECT_THAT(DeviceBytes(sizeof memory), ElementsAreArray(memory));
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_), ::testing::Not(::testing::IsEmpty()));
  EXPECT_EQ(device_->violation_count(), 0u);
}

std::string VectorCaseName(const ::testing::TestParamInfo<VectorCase>& param) { return param.param.name; }

INSTANTIATE_TEST_SUITE_P(Each, VectorTest, ::testing::ValuesIn(kVectorCases), VectorCaseName);

// The string instructions' registers afterwards.
struct StringRegs {
  uint64_t rsi = 0, rdi = 0, rcx = 0;
  bool operator==(const StringRegs&) const = default;
};
void PrintTo(const StringRegs& r, std::ostream* os) {
  *os << std::hex << "rsi=0x" << r.rsi << " rdi=0x" << r.rdi << " rcx=0x" << r.rcx << std::dec;
}

using StringSnippet = StringRegs (*)(uint8_t* destination, uint8_t* source, uint64_t count, uint64_t rax);
#define REGEMU_STRING_SNIPPET(code)                                                         \
  +[](uint8_t* destination, uint8_t* source, uint64_t count, uint64_t rax) {                \
    StringRegs out{reinterpret_cast<uint64_t>(source), reinterpret_cast<uint64_t>(destination), count}; \
    asm volatile(code "\n\tcld" : "+S"(out.rsi), "+D"(out.rdi), "+c"(out.rcx) : "a"(rax) : "memory", "cc"); \
    return out;                                                                             \
  }

struct StringCase {
  const char* name;
  StringSnippet run;
  // Offsets into the 128-byte memories (a memory: the test's; "device": the mapping's).
  bool destination_on_device;
  size_t destination;
  bool source_on_device;
  size_t source;
  uint64_t count;
};

const StringCase kStringCases[] = {
    {"rep_movsb_to_device", REGEMU_STRING_SNIPPET("rep movsb"), true, 3, false, 0, 21},
    {"rep_movsl_to_device", REGEMU_STRING_SNIPPET("rep movsl"), true, 8, false, 4, 12},
    {"rep_movsq_from_device", REGEMU_STRING_SNIPPET("rep movsq"), false, 0, true, 16, 9},
    {"rep_movsw_device_to_device", REGEMU_STRING_SNIPPET("rep movsw"), true, 64, true, 2, 20},
    {"rep_movsl_backwards", REGEMU_STRING_SNIPPET("std\n\trep movsl"), true, 100, false, 60, 10},
    {"movsq_once", REGEMU_STRING_SNIPPET("movsq"), true, 24, false, 40, 7},
    {"rep_stosb", REGEMU_STRING_SNIPPET("rep stosb"), true, 5, false, 0, 30},
    {"rep_stosl", REGEMU_STRING_SNIPPET("rep stosl"), true, 4, false, 0, 16},
    {"rep_stosq_backwards", REGEMU_STRING_SNIPPET("std\n\trep stosq"), true, 120, false, 0, 8},
    {"stosw_once", REGEMU_STRING_SNIPPET("stosw"), true, 10, false, 0, 3},
};

class StringTest : public TrappedRamTest, public ::testing::WithParamInterface<StringCase> {};

TEST_P(StringTest, DoesOnTheDeviceWhatItDoesOnMemory) {
  const StringCase& c = GetParam();
  // Plain run: both sides in plain memories; trapped run: the same sides
  // on the device.
  alignas(64) uint8_t device_side[128];
  alignas(64) uint8_t other_side[128];
  alignas(64) uint8_t other_side_trapped[128];
  Fill(device_side);
  for (size_t i = 0; i < sizeof other_side; ++i) other_side[i] = other_side_trapped[i] = static_cast<uint8_t>(i * 7);
  auto side = [](bool on_device, uint8_t* device, uint8_t* other) { return on_device ? device : other; };
  uint64_t rax = 0x0123456789abcdefull;
  StringRegs expected = c.run(side(c.destination_on_device, device_side, other_side) + c.destination,
                              side(c.source_on_device, device_side, other_side) + c.source, c.count, rax);
  uint64_t before = device_->access_count();
  StringRegs trapped = c.run(side(c.destination_on_device, mapped(), other_side_trapped) + c.destination,
                             side(c.source_on_device, mapped(), other_side_trapped) + c.source, c.count, rax);
  // Pointers compare as offsets from their memory's start.
  auto offset = [&](uint64_t pointer, bool on_device, const uint8_t* device, const uint8_t* other) {
    return pointer - reinterpret_cast<uint64_t>(on_device ? device : other);
  };
  expected.rdi = offset(expected.rdi, c.destination_on_device, device_side, other_side);
  expected.rsi = offset(expected.rsi, c.source_on_device, device_side, other_side);
  trapped.rdi = offset(trapped.rdi, c.destination_on_device, mapped(), other_side_trapped);
  trapped.rsi = offset(trapped.rsi, c.source_on_device, mapped(), other_side_trapped);
  EXPECT_EQ(trapped, expected);
  EXPECT_THAT(DeviceBytes(sizeof device_side), ElementsAreArray(device_side));
  EXPECT_THAT(other_side_trapped, ElementsAreArray(other_side));
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_), ::testing::Not(::testing::IsEmpty()));
  EXPECT_EQ(device_->violation_count(), 0u);
}

std::string StringCaseName(const ::testing::TestParamInfo<StringCase>& param) { return param.param.name; }

INSTANTIATE_TEST_SUITE_P(Each, StringTest, ::testing::ValuesIn(kStringCases), StringCaseName);

// A memcpy_toio with REP MOVSB: one device access per element, in the
// order the CPU moves them.
TEST_F(TrappedRamTest, RepMovsIsOneAccessPerElementInOrder) {
  uint8_t bytes[4] = {0x11, 0x22, 0x33, 0x44};
  uint64_t before = device_->access_count();
  (REGEMU_STRING_SNIPPET("rep movsb"))(mapped() + 8, bytes, 4, 0);
  (REGEMU_STRING_SNIPPET("std\n\trep movsw"))(mapped() + 18, bytes + 2, 2, 0);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_),
              ElementsAre(Write(8, 8, 0x11), Write(9, 8, 0x22), Write(10, 8, 0x33), Write(11, 8, 0x44),
                          Write(18, 16, 0x4433), Write(16, 16, 0x2211)));
}

// On a space that allows 32-bit accesses only, what the instruction moves
// goes in 32-bit pieces, in address order; an access narrower than every
// width the space allows goes through whole, for the device to refuse.
class NarrowSpaceTest : public ::testing::Test {
 protected:
  NarrowSpaceTest()
      : device_(trap_testing::MakeDevice(trap_testing::kRamDatabase)),
        narrow_(testing_support::SpaceNamed(device_->model(), "narrow")),
        mapping_(TrappedMapping::Map(*device_, narrow_)) {
    for (uint64_t offset = 0; offset < 0x40; offset += 4) device_->Poke(narrow_, offset, 32, 0x01010101 * offset);
  }
  uint8_t* mapped() const { return static_cast<uint8_t*>(mapping_.base()); }

  std::unique_ptr<Device> device_;
  SpaceId narrow_;
  TrappedMapping mapping_;
};

TEST_F(NarrowSpaceTest, WideAccessesGoInPiecesOfTheSpacesWidth) {
  if (!__builtin_cpu_supports("avx")) GTEST_SKIP() << "this CPU has no AVX";
  uint64_t before = device_->access_count();
  uint64_t q = *reinterpret_cast<volatile uint64_t*>(mapped() + 8);
  EXPECT_EQ(q, 0x0c0c0c0c'08080808u);
  alignas(32) uint8_t bytes[32];
  for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<uint8_t>(i);
  asm volatile("movdqu (%[in]), %%xmm0\n\tmovdqu %%xmm0, 16(%[p])" : : [in] "r"(bytes), [p] "r"(mapped())
               : "memory", "xmm0");
  asm volatile("vmovdqu (%[p]), %%ymm0\n\tvmovdqu %%ymm0, (%[out])\n\tvzeroupper" : : [out] "r"(bytes),
               [p] "r"(mapped()) : "memory", "xmm0");
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, narrow_),
              ElementsAre(Read(8, 32, 0x08080808), Read(12, 32, 0x0c0c0c0c),  // the 64-bit load, low half first
                          Write(16, 32, 0x03020100), Write(20, 32, 0x07060504), Write(24, 32, 0x0b0a0908),
                          Write(28, 32, 0x0f0e0d0c),  // the 16-byte store
                          Read(0, 32, 0), Read(4, 32, 0x04040404), Read(8, 32, 0x08080808),
                          Read(12, 32, 0x0c0c0c0c), Read(16, 32, 0x03020100), Read(20, 32, 0x07060504),
                          Read(24, 32, 0x0b0a0908), Read(28, 32, 0x0f0e0d0c)));  // the 32-byte load
  EXPECT_EQ(device_->violation_count(), 0u);
}

TEST_F(NarrowSpaceTest, AnAccessNarrowerThanTheSpaceAllowsIsTheDevicesToRefuse) {
  *reinterpret_cast<volatile uint16_t*>(mapped() + 4) = 0xbeef;
  std::vector<Violation> violations = device_->violations();
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].kind, ViolationKind::kWidth);
  EXPECT_EQ(violations[0].width, 16u);
}

}  // namespace
}  // namespace regemu::emulator
