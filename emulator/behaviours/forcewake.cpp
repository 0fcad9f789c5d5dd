// `kind: forcewake`: power domains of an Intel GPU (driver-facts 2.1-2.4).
// Each domain has a masked request register (the core applies the masked
// write: bits 31:16 enable bits 15:0) and an ack register whose bits 15:0
// follow the request's bits 15:0 `latency` of virtual time after each write.
// A domain is awake while its ack shows any request bit i915 uses: kernel
// (bit 0), user (bit 1) or the fallback (bit 15), so the fallback alone keeps
// it awake. The gate refuses accesses to a range whose domains are not all
// awake; writes to `shadowed` registers pass. The request and ack registers
// themselves are never gated (i915 touches them with raw accesses).
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "emulator/behaviour.hpp"
#include "regdb/numbers.hpp"

namespace regemu::emulator {
namespace {

constexpr uint64_t kRequestBits = 0xFFFF;   // bits 15:0 of request and ack
constexpr uint64_t kAwakeBits = 0x8003;     // kernel, user, kernel fallback

struct Domain {
  std::string name;
  RegisterId request = 0;
  RegisterId ack = 0;
};

struct Range {
  uint64_t first = 0;
  uint64_t last = 0;
  uint64_t declared_first = 0;  // as in the YAML, for messages (first/last may be cut around the own registers)
  uint64_t declared_last = 0;
  std::vector<uint32_t> domains;  // every one must be awake
};

struct ForcewakeConfig {
  SpaceId space = 0;
  uint64_t latency_ns = 0;
  std::vector<Domain> domains;
  std::vector<Range> ranges;  // only those that need a domain
  std::vector<std::pair<uint64_t, uint64_t>> shadowed;  // sorted [first, last] of registers written freely
};

class ForcewakeBehaviour : public Behaviour {
 public:
  explicit ForcewakeBehaviour(const ForcewakeConfig& config) : config_(&config) {}

  std::unique_ptr<Behaviour> Clone() const override { return std::make_unique<ForcewakeBehaviour>(*this); }

  void OnReset(BehaviourContext&) override { pending_.clear(); }

  void AfterWrite(BehaviourContext& context, RegisterId reg, uint64_t, uint64_t after) override {
    // Each domain has its own request register (the config check refuses a shared one).
    for (uint32_t d = 0; d < config_->domains.size(); ++d) {
      if (config_->domains[d].request != reg) continue;
      if (config_->latency_ns == 0) {
        SetAck(context, d, after);
      } else {
        // Saturating, like the clock: an ack due past the end of time never comes.
        uint64_t now = context.now_ns();
        uint64_t due = config_->latency_ns > ~uint64_t{0} - now ? ~uint64_t{0} : now + config_->latency_ns;
        pending_.push_back({due, d, after & kRequestBits});
      }
      return;
    }
  }

  void OnClock(BehaviourContext& context, uint64_t, uint64_t to_ns) override {
    // Writes are queued in time order (the clock never goes back), so due ones are at the front.
    while (!pending_.empty() && pending_.front().due_ns <= to_ns) {
      SetAck(context, pending_.front().domain, pending_.front().value);
      pending_.pop_front();
    }
  }

  std::optional<AccessRefusal> CheckAccess(BehaviourContext& context, uint32_t tag, uint64_t offset, unsigned,
                                           bool is_write) override {
    const Range& range = config_->ranges[tag];
    for (uint32_t d : range.domains) {
      const Domain& domain = config_->domains[d];
      if ((context.Peek(domain.ack) & kAwakeBits) != 0) continue;
      if (is_write && IsShadowed(offset)) return std::nullopt;
      const auto& regs = context.model().registers();
      return AccessRefusal{ViolationKind::kForcewake,
                           "forcewake domain '" + domain.name + "' is asleep at " + regdb::Hex(offset) + " (range " +
                               regdb::Hex(range.declared_first) + ".." + regdb::Hex(range.declared_last) +
                               "): write 0x00010001 to " + regs[domain.request].name + " and wait for bit 0 of " +
                               regs[domain.ack].name + " first"};
    }
    return std::nullopt;
  }

 private:
  struct Pending {
    uint64_t due_ns;
    uint32_t domain;
    uint64_t value;
  };

  void SetAck(BehaviourContext& context, uint32_t d, uint64_t request) {
    RegisterId ack = config_->domains[d].ack;
    context.Poke(ack, (context.Peek(ack) & ~kRequestBits) | (request & kRequestBits));
  }

  bool IsShadowed(uint64_t offset) const {
    auto it = std::upper_bound(config_->shadowed.begin(), config_->shadowed.end(), offset,
                               [](uint64_t value, const auto& range) { return value < range.first; });
    return it != config_->shadowed.begin() && offset <= std::prev(it)->second;
  }

  const ForcewakeConfig* config_;  // owned by the program, which outlives every device of its model
  std::deque<Pending> pending_;
};

class ForcewakeProgram : public BehaviourProgram {
 public:
  ForcewakeProgram(std::string name, ForcewakeConfig config)
      : BehaviourProgram("forcewake", std::move(name)), config_(std::move(config)) {}

  std::vector<RegisterId> WriteHooks() const override {
    std::vector<RegisterId> hooks;
    for (const Domain& domain : config_.domains) hooks.push_back(domain.request);
    return hooks;
  }

  std::vector<GatedRange> GatedRanges() const override {
    std::vector<GatedRange> gates;
    for (uint32_t i = 0; i < config_.ranges.size(); ++i) {
      gates.push_back({config_.space, config_.ranges[i].first, config_.ranges[i].last, i});
    }
    return gates;
  }

  std::vector<PowerDomainInfo> PowerDomains() const override {
    std::vector<PowerDomainInfo> domains;
    for (const Domain& domain : config_.domains) {
      domains.push_back({domain.name, domain.request, domain.ack, config_.space, {}, {}});
    }
    // Ranges were cut around the request and ack registers; report each
    // declared range once per domain.
    for (const Range& range : config_.ranges) {
      for (uint32_t d : range.domains) {
        auto& ranges = domains[d].ranges;
        std::pair<uint64_t, uint64_t> declared{range.declared_first, range.declared_last};
        if (ranges.empty() || ranges.back() != declared) ranges.push_back(declared);
      }
    }
    for (PowerDomainInfo& domain : domains) {
      for (const auto& shadowed : config_.shadowed) {
        bool inside = std::any_of(domain.ranges.begin(), domain.ranges.end(), [&](const auto& range) {
          return shadowed.first <= range.second && shadowed.second >= range.first;
        });
        if (inside) domain.shadowed.push_back(shadowed);
      }
    }
    return domains;
  }

  std::unique_ptr<Behaviour> Instantiate() const override { return std::make_unique<ForcewakeBehaviour>(config_); }

 private:
  ForcewakeConfig config_;
};

std::optional<RegisterId> FindIn(const Model& model, const regdb::YamlNode* node, std::string& error) {
  if (node == nullptr) {
    error = "a forcewake domain needs 'request' and 'ack'";
    return std::nullopt;
  }
  auto id = model.FindRegister(node->text);
  if (!id) error = "unknown register '" + node->text + "'";
  return id;
}

// Cuts [first, last] around the request and ack registers (never gated), appending the pieces.
void AddRange(Range range, const std::vector<std::pair<uint64_t, uint64_t>>& free, std::vector<Range>& out) {
  for (const auto& [first, last] : free) {
    if (last < range.first || first > range.last) continue;
    if (first > range.first) {
      Range before = range;
      before.last = first - 1;
      out.push_back(before);
    }
    if (last >= range.last) return;
    range.first = last + 1;
  }
  out.push_back(std::move(range));
}

}  // namespace

std::unique_ptr<BehaviourProgram> CompileForcewake(const regdb::BehaviourSpec& spec, const Model& model,
                                                   std::string& error) {
  // The config was checked by regdb (CheckForcewakeConfig); only resolve it.
  ForcewakeConfig config;
  std::map<std::string, uint32_t, std::less<>> domain_index;
  std::vector<std::pair<uint64_t, uint64_t>> free;  // request and ack registers
  const regdb::YamlNode* domains = spec.config.Find("domains");
  const regdb::YamlNode* ranges = spec.config.Find("ranges");
  if (!domains || !ranges || domains->children.empty()) {
    error = "forcewake needs 'domains' and 'ranges'";
    return nullptr;
  }
  for (const regdb::YamlNode& node : domains->children) {
    Domain domain;
    const regdb::YamlNode* name = node.Find("name");
    auto request = FindIn(model, node.Find("request"), error);
    auto ack = FindIn(model, node.Find("ack"), error);
    if (!request || !ack) return nullptr;
    if (!name) {
      error = "a forcewake domain needs a 'name'";
      return nullptr;
    }
    domain.name = name->text;
    domain.request = *request;
    domain.ack = *ack;
    domain_index.emplace(domain.name, static_cast<uint32_t>(config.domains.size()));
    config.domains.push_back(domain);
  }
  config.space = model.registers()[config.domains[0].request].space;
  if (const regdb::YamlNode* space = spec.config.Find("space")) {
    auto id = model.FindSpace(space->text);
    if (!id) {
      error = "unknown space '" + space->text + "'";
      return nullptr;
    }
    config.space = *id;
  }
  for (const Domain& domain : config.domains) {
    for (RegisterId id : {domain.request, domain.ack}) {
      const RegisterModel& r = model.registers()[id];
      if (r.space == config.space) free.emplace_back(r.offset, r.offset + r.extent - 1);
    }
  }
  std::sort(free.begin(), free.end());
  if (const regdb::YamlNode* latency = spec.config.Find("latency")) {
    auto parsed = regdb::ParseDurationNs(latency->text);
    if (!std::holds_alternative<uint64_t>(parsed)) {
      error = "bad latency '" + latency->text + "'";
      return nullptr;
    }
    config.latency_ns = std::get<uint64_t>(parsed);
  }
  for (const regdb::YamlNode& node : ranges->children) {
    const regdb::YamlNode* first = node.Find("first");
    const regdb::YamlNode* last = node.Find("last");
    const regdb::YamlNode* names = node.Find("domains");
    if (!first || !last || !names) {
      error = "a forcewake range needs 'first', 'last' and 'domains'";
      return nullptr;
    }
    Range range;
    auto first_value = regdb::ParseUnsigned(first->text);
    auto last_value = regdb::ParseUnsigned(last->text);
    if (!std::holds_alternative<uint64_t>(first_value) || !std::holds_alternative<uint64_t>(last_value)) {
      error = "bad forcewake range '" + first->text + "'..'" + last->text + "'";
      return nullptr;
    }
    range.first = std::get<uint64_t>(first_value);
    range.last = std::get<uint64_t>(last_value);
    range.declared_first = range.first;
    range.declared_last = range.last;
    for (const regdb::YamlNode& name : names->children) {
      auto it = domain_index.find(name.text);
      if (it == domain_index.end()) {
        error = "unknown forcewake domain '" + name.text + "'";
        return nullptr;
      }
      range.domains.push_back(it->second);
    }
    // Always-on ranges are not gated at all: they cost nothing at run time.
    if (!range.domains.empty()) AddRange(std::move(range), free, config.ranges);
  }
  if (const regdb::YamlNode* shadowed = spec.config.Find("shadowed")) {
    for (const regdb::YamlNode& name : shadowed->children) {
      auto id = model.FindRegister(name.text);
      if (!id) {
        error = "unknown register '" + name.text + "'";
        return nullptr;
      }
      const RegisterModel& r = model.registers()[*id];
      config.shadowed.emplace_back(r.offset, r.offset + r.extent - 1);
    }
    std::sort(config.shadowed.begin(), config.shadowed.end());
  }
  return std::make_unique<ForcewakeProgram>(spec.name, std::move(config));
}

}  // namespace regemu::emulator
