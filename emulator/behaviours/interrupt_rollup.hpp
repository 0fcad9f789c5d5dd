#pragma once
// The one interrupt roll-up (yaml/README.md, "kind: interrupts"): sources,
// each a status field with an optional enable and mask, ORed into outputs
// that drive named device lines, the device's interrupt request or a parent
// behaviour. `kind: interrupts` is this and nothing else; `kind:
// classic-iir` latches its events into IIR and rolls IIR & IER up through it.

#include <cstdint>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/interrupts.hpp"

namespace regemu::emulator {

class InterruptRollup {
 public:
  // `config` must outlive the roll-up (a behaviour program owns it).
  explicit InterruptRollup(const regdb::InterruptsConfig& config)
      : config_(&config), pending_(config.sources.size(), 0), asserted_(config.outputs.size(), 0) {}

  // Registers a change of which may change an output: the behaviour's write hooks.
  static std::vector<RegisterId> Inputs(const regdb::InterruptsConfig& config);

  // Recomputes every source and output from the registers and drives the
  // outputs (SetLine for a named line, numbered in order of the outputs
  // that have one; SetInterrupt otherwise). With `cover_sources`, a source
  // becoming pending is covered as the behaviour's point of its index.
  void Update(BehaviourContext& context, bool cover_sources);

  void Clear();
  bool asserted(size_t output) const { return asserted_[output] != 0; }

 private:
  // Pending: status bits set whose enable bits are set and mask bits clear.
  // An enable or mask as wide as the status acts bit by bit (IIR & IER);
  // one of another width gates the whole status (not 0 / 0).
  static bool Pending(BehaviourContext& context, const regdb::InterruptSource& source);

  const regdb::InterruptsConfig* config_;
  std::vector<uint8_t> pending_;
  std::vector<uint8_t> asserted_;
};

}  // namespace regemu::emulator
