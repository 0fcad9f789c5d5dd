// `kind: forcewake`: power domains of an Intel GPU (i915 intel_uncore.c).
// Each domain has a masked request register (the core applies the masked
// write: bits 31:16 enable bits 15:0) and an ack register whose bits 15:0
// follow the request's bits 15:0 `latency` of virtual time after each write.
// A domain is awake while its ack shows any request bit i915 uses: kernel
// (bit 0), user (bit 1) or the fallback (bit 15), so the fallback alone keeps
// it awake. The gate refuses accesses to a range whose domains are not all
// awake; writes to `shadowed` registers pass. The request and ack registers
// themselves are never gated (i915 touches them with raw accesses).
//
// Each ack is an event on the device's queue, so a bare `step` (or
// Device::next_event_ns) reaches it. The latency is the model's stand-in,
// no source gives the hardware's wake time, so a script's poll keeps its own
// interval across it (PollWait::kKeepsInterval): what a poll loop sees
// depends on the loop, not on the invented number.
#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "regemu/emulator/behaviour.hpp"
#include "regemu/regdb/behaviour_configs/forcewake.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

using regdb::ForcewakeConfig;
using Domain = ForcewakeConfig::Domain;
using Offsets = std::pair<uint64_t, uint64_t>;  // [first, last]

constexpr uint64_t kRequestBits = 0xFFFF;   // bits 15:0 of request and ack
constexpr uint64_t kAwakeBits = 0x8003;     // kernel, user, kernel fallback

// Coverage: the paths of a force-wake driver are the get and the put of
// each domain (its ack rising and falling), and a write to a shadowed
// register while the domain sleeps, which i915 makes without a get. Points,
// in order: each domain woken, each domain slept, the shadowed write.
uint32_t WokenPoint(uint32_t domain) { return domain; }
uint32_t SleptPoint(const ForcewakeConfig& config, uint32_t domain) {
  return static_cast<uint32_t>(config.domains.size()) + domain;
}
uint32_t ShadowedPoint(const ForcewakeConfig& config) { return 2 * static_cast<uint32_t>(config.domains.size()); }

// A piece of a declared range that needs a domain, cut around the request
// and ack registers (never gated).
struct Gate {
  uint64_t first = 0;
  uint64_t last = 0;
  uint32_t range = 0;  // the declared range (ForcewakeConfig::ranges): its domains and bounds
};

// The config and what Compile derives from it against the model.
struct CompiledForcewake {
  ForcewakeConfig config;
  std::vector<Gate> gates;
  std::vector<Offsets> shadowed;  // sorted offsets of the registers written freely
};

class ForcewakeBehaviour : public CopyableBehaviour<ForcewakeBehaviour>, public AccessGate {
 public:
  explicit ForcewakeBehaviour(const CompiledForcewake& compiled)
      : compiled_(&compiled), latency_ns_(compiled.config.latency_ns) {}

  void OnReset(BehaviourContext&) override {
    acks_in_flight_ = 0;  // the device's reset emptied its queue
    last_due_ns_ = 0;
    latency_ns_ = compiled_->config.latency_ns;
  }

  // `inject forcewake-latency NS`: acks of requests written from now on come
  // NS of virtual time later (the hardware's wake time varies; a fuzzer or a
  // test widens the window a driver must poll through). Until reset.
  InjectResult Inject(BehaviourContext&, std::string_view verb, std::span<const std::string> args,
                      std::string& error) override {
    if (verb != "forcewake-latency") return InjectResult::kNotMine;
    auto usage = [&] {
      error = "usage: inject forcewake-latency NANOSECONDS";
      return InjectResult::kBadArguments;
    };
    if (args.size() != 1) return usage();
    auto parsed = regdb::ParseUnsigned(args[0]);
    if (!std::holds_alternative<uint64_t>(parsed)) return usage();
    latency_ns_ = std::get<uint64_t>(parsed);
    return InjectResult::kDone;
  }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t after) override {
    const ForcewakeConfig& config = compiled_->config;
    // Each domain has its own request register (the config check refuses a shared one).
    for (uint32_t d = 0; d < config.domains.size(); ++d) {
      if (config.domains[d].request != reg) continue;
      if (latency_ns_ == 0 && acks_in_flight_ == 0) {
        SetAck(context, d, after);
        return;
      }
      // Saturating, like the clock: an ack due past the end of time never comes.
      uint64_t now = context.now_ns();
      uint64_t due = latency_ns_ > ~uint64_t{0} - now ? ~uint64_t{0} : now + latency_ns_;
      // Acks follow requests in order: after a latency change, a request
      // does not overtake an earlier one (a put's ack landing after the
      // next get's would put the domain to sleep while it is held). Events
      // due at one instant fire in the order they were scheduled.
      if (acks_in_flight_ != 0) due = std::max(due, last_due_ns_);
      last_due_ns_ = due;
      ++acks_in_flight_;
      // The event carries the ack: the domain, and the request bits it shows.
      context.Schedule(due - now, (uint64_t{d} << 16) | (after & kRequestBits), PollWait::kKeepsInterval);
      return;
    }
  }

  void OnTimer(BehaviourContext& context, uint64_t ack) override {
    --acks_in_flight_;
    SetAck(context, static_cast<uint32_t>(ack >> 16), ack & kRequestBits);
  }

  std::optional<AccessRefusal> CheckAccess(BehaviourContext& context, uint32_t tag, uint64_t offset, unsigned,
                                           bool is_write) override {
    const ForcewakeConfig& config = compiled_->config;
    const ForcewakeConfig::Range& range = config.ranges[compiled_->gates[tag].range];
    for (uint32_t d : range.domains) {
      const Domain& domain = config.domains[d];
      if ((context.Peek(domain.ack) & kAwakeBits) != 0) continue;
      if (is_write && IsShadowed(offset)) {
        context.Cover(ShadowedPoint(config));
        return std::nullopt;
      }
      const auto& regs = context.model().registers();
      return AccessRefusal{ViolationKind::kForcewake, "forcewake domain '" + domain.name + "' is asleep at " +
                                                          regdb::Hex(offset) + " (range " + regdb::Hex(range.first) +
                                                          ".." + regdb::Hex(range.last) + "): write 0x00010001 to " +
                                                          regs[domain.request].name + " and wait for bit 0 of " +
                                                          regs[domain.ack].name + " first"};
    }
    return std::nullopt;
  }

 private:
  void SetAck(BehaviourContext& context, uint32_t d, uint64_t request) {
    RegisterId ack = compiled_->config.domains[d].ack;
    uint64_t before = context.Peek(ack);
    uint64_t after = (before & ~kRequestBits) | (request & kRequestBits);
    context.Poke(ack, after);
    bool was_awake = (before & kAwakeBits) != 0;
    bool awake = (after & kAwakeBits) != 0;
    if (awake != was_awake) context.Cover(awake ? WokenPoint(d) : SleptPoint(compiled_->config, d));
  }

  bool IsShadowed(uint64_t offset) const {
    const std::vector<Offsets>& shadowed = compiled_->shadowed;
    auto it = std::upper_bound(shadowed.begin(), shadowed.end(), offset,
                               [](uint64_t value, const Offsets& range) { return value < range.first; });
    return it != shadowed.begin() && offset <= std::prev(it)->second;
  }

  const CompiledForcewake* compiled_;  // owned by the program, which outlives every device of its model
  uint64_t latency_ns_;
  // Acks on the device's queue, and when the last one is due; the queue,
  // like these, is part of snapshots and emptied by reset.
  uint64_t acks_in_flight_ = 0;
  uint64_t last_due_ns_ = 0;
};

class ForcewakeProgram : public BehaviourProgram {
 public:
  ForcewakeProgram(std::string name, CompiledForcewake compiled)
      : BehaviourProgram("forcewake", std::move(name)), compiled_(std::move(compiled)) {}

  std::vector<RegisterId> WriteHooks() const override {
    std::vector<RegisterId> hooks;
    for (const Domain& domain : compiled_.config.domains) hooks.push_back(domain.request);
    return hooks;
  }

  std::vector<GatedRange> GatedRanges() const override {
    std::vector<GatedRange> gates;
    auto space = static_cast<SpaceId>(compiled_.config.space);
    for (uint32_t i = 0; i < compiled_.gates.size(); ++i) {
      gates.push_back({space, compiled_.gates[i].first, compiled_.gates[i].last, i});
    }
    return gates;
  }

  std::vector<PowerDomainInfo> PowerDomains() const override {
    const ForcewakeConfig& config = compiled_.config;
    std::vector<PowerDomainInfo> domains;
    for (const Domain& domain : config.domains) {
      domains.push_back({domain.name, domain.request, domain.ack, static_cast<SpaceId>(config.space), {}, {}});
    }
    for (const ForcewakeConfig::Range& range : config.ranges) {
      for (uint32_t d : range.domains) domains[d].ranges.emplace_back(range.first, range.last);
    }
    for (PowerDomainInfo& domain : domains) {
      for (const Offsets& shadowed : compiled_.shadowed) {
        bool inside = std::any_of(domain.ranges.begin(), domain.ranges.end(), [&](const Offsets& range) {
          return shadowed.first <= range.second && shadowed.second >= range.first;
        });
        if (inside) domain.shadowed.push_back(shadowed);
      }
    }
    return domains;
  }

  std::vector<CoveragePoint> CoveragePoints() const override {
    std::vector<CoveragePoint> points;
    for (const Domain& domain : compiled_.config.domains) points.push_back({"domains woken", domain.name});
    for (const Domain& domain : compiled_.config.domains) points.push_back({"domains slept", domain.name});
    points.push_back({"shadowed writes", "while asleep"});
    return points;
  }

  std::vector<InjectForm> InjectForms() const override {
    return {{"forcewake-latency",
             {InjectArgument::Number("NANOSECONDS")},
             0, 0, "acks of requests written from now on come this much virtual time later"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<ForcewakeBehaviour>(compiled_); }

 private:
  CompiledForcewake compiled_;
};

// Cuts declared range `index` around the `free` registers, appending the pieces.
void AddGates(const ForcewakeConfig::Range& range, uint32_t index, const std::vector<Offsets>& free,
              std::vector<Gate>& out) {
  Gate gate{range.first, range.last, index};
  for (const auto& [first, last] : free) {
    if (last < gate.first || first > gate.last) continue;
    if (first > gate.first) out.push_back({gate.first, first - 1, index});
    if (last >= gate.last) return;
    gate.first = last + 1;
  }
  out.push_back(gate);
}

}  // namespace

std::unique_ptr<BehaviourProgram> CompileForcewake(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error) {
  const ForcewakeConfig* config = ConfigOf<ForcewakeConfig>(spec, error);
  if (!config) return nullptr;
  auto offsets = [&](RegisterId id) {
    const RegisterModel& r = model.registers()[id];
    return Offsets{r.offset, r.offset + r.extent - 1};
  };
  CompiledForcewake compiled{*config, {}, {}};
  std::vector<Offsets> free;  // the request and ack registers, never gated
  for (const Domain& domain : config->domains) {
    for (RegisterId id : {domain.request, domain.ack}) {
      if (model.registers()[id].space == config->space) free.push_back(offsets(id));
    }
  }
  std::sort(free.begin(), free.end());
  for (uint32_t i = 0; i < config->ranges.size(); ++i) {
    // Always-on ranges are not gated at all: they cost nothing at run time.
    if (!config->ranges[i].domains.empty()) AddGates(config->ranges[i], i, free, compiled.gates);
  }
  for (RegisterId id : config->shadowed) compiled.shadowed.push_back(offsets(id));
  std::sort(compiled.shadowed.begin(), compiled.shadowed.end());
  return std::make_unique<ForcewakeProgram>(spec.name, std::move(compiled));
}

}  // namespace regemu::emulator
