#include "regemu/fakes/protocol_rules.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>
#include <utility>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::fakes {
namespace {

using emulator::RegisterId;
using emulator::TraceEntry;
using emulator::TraceOp;

bool IsFrontdoor(const TraceEntry& entry) { return entry.op == TraceOp::kRead || entry.op == TraceOp::kWrite; }

RegisterId Resolve(const emulator::Model& model, const std::string& name, const std::string& rule) {
  std::optional<RegisterId> id = model.FindRegister(name);
  if (!id) throw std::invalid_argument(rule + ": the device '" + model.device() + "' has no register '" + name + "'");
  return *id;
}

// The register an access decodes to, or kNoRegister.
RegisterId RegisterOf(const emulator::Model& model, const TraceEntry& entry) {
  if (entry.reg != emulator::kNoRegister) return entry.reg;
  if (entry.space >= model.spaces().size()) return emulator::kNoRegister;
  RegisterId id = model.Decode(entry.space, entry.offset);
  return id == emulator::DecodeTable::kNone ? emulator::kNoRegister : id;
}

std::string Where(const emulator::Model& model, const TraceEntry& entry) {
  RegisterId id = RegisterOf(model, entry);
  std::string where = id != emulator::kNoRegister ? model.registers()[id].name + " (" : "(";
  where += model.spaces()[entry.space].name + " " + regdb::Hex(entry.offset) + ")";
  return where;
}

bool InAny(const std::vector<std::pair<uint64_t, uint64_t>>& ranges, uint64_t offset) {
  return std::any_of(ranges.begin(), ranges.end(),
                     [&](const auto& range) { return offset >= range.first && offset <= range.second; });
}

class ForcewakeRule : public ProtocolRule {
 public:
  explicit ForcewakeRule(std::string domain) : domain_name_(std::move(domain)) {}

  std::string name() const override { return "no '" + domain_name_ + "' domain access without force-wake"; }

  void Bind(const emulator::Model& model) override {
    model_ = &model;
    bool found = false;
    for (const auto& program : model.behaviours()) {
      for (emulator::PowerDomainInfo& domain : program->PowerDomains()) {
        // Every domain's request and ack registers are always on (i915
        // touches them raw), even where a declared range covers them.
        control_.push_back(domain.request);
        control_.push_back(domain.ack);
        if (domain.name == domain_name_) {
          domain_ = std::move(domain);
          found = true;
        }
      }
    }
    if (found) return;
    throw std::invalid_argument(name() + ": the device '" + model.device() + "' models no force-wake domain '" +
                                domain_name_ + "'");
  }

  std::optional<std::string> Observe(const TraceEntry& entry) override {
    if (entry.op == TraceOp::kReset) {
      requested_ = held_ = false;
      return std::nullopt;
    }
    if (!IsFrontdoor(entry) || entry.space != domain_.space) return std::nullopt;
    RegisterId id = RegisterOf(*model_, entry);
    const auto& regs = model_->registers();
    if (id == domain_.request && entry.op == TraceOp::kWrite) {
      // Masked: bit 16 enables a change of the kernel bit 0.
      if ((entry.value & (uint64_t{1} << 16)) != 0) {
        requested_ = (entry.value & 1) != 0;
        held_ = false;
        released_at_ = requested_ ? 0 : entry.sequence;
      }
      return std::nullopt;
    }
    if (id == domain_.ack) {
      if (entry.op == TraceOp::kRead && requested_ && (entry.value & 1) != 0) held_ = true;
      return std::nullopt;
    }
    if (held_ || !InAny(domain_.ranges, entry.offset)) return std::nullopt;
    if (std::find(control_.begin(), control_.end(), id) != control_.end()) return std::nullopt;
    if (entry.op == TraceOp::kWrite && InAny(domain_.shadowed, entry.offset)) return std::nullopt;
    std::string what = (entry.op == TraceOp::kRead ? "read of " : "write to ") + Where(*model_, entry);
    if (requested_) {
      return what + " after requesting '" + domain_name_ + "' but before reading bit 0 of " +
             regs[domain_.ack].name + " set: wait for the ack";
    }
    if (released_at_ != 0) {
      return what + " after force-wake '" + domain_name_ + "' was released (seq=" + std::to_string(released_at_) +
             "): take it again with 0x00010001 to " + regs[domain_.request].name;
    }
    return what + " without force-wake '" + domain_name_ + "': write 0x00010001 to " + regs[domain_.request].name +
           " and read bit 0 of " + regs[domain_.ack].name + " set first";
  }

 private:
  std::string domain_name_;
  const emulator::Model* model_ = nullptr;
  emulator::PowerDomainInfo domain_;
  std::vector<RegisterId> control_;  // every domain's request and ack registers
  bool requested_ = false;
  bool held_ = false;
  uint64_t released_at_ = 0;
};

class Gen11ServiceOrderRule : public ProtocolRule {
 public:
  explicit Gen11ServiceOrderRule(Gen11InterruptRegisters names) : names_(std::move(names)) {}

  std::string name() const override { return "Gen11 interrupt service order"; }

  void Bind(const emulator::Model& model) override {
    model_ = &model;
    std::string rule = name();
    master_ = Resolve(model, names_.master, rule);
    for (int bank = 0; bank < 2; ++bank) {
      dw_[bank] = Resolve(model, names_.dw[bank], rule);
      selector_[bank] = Resolve(model, names_.selector[bank], rule);
      identity_[bank] = Resolve(model, names_.identity[bank], rule);
    }
  }

  std::optional<std::string> Observe(const TraceEntry& entry) override {
    if (entry.op == TraceOp::kReset) {
      in_handler_ = false;
      banks_[0] = banks_[1] = Bank{};
      return std::nullopt;
    }
    if (!IsFrontdoor(entry)) return std::nullopt;
    RegisterId id = RegisterOf(*model_, entry);
    if (id == emulator::kNoRegister) return std::nullopt;
    bool write = entry.op == TraceOp::kWrite;
    if (id == master_) return write ? OnMasterWrite(entry.value) : std::nullopt;
    for (int bank = 0; bank < 2; ++bank) {
      Bank& b = banks_[bank];
      if (id == dw_[bank]) return write ? OnDwClear(bank, entry.value) : OnDwRead(bank, entry.value);
      if (id == selector_[bank] && write) return OnSelector(bank, entry.value);
      if (id == identity_[bank]) {
        if (!write) return OnIdentityRead(bank, entry.value);
        if ((entry.value & kValid) == 0) return std::nullopt;
        if (!b.identity_valid) {
          return Name(identity_[bank]) + " cleared before a read of it showed the valid bit 31";
        }
        b.serviced |= b.selected;
        b.selected = 0;
        b.identity_valid = false;
        return std::nullopt;
      }
    }
    return std::nullopt;
  }

 private:
  static constexpr uint64_t kEnable = uint64_t{1} << 31;
  static constexpr uint64_t kValid = uint64_t{1} << 31;

  struct Bank {
    bool dw_read = false;
    uint64_t dw = 0;        // what the last DW read showed
    uint64_t selected = 0;  // the selector's bit, until its identity is cleared
    bool identity_valid = false;
    uint64_t serviced = 0;  // serviced through the identity, not yet cleared in DW
  };

  std::string Name(RegisterId id) const { return model_->registers()[id].name; }

  std::optional<std::string> OnMasterWrite(uint64_t value) {
    if ((value & kEnable) == 0) {
      in_handler_ = true;
      return std::nullopt;
    }
    in_handler_ = false;
    for (int bank = 0; bank < 2; ++bank) {
      Bank& b = banks_[bank];
      Bank left = b;
      b = Bank{};
      if (left.selected != 0) {
        return Name(master_) + " re-enabled while " + Name(selector_[bank]) + " selects " +
               regdb::Hex(left.selected) + " whose identity was not cleared";
      }
      if (left.serviced != 0) {
        return Name(master_) + " re-enabled with " + Name(dw_[bank]) + " bits " + regdb::Hex(left.serviced) +
               " serviced but not cleared";
      }
    }
    return std::nullopt;
  }

  std::optional<std::string> OnDwRead(int bank, uint64_t value) {
    Bank& b = banks_[bank];
    if (!in_handler_) {
      return Name(dw_[bank]) + " read while the master interrupt is enabled: write 0 to " + Name(master_) +
             " first (the read locks DW against new events)";
    }
    b.dw_read = true;
    b.dw = value;
    return std::nullopt;
  }

  std::optional<std::string> OnSelector(int bank, uint64_t value) {
    Bank& b = banks_[bank];
    if (value == 0) return std::nullopt;
    if (!b.dw_read) return Name(selector_[bank]) + " written before " + Name(dw_[bank]) + " was read";
    if (!std::has_single_bit(value)) return Name(selector_[bank]) + " = " + regdb::Hex(value) + " is not one-hot";
    if ((value & b.dw) == 0) {
      return Name(selector_[bank]) + " selects " + regdb::Hex(value) + ", which the read of " + Name(dw_[bank]) +
             " (" + regdb::Hex(b.dw) + ") did not show";
    }
    if (b.selected != 0) {
      return Name(selector_[bank]) + " moved to " + regdb::Hex(value) + " before the identity of " +
             regdb::Hex(b.selected) + " was cleared";
    }
    b.selected = value;
    b.identity_valid = false;
    return std::nullopt;
  }

  std::optional<std::string> OnIdentityRead(int bank, uint64_t value) {
    Bank& b = banks_[bank];
    if (b.selected == 0) {
      return Name(identity_[bank]) + " read without an engine selected in " + Name(selector_[bank]);
    }
    if ((value & kValid) != 0) b.identity_valid = true;
    return std::nullopt;
  }

  std::optional<std::string> OnDwClear(int bank, uint64_t value) {
    Bank& b = banks_[bank];
    uint64_t unserviced = value & ~b.serviced;
    if (unserviced != 0) {
      return Name(dw_[bank]) + " bits " + regdb::Hex(unserviced) + " cleared before being serviced through " +
             Name(selector_[bank]) + " and " + Name(identity_[bank]);
    }
    b.serviced &= ~value;
    b.dw &= ~value;
    return std::nullopt;
  }

  Gen11InterruptRegisters names_;
  const emulator::Model* model_ = nullptr;
  RegisterId master_ = 0;
  RegisterId dw_[2] = {};
  RegisterId selector_[2] = {};
  RegisterId identity_[2] = {};
  bool in_handler_ = false;
  Bank banks_[2];
};

}  // namespace

std::unique_ptr<ProtocolRule> NoAccessWithoutForcewake(std::string domain) {
  return std::make_unique<ForcewakeRule>(std::move(domain));
}

std::unique_ptr<ProtocolRule> Gen11InterruptServiceOrder(Gen11InterruptRegisters registers) {
  return std::make_unique<Gen11ServiceOrderRule>(std::move(registers));
}

std::string RuleBreach::Describe(const emulator::Model& model) const {
  std::string text = "protocol rule '" + rule + "' broken: " + why + "\n  at: " +
                     emulator::RenderTraceEntry(model, access) + "\n";
  if (!before.empty()) {
    text += "  accesses before it:\n";
    for (const TraceEntry& entry : before) text += "    " + emulator::RenderTraceEntry(model, entry) + "\n";
  }
  return text;
}

ProtocolChecker::ProtocolChecker(std::shared_ptr<const emulator::Model> model, size_t context)
    : model_(std::move(model)), context_(context) {
  if (!model_) throw std::invalid_argument("ProtocolChecker: no model");
}

void ProtocolChecker::Add(std::unique_ptr<ProtocolRule> rule) {
  if (!rule) throw std::invalid_argument("ProtocolChecker: null rule");
  rule->Bind(*model_);
  rules_.push_back({std::move(rule), false});
}

void ProtocolChecker::Observe(const TraceEntry& entry) {
  for (Watched& watched : rules_) {
    if (watched.broken) continue;
    std::optional<std::string> why = watched.rule->Observe(entry);
    if (!why) continue;
    watched.broken = true;
    RuleBreach breach{watched.rule->name(), std::move(*why), entry, {}};
    // recent_ is a ring; oldest first starting at recent_next_ once full.
    for (size_t i = 0; i < recent_.size(); ++i) breach.before.push_back(recent_[(recent_next_ + i) % recent_.size()]);
    breaches_.push_back(std::move(breach));
  }
  if (context_ == 0) return;
  if (recent_.size() < context_) {
    recent_.push_back(entry);  // still filling: oldest first from index 0
    return;
  }
  recent_[recent_next_] = entry;
  recent_next_ = (recent_next_ + 1) % context_;
}

void ProtocolChecker::Attach(emulator::DeviceOptions& options) {
  options.on_trace = [this](const TraceEntry& entry) { Observe(entry); };
}

}  // namespace regemu::fakes
