#pragma once
// `kind: classic-iir`: an Intel ISR/IMR/IIR/IER quadruplet and, optionally,
// the behaviour its interrupt output feeds.

#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct ClassicIirConfig : BehaviourConfig {
  // Four distinct registers of one width.
  RegisterIndex isr = 0;
  RegisterIndex imr = 0;
  RegisterIndex iir = 0;
  RegisterIndex ier = 0;
  unsigned width = 32;
  std::string parent;  // another behaviour of the device; empty: the device's interrupt request
  // Behaviours whose interrupt output is the live source of one ISR bit
  // (an OA unit's buffer half-full pulse on Haswell's GTISR bit 9).
  struct Child {
    std::string name;
    unsigned bit = 0;
  };
  std::vector<Child> children;

  std::string InterruptParent() const override { return parent; }
};

}  // namespace regemu::regdb
