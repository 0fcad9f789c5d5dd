// `kind: counter`: a free-running counter driven by the virtual clock.
#include "regemu/regdb/behaviour_configs/counter.hpp"

#include <array>

#include "regemu/regdb/behaviour_kinds.hpp"

namespace regemu::regdb {

std::unique_ptr<BehaviourConfig> CheckCounterConfig(const BehaviourSpec& spec, const Database& database,
                                                    SchemaReader& reader) {
  static constexpr std::array<std::string_view, 6> kKeys{"kind", "name", "register", "field", "period", "increment"};
  if (!reader.ExpectMap(spec.yaml, "a counter behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<CounterConfig>();
  if (const Register* reg = ResolveRegisterKey(spec, "register", /*required=*/true, database, reader)) {
    config->reg = database.IndexOf(*reg);
    config->bits = FieldBits::Of(reg->width_mask());
    if (const Field* field = ResolveFieldKey(spec, "field", *reg, reader)) config->bits = FieldBits::Of(field->mask());
  }
  if (const YamlNode* period = reader.Required(spec.yaml, "period", "counter behaviour '" + spec.name + "'")) {
    auto ns = reader.DurationNs(*period, "period");
    if (ns && *ns == 0) reader.Error(*period, "counter period must be longer than 0ns");
    config->period_ns = ns.value_or(1);
  }
  if (const YamlNode* increment = spec.yaml.Find("increment")) {
    config->increment = reader.Unsigned(*increment, "increment", 1).value_or(1);
  }
  return config;
}

}  // namespace regemu::regdb
