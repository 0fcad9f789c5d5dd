#pragma once
// fakes::NoAccessWithoutForcewake(domain), minus one false positive: the
// rule counts a write to ANOTHER domain's request register as an access to
// `domain` when that register lies in `domain`'s ranges (on Ice Lake every
// request register, 0xA188..0xA56C, lies in a GT range), although the
// device never gates request and ack registers. This wrapper hides those
// registers from the wrapped rule. Remove it once fakes/protocol_rules.cpp
// (ForcewakeRule::Observe) exempts them itself.

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/behaviour.hpp"
#include "fakes/protocol_rules.hpp"

namespace regemu::i915_mini {

class OwnForcewakeRule : public fakes::ProtocolRule {
 public:
  explicit OwnForcewakeRule(std::string domain)
      : domain_(domain), rule_(fakes::NoAccessWithoutForcewake(std::move(domain))) {}

  std::string name() const override { return rule_->name(); }
  void Bind(const emulator::Model& model) override {
    rule_->Bind(model);
    for (const auto& program : model.behaviours()) {
      for (const emulator::PowerDomainInfo& info : program->PowerDomains()) {
        if (info.name == domain_) continue;
        others_.push_back(info.request);
        others_.push_back(info.ack);
      }
    }
  }
  std::optional<std::string> Observe(const emulator::TraceEntry& entry) override {
    if (std::find(others_.begin(), others_.end(), entry.reg) != others_.end()) return std::nullopt;
    return rule_->Observe(entry);
  }

 private:
  std::string domain_;
  std::unique_ptr<fakes::ProtocolRule> rule_;
  std::vector<emulator::RegisterId> others_;  // other domains' request and ack registers
};

inline std::unique_ptr<fakes::ProtocolRule> NoAccessWithoutForcewake(std::string domain) {
  return std::make_unique<OwnForcewakeRule>(std::move(domain));
}

}  // namespace regemu::i915_mini
