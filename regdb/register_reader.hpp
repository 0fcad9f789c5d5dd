#pragma once
// Reading of one register entry (and its fields) and its expansion into
// concrete registers: one, an array's elements, or a block instance's copy.

#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

struct ArraySpec {
  uint32_t count = 0;
  uint64_t stride = 0;
  uint32_t start = 0;
  SourceLoc loc;
  SourceLoc stride_loc;
};

// A register as written: for arrays, the name still holds "{n}".
struct RegisterTemplate {
  Register reg;
  std::optional<ArraySpec> array;
  // In a block: alias_of names another register of the same block, so each
  // instance's copy aliases that instance's copy of it.
  bool alias_of_block_local = false;
};

// One access policy name, or nothing after reporting it with the known ones.
std::optional<Access> ReadAccess(const YamlNode& node, SchemaReader& reader);
// One field entry (name, bits, access, reset, ...); nothing after reporting
// what makes it unusable.
std::optional<Field> ReadField(const YamlNode& node, SchemaReader& reader);

// `in_block`: the entry belongs to a block, so it has no `space` of its own.
std::optional<RegisterTemplate> ReadRegisterTemplate(const YamlNode& node, bool in_block, const std::string& default_ref,
                                                     SchemaReader& reader);

// Appends the concrete registers of `templ` placed at `base` (0 outside
// blocks) to `out`. Returns false, after reporting, when the expansion would
// overflow the offset range or the register budget.
bool ExpandRegister(const RegisterTemplate& templ, uint64_t base, const std::optional<BlockOrigin>& block,
                    size_t max_registers, std::vector<Register>& out, SchemaReader& reader);

}  // namespace regemu::regdb
