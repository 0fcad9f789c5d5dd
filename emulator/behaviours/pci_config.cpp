// `kind: pci-config`: what a PCI function's configuration registers do to
// the rest of the device (PCI Local Bus 3.0, PCI PM 1.2; Linux drivers/pci):
//
// - Memory decode: the memory spaces (BARs) answer only while the command
//   register's Memory Space Enable (bit 1) is set; otherwise every access is
//   an `unclaimed` violation and reads all-ones (a master abort).
// - Power: outside D0 (PMCS.PS, bits 1:0, non-zero) the memory spaces answer
//   nothing, as `power` violations. Configuration space stays accessible.
// - Interrupts (the model's router): with MSI disabled the INTx line follows
//   the request unless Interrupt Disable (command bit 10) is set, and the
//   status register's Interrupt Status (bit 3) shows the request. With MSI
//   enabled (Message Control bit 0) each rising edge of the request is one
//   memory write of MD to MA; a masked vector sets its pending bit instead,
//   and unmasking delivers it. Bus Master Enable (command bit 2) must be set
//   for the function to send it. With MSI-X enabled (Message Control bit 15;
//   §6.8.2.3) the request goes out the same way as vector 0's table entry
//   says (its address, data and Mask Bit), held in the PBA while the vector
//   or the whole function (Function Mask, bit 14) is masked; MSI-X takes
//   precedence over MSI, and neither lets the INTx line assert. With
//   `vectors:` each bit of that register is one vector's request instead
//   (a rising edge sends that vector's message), so a device with several
//   completion queues interrupts on each queue's own vector.
// - Aperture: the aperture BAR's low address bits read 0 as the size
//   control field says (Intel MSAC.APSZ: bit_width(APSZ) bits from the BAR's
//   lowest writable bit, 128 MiB << that).
// - `inject pci-request 0|1`: an interrupt source inside the function
//   (for devices and tests without an interrupt behaviour).
#include <bit>
#include <string>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/pci_config.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

// Bit positions fixed by the PCI spec.
constexpr uint64_t kCommandMemory = 1u << 1;
constexpr uint64_t kCommandMaster = 1u << 2;
constexpr uint64_t kCommandIntxDisable = 1u << 10;
constexpr uint64_t kStatusInterrupt = 1u << 3;
constexpr uint64_t kPowerStateMask = 0x3;
constexpr uint64_t kMsiEnable = 1u << 0;
constexpr uint64_t kVector0 = 1u << 0;
constexpr uint64_t kMsixEnable = 1u << 15;
constexpr uint64_t kMsixFunctionMask = 1u << 14;
constexpr uint64_t kMsixVectorMask = 1u << 0;  // Vector Control's Mask Bit

using regdb::PciConfigConfig;
static_assert(PciConfigConfig::kNone == kNoRegister, "an absent register is the same in config and model");

std::string PowerStateName(uint64_t ps) {
  switch (ps) {
    case 1: return "D1";
    case 2: return "D2";
    case 3: return "D3hot";
    default: return "D0";
  }
}

// Coverage: what a PCI driver's tests should exercise of its function:
// each way an interrupt goes out (the INTx line, an MSI, an MSI held by
// its mask and sent on unmask, one dropped for want of bus mastering),
// each power state entered, and memory decode switched on and off. Only
// what the function has is a point (no MSI capability, no MSI points).
constexpr uint32_t kNoPoint = ~uint32_t{0};
struct PciPoints {
  uint32_t intx = kNoPoint, msi_sent = kNoPoint, msi_held = kNoPoint, msi_sent_on_unmask = kNoPoint,
           msi_dropped = kNoPoint;
  uint32_t msix_sent = kNoPoint, msix_held = kNoPoint, msix_sent_on_unmask = kNoPoint;
  uint32_t power_state[4] = {kNoPoint, kNoPoint, kNoPoint, kNoPoint};  // D0, D1, D2, D3hot
  uint32_t decode_on = kNoPoint, decode_off = kNoPoint;
};

// The points of `config` in order, and their indices.
PciPoints MakePoints(const PciConfigConfig& config, std::vector<CoveragePoint>& list) {
  PciPoints points;
  auto add = [&](uint32_t& index, const char* group, std::string name) {
    index = static_cast<uint32_t>(list.size());
    list.push_back({group, std::move(name)});
  };
  add(points.intx, "interrupts", "INTx asserted");
  if (config.has_msi) {
    add(points.msi_sent, "interrupts", "MSI sent");
    if (config.msi_mask != PciConfigConfig::kNone) {
      add(points.msi_held, "interrupts", "MSI held by its mask");
      add(points.msi_sent_on_unmask, "interrupts", "MSI sent on unmask");
    }
    add(points.msi_dropped, "interrupts", "MSI dropped without bus master");
  }
  if (config.has_msix) {
    add(points.msix_sent, "interrupts", "MSI-X sent");
    add(points.msix_held, "interrupts", "MSI-X held by a mask");
    add(points.msix_sent_on_unmask, "interrupts", "MSI-X sent on unmask");
  }
  if (config.power != PciConfigConfig::kNone) {
    for (uint64_t ps = 0; ps < 4; ++ps) add(points.power_state[ps], "power states entered", PowerStateName(ps));
  }
  add(points.decode_on, "memory decode", "enabled");
  add(points.decode_off, "memory decode", "disabled");
  return points;
}

void Cover(BehaviourContext& context, uint32_t point) {
  if (point != kNoPoint) context.Cover(point);
}

class PciConfigBehaviour : public CopyableBehaviour<PciConfigBehaviour>, public InterruptRouter {
 public:
  // `aperture_base_bit`: the aperture BAR's lowest writable bit, which gives the smallest size.
  PciConfigBehaviour(const PciConfigConfig& config, const PciPoints& points, unsigned aperture_base_bit)
      : config_(&config), points_(&points), aperture_base_bit_(aperture_base_bit) {}

  void OnReset(BehaviourContext& context) override {
    requested_ = false;
    msi_was_enabled_ = false;
    msix_was_enabled_ = false;
    vector_levels_ = 0;
    source_ = false;
    UpdateSpaces(context);
    ApplyAperture(context);
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    if (reg == config_->command && ((before ^ after) & kCommandMemory) != 0) {
      Cover(context, (after & kCommandMemory) != 0 ? points_->decode_on : points_->decode_off);
    }
    if (reg == config_->power && ((before ^ after) & kPowerStateMask) != 0) {
      Cover(context, points_->power_state[after & kPowerStateMask]);
    }
    if (reg == config_->command || reg == config_->power) UpdateSpaces(context);
    if (reg == config_->aperture || reg == config_->aperture_size) ApplyAperture(context);
    if (config_->has_msi && (reg == config_->msi_address || reg == config_->msi_data) && before != after &&
        MsiEnabled(context) && !VectorMasked(context)) {
      const Model& model = context.model();
      context.ReportViolation(
          ViolationKind::kProtocol, reg,
          model.registers()[reg].name +
              " changed while MSI is enabled and vector 0 is unmasked: the PCI spec leaves "
              "the message the function sends undefined; mask the vector (" +
              (config_->msi_mask != kNoRegister ? model.registers()[config_->msi_mask].name : std::string("no mask")) +
              ") or disable MSI (" + model.registers()[config_->msi_control].name + " bit 0) first");
    }
    if (reg == config_->command || reg == config_->msi_control || reg == config_->msi_mask ||
        reg == config_->msix_control || IsVectorControl(reg)) {
      context.RefreshInterrupt();
    }
    if (reg == config_->msix_requests) OnStore(context, reg, before, after);  // a frontdoor write of the levels
  }

  // `vectors:`: a behaviour stored into the request register.
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t) override {
    if (reg != config_->msix_requests) return;
    if (MsixEnabled(context)) {
      UpdateVectors(context, false);
    } else {
      vector_levels_ = VectorLevels(context);
    }
  }

  bool RouteInterrupt(BehaviourContext& context, bool requested) override {
    bool rising = requested && !requested_;
    requested_ = requested;
    bool msix = MsixEnabled(context);
    bool enabling = msix && !msix_was_enabled_;
    // Enabling MSI-X while the request is up: its logic sees it rise.
    if (enabling && requested) rising = true;
    msix_was_enabled_ = msix;
    if (msix) {
      msi_was_enabled_ = MsiEnabled(context);
      if (config_->status != kNoRegister) context.Poke(config_->status, context.Peek(config_->status) & ~kStatusInterrupt);
      if (config_->msix_requests != kNoRegister) {
        UpdateVectors(context, enabling);
      } else if (rising) {
        SignalMsix(context, 0);
      } else {
        DeliverPendingMsix(context, 0);
      }
      return false;  // MSI-X replaces the INTx line
    }
    if (config_->msix_requests != kNoRegister) vector_levels_ = VectorLevels(context);
    bool enabled = MsiEnabled(context);
    // Enabling MSI while the request is up: the MSI logic sees it rise.
    if (enabled && !msi_was_enabled_ && requested) rising = true;
    msi_was_enabled_ = enabled;
    if (config_->status != kNoRegister) {
      uint64_t status = context.Peek(config_->status);
      bool intx_pending = requested && !enabled;
      context.Poke(config_->status, intx_pending ? status | kStatusInterrupt : status & ~kStatusInterrupt);
    }
    if (enabled) {
      if (rising) {
        Signal(context);
      } else {
        DeliverPending(context);
      }
      return false;  // MSI replaces the INTx line
    }
    bool line = requested && (context.Peek(config_->command) & kCommandIntxDisable) == 0;
    if (line && rising) Cover(context, points_->intx);
    return line;
  }

  // A new event while the request stays up: a message-signalled function
  // sends one more message (a message is an edge, with no level to stay
  // asserted: PCI Local Bus 3.0 §6.8 [M]), the INTx level shows nothing.
  void OnInterruptEvent(BehaviourContext& context) override {
    if (!requested_) return;
    if (MsixEnabled(context)) {
      SignalMsix(context, 0);
    } else if (MsiEnabled(context)) {
      Signal(context);
    }
  }

  InjectResult Inject(BehaviourContext& context, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != "pci-request") return InjectResult::kNotMine;
    if (args.size() != 1 || (args[0] != "0" && args[0] != "1")) {
      error = "pci-request takes 0 (deassert) or 1 (assert) the function's interrupt request";
      return InjectResult::kBadArguments;
    }
    source_ = args[0] == "1";
    context.SetInterrupt(source_);
    return InjectResult::kDone;
  }

 private:
  bool MsiEnabled(const BehaviourContext& context) const {
    return config_->has_msi && (context.Peek(config_->msi_control) & kMsiEnable) != 0;
  }
  bool MsixEnabled(const BehaviourContext& context) const {
    return config_->has_msix && (context.Peek(config_->msix_control) & kMsixEnable) != 0;
  }
  // `vectors:`: vector n's level is bit n of the request register, vector
  // 0's also the function's request (the device's interrupt output).
  uint64_t VectorLevels(const BehaviourContext& context) const {
    size_t count = config_->msix_vectors.size();
    uint64_t levels = context.Peek(config_->msix_requests);
    if (count < 64) levels &= (uint64_t{1} << count) - 1;
    return requested_ ? levels | 1 : levels;
  }

  // Each vector that rose (all that are up, when MSI-X was just enabled)
  // sends or is held; the others deliver what a mask held.
  void UpdateVectors(BehaviourContext& context, bool enabling) {
    uint64_t levels = VectorLevels(context);
    uint64_t rose = enabling ? levels : levels & ~vector_levels_;
    vector_levels_ = levels;
    for (size_t n = 0; n < config_->msix_vectors.size(); ++n) {
      if ((rose >> n) & 1) {
        SignalMsix(context, n);
      } else {
        DeliverPendingMsix(context, n);
      }
    }
  }

  bool IsVectorControl(RegisterId reg) const {
    for (const PciConfigConfig::MsixVector& vector : config_->msix_vectors) {
      if (vector.control == reg) return true;
    }
    return false;
  }
  bool MsixMasked(const BehaviourContext& context, size_t n) const {
    return (context.Peek(config_->msix_control) & kMsixFunctionMask) != 0 ||
           (context.Peek(config_->msix_vectors[n].control) & kMsixVectorMask) != 0;
  }
  uint64_t MsixPendingBit(size_t n) const { return uint64_t{1} << config_->msix_vectors[n].pending_bit; }

  // A rising edge of vector n with MSI-X enabled: send its message, or set
  // its pending bit while it (or the function) is masked (§6.8.2.9, §6.8.2.10).
  void SignalMsix(BehaviourContext& context, size_t n) {
    const PciConfigConfig::MsixVector& vector = config_->msix_vectors[n];
    if (MsixMasked(context, n)) {
      Cover(context, points_->msix_held);
      context.Poke(vector.pending, context.Peek(vector.pending) | MsixPendingBit(n));
      return;
    }
    DeliverMsix(context, n, points_->msix_sent);
  }

  void DeliverPendingMsix(BehaviourContext& context, size_t n) {
    const PciConfigConfig::MsixVector& vector = config_->msix_vectors[n];
    if (MsixMasked(context, n)) return;
    uint64_t pending = context.Peek(vector.pending);
    if ((pending & MsixPendingBit(n)) == 0) return;
    context.Poke(vector.pending, pending & ~MsixPendingBit(n));
    DeliverMsix(context, n, points_->msix_sent_on_unmask);
  }

  void DeliverMsix(BehaviourContext& context, size_t n, uint32_t sent) {
    if (!BusMastering(context, "an MSI-X message", "MSI-X", config_->msix_control, kNoPoint)) return;
    Cover(context, sent);
    const PciConfigConfig::MsixVector& vector = config_->msix_vectors[n];
    uint64_t address = context.Peek(vector.address) | (context.Peek(vector.upper_address) << 32);
    context.SendMessage(address, context.Peek(vector.data));
  }

  bool VectorMasked(const BehaviourContext& context) const {
    return config_->msi_mask != kNoRegister && (context.Peek(config_->msi_mask) & kVector0) != 0;
  }

  // A rising edge with MSI enabled: send, or hold it pending while masked.
  void Signal(BehaviourContext& context) {
    if (VectorMasked(context)) {
      Cover(context, points_->msi_held);
      context.Poke(config_->msi_pending, context.Peek(config_->msi_pending) | kVector0);
      return;
    }
    Deliver(context, points_->msi_sent);
  }

  void DeliverPending(BehaviourContext& context) {
    if (config_->msi_pending == kNoRegister || VectorMasked(context)) return;
    uint64_t pending = context.Peek(config_->msi_pending);
    if ((pending & kVector0) == 0) return;
    context.Poke(config_->msi_pending, pending & ~kVector0);
    Deliver(context, points_->msi_sent_on_unmask);
  }

  // `sent`: the coverage point of this way of sending.
  void Deliver(BehaviourContext& context, uint32_t sent) {
    if (!BusMastering(context, "an MSI", "MSI", config_->msi_control, points_->msi_dropped)) return;
    Cover(context, sent);
    context.SendMessage(context.Peek(config_->msi_address), context.Peek(config_->msi_data));
  }

  // A message is a memory write: without Bus Master Enable (command bit 2)
  // the function may not send it. Reports the drop at `at` (and covers
  // `dropped`) and returns false then.
  bool BusMastering(BehaviourContext& context, const char* message, const char* kind, RegisterId at,
                    uint32_t dropped) {
    if ((context.Peek(config_->command) & kCommandMaster) != 0) return true;
    context.ReportViolation(ViolationKind::kProtocol, at,
                            std::string(message) + " was due but " + context.model().registers()[config_->command].name +
                                " bit 2 (Bus Master Enable) is clear: a function may not write memory, " + kind +
                                " included, without it; the message is dropped");
    Cover(context, dropped);
    return false;
  }

  void UpdateSpaces(BehaviourContext& context) {
    const Model& model = context.model();
    uint64_t ps = config_->power != kNoRegister ? context.Peek(config_->power) & kPowerStateMask : 0;
    bool memory = (context.Peek(config_->command) & kCommandMemory) != 0;
    for (regdb::SpaceIndex index : config_->memory_spaces) {
      auto space = static_cast<SpaceId>(index);  // Compile refuses more spaces than a SpaceId counts
      const std::string& name = model.spaces()[space].name;
      if (ps != 0) {
        const RegisterModel& power = model.registers()[config_->power];
        std::string field = std::string(power.FieldAt(kPowerStateMask));
        context.SetSpaceAccess(space, SpaceAccess::kPoweredDown,
                               power.name + "." + (field.empty() ? std::string("bits 1:0") : field) + " is " +
                                   PowerStateName(ps) +
                                   ": outside D0 only configuration space answers, so memory space '" + name +
                                   "' reads all-ones and drops writes; write D0 first");
      } else if (!memory) {
        const RegisterModel& command = model.registers()[config_->command];
        std::string bit = std::string(command.FieldAt(kCommandMemory));
        context.SetSpaceAccess(space, SpaceAccess::kNotDecoded,
                               command.name + "." + (bit.empty() ? std::string("bit 1") : bit) +
                                   " (Memory Space Enable) is clear: the function does not decode memory space '" +
                                   name + "'; enable memory decode first");
      } else {
        context.SetSpaceAccess(space, SpaceAccess::kDecoded, "");
      }
    }
  }

  void ApplyAperture(BehaviourContext& context) {
    if (config_->aperture == kNoRegister) return;
    uint64_t apsz = config_->aperture_size_bits.Get(context.Peek(config_->aperture_size));
    auto hardwired_bits = std::bit_width(apsz);
    uint64_t low = hardwired_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << hardwired_bits) - 1;
    uint64_t hardwired = aperture_base_bit_ >= 64 ? 0 : low << aperture_base_bit_;
    uint64_t bar = context.Peek(config_->aperture);
    if ((bar & hardwired) != 0) context.Poke(config_->aperture, bar & ~hardwired);
  }

  // Owned by the program, which outlives every device of its model.
  const PciConfigConfig* config_;
  const PciPoints* points_;
  unsigned aperture_base_bit_ = 0;
  bool requested_ = false;        // the request as last routed
  bool msi_was_enabled_ = false;  // MSI enable as last routed
  bool msix_was_enabled_ = false;  // MSI-X enable as last routed
  uint64_t vector_levels_ = 0;     // `vectors:`: each vector's level as last seen
  bool source_ = false;           // `inject pci-request`
};

class PciConfigProgram : public BehaviourProgram {
 public:
  PciConfigProgram(std::string name, const PciConfigConfig& config, unsigned aperture_base_bit)
      : BehaviourProgram("pci-config", std::move(name)),
        config_(config),
        points_(MakePoints(config_, point_list_)),
        aperture_base_bit_(aperture_base_bit) {}

  std::vector<RegisterId> WriteHooks() const override {
    std::vector<RegisterId> hooks;
    for (RegisterId reg : {config_.command, config_.power, config_.msi_control, config_.msi_address, config_.msi_data,
                           config_.msi_mask, config_.msix_control, config_.msix_requests, config_.aperture,
                           config_.aperture_size}) {
      if (reg != kNoRegister) hooks.push_back(reg);
    }
    for (const PciConfigConfig::MsixVector& vector : config_.msix_vectors) {
      if (vector.control != kNoRegister) hooks.push_back(vector.control);
    }
    return hooks;
  }
  bool RoutesInterrupts() const override { return true; }
  std::vector<CoveragePoint> CoveragePoints() const override { return point_list_; }
  std::vector<InjectForm> InjectForms() const override {
    return {{"pci-request",
             {InjectArgument::Choice("", {"0", "1"})},
             0, 0, "the function's interrupt request from a source inside it: deasserted (0) or asserted (1)"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override {
    return std::make_unique<PciConfigBehaviour>(config_, points_, aperture_base_bit_);
  }

 private:
  PciConfigConfig config_;
  std::vector<CoveragePoint> point_list_;  // declared before points_, which MakePoints fills it with
  PciPoints points_;
  unsigned aperture_base_bit_;
};

}  // namespace

std::unique_ptr<BehaviourProgram> CompilePciConfig(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error) {
  const PciConfigConfig* config = ConfigOf<PciConfigConfig>(spec, error);
  if (!config) return nullptr;
  unsigned aperture_base_bit = 0;
  if (config->aperture != kNoRegister) {
    // Which bits software can write comes from the access policies, which
    // only the model computes.
    uint64_t writable = model.masks(model.registers()[config->aperture]).store;
    if (writable == 0) {
      error = "pci-config: the aperture BAR '" + model.registers()[config->aperture].name +
              "' has no writable bit to size the aperture from";
      return nullptr;
    }
    aperture_base_bit = static_cast<unsigned>(std::countr_zero(writable));
  }
  return std::make_unique<PciConfigProgram>(spec.name, *config, aperture_base_bit);
}

}  // namespace regemu::emulator
