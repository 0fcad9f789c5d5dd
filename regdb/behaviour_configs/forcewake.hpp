#pragma once
// `kind: forcewake`: power domains woken by Intel masked request registers,
// acknowledged after a latency, and the MMIO ranges each domain powers.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::regdb {

struct ForcewakeConfig : BehaviourConfig {
  struct Domain {
    std::string name;
    RegisterIndex request = 0;  // masked: bits 31:16 enable bits 15:0
    RegisterIndex ack = 0;
  };
  // As declared: sorted, disjoint and gapless; an always-on range has no domains.
  struct Range {
    uint64_t first = 0;
    uint64_t last = 0;              // inclusive
    std::vector<uint32_t> domains;  // indices into `domains`; every one must be awake
  };

  SpaceIndex space = 0;  // as given, or the first request register's
  uint64_t latency_ns = 0;
  std::vector<Domain> domains;
  std::vector<Range> ranges;
  std::vector<RegisterIndex> shadowed;  // written freely while their domain sleeps

  // The ranges with domains, less the request and ack registers (never gated).
  std::vector<GatedSpan> GatedSpans(const Database& database) const override;
};

}  // namespace regemu::regdb
