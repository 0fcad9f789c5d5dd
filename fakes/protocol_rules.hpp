#pragma once
// Protocol rules a driver test can switch on: orderings the hardware does
// not enforce by itself but the driver's documentation requires. The device
// already refuses what the hardware would refuse (an access to a sleeping
// force-wake domain, a DW bit cleared before service); a rule watches what
// the driver *did*, access by access, and reports the first access that
// breaks it, with the accesses before it:
//
//   - NoAccessWithoutForcewake("render"): every access to a range the
//     domain powers comes after the driver requested the domain and read its
//     ack set, and before it released it. A driver that never waits for the
//     ack passes on a device whose acks are instant; this rule does not let
//     it.
//   - Gen11InterruptServiceOrder(): the Gen11 handler's order (ICL PRM Vol 13,
//     "Interrupt Service Routine"; i915 gen11_irq_handler): master disable,
//     GT INT DW read, one-hot selector of a bit that DW read showed,
//     identity read valid, identity cleared, DW bit cleared, master enable
//     with nothing left half-serviced.
//
// In a DeviceTest: EnableRule(NoAccessWithoutForcewake("render")); breaches
// fail the test in TearDown. Elsewhere: a ProtocolChecker, attached to a
// device through DeviceOptions::on_trace (Attach).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/trace.hpp"

namespace regemu::fakes {

class ProtocolRule {
 public:
  virtual ~ProtocolRule() = default;
  virtual std::string name() const = 0;
  // Resolves the registers and domains the rule names against the device's
  // model. Throws std::invalid_argument when the model lacks one.
  virtual void Bind(const emulator::Model& model) = 0;
  // Sees every trace event in order; returns why `entry` breaks the rule.
  virtual std::optional<std::string> Observe(const emulator::TraceEntry& entry) = 0;
};

// Accesses to the ranges force-wake domain `domain` powers need the domain
// held: requested (kernel bit 0 of its masked request register) and its ack
// read with bit 0 set since, and not released. Writes to shadowed registers
// are free, as on the hardware. A reset drops every hold.
std::unique_ptr<ProtocolRule> NoAccessWithoutForcewake(std::string domain);

// The Gen11 GT interrupt registers, by their i915 names in yaml/icl.
struct Gen11InterruptRegisters {
  std::string master = "GEN11_GFX_MSTR_IRQ";
  std::string dw[2] = {"GEN11_GT_INTR_DW0", "GEN11_GT_INTR_DW1"};
  std::string selector[2] = {"GEN11_IIR_REG0_SELECTOR", "GEN11_IIR_REG1_SELECTOR"};
  std::string identity[2] = {"GEN11_INTR_IDENTITY_REG0", "GEN11_INTR_IDENTITY_REG1"};
};
std::unique_ptr<ProtocolRule> Gen11InterruptServiceOrder(Gen11InterruptRegisters registers = {});

// The first access that broke a rule.
struct RuleBreach {
  std::string rule;
  std::string why;
  emulator::TraceEntry access;
  std::vector<emulator::TraceEntry> before;  // the accesses just before it, oldest first

  // "rule: why", the offending access and the accesses before it, as script lines.
  std::string Describe(const emulator::Model& model) const;
};

// Runs rules over a device's accesses as they happen and keeps each rule's
// first breach. Not thread-safe by itself: the device calls it under its lock.
class ProtocolChecker {
 public:
  explicit ProtocolChecker(std::shared_ptr<const emulator::Model> model, size_t context = 8);

  // Binds the rule to the model (throws std::invalid_argument, see Bind).
  void Add(std::unique_ptr<ProtocolRule> rule);
  void Observe(const emulator::TraceEntry& entry);
  // Installs this checker as `options.on_trace`; the checker must outlive
  // the device made with those options.
  void Attach(emulator::DeviceOptions& options);

  const std::vector<RuleBreach>& breaches() const { return breaches_; }
  const emulator::Model& model() const { return *model_; }

 private:
  struct Watched {
    std::unique_ptr<ProtocolRule> rule;
    bool broken = false;
  };
  std::shared_ptr<const emulator::Model> model_;
  size_t context_;
  std::vector<Watched> rules_;
  std::vector<emulator::TraceEntry> recent_;  // ring of the last `context_` entries
  size_t recent_next_ = 0;
  std::vector<RuleBreach> breaches_;
};

}  // namespace regemu::fakes
