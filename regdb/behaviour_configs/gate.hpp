#pragma once
// `kind: gate`: conditions that let frontdoor accesses to address ranges
// through (yaml/README.md, "kind: gate"). An access needs every gate its
// ranges name open; a closed gate refuses the accesses it guards, before decode,
// as a violation of its kind, and a refused read answers `reads_as`.
// Slice steering (a read steered to a fused-off slice reads 0) is one; a
// power domain whose registers take no access while it sleeps is another.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/expression.hpp"

namespace regemu::regdb {

struct GateConfig : BehaviourConfig {
  // Which accesses a closed gate refuses; the others pass.
  enum class Refuses : uint8_t { kAccesses, kReads, kWrites };

  struct Gate {
    std::string name;
    Expression when;                         // open while not 0 (over registers and fields)
    std::vector<std::string> operand_names;  // `when`'s operands, in Expression::operands() order, for messages
    Refuses refuses = Refuses::kAccesses;
    uint64_t reads_as = 0;                          // what a refused read answers (cut to its width)
    std::vector<RegisterIndex> writes_pass;         // registers whose writes pass while it is closed
    std::string violation;                          // the rule, as the datasheet says it
    std::string kind = "protocol";                  // a name of emulator/violation_kinds.def
    std::string ref;                                // where the rule is written
  };
  // As declared: ranges may overlap, and an access in several needs the
  // gates of all of them (a power well's table beside a steering table).
  struct Range {
    uint64_t first = 0;
    uint64_t last = 0;           // inclusive
    std::string name;            // what lives there, for messages (may be empty)
    std::vector<uint32_t> gates; // indices into `gates`: every one must be open; none = not gated
  };

  SpaceIndex space = 0;
  std::vector<Gate> gates;
  std::vector<Range> ranges;

  std::vector<GatedSpan> GatedSpans(const Database& database) const override;
};

}  // namespace regemu::regdb
