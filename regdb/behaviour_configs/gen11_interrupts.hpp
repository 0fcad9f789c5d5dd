#pragma once
// `kind: gen11-interrupts`: the Gen11 hierarchical GT interrupt logic: master
// control, GT INT DW banks with their selector and identity (Shared IIR),
// child behaviours feeding master bits, and the engine table.

#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct Gen11InterruptsConfig : BehaviourConfig {
  // A 16-bit field of an enable or mask register.
  struct Half {
    RegisterIndex reg = 0;
    unsigned shift = 0;
  };
  struct Bank {
    RegisterIndex dw = 0;  // GT INT DW
    RegisterIndex selector = 0;
    RegisterIndex identity = 0;  // the Shared IIR
    unsigned master_bit = 0;
  };
  // A behaviour naming this one as its interrupt parent.
  struct Child {
    std::string name;
    unsigned master_bit = 0;
  };
  struct Engine {
    std::string name;
    unsigned cls = 0;  // 0-5
    unsigned instance = 0;
    unsigned bank = 0;  // index into `banks`
    unsigned bit = 0;   // of the bank's DW; no two engines share one
    Half enable;
    std::optional<Half> mask;  // absent: never masked
  };

  RegisterIndex master = 0;
  unsigned master_enable_bit = 0;
  // Every bank's and child's master bit, and the enable bit, differ.
  std::vector<Bank> banks;
  std::vector<Child> children;
  std::vector<Engine> engines;
};

}  // namespace regemu::regdb
