#pragma once
// `kind: interrupts`: the one interrupt roll-up (Renode's InterruptManager,
// SystemRDL's `intr` with `enable`/`mask`): sources, each a status field
// with an optional enable and mask, ORed into outputs: named lines of the
// device, the device's interrupt request (INTx or MSI through pci-config),
// or another behaviour (interrupt_parent).

#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/expression.hpp"

namespace regemu::regdb {

struct InterruptSource {
  std::string name;
  RegisterBits status;                // pending while not 0
  std::optional<RegisterBits> enable; // counts only while not 0
  std::optional<RegisterBits> mask;   // counts only while 0
  std::optional<Expression> when;     // counts only while not 0 (an expression over registers and fields)
};

struct InterruptOutput {
  std::string name;
  std::vector<uint32_t> sources;  // indices into InterruptsConfig::sources
  // A named device line (`expect-irq LINE 1`); empty (and no `lines`): the
  // device's interrupt request, or the behaviour's interrupt_parent.
  std::string line;
  // Or one of several named lines, chosen by `route` (an expression over
  // registers and fields: its value indexes `lines`; a value past the end
  // drives none): a timer's route field picking an I/O APIC input.
  std::vector<std::string> lines;
  std::optional<Expression> route;
};

struct InterruptsConfig : BehaviourConfig {
  std::vector<InterruptSource> sources;
  std::vector<InterruptOutput> outputs;
  std::string interrupt_parent;

  std::vector<std::string> OutputLines() const override;  // each output's `line:` and `lines:`, once each
  std::string InterruptParent() const override { return interrupt_parent; }
};

}  // namespace regemu::regdb
