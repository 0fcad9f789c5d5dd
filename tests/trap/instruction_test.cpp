// Each integer instruction regemu emulates, against the CPU itself: a
// snippet of assembly runs on plain memory, then on a trapped mapping of a
// RAM-like device holding the same bytes, and the registers, the status
// flags and the bytes must come out the same, for several incoming flag
// states. What Intel leaves "undefined" (AF after AND, OF after a shift by
// more than 1) must match too: regemu runs each operation on the CPU
// rather than compute flags by formula.
#include <cpuid.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "tests/trap/trap_test_support.hpp"

namespace regemu::emulator {
namespace {

// CPUID leaf 1, ECX bit 22 (Intel SDM Vol. 2A, CPUID). Asked of cpuid
// directly: clang 14's __builtin_cpu_supports has no "movbe".
bool CpuHasMovbe() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & (1u << 22)) != 0;
}

constexpr uint64_t kStatusFlags = 0x8d5;  // CF PF AF ZF SF OF

struct Regs {
  uint64_t rax = 0x8123456789abcdefull;
  uint64_t rcx = 12;
  uint64_t rdx = 0x7fffffff80000001ull;
  uint64_t flags = 0;
  bool operator==(const Regs&) const = default;
};

void PrintTo(const Regs& r, std::ostream* os) {
  *os << std::hex << "rax=0x" << r.rax << " rcx=0x" << r.rcx << " rdx=0x" << r.rdx << " flags=0x" << r.flags
      << std::dec;
}

using Snippet = Regs (*)(uint8_t* p, Regs in);

// `code` runs with RAX, RCX, RDX and RFLAGS from `in`; %[p] is the memory,
// in RDI (no REX prefix: AH stays encodable). The stack pointer steps over
// the red zone around the flag push and pop.
#define REGEMU_SNIPPET(code)                                                                        \
  +[](uint8_t* p, Regs in) {                                                                        \
    Regs out = in;                                                                                  \
    asm volatile("lea -128(%%rsp), %%rsp\n\tpushq %[flags]\n\tpopfq\n\t" code                       \
                 "\n\tpushfq\n\tpopq %[flags]\n\tlea 128(%%rsp), %%rsp"                             \
                 : "+a"(out.rax), "+c"(out.rcx), "+d"(out.rdx), [flags] "+r"(out.flags)             \
                 : [p] "D"(p)                                                                       \
                 : "memory", "cc");                                                                 \
    return out;                                                                                     \
  }

// The bytes both memories start with: every value differs, half of them
// have their sign bit set.
constexpr uint8_t PatternByte(size_t i) { return static_cast<uint8_t>(0x81 + 37 * i); }
constexpr uint64_t Pattern(size_t offset, size_t bytes) {
  uint64_t value = 0;
  for (size_t i = 0; i < bytes; ++i) value |= uint64_t{PatternByte(offset + i)} << (8 * i);
  return value;
}

struct Case {
  const char* name;
  Snippet run;
  Regs in{};
};

Regs WithRcx(uint64_t rcx) {
  Regs regs;
  regs.rcx = rcx;
  return regs;
}
Regs WithRax(uint64_t rax) {
  Regs regs;
  regs.rax = rax;
  return regs;
}

// An ALU operation in each form compilers emit on memory: immediate and
// register sources at each width, and memory as the source.
#define REGEMU_ALU_CASES(op)                                             \
  Case{op "b_imm", REGEMU_SNIPPET(op "b $0x7f, 1(%[p])")},               \
      Case{op "w_reg", REGEMU_SNIPPET(op "w %%dx, 2(%[p])")},            \
      Case{op "l_imm", REGEMU_SNIPPET(op "l $-3, 4(%[p])")},             \
      Case{op "q_reg", REGEMU_SNIPPET(op "q %%rdx, 8(%[p])")},           \
      Case{op "q_imm", REGEMU_SNIPPET(op "q $0x40000000, 16(%[p])")},    \
      Case{op "b_from_memory", REGEMU_SNIPPET(op "b 3(%[p]), %%al")},    \
      Case{op "l_from_memory", REGEMU_SNIPPET(op "l 4(%[p]), %%eax")},   \
      Case{op "q_from_memory", REGEMU_SNIPPET(op "q 8(%[p]), %%rdx")}

#define REGEMU_UNARY_CASES(op)                             \
  Case{op "b", REGEMU_SNIPPET(op "b 1(%[p])")},            \
      Case{op "w", REGEMU_SNIPPET(op "w 2(%[p])")},        \
      Case{op "l", REGEMU_SNIPPET(op "l 4(%[p])")},        \
      Case{op "q", REGEMU_SNIPPET(op "q 8(%[p])")}

#define REGEMU_SHIFT_CASES(op)                                   \
  Case{op "b_1", REGEMU_SNIPPET(op "b 1(%[p])")},                \
      Case{op "w_cl", REGEMU_SNIPPET(op "w %%cl, 2(%[p])")},     \
      Case{op "l_imm", REGEMU_SNIPPET(op "l $3, 4(%[p])")},      \
      Case{op "q_cl_wide", REGEMU_SNIPPET(op "q %%cl, 8(%[p])"), WithRcx(45)}

const Case kCases[] = {
    // Loads: every width, zero and sign extension, the high-byte registers.
    Case{"movb_load", REGEMU_SNIPPET("movb 1(%[p]), %%al")},
    Case{"movb_load_ah", REGEMU_SNIPPET("movb 1(%[p]), %%ah")},
    Case{"movw_load", REGEMU_SNIPPET("movw 2(%[p]), %%ax")},
    Case{"movl_load_zero_extends", REGEMU_SNIPPET("movl 4(%[p]), %%eax")},
    Case{"movq_load", REGEMU_SNIPPET("movq 8(%[p]), %%rax")},
    Case{"movq_load_indexed", REGEMU_SNIPPET("movq (%[p],%%rcx,2), %%rdx")},
    Case{"movzbl", REGEMU_SNIPPET("movzbl 3(%[p]), %%eax")},
    Case{"movzwq", REGEMU_SNIPPET("movzwq 6(%[p]), %%rdx")},
    Case{"movsbq", REGEMU_SNIPPET("movsbq 1(%[p]), %%rax")},
    Case{"movswl", REGEMU_SNIPPET("movswl 2(%[p]), %%edx")},
    Case{"movslq", REGEMU_SNIPPET("movslq 4(%[p]), %%rax")},
    Case{"movbe_load", REGEMU_SNIPPET("movbel 4(%[p]), %%edx")},
    // Stores: registers and immediates at every width.
    Case{"movb_store", REGEMU_SNIPPET("movb %%al, 5(%[p])")},
    Case{"movb_store_ah", REGEMU_SNIPPET("movb %%ah, 7(%[p])")},
    Case{"movw_store", REGEMU_SNIPPET("movw %%ax, 6(%[p])")},
    Case{"movl_store", REGEMU_SNIPPET("movl %%eax, 12(%[p])")},
    Case{"movq_store", REGEMU_SNIPPET("movq %%rax, 16(%[p])")},
    Case{"movb_imm", REGEMU_SNIPPET("movb $0x7f, 1(%[p])")},
    Case{"movw_imm", REGEMU_SNIPPET("movw $0x1234, 2(%[p])")},
    Case{"movl_imm", REGEMU_SNIPPET("movl $0xdeadbeef, 4(%[p])")},
    Case{"movq_imm_sign_extended", REGEMU_SNIPPET("movq $-5, 8(%[p])")},
    Case{"movnti_l", REGEMU_SNIPPET("movnti %%eax, 12(%[p])")},
    Case{"movnti_q", REGEMU_SNIPPET("movnti %%rax, 16(%[p])")},
    Case{"movbe_store", REGEMU_SNIPPET("movbeq %%rax, 8(%[p])")},
    // Read-modify-write and read-only ALU operations.
    REGEMU_ALU_CASES("add"),
    REGEMU_ALU_CASES("or"),
    REGEMU_ALU_CASES("adc"),
    REGEMU_ALU_CASES("sbb"),
    REGEMU_ALU_CASES("and"),
    REGEMU_ALU_CASES("sub"),
    REGEMU_ALU_CASES("xor"),
    REGEMU_ALU_CASES("cmp"),
    Case{"testb_imm", REGEMU_SNIPPET("testb $0x81, 1(%[p])")},
    Case{"testw_reg", REGEMU_SNIPPET("testw %%dx, 2(%[p])")},
    Case{"testl_imm_zero", REGEMU_SNIPPET("testl $0, 4(%[p])")},
    Case{"testq_reg", REGEMU_SNIPPET("testq %%rax, 8(%[p])")},
    REGEMU_UNARY_CASES("inc"),
    REGEMU_UNARY_CASES("dec"),
    REGEMU_UNARY_CASES("not"),
    REGEMU_UNARY_CASES("neg"),
    REGEMU_SHIFT_CASES("shl"),
    REGEMU_SHIFT_CASES("shr"),
    REGEMU_SHIFT_CASES("sar"),
    REGEMU_SHIFT_CASES("rol"),
    REGEMU_SHIFT_CASES("ror"),
    REGEMU_SHIFT_CASES("rcl"),
    REGEMU_SHIFT_CASES("rcr"),
    // Bit tests: immediate offsets (modulo the width), register offsets
    // (the whole bit string: past the operand, and below it).
    Case{"btl_imm", REGEMU_SNIPPET("btl $3, 4(%[p])")},
    Case{"btsq_imm", REGEMU_SNIPPET("btsq $63, 8(%[p])")},
    Case{"btrw_imm", REGEMU_SNIPPET("btrw $15, 2(%[p])")},
    Case{"btcl_imm_modulo", REGEMU_SNIPPET("btcl $35, 4(%[p])")},
    Case{"btl_reg_past", REGEMU_SNIPPET("btl %%ecx, 4(%[p])"), WithRcx(70)},
    Case{"btsq_reg_below", REGEMU_SNIPPET("btsq %%rcx, 16(%[p])"), WithRcx(static_cast<uint64_t>(-3))},
    Case{"btrw_reg_past", REGEMU_SNIPPET("btrw %%cx, 2(%[p])"), WithRcx(40)},
    Case{"lock_btcq_reg_past", REGEMU_SNIPPET("lock btcq %%rcx, 0(%[p])"), WithRcx(300)},
    // Exchanges: a read, then a write (CMPXCHG's only when equal).
    Case{"xchgl", REGEMU_SNIPPET("xchgl %%eax, 4(%[p])")},
    Case{"xchgb", REGEMU_SNIPPET("xchgb %%dl, 1(%[p])")},
    Case{"xchgq_memory_first", REGEMU_SNIPPET("xchgq 8(%[p]), %%rax")},
    Case{"lock_xaddq", REGEMU_SNIPPET("lock xaddq %%rdx, 8(%[p])")},
    Case{"xaddw", REGEMU_SNIPPET("xaddw %%ax, 2(%[p])")},
    Case{"lock_cmpxchgl_equal", REGEMU_SNIPPET("lock cmpxchgl %%edx, 4(%[p])"),
         WithRax(0xffffffff00000000ull | Pattern(4, 4))},
    Case{"lock_cmpxchgl_differs_zeroes_rax_high", REGEMU_SNIPPET("lock cmpxchgl %%edx, 4(%[p])"),
         WithRax(0xffffffff00000000ull)},
    Case{"cmpxchgq_equal", REGEMU_SNIPPET("cmpxchgq %%rdx, 8(%[p])"), WithRax(Pattern(8, 8))},
    Case{"cmpxchgb_differs", REGEMU_SNIPPET("cmpxchgb %%dl, 3(%[p])")},
    Case{"lock_orl", REGEMU_SNIPPET("lock orl $0x80000001, 4(%[p])")},
    Case{"lock_andq", REGEMU_SNIPPET("lock andq %%rdx, 8(%[p])")},
    Case{"lock_incl", REGEMU_SNIPPET("lock incl 4(%[p])")},
};

class InstructionTest : public ::testing::TestWithParam<Case> {
 protected:
  InstructionTest()
      : device_(trap_testing::MakeDevice(trap_testing::kRamDatabase)),
        bar_(testing_support::SpaceNamed(device_->model(), "bar")),
        mapping_(TrappedMapping::Map(*device_, bar_)) {}

  // The case with RFLAGS = `flags` on memory and on the mapping, both
  // starting from the pattern.
  void ExpectSameAsMemory(const Case& c, uint64_t flags) {
    alignas(64) uint8_t memory[64];
    for (size_t i = 0; i < sizeof memory; ++i) memory[i] = PatternByte(i);
    for (size_t offset = 0; offset < sizeof memory; offset += 8) device_->Poke(bar_, offset, 64, Pattern(offset, 8));
    Regs in = c.in;
    in.flags = flags;
    Regs expected = c.run(memory, in);
    uint64_t before = device_->access_count();
    Regs trapped = c.run(static_cast<uint8_t*>(mapping_.base()), in);
    expected.flags &= kStatusFlags;
    trapped.flags &= kStatusFlags;
    EXPECT_EQ(trapped, expected) << "with flags 0x" << std::hex << flags;
    std::vector<uint8_t> device_bytes(sizeof memory);
    for (size_t offset = 0; offset < sizeof memory; offset += 8) {
      uint64_t value = device_->Peek(bar_, offset, 64);
      std::memcpy(device_bytes.data() + offset, &value, 8);
    }
    EXPECT_THAT(device_bytes, ::testing::ElementsAreArray(memory)) << "with flags 0x" << std::hex << flags;
    EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_), ::testing::Not(::testing::IsEmpty()))
        << "the snippet never reached the device";
    EXPECT_EQ(device_->violation_count(), 0u);
  }

  std::unique_ptr<Device> device_;
  SpaceId bar_;
  TrappedMapping mapping_;
};

TEST_P(InstructionTest, DoesOnTheDeviceWhatItDoesOnMemory) {
  if (std::string(GetParam().name).starts_with("movbe") && !CpuHasMovbe()) {
    GTEST_SKIP() << "this CPU has no MOVBE";
  }
  for (uint64_t flags : {uint64_t{0}, kStatusFlags, uint64_t{0x1}, uint64_t{0x840}}) {
    ExpectSameAsMemory(GetParam(), flags);
  }
}

std::string CaseName(const ::testing::TestParamInfo<Case>& param) { return param.param.name; }

INSTANTIATE_TEST_SUITE_P(Each, InstructionTest, ::testing::ValuesIn(kCases), CaseName);

// A read-modify-write is a read, then a write, in that order, of the
// instruction's width; a compare or a bit test only reads; CMPXCHG that
// finds another value writes nothing.
class InstructionAccessesTest : public InstructionTest {};

TEST_F(InstructionAccessesTest, ReadModifyWriteIsAReadThenAWrite) {
  using trap_testing::Read;
  using trap_testing::Write;
  auto* base = static_cast<uint8_t*>(mapping_.base());
  device_->Poke(bar_, 0, 64, 0x00000000000000f0);
  uint64_t before = device_->access_count();
  (REGEMU_SNIPPET("lock orl $0x1, 0(%[p])"))(base, Regs{});
  (REGEMU_SNIPPET("testb $0x80, 0(%[p])"))(base, Regs{});
  (REGEMU_SNIPPET("cmpxchgl %%edx, 0(%[p])"))(base, WithRax(0));
  (REGEMU_SNIPPET("cmpxchgl %%edx, 0(%[p])"))(base, WithRax(0xf1));
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_),
              ::testing::ElementsAre(Read(0, 32, 0xf0), Write(0, 32, 0xf1), Read(0, 8, 0xf1), Read(0, 32, 0xf1),
                                     Read(0, 32, 0xf1), Write(0, 32, 0x80000001)));
}

// movabs: the moffs form, a 64-bit absolute address (CMSIS code above 2
// GiB), only with the accumulator.
TEST(MovabsTest, LoadsAndStoresAtAnAbsoluteAddress) {
  auto device = trap_testing::MakeDevice(trap_testing::kRamDatabase);
  SpaceId bar = testing_support::SpaceNamed(device->model(), "bar");
  std::optional<TrappedMapping> mapping;
  try {
    mapping.emplace(TrappedMapping::Map(*device, bar, reinterpret_cast<void*>(0x10000000)));
  } catch (const std::runtime_error& error) {
    GTEST_SKIP() << "0x10000000 is taken in this process: " << error.what();
  }
  device->Poke(bar, 0x10, 64, 0x1122334455667788);
  uint64_t rax = 0;
  asm volatile("movabs 0x10000010, %%rax" : "=a"(rax) : : "memory");
  EXPECT_EQ(rax, 0x1122334455667788u);
  uint32_t eax = 0xcafef00d;
  asm volatile("movabs %%eax, 0x10000018" : : "a"(eax) : "memory");
  EXPECT_EQ(device->Peek(bar, 0x18, 32), 0xcafef00du);
  uint8_t al = 0;
  asm volatile("movabs 0x10000013, %%al" : "=a"(al) : : "memory");
  EXPECT_EQ(al, 0x55u);
}

}  // namespace
}  // namespace regemu::emulator
