#pragma once
// `kind: pm4`: an AMD command processor executing PM4 packets from memory
// (yaml/README.md "pm4").

#include <cstdint>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct Pm4Config : BehaviourConfig {
  static constexpr RegisterIndex kNone = ~RegisterIndex{0};

  SpaceIndex registers = 0;         // the space register packets reach: byte offset = 4 x dword address
  uint64_t uconfig_base = 0xC000;   // SET_UCONFIG_REG offsets count from this dword address
  uint64_t sh_base = 0x2C00;        // SET_SH_REG offsets count from this one
  uint32_t xcc = 0;                 // which XCC this processor is, for PRED_EXEC's mask
  // EVENT_WRITE PERFCOUNTER_SAMPLE sets this field (a read-modify-write):
  // the perfmon's sample bit, so the event latches the counters.
  RegisterIndex sample_register = kNone;
  FieldBits sample;
};

}  // namespace regemu::regdb
