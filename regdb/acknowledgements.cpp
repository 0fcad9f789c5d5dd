#include "regemu/regdb/acknowledgements.hpp"

#include <array>
#include <string>

namespace regemu::regdb {
namespace {

constexpr std::array<std::string_view, 2> kKeys{"warning", "reason"};

bool Before(SourceLoc a, SourceLoc b) { return a.line < b.line || (a.line == b.line && a.column < b.column); }

// The last position inside `node`: a warning about the item is located at
// one of its nodes, so the span from the item's first node to its last one
// holds every warning about it.
SourceLoc LastLoc(const YamlNode& node) {
  SourceLoc last = node.loc;
  for (const YamlNode& child : node.children) {
    SourceLoc inner = LastLoc(child);
    if (inner.file == last.file && Before(last, inner)) last = inner;
  }
  return last;
}

}  // namespace

void ReadAcknowledgements(const YamlNode& item, const YamlNode& list, SchemaReader& reader) {
  if (!reader.ExpectSequence(list, "acknowledge")) return;
  SourceLoc last = LastLoc(item);
  for (const YamlNode& entry : list.children) {
    if (!reader.ExpectMap(entry, "an acknowledgement", kKeys)) continue;
    const YamlNode* warning = reader.Required(entry, "warning", "an acknowledgement");
    const YamlNode* reason = reader.Required(entry, "reason", "an acknowledgement (why the warning is expected)");
    if (!warning || !reason) continue;
    auto code_name = reader.Text(*warning, "warning code");
    auto reason_text = reader.Text(*reason, "reason");
    if (!code_name || !reason_text) continue;
    std::optional<WarningCode> code = FindWarningCode(*code_name);
    if (!code) {
      reader.ReportBadChoice(*warning, "warning code", *code_name, WarningCodeNames());
      continue;
    }
    if (reason_text->find_first_not_of(" \t") == std::string::npos) {
      reader.Error(*reason, "the reason of an acknowledgement is empty: say why the warning is expected");
      continue;
    }
    reader.diagnostics().Acknowledge(Acknowledgement{*code, *reason_text, entry.loc, item.loc, last});
  }
}

}  // namespace regemu::regdb
