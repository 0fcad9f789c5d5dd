#pragma once
// `for_each:` on a behaviour (yaml/README.md, "Behaviours from a table"):
// one behaviour written once, made once per row of a table, as a register
// array is made once per element. Each row maps column names to scalars;
// every `{COLUMN}` in the behaviour's keys and values becomes the row's
// value. Intel's ISR/IMR/IIR/IER quadruplets differ only in their register
// names, which a block's INSTANCE_REG naming cannot give.

#include <vector>

#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

inline constexpr std::string_view kForEachKey = "for_each";

// The behaviours `node` (a behaviour mapping with a `for_each:` key) stands
// for: copies without `for_each`, one per row, in row order, each keeping the
// template's locations. Reports through `reader` a table that is not a
// list of mappings of identifiers to scalars, rows with other columns than
// the first's, a template whose `name:` uses no column while there are
// several rows (the copies would share it), and an expansion past the
// input limits; returns nothing then.
std::vector<YamlNode> ExpandBehaviourTable(const YamlNode& node, SchemaReader& reader);

}  // namespace regemu::regdb
