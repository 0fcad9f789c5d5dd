// regemu's SIGSEGV handler among others: faults outside its mappings go
// where they went before (a crash, ASan's report, a handler installed
// earlier), an instruction it does not emulate stops the test with its
// name, a trapped access from inside regemu's own handling is refused,
// several driver threads share a device, an alternate signal stack is left
// for the thread's own, and an observer learns which driver instruction
// and line made the access.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "regemu/emulator/trap/trap_site.hpp"
#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "tests/trap/trap_test_support.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define REGEMU_TRAP_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define REGEMU_TRAP_ASAN 1
#endif
#endif

namespace regemu::emulator {
namespace {

using ::testing::EndsWith;
using ::testing::HasSubstr;
using trap_testing::MakeDevice;
using testing_support::SpaceNamed;

// An address nothing maps, hidden from the optimizer.
volatile uintptr_t wild_address = 0x10;

void WildWrite() { *reinterpret_cast<volatile uint32_t*>(wild_address) = 1; }

TEST(CoexistenceDeathTest, AFaultOutsideEveryMappingCrashesAsBefore) {
  auto device = MakeDevice(trap_testing::kRamDatabase);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
#ifdef REGEMU_TRAP_ASAN
  // Chained to ASan's handler: its report, as without regemu.
  EXPECT_DEATH(WildWrite(), "AddressSanitizer: SEGV on unknown address");
#else
  EXPECT_EXIT(WildWrite(), ::testing::KilledBySignal(SIGSEGV), "");
#endif
}

TEST(CoexistenceDeathTest, AnAccessAfterUnmappingCrashesAsAWildOne) {
  auto device = MakeDevice(trap_testing::kRamDatabase);
  uintptr_t base = 0;
  {
    TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
    base = reinterpret_cast<uintptr_t>(mapping.base());
  }
  wild_address = base;
#ifdef REGEMU_TRAP_ASAN
  EXPECT_DEATH(WildWrite(), "AddressSanitizer: SEGV on unknown address");
#else
  EXPECT_EXIT(WildWrite(), ::testing::KilledBySignal(SIGSEGV), "");
#endif
  wild_address = 0x10;
}

TEST(CoexistenceDeathTest, ASentSegvIsNoAccess) {
  auto device = MakeDevice(trap_testing::kRamDatabase);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
#ifdef REGEMU_TRAP_ASAN
  EXPECT_DEATH(raise(SIGSEGV), "");
#else
  EXPECT_EXIT(raise(SIGSEGV), ::testing::KilledBySignal(SIGSEGV), "");
#endif
}

void CustomSegvHandler(int, siginfo_t*, void*) {
  const char message[] = "the handler installed before regemu's\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
  _exit(42);
}

// A handler installed before the mapping (here even after regemu's first
// one: Map installs regemu's again, in front of it) still gets every fault
// that is not an access to a mapping.
TEST(CoexistenceDeathTest, FaultsOutsideGoToTheHandlerThatWasThere) {
  EXPECT_EXIT(
      {
        struct sigaction custom {};
        custom.sa_sigaction = CustomSegvHandler;
        custom.sa_flags = SA_SIGINFO;
        sigemptyset(&custom.sa_mask);
        sigaction(SIGSEGV, &custom, nullptr);
        auto device = MakeDevice(trap_testing::kRamDatabase);
        SpaceId bar = SpaceNamed(device->model(), "bar");
        TrappedMapping mapping = TrappedMapping::Map(*device, bar);
        static_cast<volatile uint32_t*>(mapping.base())[0] = 5;
        if (device->Peek(bar, 0, 32) != 5) _exit(1);
        WildWrite();
      },
      ::testing::ExitedWithCode(42), "the handler installed before regemu's");
}

// POPCNT on a register is a driver's way to count status bits; regemu does
// not emulate it: the test stops, naming the instruction, its address and
// line, and where it went.
TEST(CoexistenceDeathTest, AnInstructionRegemuDoesNotEmulateStopsTheTestWithItsName) {
  if (!__builtin_cpu_supports("popcnt")) GTEST_SKIP() << "this CPU has no POPCNT";
  auto device = MakeDevice(trap_testing::kRamDatabase);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
  auto* p = static_cast<uint8_t*>(mapping.base());
  EXPECT_DEATH(
      {
        uint32_t bits = 0;
        asm volatile("popcntl 4(%[p]), %[bits]" : [bits] "=r"(bits) : [p] "r"(p) : "memory", "cc");
      },
      "regemu: trapped access not emulated: `popcnt (e[a-z]+|r[0-9]+d), dword ptr \\[r[a-z0-9]+\\+0x4\\]` at 0x[0-9a-f]+ "
      "\\(.*coexistence_test.cpp:[0-9]+ in .*\\) touches space 'bar' of device 'ram' at offset 0x4: it is not an "
      "instruction regemu emulates");
}

// An access half inside a mapping (the last 4 bytes of its page and 4
// beyond) cannot be made on the device: refused, not split.
TEST(CoexistenceDeathTest, AnAccessAcrossTheMappingsEdgeIsRefused) {
  auto device = MakeDevice(trap_testing::kRamDatabase);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
  auto* last = static_cast<uint8_t*>(mapping.base()) + sysconf(_SC_PAGESIZE) - 4;
  // In assembly: a misaligned load through a C++ pointer is undefined.
  EXPECT_DEATH(asm volatile("movq (%0), %%rax" : : "r"(last) : "rax", "memory"),
               "regemu: trapped access not emulated: `mov r[a-z0-9]+, qword ptr \\[.*\\]` .* touches space 'bar' "
               "of device 'ram' at offset 0xffc: the access runs across the edge of a trapped mapping");
}

// Code cannot run from a mapping: a call into one is refused by name.
TEST(CoexistenceDeathTest, AJumpIntoAMappingIsRefused) {
  auto device = MakeDevice(trap_testing::kRamDatabase);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
  auto* code = reinterpret_cast<void (*)()>(mapping.base());
  EXPECT_DEATH(code(), "the thread jumped into the mapping: code cannot run from a trapped region");
}

// An observer that runs during a trapped access (here on_trace) and itself
// touches a mapping would need the device lock its access holds.
TEST(CoexistenceDeathTest, ATrappedAccessFromInsideRegemusHandlingIsRefused) {
  DeviceOptions options;
  std::atomic<volatile uint32_t*> base{nullptr};
  options.on_trace = [&base](const TraceEntry& entry) {
    if (volatile uint32_t* p = base.load(); p != nullptr && entry.op == TraceOp::kWrite) (void)p[1];
  };
  auto device = MakeDevice(trap_testing::kRamDatabase, options);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "bar"));
  base = static_cast<volatile uint32_t*>(mapping.base());
  EXPECT_DEATH(base.load()[0] = 1,
               "regemu: a trapped access from inside regemu's own handling of one: .* touches space 'bar' of device "
               "'ram' at offset 0x4 while this thread is already emulating a trapped access");
}

// Every trapped instruction is atomic with respect to the others: LOCK
// XADDs of four threads on one register lose no increment.
TEST(TrapThreadsTest, SeveralDriverThreadsShareOneDevice) {
  auto device = MakeDevice(trap_testing::kRamDatabase);
  SpaceId bar = SpaceNamed(device->model(), "bar");
  TrappedMapping mapping = TrappedMapping::Map(*device, bar);
  auto* regs = static_cast<volatile uint64_t*>(mapping.base());
  constexpr int kThreads = 4;
  constexpr int kIncrements = 300;
  std::atomic<int> mismatches{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kIncrements; ++i) {
        __atomic_fetch_add(&regs[0], uint64_t{1}, __ATOMIC_SEQ_CST);
        regs[1 + t] = static_cast<uint64_t>(i);
        if (regs[1 + t] != static_cast<uint64_t>(i)) ++mismatches;
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(device->Peek(bar, 0, 64), uint64_t{kThreads * kIncrements});
  EXPECT_EQ(mismatches.load(), 0);
  EXPECT_EQ(device->violation_count(), 0u);
}

int read_only_write_line = 0;

[[gnu::noinline]] void WriteVendorId(volatile uint16_t* cfg) {
  read_only_write_line = __LINE__ + 1;
  cfg[0] = 0x1af4;
}

// An observer running during a trapped access learns the driver's
// instruction and line: here on_violation, on a thread whose handler runs
// on a small alternate signal stack (as under ASan), which the emulation
// leaves for the thread's own, unwinding back through it.
TEST(TrapSiteTest, AnObserverLearnsTheDriversInstructionAndLine) {
  std::optional<TrappedAccessSite> site;
  std::string text;
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  options.on_violation = [&](const Violation&) {
    // More stack than any alternate signal stack has.
    volatile char scratch[256 * 1024];
    scratch[0] = 1;
    scratch[sizeof scratch - 1] = scratch[0];
    if (const TrappedInstruction* instruction = CurrentTrappedInstruction()) text = instruction->Text();
    site = CurrentTrappedAccessSite();
  };
  auto device = MakeDevice(trap_testing::kRamDatabase, options);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "cfg"));
  std::thread driver([&] {
    std::vector<char> alternate(static_cast<size_t>(sysconf(_SC_MINSIGSTKSZ)) + 8192);
    stack_t stack{};
    stack.ss_sp = alternate.data();
    stack.ss_size = alternate.size();
    ASSERT_EQ(sigaltstack(&stack, nullptr), 0);
    WriteVendorId(static_cast<volatile uint16_t*>(mapping.base()));
    stack.ss_flags = SS_DISABLE;
    sigaltstack(&stack, nullptr);
  });
  driver.join();
  ASSERT_EQ(device->violation_count(), 1u);
  ASSERT_TRUE(site.has_value());
  EXPECT_THAT(text, HasSubstr("mov word ptr"));
  EXPECT_EQ(site->text, text);
  EXPECT_THAT(site->location.file, EndsWith("coexistence_test.cpp"));
  EXPECT_EQ(site->location.line, static_cast<unsigned>(read_only_write_line));
  EXPECT_THAT(site->location.function, HasSubstr("WriteVendorId"));
  EXPECT_THAT(site->Describe(), HasSubstr("coexistence_test.cpp:" + std::to_string(read_only_write_line)));
  EXPECT_EQ(CurrentTrappedInstruction(), nullptr) << "only during the access";
}

int wrapper_line = 0;
int wrapper_call_line = 0;

// A driver's own accessor around the store, as drivers wrap writel.
extern "C" [[gnu::noinline]] void trap_test_write16(volatile uint16_t* reg, uint16_t value) {
  wrapper_line = __LINE__ + 1;
  *reg = value;
}

[[gnu::noinline]] void WriteVendorIdThroughAWrapper(volatile uint16_t* cfg) {
  wrapper_call_line = __LINE__ + 1;
  trap_test_write16(cfg, 0x1af4);
  // Not a tail call (an optimized build's jmp would leave no frame, and no
  // line, of this function): the line to report is the one above.
  asm volatile("" ::: "memory");
}

// The reported line skips accessors: a wrapper of the driver's own once
// it is named one.
TEST(TrapSiteTest, ADriversOwnAccessorIsSkippedOnceNamed) {
  std::vector<unsigned> lines;
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  options.on_violation = [&](const Violation&) {
    std::optional<TrappedAccessSite> site = CurrentTrappedAccessSite();
    lines.push_back(site ? site->location.line : 0);
  };
  auto device = MakeDevice(trap_testing::kRamDatabase, options);
  TrappedMapping mapping = TrappedMapping::Map(*device, SpaceNamed(device->model(), "cfg"));
  auto* cfg = static_cast<volatile uint16_t*>(mapping.base());
  WriteVendorIdThroughAWrapper(cfg);
  TreatAsMmioAccessor("trap_test_write16");
  WriteVendorIdThroughAWrapper(cfg);
  EXPECT_THAT(lines, ::testing::ElementsAre(static_cast<unsigned>(wrapper_line),
                                            static_cast<unsigned>(wrapper_call_line)));
}

}  // namespace
}  // namespace regemu::emulator
