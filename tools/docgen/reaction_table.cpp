// A `reactions` behaviour drawn as its sentences: one row per reaction or
// rule, trigger -> condition -> actions, each register a link.
#include <string>

#include "regemu/regdb/behaviour_configs/reactions_text.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"

namespace regemu::docgen {

std::string ReactionTable(const Site&, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::ReactionsConfig*>(spec.config.get());
  if (config == nullptr) return "";
  std::string out = "<h2>Reactions and rules</h2>\n<table class=\"reactions\"><thead><tr><th>name</th><th>when</th>"
                    "<th>if</th><th>then</th><th>ref</th></tr></thead><tbody>\n";
  for (const regdb::Reaction& reaction : config->reactions) {
    out += "<tr id=\"" + Escape(reaction.name) + "\"><td><b>" + Escape(reaction.name) + "</b>" +
           (reaction.rule ? " <span class=\"marker\">rule</span>" : "") + "</td><td>" +
           Escape(regdb::TriggerText(reaction.trigger)) + "</td><td><code>" +
           Escape(reaction.when ? reaction.when->text() : "") + "</code></td><td>" +
           Escape(regdb::ActionsText(reaction.actions, *config)) + "</td><td>" + Escape(reaction.ref) + "</td></tr>\n";
    if (!reaction.doc.empty()) out += "<tr class=\"doc\"><td></td><td colspan=\"4\">" + Escape(reaction.doc) + "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string ReactionSentences(const Site& site, const regdb::Register& reg) {
  std::vector<regdb::ReactionUse> uses = regdb::ReactionUsesOf(site.db(), reg);
  if (uses.empty()) return "";
  std::string out = "<h2>What accesses to it do</h2>\n<ul class=\"reactions\">\n";
  for (const regdb::ReactionUse& use : uses) {
    const auto& config = static_cast<const regdb::ReactionsConfig&>(*use.behaviour->config);
    out += "<li>" + std::string(use.reaction->rule ? "rule" : "reaction") + " <a href=\"" +
           Escape(BehaviourHref(PageDepth::kSubfolder, use.behaviour->name)) + "#" + Escape(use.reaction->name) + "\">" +
           Escape(use.reaction->name) + "</a>: " + Escape(regdb::ReactionText(*use.reaction, config)) + "</li>\n";
  }
  return out + "</ul>\n";
}

}  // namespace regemu::docgen
