// `kind: counter`: a free-running counter driven by the virtual clock.
#include <array>

#include "regdb/behaviour_kinds.hpp"

namespace regemu::regdb {

void CheckCounterConfig(const BehaviourSpec& spec, const Database& database, SchemaReader& reader) {
  static constexpr std::array<std::string_view, 6> kKeys{"kind", "name", "register", "field", "period", "increment"};
  if (!reader.ExpectMap(spec.config, "a counter behaviour", kKeys)) return;
  if (const Register* reg = ResolveRegisterKey(spec, "register", /*required=*/true, database, reader)) {
    ResolveFieldKey(spec, "field", *reg, reader);
  }
  if (const YamlNode* period = reader.Required(spec.config, "period", "counter behaviour '" + spec.name + "'")) {
    auto ns = reader.DurationNs(*period, "period");
    if (ns && *ns == 0) reader.Error(*period, "counter period must be longer than 0ns");
  }
  if (const YamlNode* increment = spec.config.Find("increment")) reader.Unsigned(*increment, "increment", 1);
}

}  // namespace regemu::regdb
