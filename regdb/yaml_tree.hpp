#pragma once
// A plain, owned YAML tree with a source location on every node. The loader
// parses text into it (yaml_parse.cpp is the only file that touches
// yaml-cpp); everything after works on this tree, including behaviours that
// read their own configuration later.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/source.hpp"

namespace regemu::regdb {

struct YamlNode {
  enum class Kind : uint8_t { kNull, kScalar, kSequence, kMap };

  Kind kind = Kind::kNull;
  bool quoted = false;  // a scalar written in quotes: never a number or a null
  SourceLoc loc;
  std::string text;                // scalars only
  std::vector<YamlNode> children;  // sequence items; for maps key, value, key, value, ...

  bool IsNull() const { return kind == Kind::kNull; }
  bool IsScalar() const { return kind == Kind::kScalar; }
  bool IsSequence() const { return kind == Kind::kSequence; }
  bool IsMap() const { return kind == Kind::kMap; }

  size_t MapSize() const { return children.size() / 2; }
  const YamlNode& MapKey(size_t i) const { return children[2 * i]; }
  const YamlNode& MapValue(size_t i) const { return children[2 * i + 1]; }
  // The value of the first entry whose key is `key`, or nullptr.
  const YamlNode* Find(std::string_view key) const;
};

// "a mapping", "a sequence", ... for messages such as "expected a mapping, got a sequence".
const char* DescribeKind(YamlNode::Kind kind);

// Bounds on what a database file may cost to load: hostile input (deep
// nesting, billion-laughs aliases, huge or binary files) is an error, found
// fast and in bounded memory.
struct InputLimits {
  size_t max_file_bytes = size_t{16} << 20;
  size_t max_total_bytes = size_t{64} << 20;  // all files of one database
  size_t max_files = 256;
  uint32_t max_depth = 64;
  size_t max_nodes = 4'000'000;       // per file, alias expansions included
  size_t max_alias_nodes = 100'000;   // per file, nodes copied through aliases
};

// Parses one file (already added to `sources`) into a tree. On failure,
// records located errors and returns nothing; never throws.
std::optional<YamlNode> ParseYamlFile(const SourceSet& sources, uint32_t file_id, const InputLimits& limits,
                                      Diagnostics& diagnostics);

}  // namespace regemu::regdb
