#pragma once
// Typed, located reading of YamlNodes: every conversion that fails records
// an error at the offending node and returns nothing, so the loader keeps
// going and reports all problems of a file at once (OpenTitan's check_keys,
// with TableGen's locations). Behaviour kinds use it for their own configs.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

bool IsIdentifier(std::string_view text);
// A field's name: a C identifier, or a datasheet's name that starts with a
// digit (HPET's 32MODE_CNF): letters, digits and '_', with a letter in it,
// and never a number (`0x10`, `1_000`). Reached as REG.FIELD only.
bool IsFieldName(std::string_view text);

class SchemaReader {
 public:
  explicit SchemaReader(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  Diagnostics& diagnostics() { return diagnostics_; }

  // `node` must be a mapping whose keys are all in `allowed`: reports an
  // unknown key (with "did you mean"), a duplicate key, or a non-mapping.
  bool ExpectMap(const YamlNode& node, std::string_view what, std::span<const std::string_view> allowed);
  bool ExpectSequence(const YamlNode& node, std::string_view what);

  // The value of a required key, or nullptr after reporting that it is missing.
  const YamlNode* Required(const YamlNode& map, std::string_view key, std::string_view what);

  std::optional<std::string> Text(const YamlNode& node, std::string_view what);
  std::optional<std::string> Identifier(const YamlNode& node, std::string_view what);
  std::optional<std::string> FieldName(const YamlNode& node, std::string_view what);
  std::optional<uint64_t> Unsigned(const YamlNode& node, std::string_view what, uint64_t min = 0,
                                   uint64_t max = ~uint64_t{0});
  std::optional<bool> Bool(const YamlNode& node, std::string_view what);
  std::optional<unsigned> Width(const YamlNode& node, std::string_view what);
  std::optional<BitRange> Bits(const YamlNode& node, std::string_view what);
  std::optional<uint64_t> DurationNs(const YamlNode& node, std::string_view what);

  // One of a fixed set of words; reports the allowed ones and a close match.
  template <typename T>
  std::optional<T> Choice(const YamlNode& node, std::string_view what,
                          std::initializer_list<std::pair<std::string_view, T>> choices) {
    auto text = Text(node, what);
    if (!text) return std::nullopt;
    for (const auto& [name, value] : choices) {
      if (name == *text) return value;
    }
    std::vector<std::string_view> names;
    for (const auto& choice : choices) names.push_back(choice.first);
    ReportBadChoice(node, what, *text, names);
    return std::nullopt;
  }

  void ReportBadChoice(const YamlNode& node, std::string_view what, std::string_view got,
                       std::span<const std::string_view> names);

  Diagnostic& Error(const YamlNode& node, std::string message) { return diagnostics_.Error(node.loc, std::move(message)); }

 private:
  Diagnostics& diagnostics_;
};

}  // namespace regemu::regdb
