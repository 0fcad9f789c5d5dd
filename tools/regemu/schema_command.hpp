#pragma once
// `regemu schema [-o FILE]`: the JSON Schema (draft-07) of the YAML database
// format, for editors: the YAML language server (VS Code's YAML extension)
// completes keys, shows their descriptions and marks a misspelt key as
// the database is typed.

#include <iosfwd>
#include <string>

namespace regemu::tools {

struct SchemaOptions {
  std::string output = "-";  // "-": stdout
};

// The schema as JSON text: regdb/schema/database.schema.json (the structure,
// embedded at build time) with the enums the loader's tables define
// (access policies, behaviour kinds, warning codes) and `acknowledge` on
// every mapping, as the loader accepts it there.
std::string DatabaseSchemaJson();

// Exit status: 0 written, 1 when the output file cannot be written.
int RunSchema(const SchemaOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
