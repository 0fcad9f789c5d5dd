// `for_each:` on a behaviour: the behaviour made once per row of a table.
#include "regemu/regdb/behaviour_table.hpp"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace regemu::regdb {
namespace {

// A table's expansion is bounded like a file's alias copies (InputLimits):
// a row count times a template's size never grows past this many nodes.
constexpr size_t kMaxExpandedNodes = 100'000;

using Row = std::vector<std::pair<std::string, std::string>>;  // column, value

size_t CountNodes(const YamlNode& node) {
  size_t count = 1;
  for (const YamlNode& child : node.children) count += CountNodes(child);
  return count;
}

std::string Substitute(const std::string& text, const Row& row) {
  if (text.find('{') == std::string::npos) return text;
  std::string out;
  for (size_t i = 0; i < text.size();) {
    bool replaced = false;
    if (text[i] == '{') {
      for (const auto& [column, value] : row) {
        if (text.compare(i + 1, column.size(), column) == 0 && i + 1 + column.size() < text.size() &&
            text[i + 1 + column.size()] == '}') {
          out += value;
          i += column.size() + 2;
          replaced = true;
          break;
        }
      }
    }
    if (!replaced) out += text[i++];
  }
  return out;
}

// `node` with `row` filled in, leaving out the top-level `for_each` entry.
YamlNode Fill(const YamlNode& node, const Row& row, bool top) {
  YamlNode out;
  out.kind = node.kind;
  out.quoted = node.quoted;
  out.loc = node.loc;
  out.text = Substitute(node.text, row);
  if (node.IsMap()) {
    for (size_t i = 0; i < node.MapSize(); ++i) {
      if (top && node.MapKey(i).text == kForEachKey) continue;
      out.children.push_back(Fill(node.MapKey(i), row, false));
      out.children.push_back(Fill(node.MapValue(i), row, false));
    }
  } else {
    for (const YamlNode& child : node.children) out.children.push_back(Fill(child, row, false));
  }
  return out;
}

bool UsesAColumn(const std::string& text, const Row& row) {
  for (const auto& entry : row) {
    if (text.find("{" + entry.first + "}") != std::string::npos) return true;
  }
  return false;
}

std::string Columns(const Row& row) {
  std::string out;
  for (const auto& entry : row) out += (out.empty() ? "" : ", ") + entry.first;
  return out;
}

}  // namespace

std::vector<YamlNode> ExpandBehaviourTable(const YamlNode& node, SchemaReader& reader) {
  const YamlNode* table = node.Find(kForEachKey);
  if (table == nullptr) return {};
  if (!reader.ExpectSequence(*table, "`for_each` (a list of rows)")) return {};
  if (table->children.empty()) {
    reader.Error(*table, "`for_each: []` makes no behaviour: give it a row, or leave the key out");
    return {};
  }
  std::vector<Row> rows;
  bool ok = true;
  for (const YamlNode& item : table->children) {
    if (!item.IsMap()) {
      reader.Error(item, std::string("expected a `for_each` row as a mapping COLUMN: VALUE, got ") +
                             DescribeKind(item.kind));
      ok = false;
      continue;
    }
    Row row;
    for (size_t i = 0; i < item.MapSize(); ++i) {
      auto column = reader.Identifier(item.MapKey(i), "`for_each` column");
      const YamlNode& value = item.MapValue(i);
      if (!value.IsScalar()) {
        reader.Error(value, std::string("a `for_each` value is a scalar (a name, a number), got ") +
                                DescribeKind(value.kind));
        ok = false;
        continue;
      }
      if (column) row.emplace_back(*column, value.text);
    }
    if (item.MapSize() == 0) {
      reader.Error(item, "a `for_each` row without columns: give each row COLUMN: VALUE entries");
      ok = false;
      continue;
    }
    if (!rows.empty()) {
      Row first = rows.front();
      auto names = [](const Row& r) {
        std::vector<std::string> out;
        for (const auto& entry : r) out.push_back(entry.first);
        std::sort(out.begin(), out.end());
        return out;
      };
      if (names(first) != names(row)) {
        reader.Error(item, "this `for_each` row has the columns " + Columns(row) + "; the first row has " +
                               Columns(first) + ": every row gives every column");
        ok = false;
      }
    }
    rows.push_back(std::move(row));
  }
  if (!ok) return {};
  if (rows.size() > 1) {
    const YamlNode* name = node.Find("name");
    if (name == nullptr || !UsesAColumn(name->text, rows.front())) {
      reader.Error(name != nullptr ? *name : *table,
                   "a behaviour made for each of " + std::to_string(rows.size()) +
                       " rows needs a `name:` that uses a column ({" + rows.front().front().first +
                       "}...), or its copies share one name");
      return {};
    }
  }
  size_t size = CountNodes(node);
  if (size > kMaxExpandedNodes / rows.size()) {
    reader.Error(*table, "`for_each` makes " + std::to_string(rows.size()) + " copies of a behaviour of " +
                             std::to_string(size) + " YAML nodes, past the limit of " +
                             std::to_string(kMaxExpandedNodes) + " nodes");
    return {};
  }
  std::vector<YamlNode> copies;
  for (const Row& row : rows) copies.push_back(Fill(node, row, true));
  return copies;
}

}  // namespace regemu::regdb
