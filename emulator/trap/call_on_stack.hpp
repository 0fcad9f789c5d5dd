#pragma once
// Runs a function on another stack and comes back: the SIGSEGV handler may
// have been entered on a small alternate signal stack (sigaltstack: ASan
// sets one up for every thread), too small for a device access that
// records a violation and reports it through gtest. Emulation then runs on
// the faulting thread's own stack, below the interrupted frame.

namespace regemu::emulator::trap {

// Calls fn(arg) with the stack pointer at `stack_top` (16-byte aligned).
// Its frame has unwind information, so a backtrace taken inside fn walks
// back through it into the signal frame and the driver.
extern "C" void regemu_trap_call_on_stack(void (*fn)(void*), void* arg, void* stack_top);

}  // namespace regemu::emulator::trap
