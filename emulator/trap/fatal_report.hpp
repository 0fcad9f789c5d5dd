#pragma once
// The end of a test that cannot go on: a trapped instruction regemu does
// not emulate (resuming would hand the driver a wrong value, skipping it
// would hide an access), or a trapped access made from inside regemu's own
// handling (a behaviour or an observer touching a mapped region: the device
// lock is held, it would deadlock). The message goes to stderr, then the
// process aborts, so a gtest death test or a CI log shows it.

#include <cstdint>

#include "regemu/emulator/trap/decoded_instruction.hpp"
#include "regemu/emulator/trap/region_table.hpp"

namespace regemu::emulator::trap {

// `instruction` is nullptr when its bytes did not decode (then `rip` names it).
[[noreturn]] void ReportNotEmulated(const DecodedInstruction* instruction, uint64_t rip, uint64_t fault_address,
                                    const Region& region, const char* why);

[[noreturn]] void ReportReentered(uint64_t rip, uint64_t fault_address, const Region& region);

}  // namespace regemu::emulator::trap
