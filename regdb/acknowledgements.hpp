#pragma once
// `acknowledge: [{warning: CODE, reason: TEXT}]`, accepted on every mapping
// the schema reader checks (yaml/README.md "Acknowledging a warning"): the
// database says a warning about that item is expected, and why.

#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

inline constexpr std::string_view kAcknowledgeKey = "acknowledge";

// Reads the `acknowledge:` list `list` of the mapping `item` into the
// reader's diagnostics; an unknown code, a missing or empty reason and a
// malformed entry are located errors.
void ReadAcknowledgements(const YamlNode& item, const YamlNode& list, SchemaReader& reader);

}  // namespace regemu::regdb
