#include "regemu/emulator/trap/fault_handler.hpp"

#include <pthread.h>
#include <signal.h>
#include <sys/ucontext.h>

#include <cerrno>
#include <mutex>
#include <system_error>

#include "regemu/emulator/trap/call_on_stack.hpp"
#include "regemu/emulator/trap/cpu_state.hpp"
#include "regemu/emulator/trap/decoded_instruction.hpp"
#include "regemu/emulator/trap/emulate.hpp"
#include "regemu/emulator/trap/fatal_report.hpp"
#include "regemu/emulator/trap/instruction_memory.hpp"
#include "regemu/emulator/trap/region_table.hpp"
#include "regemu/emulator/trap/trap_site.hpp"

namespace regemu::emulator::trap {
namespace {

std::mutex install_lock;
// The handler regemu replaced: every fault outside its regions goes there.
// Written under install_lock before regemu's handler is (re)installed.
struct sigaction previous_action;

// Set while this thread emulates a trapped access: a second trapped fault
// then comes from regemu's own code (a behaviour, an observer) and must not
// be handled under the device lock the first one holds.
thread_local bool emulating = false;

// Sets `emulating` for a scope, also when an observer's exception (gtest's
// --gtest_throw_on_failure) leaves it.
class EmulatingScope {
 public:
  EmulatingScope() { emulating = true; }
  ~EmulatingScope() { emulating = false; }
  EmulatingScope(const EmulatingScope&) = delete;
  EmulatingScope& operator=(const EmulatingScope&) = delete;
};

// Every trapped instruction runs under it, so each is atomic with respect
// to every other (a LOCK OR's read and write, a CMPXCHG's compare and
// store): several driver threads may share a device. Device accesses made
// directly (Device::Read/Write) are atomic on their own, not with these.
std::mutex instruction_lock;

// Room left above the new stack pointer when emulation moves from the
// alternate signal stack to the thread's own: the red zone below the
// interrupted RSP (128 bytes) and some slack.
constexpr uintptr_t kBelowInterruptedStack = 128 + 256;

struct Job {
  ucontext_t* context;
  const Region* region;
  uint64_t fault_address;
  bool reentered;  // the thread was already emulating a trapped access
};

void RunJob(void* argument) {
  Job& job = *static_cast<Job*>(argument);
  if (job.reentered) {
    ReportReentered(static_cast<uint64_t>(job.context->uc_mcontext.gregs[REG_RIP]), job.fault_address, *job.region);
  }
  EmulatingScope emulating_scope;
  CpuState cpu(*job.context);
  uint64_t rip = cpu.rip();
  if (job.region->Contains(rip)) {
    ReportNotEmulated(nullptr, rip, job.fault_address, *job.region,
                      "the thread jumped into the mapping: code cannot run from a trapped region");
  }
  DecodedInstruction instruction;
  if (!instruction.Decode(rip)) {
    ReportNotEmulated(nullptr, rip, job.fault_address, *job.region, "Zydis cannot decode the bytes there");
  }
  TrappedInstruction trapped(instruction);
  TrappedInstructionScope scope(trapped);
  InstructionMemory memory;
  const char* refusal = nullptr;
  {
    std::lock_guard guard(instruction_lock);
    refusal = Emulate(instruction, cpu, memory);
  }
  if (refusal != nullptr) ReportNotEmulated(&instruction, rip, job.fault_address, *job.region, refusal);
}

// Runs `call` with the signal mask a handler installed with `action` gets.
template <typename Call>
void WithMaskOf(const struct sigaction& action, int signal, Call call) {
  sigset_t mask = action.sa_mask;
  if ((action.sa_flags & SA_NODEFER) == 0) sigaddset(&mask, signal);
  sigset_t old;
  pthread_sigmask(SIG_BLOCK, &mask, &old);
  call();
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

// A fault that is not regemu's, to the handler that was there before, as
// the kernel would have called it.
void Chain(int signal, siginfo_t* info, void* context) {
  regemu_trap_foreign_fault();
  struct sigaction previous = previous_action;
  bool sent = info == nullptr || info->si_code <= 0;  // kill(), not a fault
  if ((previous.sa_flags & SA_SIGINFO) == 0 && (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN)) {
    if (previous.sa_handler == SIG_IGN && sent) return;
    // The default action, as if regemu had never been here: returning runs
    // the faulting instruction again, which faults again and now kills the
    // process with SIGSEGV (a core dump, the shell's "Segmentation fault").
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigemptyset(&default_action.sa_mask);
    sigaction(signal, &default_action, nullptr);
    if (sent) raise(signal);
    return;
  }
  if ((static_cast<unsigned>(previous.sa_flags) & SA_RESETHAND) != 0) {
    struct sigaction default_action {};
    default_action.sa_handler = SIG_DFL;
    sigaction(signal, &default_action, nullptr);
  }
  if ((previous.sa_flags & SA_SIGINFO) != 0) {
    WithMaskOf(previous, signal, [&] { previous.sa_sigaction(signal, info, context); });
  } else {
    WithMaskOf(previous, signal, [&] { previous.sa_handler(signal); });
  }
}

RegionTable::Pin RegionOf(const siginfo_t* info) {
  // Only faults the kernel raised (si_code > 0) are accesses; a SIGSEGV sent
  // with kill() carries no address to emulate.
  if (info == nullptr || info->si_code <= 0) return {};
  return RegionTable::Instance().Find(reinterpret_cast<uintptr_t>(info->si_addr));
}

void OnFault(int signal, siginfo_t* info, void* context) {
  int saved_errno = errno;
  RegionTable::Pin region = RegionOf(info);
  if (!region) {
    errno = saved_errno;
    Chain(signal, info, context);
    return;
  }
  auto* uc = static_cast<ucontext_t*>(context);
  // Even a refused re-entrance is reported from the thread's own stack:
  // the message needs more than an alternate stack may have.
  Job job{uc, region.get(), reinterpret_cast<uint64_t>(info->si_addr), emulating};
  stack_t alternate;
  if (sigaltstack(nullptr, &alternate) == 0 && (alternate.ss_flags & SS_ONSTACK) != 0) {
    auto rsp = static_cast<uintptr_t>(uc->uc_mcontext.gregs[REG_RSP]);
    auto* top = reinterpret_cast<void*>((rsp - kBelowInterruptedStack) & ~uintptr_t{15});
    regemu_trap_call_on_stack(&RunJob, &job, top);
  } else {
    RunJob(&job);
  }
  errno = saved_errno;
}

}  // namespace

extern "C" [[gnu::noinline]] void regemu_trap_foreign_fault() {
  // Kept: an empty function would be folded into its caller.
  asm volatile("" ::: "memory");
}

void InstallFaultHandler() {
  std::lock_guard guard(install_lock);
  PrepareDecoder();
  PrepareCpuState();
  struct sigaction current {};
  if (sigaction(SIGSEGV, nullptr, &current) != 0) {
    throw std::system_error(errno, std::generic_category(), "regemu: reading the SIGSEGV handler");
  }
  if ((current.sa_flags & SA_SIGINFO) != 0 && current.sa_sigaction == &OnFault) return;
  previous_action = current;
  struct sigaction ours {};
  ours.sa_sigaction = &OnFault;
  // SA_ONSTACK: a handler chained to (ASan's) may rely on an alternate stack
  // for stack overflows. SA_NODEFER: a fault inside the emulation reaches
  // the handler again, to be chained (a crash) or refused (ReportReentered)
  // rather than kill the process silently.
  ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
  // Asynchronous signals wait until the instruction is emulated: a handler
  // of theirs on the alternate stack would overwrite this one's frame there.
  sigfillset(&ours.sa_mask);
  for (int synchronous : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS}) {
    sigdelset(&ours.sa_mask, synchronous);
  }
  if (sigaction(SIGSEGV, &ours, nullptr) != 0) {
    throw std::system_error(errno, std::generic_category(), "regemu: installing the SIGSEGV handler");
  }
}

}  // namespace regemu::emulator::trap
