#pragma once
// Per-instance overrides of a block's registers (yaml/README.md "blocks"):
// an instance written `T0: {base: 0x100, reset: {CONF: 0x30, CONF.SIZE_CAP: 1}}`
// keeps the block's layout but has its own reset values, where the
// instances of one block differ in what they can do (HPET's timer 0).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/register_reader.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

struct ResetOverride {
  std::string reg;    // the block-local register name
  std::string field;  // "" for the whole register
  uint64_t value = 0;
  SourceLoc loc;       // the value
  SourceLoc name_loc;  // the REGISTER or REGISTER.FIELD key
};

// An instance's value: a base, or `{base: N, reset: {REGISTER[.FIELD]: N, ...}}`
// whose overrides are appended to `overrides`. The base, or nothing after
// reporting.
std::optional<uint64_t> ReadBlockInstance(const YamlNode& value, std::vector<ResetOverride>& overrides,
                                          SchemaReader& reader);

// Reports each override naming a register (or field) that the block's
// `templates` do not have, with a close match, and drops it.
void KeepKnownOverrides(std::vector<ResetOverride>& overrides, const std::vector<RegisterTemplate>& templates,
                        const std::string& block, SchemaReader& reader);

// `templ` with the overrides naming it applied: a register's reset replaces
// the whole reset (its fields' resets follow); a field's replaces that field's.
RegisterTemplate WithOverrides(const RegisterTemplate& templ, const std::vector<ResetOverride>& overrides);

}  // namespace regemu::regdb
