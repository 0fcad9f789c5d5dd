#pragma once
// Reads one parsed YAML file into the database: spaces, registers (arrays
// expanded), blocks (instances expanded), ranges and behaviours. Includes are
// returned to the loader, which owns files and the include graph.

#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

struct IncludeRequest {
  std::string path;  // as written, relative to the including file
  SourceLoc loc;
};

struct DocumentContext {
  bool is_root = false;
  size_t max_registers = 1'000'000;  // after expansion, for the whole database
  // The root file is an overlay (it has `changes`): the included import may
  // name the device, unless the overlay did (yaml/README.md "Overlays").
  bool overlay_root = false;
};

// A space's `pci_bar` (0-5): only an mmio or memory space is a BAR. Sets
// the space's BAR and its location, or reports why not at `bar`.
void ReadPciBar(const YamlNode& bar, Space& space, SchemaReader& reader);

// Appends what `document` declares to `database` and returns its includes.
std::vector<IncludeRequest> ReadDocument(const YamlNode& document, const DocumentContext& context, Database& database,
                                         SchemaReader& reader);

}  // namespace regemu::regdb
