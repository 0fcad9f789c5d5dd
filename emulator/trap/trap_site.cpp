#include "regemu/emulator/trap/trap_site.hpp"

#include <execinfo.h>

#include <cstdio>
#include <mutex>
#include <set>
#include <string_view>

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

namespace {

std::mutex accessors_lock;

std::set<std::string, std::less<>>& Accessors() {
  // The Linux MMIO accessors (include/asm-generic/io.h, iomap.h,
  // io-64-nonatomic-*.h) and the usual user-space spellings of them.
  static auto* names = new std::set<std::string, std::less<>>{
      "readb", "readw", "readl", "readq", "writeb", "writew", "writel", "writeq",
      "ioread8", "ioread16", "ioread32", "ioread64", "iowrite8", "iowrite16", "iowrite32", "iowrite64",
      "ioread16be", "ioread32be", "iowrite16be", "iowrite32be",
      "lo_hi_readq", "hi_lo_readq", "lo_hi_writeq", "hi_lo_writeq",
      "memcpy_toio", "memcpy_fromio", "memset_io", "memcpy", "memmove", "memset",
      "mmio_read32", "mmio_write32", "mmio_read64", "mmio_write64"};
  return *names;
}

bool IsAccessor(std::string_view function) {
  if (function.starts_with("__raw_") || function.ends_with("_relaxed")) return true;
  std::lock_guard guard(accessors_lock);
  return Accessors().contains(function);
}

}  // namespace

void TreatAsMmioAccessor(std::string function_name) {
  std::lock_guard guard(accessors_lock);
  Accessors().insert(std::move(function_name));
}

std::optional<TrappedAccessSite> CurrentTrappedAccessSite() {
  const TrappedInstruction* instruction = current_instruction;
  if (instruction == nullptr) return std::nullopt;
  TrappedAccessSite site{instruction->address(), instruction->Text(), {}, {}};
  // The unwinder walks from here through the signal frame into the driver:
  // the frame whose address is the faulting instruction's, then its callers.
  void* stack[64];
  int count = backtrace(stack, 64);
  int first = 0;
  while (first < count && reinterpret_cast<uint64_t>(stack[first]) != site.address) ++first;
  if (first == count) {
    site.frames = trap::LocateFrames(site.address);
  } else {
    for (int j = first; j < count && j <= first + kCallerFrames; ++j) {
      std::vector<trap::CodeLocation> frames = trap::LocateFrames(reinterpret_cast<uint64_t>(stack[j]), j != first);
      site.frames.insert(site.frames.end(), frames.begin(), frames.end());
    }
  }
  site.location = site.frames.front();
  const trap::CodeLocation* with_line = nullptr;
  for (const trap::CodeLocation& frame : site.frames) {
    if (!frame.has_line()) continue;
    if (with_line == nullptr) with_line = &frame;
    if (!IsAccessor(frame.function)) {
      site.location = frame;
      return site;
    }
  }
  if (with_line != nullptr) site.location = *with_line;
  return site;
}

std::string TrappedAccessSite::Describe() const {
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(this->address));
  return location.Describe() + ": `" + text + "` at " + hex;
}

}  // namespace regemu::emulator
