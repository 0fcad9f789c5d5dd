// `kind: gen11-interrupts`: the Gen11 hierarchical GT interrupt logic (ICL PRM
// Vol 13, "Interrupts": Host SW Interface, Interrupt Aggregating Logic, Shared
// IIR/Selector, Enable and Mask Registers; i915 gt/intel_gt_irq.c). The engine
// table (class, instance, GT INT DW bank and bit, enable and mask halves)
// comes from the checked configuration (regdb/behaviour_configs/
// gen11_interrupts.hpp); this file only interprets it.
//
// First level: an event (16 bits of data) is ANDed with the engine's enable
// half (disabled bits are dropped) and ORed into the per-instance collapsing
// register; its bits not masked by the instance's mask half raise the
// engine's bit in its GT INT DW. Masked bits stay pending and raise the bit
// when unmasked.
//
// Second level: GT INT DW is double-buffered. A frontdoor read of a non-zero
// DW locks it; while locked, raised bits go to secondary storage; when a
// write leaves DW completely clear, the lock ends and the secondary bits
// become DW (a second DW-level event).
//
// Service: a one-hot selector write presents the selected engine's unmasked
// pending bits in the identity (Shared IIR) with DATA_VALID (bit 31),
// instance (25:20) and class (18:16); clearing DATA_VALID (write 1) clears
// the identity, the selector and the presented bits of the engine.
//
// Master: each bank's DW level and each child behaviour's output (classic
// IIRs) has a bit; the output is master enable && any level bit.
#include <algorithm>
#include <array>
#include <bit>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/gen11_interrupts.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

constexpr uint64_t kValid = uint64_t{1} << 31;
constexpr uint16_t kNoEngine = 0xFFFF;

using regdb::Gen11InterruptsConfig;
using Half = Gen11InterruptsConfig::Half;
using Bank = Gen11InterruptsConfig::Bank;
using Child = Gen11InterruptsConfig::Child;
using Engine = Gen11InterruptsConfig::Engine;

// Coverage: the paths an interrupt handler's tests should take are each
// engine's service (selector, identity, DATA_VALID cleared), the second
// DW-level event of each bank (an event latched while DW was locked, which
// the handler must pick up after clearing DW), each child raising its
// master bit, events held by a mask and released by an unmask, the output
// asserted, and a level held while the master enable is off (the handler's
// window). Indices, in CoveragePoints() order:
struct Gen11Points {
  uint32_t engines = 0, banks = 0, children = 0;
  uint32_t Serviced(size_t engine) const { return static_cast<uint32_t>(engine); }
  uint32_t SecondEvent(size_t bank) const { return engines + static_cast<uint32_t>(bank); }
  uint32_t ChildRaised(size_t child) const { return engines + banks + static_cast<uint32_t>(child); }
  uint32_t HeldByMask() const { return engines + banks + children; }
  uint32_t ReleasedByUnmask() const { return HeldByMask() + 1; }
  uint32_t Asserted() const { return HeldByMask() + 2; }
  uint32_t HeldByMasterDisable() const { return HeldByMask() + 3; }
};

// The config and the lookups Compile derives from it.
struct CompiledGen11 {
  Gen11InterruptsConfig config;
  Gen11Points points;
  std::vector<std::string> bank_names;  // each bank's DW register, naming its coverage point
  uint64_t enable_mask = 0;
  uint64_t level_mask = 0;  // every bank's and child's master bit
  std::vector<std::array<uint16_t, 32>> engine_at;  // per bank: the engine index per DW bit, or kNoEngine
};

uint16_t HalfOf(BehaviourContext& context, const Half& half) {
  return static_cast<uint16_t>(context.Peek(half.reg) >> half.shift);
}

uint16_t HalfOf(BehaviourContext& context, const std::optional<Half>& half) {
  return half ? HalfOf(context, *half) : uint16_t{0};
}

class Gen11InterruptsBehaviour : public CopyableBehaviour<Gen11InterruptsBehaviour>, public ChildInterrupts {
 public:
  Gen11InterruptsBehaviour(const CompiledGen11& compiled, const std::string& name)
      : compiled_(&compiled),
        config_(&compiled.config),
        name_(&name),
        pending_(compiled.config.engines.size(), 0),
        banks_(compiled.config.banks.size()) {}

  void OnReset(BehaviourContext& context) override {
    std::fill(pending_.begin(), pending_.end(), 0);
    std::fill(banks_.begin(), banks_.end(), BankState{});
    child_levels_ = 0;
    output_ = false;
    UpdateMaster(context);
  }

  uint64_t AfterRead(BehaviourContext&, RegisterId reg, uint64_t value) override {
    // "A snapshot of events is taken when SW reads GT INT DW." An empty DW
    // has nothing to snapshot and is not locked (SW never clears it).
    for (size_t b = 0; b < config_->banks.size(); ++b) {
      if (config_->banks[b].dw == reg && value != 0) banks_[b].locked = true;
    }
    return value;
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    if (reg == config_->master) {
      UpdateMaster(context);
      return;
    }
    for (uint32_t b = 0; b < config_->banks.size(); ++b) {
      const Bank& bank = config_->banks[b];
      if (reg == bank.dw) return WriteDw(context, b, before, after);
      if (reg == bank.selector) return WriteSelector(context, b, after);
      if (reg == bank.identity) return WriteIdentity(context, b, before, after);
    }
    // A mask register: pending events whose bits were unmasked go forward.
    for (size_t e = 0; e < config_->engines.size(); ++e) {
      const std::optional<Half>& mask = config_->engines[e].mask;
      if (!mask || mask->reg != reg) continue;
      uint64_t unmasked = (before >> mask->shift) & ~(after >> mask->shift) & 0xFFFF;
      if ((pending_[e] & unmasked) != 0) {
        context.Cover(compiled_->points.ReleasedByUnmask());
        Raise(context, e);
      }
    }
    UpdateMaster(context);
  }

  void OnChildInterrupt(BehaviourContext& context, std::string_view child, bool asserted) override {
    for (size_t i = 0; i < config_->children.size(); ++i) {
      const Child& c = config_->children[i];
      if (c.name != child) continue;
      if (asserted) context.Cover(compiled_->points.ChildRaised(i));
      uint64_t bit = uint64_t{1} << c.master_bit;
      child_levels_ = asserted ? child_levels_ | bit : child_levels_ & ~bit;
      UpdateMaster(context);
    }
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != *name_) return InjectResult::kNotMine;
    auto bad = [&](std::string why) {
      error = why + "; usage: inject " + *name_ + " ENGINE DATA | inject " + *name_ +
              " message WORD | inject " + *name_ + " message CLASS INSTANCE VF DATA";
      return InjectResult::kBadArguments;
    };
    auto number = [&](const std::string& text, uint64_t max, uint64_t& out) {
      auto parsed = regdb::ParseUnsigned(text);
      if (!std::holds_alternative<uint64_t>(parsed) || std::get<uint64_t>(parsed) > max) return false;
      out = std::get<uint64_t>(parsed);
      return true;
    };
    uint64_t cls = 0, instance = 0, vf = 0, data = 0;
    if (!args.empty() && args[0] == "message") {
      if (args.size() == 2) {
        uint64_t word = 0;
        if (!number(args[1], 0xFFFFFFFF, word)) return bad("bad message word '" + args[1] + "'");
        if ((word & 0xC4080000) != 0) return bad("message " + regdb::Hex(word) + " sets reserved bits 31:30, 26 or 19");
        vf = (word >> 27) & 7;
        instance = (word >> 20) & 0x3F;
        cls = (word >> 16) & 7;
        data = word & 0xFFFF;
      } else if (args.size() == 5) {
        if (!number(args[1], 7, cls)) return bad("bad class '" + args[1] + "' (0..7)");
        if (!number(args[2], 63, instance)) return bad("bad instance '" + args[2] + "' (0..63)");
        if (!number(args[3], 7, vf)) return bad("bad VF '" + args[3] + "' (0..7)");
        if (!number(args[4], 0xFFFF, data)) return bad("bad data '" + args[4] + "' (16 bits)");
      } else {
        return bad("'message' takes one word or four fields");
      }
      if (vf != 0) return bad("VF " + std::to_string(vf) + ": only the physical function's registers (VF 0) are modelled");
      for (size_t e = 0; e < config_->engines.size(); ++e) {
        if (config_->engines[e].cls == cls && config_->engines[e].instance == instance) {
          Event(context, e, static_cast<uint16_t>(data));
          return InjectResult::kDone;
        }
      }
      return bad("no engine of class " + std::to_string(cls) + " instance " + std::to_string(instance));
    }
    if (args.size() != 2) return bad("expected an engine and 16 bits of data");
    if (!number(args[1], 0xFFFF, data)) return bad("bad data '" + args[1] + "' (16 bits)");
    for (size_t e = 0; e < config_->engines.size(); ++e) {
      if (config_->engines[e].name == args[0]) {
        Event(context, e, static_cast<uint16_t>(data));
        return InjectResult::kDone;
      }
    }
    return bad("unknown engine '" + args[0] + "'");
  }

 private:
  struct BankState {
    bool locked = false;
    uint32_t secondary = 0;   // DW_CR: bits raised while DW is locked
    uint32_t serviced = 0;    // bits whose engine went through selector + identity since the last clear
    uint16_t selected = kNoEngine;
    uint16_t presented = 0;   // the data shown in the identity
  };

  void Event(BehaviourContext& context, size_t e, uint16_t data) {
    const Engine& engine = config_->engines[e];
    data &= HalfOf(context, engine.enable);  // disabled events are dropped
    if (data == 0) return;
    pending_[e] |= data;
    if ((data & ~HalfOf(context, engine.mask)) != 0) {
      Raise(context, e);
      UpdateMaster(context);
    } else {
      context.Cover(compiled_->points.HeldByMask());
    }
  }

  // The engine's second-level event: its DW bit, or secondary storage while DW is locked.
  void Raise(BehaviourContext& context, size_t e) {
    const Engine& engine = config_->engines[e];
    uint32_t bit = uint32_t{1} << engine.bit;
    BankState& state = banks_[engine.bank];
    if (state.locked) {
      state.secondary |= bit;
      context.Cover(compiled_->points.SecondEvent(engine.bank));
    } else {
      RegisterId dw = config_->banks[engine.bank].dw;
      context.Poke(dw, context.Peek(dw) | bit);
    }
  }

  std::string EngineAt(uint32_t b, unsigned bit) const {
    uint16_t e = compiled_->engine_at[b][bit];
    return e == kNoEngine ? "bit " + std::to_string(bit)
                          : "bit " + std::to_string(bit) + " (" + config_->engines[e].name + ")";
  }

  void WriteDw(BehaviourContext& context, uint32_t b, uint64_t before, uint64_t after) {
    const Bank& bank = config_->banks[b];
    BankState& state = banks_[b];
    auto cleared = static_cast<uint32_t>(before & ~after);
    if (uint32_t unserviced = cleared & ~state.serviced; unserviced != 0) {
      const auto& regs = context.model().registers();
      std::string which;
      for (uint32_t rest = unserviced; rest != 0; rest &= rest - 1) {
        which += (which.empty() ? "" : ", ") + EngineAt(b, static_cast<unsigned>(std::countr_zero(rest)));
      }
      context.ReportViolation(ViolationKind::kProtocol, bank.dw,
                              regs[bank.dw].name + " " + which + " cleared without first servicing the engine via " +
                                  regs[bank.selector].name + " and " + regs[bank.identity].name +
                                  " (ICL PRM Vol 13: DW_IIR bits must not be cleared without first servicing that "
                                  "engine's interrupts via the Selector and Shared IIR registers)");
    }
    state.serviced &= ~cleared;
    if (after == 0 && state.locked) {
      state.locked = false;
      if (state.secondary != 0) {
        context.Poke(bank.dw, state.secondary);  // the second DW-level event
        state.secondary = 0;
      }
    }
    UpdateMaster(context);
  }

  void WriteSelector(BehaviourContext& context, uint32_t b, uint64_t value) {
    const Bank& bank = config_->banks[b];
    BankState& state = banks_[b];
    const auto& regs = context.model().registers();
    if (value == 0 || (value & (value - 1)) != 0) {
      context.ReportViolation(ViolationKind::kProtocol, bank.selector,
                              regs[bank.selector].name + " written with " + regdb::HexPadded(value, regs[bank.selector].width) +
                                  ", which is not one-hot (ICL PRM Vol 13: the Selector data must be one-hot)");
      return;
    }
    uint64_t dw = context.Peek(bank.dw);
    if ((value & dw) == 0) {
      context.ReportViolation(ViolationKind::kProtocol, bank.selector,
                              regs[bank.selector].name + " selects " +
                                  EngineAt(b, static_cast<unsigned>(std::countr_zero(value))) + ", not set in " +
                                  regs[bank.dw].name + " (" + regdb::HexPadded(dw, regs[bank.dw].width) +
                                  ") (ICL PRM Vol 13: the Selector must not have a bit set that is not set in DW_IIR)");
      return;
    }
    if ((context.Peek(bank.identity) & kValid) != 0 && state.selected != kNoEngine) {
      context.ReportViolation(ViolationKind::kProtocol, bank.selector,
                              regs[bank.selector].name + " written while " + regs[bank.identity].name +
                                  " still holds valid data of " + config_->engines[state.selected].name +
                                  " (ICL PRM Vol 13: SW must clear the Shared IIR by writing 1 to Data-Valid to end "
                                  "service of the selected engine before selecting the next)");
    }
    uint16_t e = compiled_->engine_at[b][static_cast<unsigned>(std::countr_zero(value))];
    if (e == kNoEngine) return;  // a DW bit no engine owns (poked through the backdoor)
    const Engine& engine = config_->engines[e];
    auto data = static_cast<uint16_t>(pending_[e] & ~HalfOf(context, engine.mask));
    state.selected = e;
    state.presented = data;
    context.Poke(bank.identity, kValid | uint64_t{engine.instance} << 20 | uint64_t{engine.cls} << 16 | data);
  }

  void WriteIdentity(BehaviourContext& context, uint32_t b, uint64_t before, uint64_t after) {
    const Bank& bank = config_->banks[b];
    BankState& state = banks_[b];
    if ((before & kValid) == 0 || (after & kValid) != 0) {
      context.Poke(bank.identity, before);  // only DATA_VALID is the driver's to write
      return;
    }
    if (state.selected != kNoEngine) {
      context.Cover(compiled_->points.Serviced(state.selected));
      pending_[state.selected] &= static_cast<uint16_t>(~state.presented);
      state.serviced |= uint32_t{1} << config_->engines[state.selected].bit;
    }
    state.selected = kNoEngine;
    state.presented = 0;
    context.Poke(bank.identity, 0);
    context.Poke(bank.selector, 0);
  }

  void UpdateMaster(BehaviourContext& context) {
    uint64_t level = child_levels_;
    for (const Bank& bank : config_->banks) {
      if (context.Peek(bank.dw) != 0) level |= uint64_t{1} << bank.master_bit;
    }
    uint64_t master = (context.Peek(config_->master) & ~compiled_->level_mask) | level;
    context.Poke(config_->master, master);
    bool enabled = (master & compiled_->enable_mask) != 0;
    bool output = enabled && level != 0;
    if (output && !output_) context.Cover(compiled_->points.Asserted());
    if (!enabled && level != 0) context.Cover(compiled_->points.HeldByMasterDisable());
    output_ = output;
    context.SetInterrupt(output);
  }

  // Owned by the program, which outlives every device of its model.
  const CompiledGen11* compiled_;
  const Gen11InterruptsConfig* config_;  // compiled_->config
  const std::string* name_;
  std::vector<uint16_t> pending_;  // per engine: its collapsing register (INST_CR)
  std::vector<BankState> banks_;
  uint64_t child_levels_ = 0;
  bool output_ = false;  // as last driven, for coverage of its rising edge
};

class Gen11InterruptsProgram : public BehaviourProgram {
 public:
  Gen11InterruptsProgram(std::string name, CompiledGen11 compiled)
      : BehaviourProgram("gen11-interrupts", std::move(name)), compiled_(std::move(compiled)) {}

  std::vector<RegisterId> ReadHooks() const override {
    std::vector<RegisterId> hooks;
    for (const Bank& bank : compiled_.config.banks) hooks.push_back(bank.dw);
    return hooks;
  }

  std::vector<RegisterId> WriteHooks() const override {
    const Gen11InterruptsConfig& config = compiled_.config;
    std::vector<RegisterId> hooks{config.master};
    for (const Bank& bank : config.banks) {
      hooks.insert(hooks.end(), {bank.dw, bank.selector, bank.identity});
    }
    for (const Engine& engine : config.engines) {
      if (engine.mask && std::find(hooks.begin(), hooks.end(), engine.mask->reg) == hooks.end()) {
        hooks.push_back(engine.mask->reg);
      }
    }
    return hooks;
  }

  std::vector<CoveragePoint> CoveragePoints() const override {
    const Gen11InterruptsConfig& config = compiled_.config;
    std::vector<CoveragePoint> points;
    for (const Engine& engine : config.engines) points.push_back({"engines serviced", engine.name});
    for (const std::string& dw : compiled_.bank_names) points.push_back({"second events", dw});
    for (const Child& child : config.children) points.push_back({"children raised", child.name});
    points.push_back({"masking", "event held by mask"});
    points.push_back({"masking", "released by unmask"});
    points.push_back({"master", "interrupt asserted"});
    points.push_back({"master", "level held while disabled"});
    return points;
  }

  std::vector<InjectForm> InjectForms() const override {
    std::vector<std::string> engines;
    for (const Engine& engine : compiled_.config.engines) engines.push_back(engine.name);
    InjectArgument message = InjectArgument::Word("message");
    return {{name(),
             {InjectArgument::Choice("ENGINE", engines),
              InjectArgument::Number("DATA", 0, 0xFFFF)},
             0, 0, "an engine's interrupt event with its 16 bits of data, as the GT delivers it"},
            {name(), {message, InjectArgument::Number("WORD", 0, 0xFFFFFFFF)}, 0, 0,
             "an interrupt message as the ICL PRM lays it out: VF, instance, class and data in one word"},
            {name(),
             {message,
              InjectArgument::Number("CLASS", 0, 7),
              InjectArgument::Number("INSTANCE", 0, 63),
              InjectArgument::Number("VF", 0, 0),
              InjectArgument::Number("DATA", 0, 0xFFFF)},
             0, 0, "an interrupt message by its fields (VF 0: the physical function)"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override {
    return std::make_unique<Gen11InterruptsBehaviour>(compiled_, name());
  }

 private:
  CompiledGen11 compiled_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileGen11Interrupts(const regdb::BehaviourSpec& spec, const Model& model,
                                                         std::string& error) {
  const Gen11InterruptsConfig* config = ConfigOf<Gen11InterruptsConfig>(spec, error);
  if (!config) return nullptr;
  if (config->engines.size() >= kNoEngine) {
    error = "gen11-interrupts: more than " + std::to_string(kNoEngine - 1) + " engines";
    return nullptr;
  }
  CompiledGen11 compiled{*config, {}, {}, uint64_t{1} << config->master_enable_bit, 0, {}};
  compiled.points = {static_cast<uint32_t>(config->engines.size()), static_cast<uint32_t>(config->banks.size()),
                     static_cast<uint32_t>(config->children.size())};
  for (const Bank& bank : config->banks) compiled.bank_names.push_back(model.registers()[bank.dw].name);
  for (const Bank& bank : config->banks) compiled.level_mask |= uint64_t{1} << bank.master_bit;
  for (const Child& child : config->children) compiled.level_mask |= uint64_t{1} << child.master_bit;
  std::array<uint16_t, 32> none;
  none.fill(kNoEngine);
  compiled.engine_at.assign(config->banks.size(), none);
  // The check gives each engine its own bank bit.
  for (size_t e = 0; e < config->engines.size(); ++e) {
    const Engine& engine = config->engines[e];
    compiled.engine_at[engine.bank][engine.bit] = static_cast<uint16_t>(e);
  }
  return std::make_unique<Gen11InterruptsProgram>(spec.name, std::move(compiled));
}

}  // namespace regemu::emulator
