#pragma once
// Where the trapped access in progress on this thread comes from: the driver
// instruction that faulted. For observers that run during the access
// (DeviceOptions::on_violation, on_trace): fakes::DeviceTest reports a
// violation at the driver's source line with it, the C shim adds it to
// regemu_violation_text.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/trap/code_location.hpp"

namespace regemu::emulator {

namespace trap {
struct DecodedInstruction;
}

class TrappedInstruction {
 public:
  explicit TrappedInstruction(const trap::DecodedInstruction& decoded);
  // The faulting instruction's address (RIP).
  uint64_t address() const;
  // Intel syntax: "or dword ptr [rax+0x14], 0x1". Formatted when asked, not
  // on every trapped access.
  std::string Text() const;

 private:
  const trap::DecodedInstruction* decoded_;
};

// The instruction whose trapped access is in progress on this thread, or
// nullptr. Valid until the access returns.
const TrappedInstruction* CurrentTrappedInstruction();

struct TrappedAccessSite {
  uint64_t address = 0;  // of the faulting instruction
  std::string text;      // the instruction, Intel syntax
  // The source frames from the faulting instruction outwards (inlined
  // functions included), over a few calls.
  std::vector<trap::CodeLocation> frames;
  // The driver's line: the innermost frame with a source line that is not
  // an MMIO accessor (readl and its family, memcpy_toio, ... and what
  // TreatAsMmioAccessor added), as the MmioBus helpers report their
  // caller: the line that calls writel, whether writel was inlined or not;
  // the line that called memcpy when the instruction is inside libc's.
  // Else the innermost frame with a line; else the instruction's symbol
  // (has_line() false).
  trap::CodeLocation location;

  // "driver.c:42 in uart_enable: `or dword ptr [rax+0x14], 0x1` at 0x5581..."
  std::string Describe() const;
};

// Where in the driver the trapped access in progress on this thread was
// made, or nothing outside one. Walks the stack and reads debug
// information: call it from an observer when it has something to report
// (a violation), not on every access.
std::optional<TrappedAccessSite> CurrentTrappedAccessSite();

// A driver's own register accessor (nvme_readl, rd32, a wrapper around
// readl): the line reported for an access is its caller's, as for readl.
void TreatAsMmioAccessor(std::string function_name);

namespace trap {

// Marks `instruction` as this thread's trapped instruction for its lifetime.
class TrappedInstructionScope {
 public:
  explicit TrappedInstructionScope(const TrappedInstruction& instruction);
  ~TrappedInstructionScope();
  TrappedInstructionScope(const TrappedInstructionScope&) = delete;
  TrappedInstructionScope& operator=(const TrappedInstructionScope&) = delete;
};

}  // namespace trap
}  // namespace regemu::emulator
