#pragma once
// A memory space's `contents:` (yaml/README.md, "spaces"): the bytes it
// holds from reset, as little-endian values, padded text or raw bytes.

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

// Reads `contents` into space.contents (sorted by offset); reports an item
// outside the space, two items that overlap, text longer than its size,
// and `contents` on a space that is not a memory space.
void ReadSpaceContents(const YamlNode& contents, Space& space, SchemaReader& reader);

}  // namespace regemu::regdb
