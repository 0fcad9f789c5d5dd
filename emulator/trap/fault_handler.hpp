#pragma once
// regemu's SIGSEGV handler: a fault inside a trapped region is an access to
// emulate; any other fault goes to the handler that was installed before
// (ASan's report, a crash handler, or the default action: the process dies
// with SIGSEGV exactly as it would have without regemu).

namespace regemu::emulator::trap {

// Called, and does nothing, just before a fault that is not regemu's goes
// to the handler installed before: `break regemu_trap_foreign_fault` in gdb
// (with `handle SIGSEGV nostop noprint pass`) stops at a real segfault, with
// the faulting code on the stack behind the signal frame.
extern "C" void regemu_trap_foreign_fault();

// Installs the handler unless it is the current one (also after something
// replaced it: the replacement becomes the handler to chain to). Throws
// std::system_error when sigaction fails.
void InstallFaultHandler();

}  // namespace regemu::emulator::trap
