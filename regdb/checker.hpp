#pragma once
// The database checker: everything `regemu check` reports beyond what the
// loader's schema reading finds. Each check reports at the YAML position of
// the offending value, with notes pointing at the other party.

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/diagnostics.hpp"

namespace regemu::regdb {

// Links names (spaces, alias_of, enabled_by, behaviour references) and runs
// every check. Safe to call on a database with load errors.
void CheckDatabase(Database& database, Diagnostics& diagnostics);

// The stages, in order; exposed for tests and for tools that want one stage.
void LinkNames(Database& database, Diagnostics& diagnostics);
// Compiles the decode_when conditions of split and banked registers.
// Compiles the `let:` named expressions, before every other expression.
void CompileLets(Database& database, Diagnostics& diagnostics);
void CompileDecodeConditions(Database& database, Diagnostics& diagnostics);
// Compiles computed fields' `value:` and the `write_gate:` of registers and fields.
void CompileFieldExpressions(Database& database, Diagnostics& diagnostics);
void CheckFields(const Database& database, Diagnostics& diagnostics);
void CheckLayout(const Database& database, Diagnostics& diagnostics);
void CheckRanges(const Database& database, Diagnostics& diagnostics);
// Checks each behaviour's section and keeps its typed config in the spec.
void CheckBehaviours(Database& database, Diagnostics& diagnostics);
// The rules across behaviours that compiling the model relies on (one
// interrupt router, one driver per line, one emitter per stream, parents
// without a cycle, one gate per access), after CheckBehaviours.
void CheckModelRules(const Database& database, Diagnostics& diagnostics);

}  // namespace regemu::regdb
