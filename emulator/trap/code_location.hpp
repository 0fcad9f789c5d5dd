#pragma once
// Code addresses as source lines, from the DWARF debug information of the
// executable and shared objects mapped in the process (elfutils' libdwfl,
// libdw-dev): what names the driver line a trapped access came from.
//
// libdwfl over the alternatives: it reads the process's own maps (PIE,
// dlopen'ed objects, separate debug files under /usr/lib/debug), gives the
// inline chain of an address (readl inlined into the driver function), needs
// no external addr2line process, and is a Debian library with a stable C API.

#include <cstdint>
#include <string>
#include <vector>

namespace regemu::emulator::trap {

struct CodeLocation {
  uint64_t address = 0;
  // Interned: valid for the rest of the process (hwreg::SourceLocation keeps
  // such pointers). "" when unknown.
  const char* file = "";
  unsigned line = 0;  // 0: no line information for the address
  const char* function = "";
  const char* module = "";  // the executable or shared object holding it

  bool has_line() const { return line != 0; }
  // "driver.c:42 in uart_enable", else "memcpy in libc.so.6 (no line
  // information)", else "0x7f... (no symbol)".
  std::string Describe() const;
};

// The source frames at `address`, innermost first: the function holding it
// and, when it was inlined, each function it was inlined into, at the line
// of that call (readl at io.h:15, then nvme_enable at driver.c:89). One
// frame, without a line, where there is no debug information. `return_address`
// says the address is a caller's return address: the lookup is then at
// address - 1, inside its call instruction.
//
// Thread-safe; it allocates, reads files and takes a lock: not for the
// lookup path of the signal handler, fine inside a trapped access's
// emulation, which runs as a synchronous call of the faulting thread.
std::vector<CodeLocation> LocateFrames(uint64_t address, bool return_address = false);

// The innermost of LocateFrames.
CodeLocation LocateCode(uint64_t address, bool return_address = false);

}  // namespace regemu::emulator::trap
