#include "tools/regemu/schema_command.hpp"

#include <fstream>
#include <ostream>
#include <string_view>

#include <nlohmann/json.hpp>

#include "regemu/regdb/access.hpp"
#include "regemu/regdb/acknowledgements.hpp"
#include "regemu/regdb/behaviour_table.hpp"
#include "regemu/regdb/behaviour_kinds.hpp"
#include "regemu/regdb/diagnostics.hpp"

namespace regemu::tools {

// regdb/schema/database.schema.json, embedded by cmake/EmbedText.cmake.
extern const std::string_view kDatabaseSchemaText;

namespace {

using nlohmann::ordered_json;

// The enums come from the tables the loader itself reads (the .def files),
// so a new policy, kind or warning code reaches editors with no edit here.
void FillEnums(ordered_json& definitions) {
  ordered_json policies = ordered_json::array();
  ordered_json summaries = ordered_json::array();
  for (const regdb::AccessInfo& info : regdb::AllAccessPolicies()) {
    policies.push_back(info.name);
    summaries.push_back(info.summary);
  }
  definitions["access_policy"]["enum"] = policies;
  // Not a JSON Schema keyword: VS Code's JSON and YAML services show it
  // beside each completion; validators ignore it.
  definitions["access_policy"]["enumDescriptions"] = summaries;

  ordered_json kinds = ordered_json::array();
  for (std::string_view kind : regdb::BehaviourKindNames()) kinds.push_back(kind);
  definitions["behaviour_kind"]["enum"] = kinds;

  ordered_json codes = ordered_json::array();
  for (std::string_view code : regdb::WarningCodeNames()) codes.push_back(code);
  definitions["warning_code"]["enum"] = codes;
}

// SchemaReader::ExpectMap accepts `acknowledge` in every mapping it checks;
// the schema's closed mappings (additionalProperties: false) say the same.
void AddAcknowledge(ordered_json& node) {
  if (node.is_object()) {
    auto closed = node.find("additionalProperties");
    if (closed != node.end() && closed->is_boolean() && !closed->get<bool>() && node.contains("properties")) {
      node["properties"][std::string(regdb::kAcknowledgeKey)] = {
          {"description", "warnings expected on this item, each with its reason (yaml/README.md, "
                          "\"Acknowledging a warning\")"},
          {"type", "array"},
          {"items", {{"$ref", "#/definitions/acknowledgement"}}}};
    }
    for (auto& [key, value] : node.items()) AddAcknowledge(value);
  } else if (node.is_array()) {
    for (ordered_json& item : node) AddAcknowledge(item);
  }
}

// Every behaviour kind's mapping takes `for_each:` (regdb/behaviour_table.hpp),
// which the loader reads before the kind's check sees the rest.
void AddForEach(ordered_json& definitions) {
  for (auto& [name, definition] : definitions.items()) {
    if (name.rfind("behaviour_", 0) != 0 || !definition.contains("properties")) continue;
    if (!definition["properties"].contains("kind")) continue;  // not a kind's mapping
    definition["properties"][std::string(regdb::kForEachKey)] = {{"$ref", "#/definitions/behaviour_table"}};
  }
}

}  // namespace

std::string DatabaseSchemaJson() {
  ordered_json schema = ordered_json::parse(kDatabaseSchemaText);
  FillEnums(schema["definitions"]);
  AddForEach(schema["definitions"]);
  AddAcknowledge(schema);
  return schema.dump(2) + "\n";
}

int RunSchema(const SchemaOptions& options, std::ostream& out, std::ostream& err) {
  std::string text = DatabaseSchemaJson();
  if (options.output == "-") {
    out << text;
    return 0;
  }
  std::ofstream file(options.output, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    err << "regemu schema: cannot write '" << options.output << "'\n";
    return 1;
  }
  return 0;
}

}  // namespace regemu::tools
