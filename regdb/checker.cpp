#include "regemu/regdb/checker.hpp"

#include <map>
#include <string>
#include <utility>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/schema_reader.hpp"

namespace regemu::regdb {

void CheckDatabase(Database& database, Diagnostics& diagnostics) {
  LinkNames(database, diagnostics);
  CompileLets(database, diagnostics);
  CompileDecodeConditions(database, diagnostics);
  CompileFieldExpressions(database, diagnostics);
  CheckFields(database, diagnostics);
  CheckLayout(database, diagnostics);
  CheckRanges(database, diagnostics);
  CheckBehaviours(database, diagnostics);
  CheckModelRules(database, diagnostics);
}

void CheckBehaviours(Database& database, Diagnostics& diagnostics) {
  SchemaReader reader(diagnostics);
  // A block's behaviour is one text checked once per instance: the
  // instances share its registers' layout, so a mistake in the first is in
  // every one, and is reported once, not once per instance.
  // Its warnings too: the later instances are checked quietly, and only a
  // mistake the first did not have (none, as instances differ only in
  // base and resets) would be reported, by checking it again aloud.
  std::map<std::pair<std::string, std::string>, bool> first_refused;  // (block, local name) -> its first instance's errors
  for (BehaviourSpec& spec : database.behaviours) {
    if (!spec.instance) {
      spec.config = CheckBehaviourConfig(spec, database, reader);
      continue;
    }
    InstanceScope scope(database, spec.instance);
    std::pair<std::string, std::string> text{spec.instance->block, spec.local_name};
    auto first = first_refused.find(text);
    if (first == first_refused.end()) {
      size_t errors_before = diagnostics.error_count();
      spec.config = CheckBehaviourConfig(spec, database, reader);
      first_refused.emplace(text, diagnostics.error_count() != errors_before);
      continue;
    }
    Diagnostics quiet;
    SchemaReader quiet_reader(quiet);
    spec.config = CheckBehaviourConfig(spec, database, quiet_reader);
    if (quiet.has_errors() && !first->second) spec.config = CheckBehaviourConfig(spec, database, reader);
  }
}

}  // namespace regemu::regdb
