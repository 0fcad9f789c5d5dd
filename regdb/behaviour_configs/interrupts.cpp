// `kind: interrupts`: the check of an interrupt roll-up (yaml/README.md,
// "kind: interrupts").
#include "regemu/regdb/behaviour_configs/interrupts.hpp"

#include <algorithm>
#include <array>
#include <set>

#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/register_scope.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 5> kKeys{"kind", "name", "sources", "outputs", "interrupt_parent"};
constexpr std::array<std::string_view, 6> kSourceKeys{"name", "status", "enable", "mask", "when", "doc"};
constexpr std::array<std::string_view, 6> kOutputKeys{"name", "sources", "line", "lines", "route", "doc"};

// `when:` of a source, `route:` of an output: a number expression over the
// device's registers and fields.
std::optional<Expression> ReadNumber(const YamlNode& node, const std::string& what, const Database& database,
                                     SchemaReader& reader) {
  return ParseTypedExpression(node, RegisterScope(database), reader, what, ExpressionType::kNumber);
}

std::optional<InterruptSource> ReadSource(const YamlNode& node, const std::string& what, const Database& database,
                                          SchemaReader& reader) {
  if (!reader.ExpectMap(node, "an interrupt source", kSourceKeys)) return std::nullopt;
  const YamlNode* name = reader.Required(node, "name", "interrupt source");
  const YamlNode* status = reader.Required(node, "status", "interrupt source");
  if (!name || !status) return std::nullopt;
  auto id = reader.Identifier(*name, "source name");
  auto bits = ResolveRegisterBits(*status, "status of " + what, database, reader);
  if (!id || !bits) return std::nullopt;
  InterruptSource source{*id, *bits, std::nullopt, std::nullopt, std::nullopt};
  for (auto [key, slot] : {std::pair{"enable", &source.enable}, std::pair{"mask", &source.mask}}) {
    const YamlNode* value = node.Find(key);
    if (value == nullptr) continue;
    auto resolved = ResolveRegisterBits(*value, std::string(key) + " of " + what, database, reader);
    if (!resolved) return std::nullopt;
    *slot = *resolved;
  }
  if (const YamlNode* when = node.Find("when")) {
    source.when = ReadNumber(*when, "condition of source '" + *id + "' of " + what, database, reader);
    if (!source.when) return std::nullopt;
  }
  return source;
}

// `lines: [IRQ0, IRQ1, ...]` with `route: EXPR` choosing one of them.
void ReadLines(const YamlNode& item, const YamlNode& lines, const YamlNode* route, const std::string& what,
               const Database& database, SchemaReader& reader, InterruptOutput& output) {
  if (!reader.ExpectSequence(lines, "lines")) return;
  if (lines.children.empty()) reader.Error(lines, what + " has an empty 'lines' list");
  std::set<std::string> seen;
  for (const YamlNode& each : lines.children) {
    auto name = reader.Identifier(each, "line");
    if (!name) continue;
    if (!seen.insert(*name).second) {
      reader.Error(each, what + " names line '" + *name + "' twice in 'lines'");
      continue;
    }
    output.lines.push_back(database.ScopedName(*name));
  }
  if (route == nullptr) {
    reader.Error(item, what + " has 'lines' but no 'route' (the expression choosing one)");
    return;
  }
  output.route = ReadNumber(*route, "route of " + what, database, reader);
}

}  // namespace

std::unique_ptr<BehaviourConfig> CheckInterruptsConfig(const BehaviourSpec& spec, const Database& database,
                                                       SchemaReader& reader) {
  if (!reader.ExpectMap(spec.yaml, "an interrupts behaviour", kKeys)) return nullptr;
  std::string what = "interrupts behaviour '" + spec.name + "'";
  auto config = std::make_unique<InterruptsConfig>();
  const YamlNode* sources = reader.Required(spec.yaml, "sources", what);
  if (!sources || !reader.ExpectSequence(*sources, "sources")) return nullptr;
  std::set<std::string> names;
  for (const YamlNode& item : sources->children) {
    auto source = ReadSource(item, what, database, reader);
    if (!source) continue;
    if (!names.insert(source->name).second) {
      reader.Error(*item.Find("name"), what + " has two sources named '" + source->name + "'");
      continue;
    }
    config->sources.push_back(std::move(*source));
  }
  if (const YamlNode* parent = spec.yaml.Find("interrupt_parent")) {
    if (auto name = ResolveInterruptParent(spec, *parent, what, database, reader)) config->interrupt_parent = *name;
  }
  std::vector<std::string_view> source_names(names.begin(), names.end());
  std::set<std::string> outputs;
  bool request_taken = false;
  if (const YamlNode* list = spec.yaml.Find("outputs"); list && reader.ExpectSequence(*list, "outputs")) {
    for (const YamlNode& item : list->children) {
      if (!reader.ExpectMap(item, "an interrupt output", kOutputKeys)) continue;
      const YamlNode* name = reader.Required(item, "name", "interrupt output");
      if (!name) continue;
      auto id = reader.Identifier(*name, "output name");
      if (!id) continue;
      if (!outputs.insert(*id).second) reader.Error(*name, what + " has two outputs named '" + *id + "'");
      InterruptOutput output{*id, {}, "", {}, std::nullopt};
      const YamlNode* lines = item.Find("lines");
      const YamlNode* route = item.Find("route");
      if (lines != nullptr) ReadLines(item, *lines, route, what + ": output '" + *id + "'", database, reader, output);
      if (route != nullptr && lines == nullptr) {
        reader.Error(*route, what + ": output '" + *id + "' has 'route' but no 'lines' (the lines it chooses from)");
      }
      if (const YamlNode* line = item.Find("line")) {
        if (lines != nullptr) {
          reader.Error(*line, what + ": output '" + *id + "' has both 'line' and 'lines' (give one)");
        } else if (auto text = reader.Identifier(*line, "line")) {
          output.line = database.ScopedName(*text);
        }
      } else if (lines != nullptr || route != nullptr) {
        // a routed output: never the device's interrupt request
      } else if (request_taken) {
        reader.Error(*name, what + ": only one output without `line:` drives the device's interrupt request");
      } else {
        request_taken = true;
      }
      if (const YamlNode* chosen = item.Find("sources"); chosen && reader.ExpectSequence(*chosen, "sources")) {
        for (const YamlNode& each : chosen->children) {
          auto source = reader.Identifier(each, "source");
          if (!source) continue;
          auto found = std::find(source_names.begin(), source_names.end(), *source);
          if (found == source_names.end()) {
            reader.Error(each, what + ": output '" + *id + "' names unknown source '" + *source + "'" +
                                   DidYouMean(*source, source_names));
            continue;
          }
          for (uint32_t s = 0; s < config->sources.size(); ++s) {
            if (config->sources[s].name == *source) output.sources.push_back(s);
          }
        }
      } else {
        for (uint32_t s = 0; s < config->sources.size(); ++s) output.sources.push_back(s);
      }
      config->outputs.push_back(std::move(output));
    }
  } else {
    InterruptOutput output{"irq", {}, "", {}, std::nullopt};
    for (uint32_t s = 0; s < config->sources.size(); ++s) output.sources.push_back(s);
    config->outputs.push_back(std::move(output));
  }
  return config;
}

std::vector<std::string> InterruptsConfig::OutputLines() const {
  std::vector<std::string> names;
  auto add = [&](const std::string& line) {
    if (std::find(names.begin(), names.end(), line) == names.end()) names.push_back(line);
  };
  for (const InterruptOutput& output : outputs) {
    if (!output.line.empty()) add(output.line);
    for (const std::string& line : output.lines) add(line);
  }
  return names;
}

}  // namespace regemu::regdb
