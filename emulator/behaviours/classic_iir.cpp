// `kind: classic-iir`: an Intel ISR/IMR/IIR/IER quadruplet (GU_MISC, PCU,
// display units; i915 gt/intel_gt_irq.c). i915 semantics:
//   - ISR is the live status of the sources (`inject NAME BIT on|off`);
//   - an event on bit b is latched into IIR b only while IMR b is 0 (a
//     masked event is not latched; a source still live when IMR b is
//     cleared is latched then);
//   - IIR is write-1-to-clear (the core applies the policy);
//   - the output is (IIR & IER) != 0, to the interrupt parent or the device:
//     one source (status IIR, enable IER, bit by bit) of the interrupt
//     roll-up every kind shares (InterruptRollup, `kind: interrupts`).
// Protocol rule (i915_irq.c gen3_assert_iir_is_zero, from gen3_irq_init): IIR must
// be zero when IER goes from 0 to enabling bits (GEN3_IRQ_INIT).
#include <memory>
#include <string>
#include <utility>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/emulator/behaviours/interrupt_rollup.hpp"
#include "regemu/regdb/behaviour_configs/classic_iir.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::ClassicIirConfig;

// Coverage: the paths a handler's tests should take through an IIR: an
// event latched, an event arriving masked (not latched), a live source
// latched when its mask clears, the output asserted, and each child
// raising its ISR bit. Indices, in CoveragePoints() order:
constexpr uint32_t kLatched = 0, kMasked = 1, kLatchedOnUnmask = 2, kAsserted = 3, kFirstChild = 4;

class ClassicIirBehaviour : public CopyableBehaviour<ClassicIirBehaviour>, public ChildInterrupts {
 public:
  ClassicIirBehaviour(const ClassicIirConfig& config, const regdb::InterruptsConfig& rollup, const std::string& name)
      : config_(&config), name_(&name), rollup_(rollup) {}

  void OnReset(BehaviourContext& context) override {
    rollup_.Clear();
    Update(context);
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    if (reg == config_->imr) {
      // Sources still live when their mask bit clears are latched now.
      uint64_t unmasked = before & ~after;
      if (Latch(context, context.Peek(config_->isr) & unmasked) != 0) context.Cover(kLatchedOnUnmask);
    } else if (reg == config_->ier && before == 0 && after != 0) {
      uint64_t iir = context.Peek(config_->iir);
      if (iir != 0) {
        context.ReportViolation(ViolationKind::kProtocol, config_->ier,
                                "IIR must be zero when IER enables interrupts (i915 gen3_assert_iir_is_zero): " +
                                    context.model().registers()[config_->iir].name + " holds " +
                                    regdb::HexPadded(iir, context.model().registers()[config_->iir].width) +
                                    "; clear it (write 0xFFFFFFFF twice) before writing " +
                                    context.model().registers()[config_->ier].name);
      }
    }
    Update(context);
  }

  // A child's output is the live level of its ISR bit: a rising edge
  // latches like an injected event.
  void OnChildInterrupt(BehaviourContext& context, std::string_view child, bool asserted) override {
    for (size_t i = 0; i < config_->children.size(); ++i) {
      const ClassicIirConfig::Child& c = config_->children[i];
      if (c.name != child) continue;
      if (asserted) context.Cover(kFirstChild + static_cast<uint32_t>(i));
      uint64_t mask = uint64_t{1} << c.bit;
      uint64_t isr = context.Peek(config_->isr);
      context.Poke(config_->isr, asserted ? isr | mask : isr & ~mask);
      if (asserted && (isr & mask) == 0) LatchEvent(context, mask);
    }
    Update(context);
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != *name_) return InjectResult::kNotMine;
    auto usage = [&](std::string why) {
      error = why + "; usage: inject " + *name_ + " BIT [on|off]";
      return InjectResult::kBadArguments;
    };
    if (args.empty() || args.size() > 2) return usage("expected a bit number");
    auto bit = regdb::ParseUnsigned(args[0]);
    if (!std::holds_alternative<uint64_t>(bit) || std::get<uint64_t>(bit) >= config_->width) {
      return usage("bad bit '" + args[0] + "' (0.." + std::to_string(config_->width - 1) + ")");
    }
    uint64_t mask = uint64_t{1} << std::get<uint64_t>(bit);
    uint64_t isr = context.Peek(config_->isr);
    if (args.size() == 1) {
      LatchEvent(context, mask);  // a pulse: the source rises and falls again
    } else if (args[1] == "on") {
      context.Poke(config_->isr, isr | mask);
      if ((isr & mask) == 0) LatchEvent(context, mask);
    } else if (args[1] == "off") {
      context.Poke(config_->isr, isr & ~mask);
    } else {
      return usage("expected 'on' or 'off', got '" + args[1] + "'");
    }
    Update(context);
    return InjectResult::kDone;
  }

 private:
  // The bits of `bits` that IMR lets into IIR.
  uint64_t Latch(BehaviourContext& context, uint64_t bits) {
    bits &= ~context.Peek(config_->imr);
    if (bits != 0) context.Poke(config_->iir, context.Peek(config_->iir) | bits);
    return bits;
  }

  // A source rising: latched, or not for a masked bit.
  void LatchEvent(BehaviourContext& context, uint64_t bits) {
    context.Cover(Latch(context, bits) == bits ? kLatched : kMasked);
  }

  void Update(BehaviourContext& context) {
    bool was = rollup_.asserted(0);
    rollup_.Update(context, false);
    if (rollup_.asserted(0) && !was) context.Cover(kAsserted);
  }

  const ClassicIirConfig* config_;  // owned by the program, which outlives every device of its model
  const std::string* name_;
  InterruptRollup rollup_;  // IIR & IER, to the parent or the device
};

class ClassicIirProgram : public BehaviourProgram {
 public:
  ClassicIirProgram(std::string name, ClassicIirConfig config)
      : BehaviourProgram("classic-iir", std::move(name)), config_(std::move(config)) {
    // One source, IIR enabled bit by bit by IER, rolled up into the
    // device's interrupt request (or the parent's input).
    auto whole = [](RegisterId reg, unsigned width, std::string text) {
      uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
      return regdb::RegisterBits{reg, regdb::FieldBits::Of(mask), std::move(text)};
    };
    rollup_.sources.push_back({"IIR", whole(config_.iir, config_.width, "IIR"), whole(config_.ier, config_.width, "IER"),
                               std::nullopt, std::nullopt});
    rollup_.outputs.push_back({"output", {0}, "", {}, std::nullopt});
    rollup_.interrupt_parent = config_.parent;
  }

  std::vector<RegisterId> WriteHooks() const override { return {config_.imr, config_.iir, config_.ier}; }
  std::string InterruptParent() const override { return config_.parent; }
  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points{{"events", "latched"},
                                      {"events", "masked (not latched)"},
                                      {"events", "latched on unmask"},
                                      {"output", "asserted"}};
    for (const ClassicIirConfig::Child& child : config_.children) points.push_back({"children raised", child.name});
    return points;
  }
  std::vector<InjectForm> InjectForms() const override {
    return {{name(),
             {InjectArgument::Number("BIT", 0, config_.width - 1u),
              InjectArgument::Choice("", {"on", "off"}).Optional()},
             0, 0,
             "an event at ISR bit BIT: a pulse, or with on/off the source made live or ended"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override {
    return std::make_unique<ClassicIirBehaviour>(config_, rollup_, name());
  }

 private:
  ClassicIirConfig config_;
  regdb::InterruptsConfig rollup_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompileClassicIir(const regdb::BehaviourSpec& spec, const Model&,
                                                    std::string& error) {
  const ClassicIirConfig* config = ConfigOf<ClassicIirConfig>(spec, error);
  if (!config) return nullptr;
  return std::make_unique<ClassicIirProgram>(spec.name, *config);
}

}  // namespace regemu::emulator
