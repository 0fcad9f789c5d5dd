// `kind: forcewake`: power domains woken by Intel masked request registers,
// acknowledged after a latency, and the MMIO ranges each domain powers.
// See yaml/README.md "behaviours" for the schema and what "watertight" means.
#include "regemu/regdb/behaviour_configs/forcewake.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <string>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

const Register* ResolveName(const BehaviourSpec& spec, const YamlNode& node, std::string_view what,
                            const Database& database, SchemaReader& reader) {
  auto name = reader.Identifier(node, std::string(what));
  if (!name) return nullptr;
  return RegisterNamedAt(node, *name, "forcewake behaviour '" + spec.name + "'", database, reader);
}

// Domain names map to their index in config.domains.
using DomainIndex = std::map<std::string, uint32_t, std::less<>>;

void CheckDomains(const BehaviourSpec& spec, const YamlNode& domains, const Database& database, SchemaReader& reader,
                  ForcewakeConfig& config, DomainIndex& names) {
  static constexpr std::array<std::string_view, 3> kKeys{"name", "request", "ack"};
  if (!reader.ExpectSequence(domains, "forcewake domains")) return;
  if (domains.children.empty()) reader.Error(domains, "a forcewake behaviour needs at least one domain");
  // A request register wakes one domain: the hardware has one per domain,
  // and the runtime acks only the first domain naming it.
  std::map<std::string, std::string> request_owner;
  for (const YamlNode& domain : domains.children) {
    if (!reader.ExpectMap(domain, "a forcewake domain", kKeys)) continue;
    auto index = static_cast<uint32_t>(config.domains.size());
    ForcewakeConfig::Domain& out = config.domains.emplace_back();
    if (const YamlNode* name = reader.Required(domain, "name", "forcewake domain")) {
      if (auto text = reader.Identifier(*name, "domain name")) {
        out.name = *text;
        if (!names.emplace(*text, index).second) {
          reader.Error(*name, "forcewake domain '" + *text + "' is declared twice");
        }
      }
    }
    if (const YamlNode* request = reader.Required(domain, "request", "forcewake domain")) {
      if (const Register* reg = ResolveName(spec, *request, "request", database, reader)) {
        out.request = database.IndexOf(*reg);
        if (!reg->masked) {
          reader.Error(*request, "forcewake request register '" + reg->name +
                                     "' must be `masked: true` (bits 31:16 enable bits 15:0)");
        }
        auto [owner, inserted] = request_owner.emplace(reg->name, out.name);
        if (!inserted) {
          reader.Error(*request, "forcewake request register '" + reg->name + "' is already the request of domain '" +
                                     owner->second + "': each domain needs its own");
        }
      }
    }
    if (const YamlNode* ack = reader.Required(domain, "ack", "forcewake domain")) {
      if (const Register* reg = ResolveName(spec, *ack, "ack", database, reader)) out.ack = database.IndexOf(*reg);
    }
  }
}

// Sorted, non-overlapping and gapless: each range starts right after the
// previous one ends (declare an always-on gap with `domains: []`).
void CheckRanges(const YamlNode& ranges, SchemaReader& reader, const DomainIndex& names, ForcewakeConfig& config) {
  static constexpr std::array<std::string_view, 3> kKeys{"first", "last", "domains"};
  if (!reader.ExpectSequence(ranges, "forcewake ranges")) return;
  // Plain values and flags rather than std::optional: GCC's -O3
  // -Wmaybe-uninitialized misfires on optionals in this loop.
  bool have_previous = false;
  uint64_t previous_last = 0;
  std::vector<std::string_view> candidates;
  for (const auto& name : names) candidates.push_back(name.first);
  for (const YamlNode& range : ranges.children) {
    if (!reader.ExpectMap(range, "a forcewake range", kKeys)) {
      have_previous = false;
      continue;
    }
    const YamlNode* first_node = reader.Required(range, "first", "forcewake range");
    const YamlNode* last_node = reader.Required(range, "last", "forcewake range");
    auto first_value = first_node ? reader.Unsigned(*first_node, "first") : std::nullopt;
    auto last_value = last_node ? reader.Unsigned(*last_node, "last") : std::nullopt;
    bool have_first = first_value.has_value();
    bool have_last = last_value.has_value();
    uint64_t first = first_value.value_or(0);
    uint64_t last = last_value.value_or(0);
    if (have_first && have_last && last < first) {
      reader.Error(*last_node, "forcewake range ends (" + Hex(last) + ") before it starts (" + Hex(first) + ")");
      have_last = false;
    }
    if (have_first && have_previous) {
      if (first <= previous_last) {
        reader.Error(*first_node, "forcewake range at " + Hex(first) +
                                      " overlaps or is out of order: the one before ends at " + Hex(previous_last) +
                                      " (ranges must be sorted and disjoint)");
      } else if (first != previous_last + 1) {
        reader.Error(*first_node, "forcewake ranges leave a gap " + Hex(previous_last + 1) + ".." + Hex(first - 1) +
                                      ": declare it, e.g. with `domains: []` (always on)");
      }
    }
    have_previous = have_first && have_last;
    previous_last = last;
    ForcewakeConfig::Range& out = config.ranges.emplace_back();
    out.first = first;
    out.last = last;
    if (const YamlNode* domains = reader.Required(range, "domains", "forcewake range")) {
      if (!reader.ExpectSequence(*domains, "forcewake range domains")) continue;
      for (const YamlNode& domain : domains->children) {
        auto name = reader.Identifier(domain, "domain");
        if (!name) continue;
        if (auto it = names.find(*name); it != names.end()) {
          out.domains.push_back(it->second);
        } else {
          reader.Error(domain, "forcewake range names unknown domain '" + *name + "'" + DidYouMean(*name, candidates));
        }
      }
    }
  }
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckForcewakeConfig(const BehaviourSpec& spec, const Database& database,
                                                      SchemaReader& reader) {
  static constexpr std::array<std::string_view, 7> kKeys{"kind",   "name",  "space",   "latency",
                                                         "domains", "ranges", "shadowed"};
  if (!reader.ExpectMap(spec.yaml, "a forcewake behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<ForcewakeConfig>();
  std::optional<SpaceIndex> space;
  if (const YamlNode* node = spec.yaml.Find("space")) {
    auto name = reader.Identifier(*node, "space");
    if (name) space = database.FindSpace(*name);
    if (name && !space) {
      reader.Error(*node, "forcewake behaviour '" + spec.name + "' names unknown space '" + *name + "'" +
                              DidYouMean(*name, NamesOf(database.spaces)));
    }
  }
  if (const YamlNode* latency = spec.yaml.Find("latency")) {
    config->latency_ns = reader.DurationNs(*latency, "latency").value_or(0);
  }
  DomainIndex names;
  if (const YamlNode* domains = reader.Required(spec.yaml, "domains", "forcewake behaviour '" + spec.name + "'")) {
    CheckDomains(spec, *domains, database, reader, *config, names);
  }
  if (const YamlNode* ranges = reader.Required(spec.yaml, "ranges", "forcewake behaviour '" + spec.name + "'")) {
    CheckRanges(*ranges, reader, names, *config);
  }
  if (const YamlNode* shadowed = spec.yaml.Find("shadowed")) {
    if (reader.ExpectSequence(*shadowed, "forcewake shadowed registers")) {
      for (const YamlNode& node : shadowed->children) {
        if (const Register* reg = ResolveName(spec, node, "shadowed", database, reader)) {
          config->shadowed.push_back(database.IndexOf(*reg));
        }
      }
    }
  }
  // By default the first request register's space (with no domain there is an
  // error, and no config).
  if (!config->domains.empty() && config->domains[0].request < database.registers.size()) {
    config->space = space.value_or(database.registers[config->domains[0].request].space);
  }
  return config;
}

std::vector<GatedSpan> ForcewakeConfig::GatedSpans(const Database& database) const {
  // The request and ack registers stay reachable, or nothing could wake a domain.
  std::vector<std::pair<uint64_t, uint64_t>> free;
  for (const Domain& domain : domains) {
    for (RegisterIndex id : {domain.request, domain.ack}) {
      const Register& reg = database.registers[id];
      if (reg.space == space) free.emplace_back(reg.offset, reg.offset + reg.size_bytes() - 1);
    }
  }
  std::sort(free.begin(), free.end());
  std::vector<GatedSpan> spans;
  for (const Range& range : ranges) {
    if (range.domains.empty()) continue;  // always on
    GatedSpan span{space, range.first, range.last};
    bool whole = true;
    for (const auto& [first, last] : free) {
      if (last < span.first || first > span.last) continue;
      if (first > span.first) spans.push_back({space, span.first, first - 1});
      if (last >= span.last) {
        whole = false;
        break;
      }
      span.first = last + 1;
    }
    if (whole) spans.push_back(span);
  }
  return spans;
}

}  // namespace regemu::regdb
