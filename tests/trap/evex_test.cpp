// AVX-512 (EVEX) moves, compares and logic against the CPU itself, as in vector_string_test.cpp:
// the same instruction on plain memory and on a trapped mapping must leave
// the same registers (ZMM0, ZMM1, ZMM16, ZMM17, k1, k2) and the same bytes.
// Then what a masked store or load makes the device see: only the selected
// elements' bytes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

bool CpuHasAvx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vl");
}
constexpr const char* kNoAvx512 = "this CPU lacks AVX-512 (F, BW and VL): nothing to compare the emulation with";

// The registers a snippet starts from and ends with: ZMM0, ZMM1, ZMM16,
// ZMM17 (64 bytes each), then k1 and k2 (8 each).
constexpr size_t kRegisterBytes = 4 * 64 + 2 * 8;

// `code` runs with the registers loaded from `in`; their values afterwards
// go to `out`. %[p] is the memory. ("%{" and "%}" are the braces of an
// opmask: a bare brace in an asm template picks an assembler dialect.) The
// target attribute lets the compiler name AVX-512 registers as clobbers
// without building the whole file for AVX-512: this binary also runs on
// CPUs without it, where the tests skip before calling a snippet.
using EvexSnippet = void (*)(uint8_t* p, const uint8_t* in, uint8_t* out);
#define REGEMU_EVEX_SNIPPET(code)                                                                           \
  +[](uint8_t* p, const uint8_t* in, uint8_t* out) __attribute__((target("avx512f,avx512bw,avx512vl"))) {  \
    asm volatile("vmovdqu64 (%[in]), %%zmm0\n\tvmovdqu64 64(%[in]), %%zmm1\n\t"                            \
                 "vmovdqu64 128(%[in]), %%zmm16\n\tvmovdqu64 192(%[in]), %%zmm17\n\t"                       \
                 "kmovq 256(%[in]), %%k1\n\tkmovq 264(%[in]), %%k2\n\t" code                               \
                 "\n\tvmovdqu64 %%zmm0, (%[out])\n\tvmovdqu64 %%zmm1, 64(%[out])\n\t"                       \
                 "vmovdqu64 %%zmm16, 128(%[out])\n\tvmovdqu64 %%zmm17, 192(%[out])\n\t"                     \
                 "kmovq %%k1, 256(%[out])\n\tkmovq %%k2, 264(%[out])\n\tvzeroupper"                        \
                 :                                                                                         \
                 : [p] "r"(p), [in] "r"(in), [out] "r"(out)                                                \
                 : "memory", "xmm0", "xmm1", "xmm16", "xmm17", "k1", "k2");                                \
  }

struct EvexCase {
  const char* name;
  EvexSnippet run;
};

const EvexCase kEvexCases[] = {
    // Whole-vector loads: each zeroes the register above what it loads.
    {"vmovdqu8_load_zmm", REGEMU_EVEX_SNIPPET("vmovdqu8 8(%[p]), %%zmm0")},
    {"vmovdqu16_load_ymm16", REGEMU_EVEX_SNIPPET("vmovdqu16 16(%[p]), %%ymm16")},
    {"vmovdqu32_load_ymm17", REGEMU_EVEX_SNIPPET("vmovdqu32 40(%[p]), %%ymm17")},
    {"vmovdqu64_load_xmm16", REGEMU_EVEX_SNIPPET("vmovdqu64 24(%[p]), %%xmm16")},
    {"vmovdqu64_load_zmm17", REGEMU_EVEX_SNIPPET("vmovdqu64 128(%[p]), %%zmm17")},
    {"vmovdqa32_load_zmm16", REGEMU_EVEX_SNIPPET("vmovdqa32 64(%[p]), %%zmm16")},
    {"vmovdqa64_load_ymm1", REGEMU_EVEX_SNIPPET("vmovdqa64 32(%[p]), %%ymm1")},
    {"vmovups_load_zmm1", REGEMU_EVEX_SNIPPET("vmovups 72(%[p]), %%zmm1")},
    {"vmovaps_load_xmm17", REGEMU_EVEX_SNIPPET("vmovaps 48(%[p]), %%xmm17")},
    {"vmovupd_load_ymm16", REGEMU_EVEX_SNIPPET("vmovupd 8(%[p]), %%ymm16")},
    {"vmovapd_load_zmm0", REGEMU_EVEX_SNIPPET("vmovapd 192(%[p]), %%zmm0")},
    {"vmovntdqa_load_zmm17", REGEMU_EVEX_SNIPPET("vmovntdqa 128(%[p]), %%zmm17")},
    {"evex_vmovdqu_load_zmm0_from_xmm", REGEMU_EVEX_SNIPPET("%{evex%} vmovdqu64 16(%[p]), %%xmm0")},
    // Scalar loads: zero everything above the element.
    {"vmovd_load_xmm16", REGEMU_EVEX_SNIPPET("vmovd 4(%[p]), %%xmm16")},
    {"vmovq_load_xmm17", REGEMU_EVEX_SNIPPET("vmovq 8(%[p]), %%xmm17")},
    {"vmovss_load_xmm16", REGEMU_EVEX_SNIPPET("vmovss 12(%[p]), %%xmm16")},
    {"vmovsd_load_xmm17", REGEMU_EVEX_SNIPPET("vmovsd 16(%[p]), %%xmm17")},
    {"evex_vmovq_load_xmm1", REGEMU_EVEX_SNIPPET("%{evex%} vmovq 24(%[p]), %%xmm1")},
    // Masked loads: merge-masking keeps the unselected elements,
    // zero-masking zeroes them.
    {"vmovdqu8_load_merge", REGEMU_EVEX_SNIPPET("vmovdqu8 5(%[p]), %%zmm0%{%%k1%}")},
    {"vmovdqu8_load_zero", REGEMU_EVEX_SNIPPET("vmovdqu8 3(%[p]), %%zmm16%{%%k1%}%{z%}")},
    {"vmovdqu16_load_merge_ymm", REGEMU_EVEX_SNIPPET("vmovdqu16 10(%[p]), %%ymm17%{%%k2%}")},
    {"vmovdqu32_load_merge_ymm16", REGEMU_EVEX_SNIPPET("vmovdqu32 32(%[p]), %%ymm16%{%%k2%}")},
    {"vmovdqu64_load_zero_zmm17", REGEMU_EVEX_SNIPPET("vmovdqu64 64(%[p]), %%zmm17%{%%k2%}%{z%}")},
    {"vmovups_load_merge_xmm1", REGEMU_EVEX_SNIPPET("vmovups 20(%[p]), %%xmm1%{%%k1%}")},
    {"vmovapd_load_zero_zmm1", REGEMU_EVEX_SNIPPET("vmovapd 128(%[p]), %%zmm1%{%%k1%}%{z%}")},
    {"vmovss_load_merge", REGEMU_EVEX_SNIPPET("vmovss 4(%[p]), %%xmm16%{%%k1%}")},
    // k2's bit 0 is clear: the CPU reads nothing (and does not fault).
    {"vmovsd_load_zero_masked_off", REGEMU_EVEX_SNIPPET("vmovsd 8(%[p]), %%xmm17%{%%k2%}%{z%}")},
    // Whole-vector and scalar stores.
    {"vmovdqu8_store_zmm", REGEMU_EVEX_SNIPPET("vmovdqu8 %%zmm0, 8(%[p])")},
    {"vmovdqu16_store_ymm17", REGEMU_EVEX_SNIPPET("vmovdqu16 %%ymm17, 40(%[p])")},
    {"vmovdqu32_store_xmm16", REGEMU_EVEX_SNIPPET("vmovdqu32 %%xmm16, 24(%[p])")},
    {"vmovdqu64_store_zmm16", REGEMU_EVEX_SNIPPET("vmovdqu64 %%zmm16, 128(%[p])")},
    {"vmovdqa32_store_ymm1", REGEMU_EVEX_SNIPPET("vmovdqa32 %%ymm1, 32(%[p])")},
    {"vmovdqa64_store_zmm17", REGEMU_EVEX_SNIPPET("vmovdqa64 %%zmm17, 64(%[p])")},
    {"vmovups_store_zmm17", REGEMU_EVEX_SNIPPET("vmovups %%zmm17, 136(%[p])")},
    {"vmovaps_store_zmm0", REGEMU_EVEX_SNIPPET("vmovaps %%zmm0, 192(%[p])")},
    {"vmovupd_store_xmm17", REGEMU_EVEX_SNIPPET("vmovupd %%xmm17, 8(%[p])")},
    {"vmovapd_store_ymm16", REGEMU_EVEX_SNIPPET("vmovapd %%ymm16, 96(%[p])")},
    {"vmovntdq_store_zmm1", REGEMU_EVEX_SNIPPET("vmovntdq %%zmm1, 0(%[p])")},
    {"vmovntps_store_ymm17", REGEMU_EVEX_SNIPPET("vmovntps %%ymm17, 160(%[p])")},
    {"vmovntpd_store_zmm16", REGEMU_EVEX_SNIPPET("vmovntpd %%zmm16, 64(%[p])")},
    {"vmovd_store_xmm16", REGEMU_EVEX_SNIPPET("vmovd %%xmm16, 4(%[p])")},
    {"vmovq_store_xmm17", REGEMU_EVEX_SNIPPET("vmovq %%xmm17, 16(%[p])")},
    {"vmovss_store_xmm17", REGEMU_EVEX_SNIPPET("vmovss %%xmm17, 12(%[p])")},
    {"vmovsd_store_xmm16", REGEMU_EVEX_SNIPPET("vmovsd %%xmm16, 24(%[p])")},
    // Masked stores: only the selected elements reach memory.
    {"vmovdqu8_store_masked", REGEMU_EVEX_SNIPPET("vmovdqu8 %%zmm0, 3(%[p])%{%%k1%}")},
    {"vmovdqu8_store_masked_ymm16", REGEMU_EVEX_SNIPPET("vmovdqu8 %%ymm16, 0(%[p])%{%%k2%}")},
    {"vmovdqu16_store_masked", REGEMU_EVEX_SNIPPET("vmovdqu16 %%zmm1, 66(%[p])%{%%k1%}")},
    {"vmovdqu32_store_masked", REGEMU_EVEX_SNIPPET("vmovdqu32 %%zmm17, 128(%[p])%{%%k2%}")},
    {"vmovdqu64_store_masked_ymm", REGEMU_EVEX_SNIPPET("vmovdqu64 %%ymm16, 40(%[p])%{%%k1%}")},
    {"vmovups_store_masked_xmm17", REGEMU_EVEX_SNIPPET("vmovups %%xmm17, 8(%[p])%{%%k2%}")},
    {"vmovapd_store_masked_zmm0", REGEMU_EVEX_SNIPPET("vmovapd %%zmm0, 192(%[p])%{%%k1%}")},
    {"vmovss_store_masked", REGEMU_EVEX_SNIPPET("vmovss %%xmm16, 4(%[p])%{%%k1%}")},
    {"vmovsd_store_masked_off", REGEMU_EVEX_SNIPPET("vmovsd %%xmm17, 8(%[p])%{%%k2%}")},
    // What memcmp and strlen compute from memory (ZMM16 and ZMM17 start
    // equal to the bytes at 64 in two lanes of three): compares into k1 or
    // k2, under k2 or not; bitwise logic; minimum and maximum.
    {"vpcmpeqb_zmm", REGEMU_EVEX_SNIPPET("vpcmpeqb 64(%[p]), %%zmm16, %%k1")},
    {"vpcmpeqb_ymm_masked", REGEMU_EVEX_SNIPPET("vpcmpeqb 64(%[p]), %%ymm16, %%k1%{%%k2%}")},
    {"vpcmpeqd_zmm", REGEMU_EVEX_SNIPPET("vpcmpeqd 64(%[p]), %%zmm17, %%k2")},
    {"vpcmpnequb_ymm", REGEMU_EVEX_SNIPPET("vpcmpnequb 64(%[p]), %%ymm17, %%k1")},
    {"vpcmpltub_zmm", REGEMU_EVEX_SNIPPET("vpcmpub $1, 64(%[p]), %%zmm16, %%k1")},
    {"vpcmpgtb_zmm_signed", REGEMU_EVEX_SNIPPET("vpcmpgtb 64(%[p]), %%zmm16, %%k2")},
    {"vpcmpleq_zmm_signed", REGEMU_EVEX_SNIPPET("vpcmpq $2, 64(%[p]), %%zmm16, %%k1")},
    {"vpcmpneqd_xmm_masked", REGEMU_EVEX_SNIPPET("vpcmpneqd 64(%[p]), %%xmm17, %%k1%{%%k2%}")},
    {"vpxorq_ymm", REGEMU_EVEX_SNIPPET("vpxorq 64(%[p]), %%ymm16, %%ymm17")},
    {"vpxord_zmm_zero_masked", REGEMU_EVEX_SNIPPET("vpxord 64(%[p]), %%zmm16, %%zmm0%{%%k1%}%{z%}")},
    {"vpandq_zmm_merge_masked", REGEMU_EVEX_SNIPPET("vpandq 64(%[p]), %%zmm17, %%zmm1%{%%k2%}")},
    {"vpandnd_xmm", REGEMU_EVEX_SNIPPET("vpandnd 64(%[p]), %%xmm16, %%xmm17")},
    {"vporq_zmm", REGEMU_EVEX_SNIPPET("vporq 64(%[p]), %%zmm16, %%zmm17")},
    {"vpternlogd_ymm", REGEMU_EVEX_SNIPPET("vpternlogd $0xde, 64(%[p]), %%ymm16, %%ymm17")},
    {"vpternlogq_zmm_masked", REGEMU_EVEX_SNIPPET("vpternlogq $0x96, 64(%[p]), %%zmm17, %%zmm16%{%%k1%}")},
    {"vpminub_zmm", REGEMU_EVEX_SNIPPET("vpminub 64(%[p]), %%zmm16, %%zmm17")},
    {"vpminud_ymm_masked", REGEMU_EVEX_SNIPPET("vpminud 64(%[p]), %%ymm16, %%ymm1%{%%k2%}")},
    {"vpminsw_zmm", REGEMU_EVEX_SNIPPET("vpminsw 64(%[p]), %%zmm17, %%zmm0")},
    {"vpmaxub_ymm", REGEMU_EVEX_SNIPPET("vpmaxub 64(%[p]), %%ymm16, %%ymm17")},
    {"vpmaxsq_zmm", REGEMU_EVEX_SNIPPET("vpmaxsq 64(%[p]), %%zmm16, %%zmm1")},
};

constexpr uint8_t PatternByte(size_t i) { return static_cast<uint8_t>(0x81 + 37 * i); }

class TrappedBarTest : public ::testing::Test {
 protected:
  TrappedBarTest()
      : device_(trap_testing::MakeDevice(trap_testing::kRamDatabase)),
        bar_(testing_support::SpaceNamed(device_->model(), "bar")),
        mapping_(TrappedMapping::Map(*device_, bar_)) {}

  uint8_t* mapped() const { return static_cast<uint8_t*>(mapping_.base()); }

  // Both memories (the whole BAR) start with the pattern.
  void Fill(uint8_t (&memory)[256]) {
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

class EvexTest : public TrappedBarTest, public ::testing::WithParamInterface<EvexCase> {};

TEST_P(EvexTest, DoesOnTheDeviceWhatItDoesOnMemory) {
  if (!CpuHasAvx512()) GTEST_SKIP() << kNoAvx512;
  alignas(64) uint8_t memory[256];
  Fill(memory);
  alignas(64) uint8_t in[kRegisterBytes];
  for (size_t i = 0; i < 256; ++i) in[i] = static_cast<uint8_t>(0x5a ^ (i * 13));
  // ZMM16 and ZMM17 as the memory at 64, but for every third byte: equal,
  // smaller and greater lanes for the compares.
  for (size_t i = 0; i < 128; ++i) {
    if (i % 3 != 0) in[128 + i] = PatternByte(64 + i % 64);
  }
  // k1 selects runs and single elements; k2 a few low elements only, bit 0
  // clear (a scalar move under it does nothing, or zeroes).
  const uint64_t k1 = 0xf00f'3c3c'0ff0'e7a5, k2 = 0x0000'0000'0000'b36e;
  std::memcpy(in + 256, &k1, 8);
  std::memcpy(in + 264, &k2, 8);
  alignas(64) uint8_t expected[kRegisterBytes] = {};
  alignas(64) uint8_t trapped[kRegisterBytes] = {};
  GetParam().run(memory, in, expected);
  uint64_t before = device_->access_count();
  GetParam().run(mapped(), in, trapped);
  EXPECT_THAT(trapped, ElementsAreArray(expected)) << "ZMM0, ZMM1, ZMM16, ZMM17, k1 and k2 afterwards";
  EXPECT_THAT(DeviceBytes(sizeof memory), ElementsAreArray(memory));
  if (!std::string(GetParam().name).ends_with("_masked_off")) {  // else the mask selects no byte
    EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_), ::testing::Not(::testing::IsEmpty()));
  }
  EXPECT_THAT(device_->violations(), ::testing::IsEmpty());
}

std::string EvexCaseName(const ::testing::TestParamInfo<EvexCase>& param) { return param.param.name; }

INSTANTIATE_TEST_SUITE_P(Each, EvexTest, ::testing::ValuesIn(kEvexCases), EvexCaseName);

// Loads k1 with `mask` and ZMM0 with bytes 0x00, 0x01, ... 0x3f, then runs
// `code`.
#define REGEMU_MASKED_SNIPPET(code)                                                                     \
  +[](uint8_t* p, uint64_t mask) __attribute__((target("avx512f,avx512bw,avx512vl"))) {                \
    alignas(64) uint8_t bytes[64];                                                                      \
    for (size_t i = 0; i < sizeof bytes; ++i) bytes[i] = static_cast<uint8_t>(i);                       \
    asm volatile("vmovdqu8 (%[bytes]), %%zmm0\n\tkmovq %[mask], %%k1\n\t" code "\n\tvzeroupper"        \
                 :                                                                                      \
                 : [p] "r"(p), [bytes] "r"(bytes), [mask] "r"(mask)                                     \
                 : "memory", "xmm0", "k1");                                                             \
  }

// A masked store is for the device a write of each run of selected
// elements, in naturally aligned pieces and address order, and nothing
// else: a byte it does not select may be a register with a write side
// effect.
TEST_F(TrappedBarTest, AMaskedStoreWritesOnlyTheSelectedBytes) {
  if (!CpuHasAvx512()) GTEST_SKIP() << kNoAvx512;
  uint64_t before = device_->access_count();
  // Bytes 1-2, 8 and 16-23.
  (REGEMU_MASKED_SNIPPET("vmovdqu8 %%zmm0, (%[p])%{%%k1%}"))(mapped(), 0x0000'0000'00ff'0106);
  // Dwords 1 and 3 (bytes 4-7, 12-15) at 0x40.
  (REGEMU_MASKED_SNIPPET("vmovdqu32 %%zmm0, 0x40(%[p])%{%%k1%}"))(mapped(), 0b1010);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_),
              ElementsAre(Write(1, 8, 0x01), Write(2, 8, 0x02), Write(8, 8, 0x08), Write(16, 64, 0x1716151413121110),
                          Write(0x44, 32, 0x07060504), Write(0x4c, 32, 0x0f0e0d0c)));
}

// A masked load reads only the selected elements (the CPU suppresses even
// the faults of the others): a byte it does not select may be a register
// that a read clears.
TEST_F(TrappedBarTest, AMaskedLoadReadsOnlyTheSelectedBytes) {
  if (!CpuHasAvx512()) GTEST_SKIP() << kNoAvx512;
  for (uint64_t offset = 0; offset < 0x100; offset += 8) device_->Poke(bar_, offset, 64, 0x0101010101010101 * offset);
  uint64_t before = device_->access_count();
  (REGEMU_MASKED_SNIPPET("vmovdqu8 0x10(%[p]), %%zmm0%{%%k1%}%{z%}"))(mapped(), 0x0000'0300'0000'0f00);
  (REGEMU_MASKED_SNIPPET("vmovdqu64 0x80(%[p]), %%zmm0%{%%k1%}"))(mapped(), 0b0100'0001);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_),
              ElementsAre(Read(0x18, 32, 0x18181818), Read(0x38, 16, 0x3838),
                          Read(0x80, 64, 0x8080808080808080), Read(0xb0, 64, 0xb0b0b0b0b0b0b0b0)));
}

}  // namespace
}  // namespace regemu::emulator
