#pragma once
// Behaviour kinds known to the database, and the check of each kind's
// configuration (its own schema) against the linked database.

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/schema_reader.hpp"

namespace regemu::regdb {

enum class BehaviourKind : unsigned char {
#define REGDB_BEHAVIOUR(id, name, runtime) id,
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
};

inline constexpr size_t kBehaviourKindCount = 0
#define REGDB_BEHAVIOUR(id, name, runtime) +1
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR
    ;

std::optional<BehaviourKind> BehaviourKindFromName(std::string_view name);
// Every kind the loader accepts: the built-in ones, then those added with
// AddBehaviourKind, in the order they were added.
std::vector<std::string_view> BehaviourKindNames();
// Whether `name` is a kind the loader accepts (built in, or added).
bool IsBehaviourKind(std::string_view name);

// The check of a kind added from outside regemu (a plugin, a test binary):
// like the built-in Check<Runtime>Config, it is the only reader of its
// section's YAML, reports every mistake through `reader` and returns its
// typed configuration.
using BehaviourCheck = std::function<std::unique_ptr<BehaviourConfig>(const BehaviourSpec& spec,
                                                                      const Database& database,
                                                                      SchemaReader& reader)>;
// Adds a kind to the loader's list, process-wide. Call it before any
// database naming the kind is loaded, from one thread (registration is not
// synchronised with loading). Returns "" when added, else why not: the name
// is taken (built in or added before) or is not a kind name (lower-case
// letters, digits and '-', starting with a letter).
std::string AddBehaviourKind(std::string name, BehaviourCheck check);

// Runs the kind's configuration check, reporting through `reader`; returns
// its typed configuration, or null when the section has a mistake.
std::shared_ptr<const BehaviourConfig> CheckBehaviourConfig(const BehaviourSpec& spec, const Database& database,
                                                            SchemaReader& reader);

// Per-kind checks, declared from the table: Check<Runtime>Config, in
// regdb/behaviour_configs/<kind>.cpp, returning a <Runtime>Config
// (regdb/behaviour_configs/<kind>.hpp).
#define REGDB_BEHAVIOUR(id, name, runtime)                                                                  \
  std::unique_ptr<BehaviourConfig> Check##runtime##Config(const BehaviourSpec& spec, const Database& database, \
                                                          SchemaReader& reader);
#include "regemu/regdb/behaviour_kinds.def"
#undef REGDB_BEHAVIOUR

// Shared by kind checks: `name`, written at `node`, as a register of the
// database, or null after reporting "WHAT names unknown register 'NAME'"
// with a close match; and `name` as a field of `reg`, or null after
// reporting "register 'R' has no field 'NAME'" with a close match.
const Register* RegisterNamedAt(const YamlNode& node, std::string_view name, std::string_view what,
                                const Database& database, SchemaReader& reader);
const Field* FieldNamedAt(const YamlNode& node, const Register& reg, std::string_view name, SchemaReader& reader);

// Shared by kind checks: `REGISTER` or `REGISTER.FIELD` written at `node`,
// or nothing after reporting an unknown name (with a close match).
std::optional<RegisterBits> ResolveRegisterBits(const YamlNode& node, std::string_view what, const Database& database,
                                                SchemaReader& reader);
// The same for a name the caller made (a doorbell template with its id
// filled in), reported at `node`.
std::optional<RegisterBits> ResolveRegisterBitsNamed(const YamlNode& node, const std::string& text,
                                                     std::string_view what, const Database& database,
                                                     SchemaReader& reader);

// Shared by kind checks: resolves `key: REGISTER` (and an optional `field_key:
// FIELD` of it) in the spec, reporting unknown names with a close match.
const Register* ResolveRegisterKey(const BehaviourSpec& spec, std::string_view key, bool required,
                                   const Database& database, SchemaReader& reader);
const Field* ResolveFieldKey(const BehaviourSpec& spec, std::string_view key, const Register& reg,
                             SchemaReader& reader);

// Shared by kinds that link interrupt outputs (`what` names the checking
// behaviour, e.g. "interrupts behaviour 'gt'"):
// `interrupt_parent: NAME` must name another behaviour of the database, or
// `REGISTER.FIELD` a one-bit field that holds the output's level; returns
// NAME (or the register's full name and the field) when it does.
std::optional<std::string> ResolveInterruptParent(const BehaviourSpec& spec, const YamlNode& node,
                                                  std::string_view what, const Database& database,
                                                  SchemaReader& reader);
// A child NAME listed at `node` must exist and name `spec` as its
// `interrupt_parent`.
void CheckChildNamesParent(const BehaviourSpec& spec, const YamlNode& node, const std::string& child,
                           std::string_view what, const Database& database, SchemaReader& reader);

}  // namespace regemu::regdb
