#pragma once
// Code addresses as source lines, from the DWARF debug information of the
// executable and shared objects mapped in the process (elfutils' libdwfl,
// libdw-dev): what names the driver line a trapped access came from.
//
// libdwfl over the alternatives: it reads the process's own maps (PIE,
// dlopen'ed objects, separate debug files under /usr/lib/debug), needs no
// external addr2line process, and is a Debian library with a stable C API.

#include <cstdint>
#include <optional>
#include <string>

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
  // "driver.c:42 in uart_enable", else "uart_enable+0x12 in libc.so.6", else
  // "0x7f... (no symbol)".
  std::string Describe() const;
};

// Where `address` is. `return_address` says it is a caller's return address
// (its call instruction is the line: the lookup is at address - 1).
// Thread-safe; it allocates, reads files and takes a lock: not for the
// lookup path of the signal handler, fine inside a trapped access's
// emulation, which runs as a synchronous call of the faulting thread.
CodeLocation LocateCode(uint64_t address, bool return_address = false);

}  // namespace regemu::emulator::trap
