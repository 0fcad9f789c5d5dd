#include "regemu/emulator/trap/trap_site.hpp"

#include <execinfo.h>

#include <cstdio>

#include "regemu/emulator/trap/decoded_instruction.hpp"

namespace regemu::emulator {
namespace {

thread_local const TrappedInstruction* current_instruction = nullptr;

// Frames searched past the faulting one for a source line: enough for
// libc's memcpy under a sanitizer's interceptor, few enough to stay in the
// driver rather than reach the test that called it.
constexpr int kCallerFrames = 4;

}  // namespace

namespace trap {

TrappedInstructionScope::TrappedInstructionScope(const TrappedInstruction& instruction) {
  current_instruction = &instruction;
}
TrappedInstructionScope::~TrappedInstructionScope() { current_instruction = nullptr; }

}  // namespace trap

TrappedInstruction::TrappedInstruction(const trap::DecodedInstruction& decoded) : decoded_(&decoded) {}

uint64_t TrappedInstruction::address() const { return decoded_->address; }

std::string TrappedInstruction::Text() const {
  char buffer[256];
  decoded_->Format(buffer, sizeof buffer);
  return buffer;
}

const TrappedInstruction* CurrentTrappedInstruction() { return current_instruction; }

std::optional<TrappedAccessSite> CurrentTrappedAccessSite() {
  const TrappedInstruction* instruction = current_instruction;
  if (instruction == nullptr) return std::nullopt;
  TrappedAccessSite site{instruction->address(), instruction->Text(), {}};
  // The unwinder walks from here through the signal frame into the driver:
  // the frame whose address is the faulting instruction's, then its callers.
  void* frames[64];
  int count = backtrace(frames, 64);
  for (int i = 0; i < count; ++i) {
    if (reinterpret_cast<uint64_t>(frames[i]) != site.address) continue;
    for (int j = i; j < count && j <= i + kCallerFrames; ++j) {
      trap::CodeLocation location = trap::LocateCode(reinterpret_cast<uint64_t>(frames[j]), j != i);
      if (location.has_line()) {
        site.location = location;
        return site;
      }
    }
    break;
  }
  site.location = trap::LocateCode(site.address);
  return site;
}

std::string TrappedAccessSite::Describe() const {
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(this->address));
  return location.Describe() + ": `" + text + "` at " + hex;
}

}  // namespace regemu::emulator
