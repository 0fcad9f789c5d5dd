// `kind: counter`: a free-running counter driven by the virtual clock.
#include "regemu/regdb/behaviour_configs/counter.hpp"

#include <array>

#include "regemu/regdb/behaviour_kinds.hpp"

namespace regemu::regdb {
namespace {

// A counter changes its bits behind the driver's back: unless they are `hw`,
// the driver's own writes would race it and generated headers would not
// mark the register volatile. Legal, but almost always a slip.
void WarnUnlessHardwareDriven(const BehaviourSpec& spec, const Register& reg, const Field* field,
                              SchemaReader& reader) {
  auto warn = [&](std::string_view what, Access access) {
    reader.diagnostics().Warning(spec.yaml.Find(field ? "field" : "register")->loc,
                                 "counter behaviour '" + spec.name + "' drives " + std::string(what) +
                                     ", whose access is '" + std::string(AccessName(access)) +
                                     "', not 'hw': the driver's writes race the counter and headers do not "
                                     "mark it volatile");
  };
  if (field) {
    if (field->access != Access::kHw) warn(reg.name + "." + field->name, field->access);
    return;
  }
  uint64_t covered = 0;
  for (const Field& each : reg.fields) {
    covered |= each.mask();
    if (each.access != Access::kHw && each.access != Access::kRsvd) {
      warn(reg.name + "." + each.name, each.access);
      return;
    }
  }
  if ((covered & reg.width_mask()) != reg.width_mask() && reg.default_access != Access::kHw &&
      (reg.fields.empty() || reg.default_access != Access::kRsvd)) {
    warn(reg.name, reg.default_access);
  }
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckCounterConfig(const BehaviourSpec& spec, const Database& database,
                                                    SchemaReader& reader) {
  static constexpr std::array<std::string_view, 6> kKeys{"kind", "name", "register", "field", "period", "increment"};
  if (!reader.ExpectMap(spec.yaml, "a counter behaviour", kKeys)) return nullptr;
  auto config = std::make_unique<CounterConfig>();
  if (const Register* reg = ResolveRegisterKey(spec, "register", /*required=*/true, database, reader)) {
    config->reg = database.IndexOf(*reg);
    config->bits = FieldBits::Of(reg->width_mask());
    const Field* field = ResolveFieldKey(spec, "field", *reg, reader);
    if (field) config->bits = FieldBits::Of(field->mask());
    if (field || !spec.yaml.Find("field")) WarnUnlessHardwareDriven(spec, *reg, field, reader);
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
