#pragma once
// Behaviour kinds known to the database, and the check of each kind's
// configuration (its own schema) against the linked database.

#include <optional>
#include <span>
#include <string_view>

#include "regdb/database.hpp"
#include "regdb/schema_reader.hpp"

namespace regemu::regdb {

enum class BehaviourKind : unsigned char {
#define REGDB_BEHAVIOUR(id, name, check, runtime) id,
#include "regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
};

inline constexpr size_t kBehaviourKindCount = 0
#define REGDB_BEHAVIOUR(id, name, check, runtime) +1
#include "regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
    ;

std::optional<BehaviourKind> BehaviourKindFromName(std::string_view name);
std::span<const std::string_view> BehaviourKindNames();

// Runs the kind's configuration check; reports through `reader`.
void CheckBehaviourConfig(const BehaviourSpec& spec, const Database& database, SchemaReader& reader);

// Per-kind checks, declared from the table.
#define REGDB_BEHAVIOUR(id, name, check, runtime) \
  void check(const BehaviourSpec& spec, const Database& database, SchemaReader& reader);
#include "regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR

// Shared by kind checks: resolves `key: REGISTER` (and an optional `field_key:
// FIELD` of it) in the spec, reporting unknown names with a close match.
const Register* ResolveRegisterKey(const BehaviourSpec& spec, std::string_view key, bool required,
                                   const Database& database, SchemaReader& reader);
const Field* ResolveFieldKey(const BehaviourSpec& spec, std::string_view key, const Register& reg,
                             SchemaReader& reader);

}  // namespace regemu::regdb
