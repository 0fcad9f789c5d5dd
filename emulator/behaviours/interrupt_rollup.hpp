#pragma once
// The one interrupt roll-up (yaml/README.md, "kind: interrupts"): sources,
// each a status field with an optional enable, mask and condition, ORed
// into outputs that drive named device lines (one fixed line, or one of
// several chosen by a route expression), the device's interrupt request or
// a parent (a behaviour, or a one-bit status field the device stores the
// level in). `kind: interrupts` is this and nothing else.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/interrupts.hpp"

namespace regemu::emulator {

class InterruptRollup {
 public:
  // `config` must outlive the roll-up (a behaviour program owns it).
  explicit InterruptRollup(const regdb::InterruptsConfig& config);

  // Registers a change of which may change an output: the behaviour's write
  // hooks (status, enable and mask registers, and what `when:` and
  // `route:` read).
  static std::vector<RegisterId> Inputs(const regdb::InterruptsConfig& config);
  // The named lines the outputs drive, each once, in order of first
  // mention: the behaviour's OutputLines. Outputs naming one line share it
  // (it is asserted while any of them drives it).
  static std::vector<std::string> LineNames(const regdb::InterruptsConfig& config);

  // Recomputes every source and output from the registers and drives the
  // outputs (SetLine for named lines, numbered as LineNames lists them;
  // SetInterrupt otherwise). With `cover_sources`, a source becoming
  // pending is covered as the behaviour's point of its index. A status bit
  // that becomes pending while the request output was already asserted is
  // a new event (BehaviourContext::InterruptEvent): a level line shows
  // nothing of it, a message-signalled router sends another message.
  void Update(BehaviourContext& context, bool cover_sources);

  void Clear();
  bool asserted(size_t output) const { return asserted_[output] != 0; }

 private:
  // Pending: status bits set whose enable bits are set and mask bits clear,
  // while the condition holds. An enable or mask as wide as the status acts
  // bit by bit (IIR & IER); one of another width gates the whole status
  // (not 0 / 0).
  // The pending bits themselves (0: not pending).
  static uint64_t PendingBits(BehaviourContext& context, const regdb::InterruptSource& source);

  const regdb::InterruptsConfig* config_;
  std::vector<uint8_t> pending_;
  std::vector<uint64_t> pending_bits_;  // per source, as last updated: a bit that rises is a new event
  std::vector<uint8_t> asserted_;
  // Per output: its lines as LineNames indices (one for `line:`, the list
  // for `lines:`, none for the request).
  std::vector<std::vector<uint32_t>> output_lines_;
  std::vector<uint8_t> line_levels_;  // scratch: the OR of the outputs on each line
  // What each line was last driven to (kUnknown after Clear: drive it):
  // SetLine only on a change, as a routed output's many lines rarely move.
  static constexpr uint8_t kUnknown = 2;
  std::vector<uint8_t> line_driven_;
  std::vector<uint8_t> rose_;  // scratch of Update
};

}  // namespace regemu::emulator
