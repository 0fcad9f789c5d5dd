#include "regemu/emulator/trap/fatal_report.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/trap/code_location.hpp"

namespace regemu::emulator::trap {
namespace {

std::string Hex(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
  return buffer;
}

// "space 'bar0' of device 'nvme' at offset 0x14"
std::string Where(const Region& region, uint64_t fault_address) {
  const Model& model = region.device->model();
  return "space '" + model.spaces()[region.space].name + "' of device '" + model.device() + "' at offset " +
         Hex(fault_address - region.begin);
}

[[noreturn]] void Die(const std::string& message) {
  std::string line = message + "\n";
  // write(2): no stdio buffer to lose when abort() follows.
  for (size_t done = 0; done < line.size();) {
    ssize_t n = write(STDERR_FILENO, line.data() + done, line.size() - done);
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  std::abort();
}

}  // namespace

void ReportNotEmulated(const DecodedInstruction* instruction, uint64_t rip, uint64_t fault_address,
                       const Region& region, const char* why) {
  std::string what = "the code at " + Hex(rip);
  if (instruction != nullptr) {
    char buffer[256];
    instruction->Format(buffer, sizeof buffer);
    what = "`" + std::string(buffer) + "` at " + Hex(rip);
  }
  Die("regemu: trapped access not emulated: " + what + " (" + LocateCode(rip).Describe() + ") touches " +
      Where(region, fault_address) + ": " + why +
      ". regemu emulates MOV/MOVZX/MOVSX/MOVSXD/MOVBE, ALU read-modify-write, TEST/CMP/BT, XCHG/XADD/CMPXCHG, "
      "SSE/AVX/AVX-512 moves and REP MOVS/STOS (docs/trapped-mappings.md); the test stops here rather than go on "
      "with a wrong value.");
}

void ReportReentered(uint64_t rip, uint64_t fault_address, const Region& region) {
  Die("regemu: a trapped access from inside regemu's own handling of one: the instruction at " + Hex(rip) + " (" +
      LocateCode(rip).Describe() + ") touches " + Where(region, fault_address) +
      " while this thread is already emulating a trapped access (a behaviour, an on_violation or on_trace "
      "observer, or a test hook touched a mapped region). Use Device::Read/Write or Peek/Poke there instead.");
}

}  // namespace regemu::emulator::trap
