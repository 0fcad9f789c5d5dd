#pragma once
// Overlays: the `changes:` lists of a database's files (yaml/README.md,
// "Overlays") applied by name to what every file declared, so a user's own
// file can adjust an imported database (a converted SVD) without copying it.
// Applied after all includes are loaded and before the checks, so the
// checker judges the result; a change naming what the database does not
// have is an error at the change, with the nearest name.

#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

// `changes`: each file's `changes:` node, a file's after those of the files
// it includes, applied in that order. Each register a change names is
// marked (Register::changed_by_overlay).
void ApplyOverlayChanges(const std::vector<YamlNode>& changes, Database& database, Diagnostics& diagnostics);

}  // namespace regemu::regdb
