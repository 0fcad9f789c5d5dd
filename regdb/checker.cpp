#include "regemu/regdb/checker.hpp"

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/schema_reader.hpp"

namespace regemu::regdb {

void CheckDatabase(Database& database, Diagnostics& diagnostics) {
  LinkNames(database, diagnostics);
  CompileDecodeConditions(database, diagnostics);
  CheckFields(database, diagnostics);
  CheckLayout(database, diagnostics);
  CheckRanges(database, diagnostics);
  CheckBehaviours(database, diagnostics);
}

void CheckBehaviours(Database& database, Diagnostics& diagnostics) {
  SchemaReader reader(diagnostics);
  for (BehaviourSpec& spec : database.behaviours) spec.config = CheckBehaviourConfig(spec, database, reader);
}

}  // namespace regemu::regdb
