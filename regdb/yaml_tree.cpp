#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

const YamlNode* YamlNode::Find(std::string_view key) const {
  if (!IsMap()) return nullptr;
  for (size_t i = 0; i < MapSize(); ++i) {
    if (MapKey(i).IsScalar() && MapKey(i).text == key) return &MapValue(i);
  }
  return nullptr;
}

const char* DescribeKind(YamlNode::Kind kind) {
  switch (kind) {
    case YamlNode::Kind::kNull: return "nothing (null)";
    case YamlNode::Kind::kScalar: return "a scalar";
    case YamlNode::Kind::kSequence: return "a sequence";
    case YamlNode::Kind::kMap: return "a mapping";
  }
  return "a node";
}

}  // namespace regemu::regdb
