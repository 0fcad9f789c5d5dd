#include "regemu/regdb/schema_reader.hpp"

#include <algorithm>
#include <cctype>
#include <variant>
#include <vector>

#include "regemu/regdb/acknowledgements.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {

bool IsIdentifier(std::string_view text) {
  if (text.empty()) return false;
  auto is_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto is_rest = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return is_start(text.front()) && std::all_of(text.begin() + 1, text.end(), is_rest);
}

bool IsFieldName(std::string_view text) {
  if (IsIdentifier(text)) return true;
  auto is_rest = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  auto is_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  return !text.empty() && std::isdigit(static_cast<unsigned char>(text.front())) &&
         std::all_of(text.begin(), text.end(), is_rest) && std::any_of(text.begin(), text.end(), is_letter) &&
         std::holds_alternative<NumberError>(ParseUnsigned(text));
}

bool SchemaReader::ExpectMap(const YamlNode& node, std::string_view what, std::span<const std::string_view> allowed) {
  if (!node.IsMap()) {
    Error(node, "expected " + std::string(what) + " as a mapping, got " + DescribeKind(node.kind));
    return false;
  }
  for (size_t i = 0; i < node.MapSize(); ++i) {
    const YamlNode& key = node.MapKey(i);
    if (!key.IsScalar()) {
      Error(key, "expected a key name in " + std::string(what) + ", got " + DescribeKind(key.kind));
      continue;
    }
    // `acknowledge` is a key of every checked mapping (acknowledgements.hpp).
    if (key.text != kAcknowledgeKey && std::find(allowed.begin(), allowed.end(), key.text) == allowed.end()) {
      std::string known;
      for (std::string_view k : allowed) known += (known.empty() ? "" : ", ") + std::string(k);
      Error(key, "unknown key '" + key.text + "' in " + std::string(what) + DidYouMean(key.text, allowed) +
                     "; known keys: " + known);
      continue;
    }
    for (size_t j = 0; j < i; ++j) {
      if (node.MapKey(j).IsScalar() && node.MapKey(j).text == key.text) {
        Error(key, "key '" + key.text + "' given twice in " + std::string(what))
            .notes.push_back({node.MapKey(j).loc, "first given here"});
        break;
      }
    }
  }
  if (const YamlNode* acknowledgements = node.Find(kAcknowledgeKey)) {
    ReadAcknowledgements(node, *acknowledgements, *this);
  }
  return true;
}

bool SchemaReader::ExpectSequence(const YamlNode& node, std::string_view what) {
  if (node.IsSequence()) return true;
  Error(node, "expected " + std::string(what) + " as a sequence, got " + DescribeKind(node.kind));
  return false;
}

const YamlNode* SchemaReader::Required(const YamlNode& map, std::string_view key, std::string_view what) {
  if (const YamlNode* value = map.Find(key)) return value;
  Error(map, std::string(what) + " has no '" + std::string(key) + "' (required)");
  return nullptr;
}

std::optional<std::string> SchemaReader::Text(const YamlNode& node, std::string_view what) {
  if (node.IsScalar()) return node.text;
  Error(node, "expected " + std::string(what) + " as a scalar, got " + DescribeKind(node.kind));
  return std::nullopt;
}

std::optional<std::string> SchemaReader::Identifier(const YamlNode& node, std::string_view what) {
  auto text = Text(node, what);
  if (!text) return std::nullopt;
  if (!IsIdentifier(*text)) {
    Error(node, std::string(what) + " '" + *text +
                    "' is not a C identifier (letters, digits and '_', not starting with a digit)");
    return std::nullopt;
  }
  return text;
}

std::optional<std::string> SchemaReader::FieldName(const YamlNode& node, std::string_view what) {
  auto text = Text(node, what);
  if (!text) return std::nullopt;
  if (!IsFieldName(*text)) {
    Error(node, std::string(what) + " '" + *text +
                    "' is not a field name (letters, digits and '_'; a C identifier, or a datasheet name "
                    "starting with a digit such as 32MODE_CNF, never a number)");
    return std::nullopt;
  }
  return text;
}

std::optional<uint64_t> SchemaReader::Unsigned(const YamlNode& node, std::string_view what, uint64_t min,
                                               uint64_t max) {
  if (!node.IsScalar() || node.quoted) {
    Error(node, "expected " + std::string(what) + " as a number, got " +
                    (node.IsScalar() ? std::string("a quoted string") : DescribeKind(node.kind)));
    return std::nullopt;
  }
  auto parsed = ParseUnsigned(node.text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    Error(node, std::string(what) + ": " + error->message);
    return std::nullopt;
  }
  uint64_t value = std::get<uint64_t>(parsed);
  if (value < min || value > max) {
    Error(node, std::string(what) + " " + node.text + " is out of range [" + Hex(min) + ", " + Hex(max) + "]");
    return std::nullopt;
  }
  return value;
}

std::optional<bool> SchemaReader::Bool(const YamlNode& node, std::string_view what) {
  if (node.IsScalar() && !node.quoted) {
    if (node.text == "true") return true;
    if (node.text == "false") return false;
  }
  Error(node, "expected " + std::string(what) + " as true or false");
  return std::nullopt;
}

std::optional<unsigned> SchemaReader::Width(const YamlNode& node, std::string_view what) {
  auto value = Unsigned(node, what);
  if (!value) return std::nullopt;
  if (*value != 8 && *value != 16 && *value != 32 && *value != 64) {
    Error(node, std::string(what) + " must be 8, 16, 32 or 64 bits, got " + node.text);
    return std::nullopt;
  }
  return static_cast<unsigned>(*value);
}

std::optional<BitRange> SchemaReader::Bits(const YamlNode& node, std::string_view what) {
  auto text = Text(node, what);
  if (!text) return std::nullopt;
  auto parsed = ParseBitRange(*text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    Error(node, std::string(what) + ": " + error->message);
    return std::nullopt;
  }
  return std::get<BitRange>(parsed);
}

std::optional<uint64_t> SchemaReader::DurationNs(const YamlNode& node, std::string_view what) {
  auto text = Text(node, what);
  if (!text) return std::nullopt;
  auto parsed = ParseDurationNs(*text);
  if (auto* error = std::get_if<NumberError>(&parsed)) {
    Error(node, std::string(what) + ": " + error->message);
    return std::nullopt;
  }
  return std::get<uint64_t>(parsed);
}

void SchemaReader::ReportBadChoice(const YamlNode& node, std::string_view what, std::string_view got,
                                   std::span<const std::string_view> names) {
  std::string list;
  for (std::string_view n : names) list += (list.empty() ? "" : ", ") + std::string(n);
  Error(node, "unknown " + std::string(what) + " '" + std::string(got) + "'" + DidYouMean(got, names) +
                  "; expected one of: " + list);
}

}  // namespace regemu::regdb
