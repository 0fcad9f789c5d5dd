// An event-counter behaviour's page: its counter slots and the catalog of
// events they count (as `regemu events` lists it) and derived metrics.
#include "regemu/regdb/behaviour_configs/event_counters.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;

}  // namespace

std::string EventCatalog(const Site& site, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::EventCountersConfig*>(spec.config.get());
  if (config == nullptr) return "";
  const regdb::Database& db = site.db();
  using Config = regdb::EventCountersConfig;
  std::string out = "<h2>Counter slots</h2>\n<table class=\"slots\"><thead><tr><th>Slot</th><th>Block</th>"
                    "<th>Instances</th><th>Select</th><th>Count</th><th>Width</th></tr></thead><tbody>\n";
  for (const Config::Slot& slot : config->slots) {
    std::string count = slot.lo.reg != Config::kNone ? RegisterLink(kDepth, db.registers[slot.lo.reg].name) : "";
    if (slot.hi != Config::kNone) count += " / " + RegisterLink(kDepth, db.registers[slot.hi].name);
    out += "<tr><td>" + Escape(slot.name) + "</td><td>" + Escape(slot.block) + "</td><td class=\"num\">" +
           std::to_string(slot.dims.count()) + "</td><td>" +
           (slot.select != Config::kNone ? RegisterLink(kDepth, db.registers[slot.select].name)
                                         : "fixed: " + Escape(config->events.at(slot.fixed_event).name)) +
           "</td><td>" + count + "</td><td class=\"num\">" + std::to_string(slot.width) + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  out += "<h2>Events</h2>\n<p>" + std::to_string(config->events.size()) + " events.</p>\n";
  out += "<table class=\"events\"><thead><tr><th>Event</th><th>Block</th><th>Select</th><th>Unit</th><th>Description</th>"
         "</tr></thead><tbody>\n";
  for (const Config::Event& event : config->events) {
    std::string select;
    for (const auto& [field, value] : event.select) select += (select.empty() ? "" : ", ") + field + "=" + Hex(value);
    if (event.fixed) select += (select.empty() ? "" : ", ") + std::string("fixed counter ") + std::to_string(event.fixed_counter);
    out += "<tr id=\"event-" + Escape(event.name) + "\"><td><code>" + Escape(event.name) + "</code></td><td>" +
           Escape(event.block) + "</td><td>" + Escape(select) + "</td><td>" + Escape(event.unit) + "</td><td>" +
           Escape(event.doc.substr(0, event.doc.find('\n'))) + "</td></tr>\n";
  }
  out += "</tbody></table>\n";
  if (!config->metrics.empty()) {
    out += "<h2>Derived metrics</h2>\n<table class=\"metrics\"><thead><tr><th>Metric</th><th>Expression</th><th>Unit</th>"
           "<th>Description</th></tr></thead><tbody>\n";
    for (const Config::Metric& metric : config->metrics) {
      out += "<tr><td><code>" + Escape(metric.name) + "</code></td><td><code>" + Escape(metric.expression) +
             "</code></td><td>" + Escape(metric.unit) + "</td><td>" + Escape(metric.doc.substr(0, metric.doc.find('\n'))) +
             "</td></tr>\n";
    }
    out += "</tbody></table>\n";
  }
  return out;
}

}  // namespace regemu::docgen
