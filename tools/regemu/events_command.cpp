#include "tools/regemu/events_command.hpp"

#include <algorithm>
#include <cctype>
#include <iomanip>
#include <ostream>
#include <variant>

#include <nlohmann/json.hpp>

#include "regemu/regdb/behaviour_configs/event_counters.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/numbers.hpp"
#include "tools/regemu/register_lookup.hpp"

namespace regemu::tools {
namespace {

using Config = regdb::EventCountersConfig;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// "EVENT=0x3c UMASK=0x1", "fixed 1", plus "response=0x..." for offcore events.
std::string SelectText(const Config::Event& event) {
  if (event.fixed) return "fixed " + std::to_string(event.fixed_counter);
  std::string text;
  for (const auto& [field, value] : event.select) text += (text.empty() ? "" : " ") + field + "=" + regdb::Hex(value);
  if (event.response) text += " response=" + regdb::Hex(*event.response);
  return text.empty() ? "-" : text;
}

// Derived metrics: name, expression, unit.
void PrintMetrics(const Config& config, const std::string& grep, std::ostream& out) {
  std::vector<const Config::Metric*> metrics;
  for (const Config::Metric& metric : config.metrics) {
    if (grep.empty() || Lower(metric.name).find(grep) != std::string::npos) metrics.push_back(&metric);
  }
  if (config.metrics.empty()) return;
  out << "derived metrics: " << metrics.size() << " of " << config.metrics.size() << " (regemu's oracle: expect-metric)\n";
  size_t name_width = 4;
  for (const Config::Metric* metric : metrics) name_width = std::max(name_width, metric->name.size());
  for (const Config::Metric* metric : metrics) {
    out << std::left << std::setw(static_cast<int>(name_width)) << metric->name << "  = " << metric->expression
        << (metric->unit.empty() ? "" : "  [" + metric->unit + "]") << "\n";
  }
  if (!config.constants.empty()) {
    out << "constants:";
    for (const auto& [name, value] : config.constants) out << " " << name << "=" << value;
    out << "\n";
  }
}

}  // namespace

int RunEvents(const EventsOptions& options, std::ostream& out, std::ostream& err) {
  auto loaded_or_status = LoadForReading(options.database, "events", err);
  if (const int* status = std::get_if<int>(&loaded_or_status)) return *status;
  const regdb::LoadedDatabase& loaded = std::get<regdb::LoadedDatabase>(loaded_or_status);
  std::string grep = Lower(options.grep);
  nlohmann::json catalogs = nlohmann::json::array();
  bool any_catalog = false;
  for (const regdb::BehaviourSpec& spec : loaded.database.behaviours) {
    const auto* config = dynamic_cast<const Config*>(spec.config.get());
    if (config == nullptr) continue;
    any_catalog = true;
    std::vector<const Config::Event*> events;
    for (const Config::Event& event : config->events) {
      if (grep.empty() || Lower(event.name).find(grep) != std::string::npos) events.push_back(&event);
    }
    if (options.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const Config::Event* event : events) {
        nlohmann::json entry{{"name", event->name}, {"select", SelectText(*event)}, {"unit", event->unit},
                             {"doc", event->doc},   {"ref", event->ref}};
        if (event->root != static_cast<uint32_t>(event - config->events.data())) {
          entry["same_as"] = config->events[event->root].name;
        }
        list.push_back(std::move(entry));
      }
      nlohmann::json metrics = nlohmann::json::array();
      for (const Config::Metric& metric : config->metrics) {
        if (!grep.empty() && Lower(metric.name).find(grep) == std::string::npos) continue;
        metrics.push_back({{"name", metric.name}, {"expr", metric.expression}, {"unit", metric.unit},
                           {"doc", metric.doc}, {"ref", metric.ref}});
      }
      catalogs.push_back({{"behaviour", spec.name}, {"events", std::move(list)}, {"metrics", std::move(metrics)}});
      continue;
    }
    out << options.database << ": behaviour '" << spec.name << "': " << events.size() << " of "
        << config->events.size() << " event(s)\n";
    size_t name_width = 4;
    size_t select_width = 6;
    for (const Config::Event* event : events) {
      name_width = std::max(name_width, event->name.size());
      select_width = std::max(select_width, SelectText(*event).size());
    }
    out << std::left << std::setw(static_cast<int>(name_width)) << "name" << "  "
        << std::setw(static_cast<int>(select_width)) << "select" << "  " << std::setw(12) << "unit"
        << "  description\n";
    for (const Config::Event* event : events) {
      out << std::setw(static_cast<int>(name_width)) << event->name << "  "
          << std::setw(static_cast<int>(select_width)) << SelectText(*event) << "  " << std::setw(12)
          << (event->unit.empty() ? "-" : event->unit) << "  " << event->doc << "\n";
    }
    PrintMetrics(*config, grep, out);
  }
  if (!any_catalog) {
    err << "regemu events: " << options.database << " has no event-counters behaviour\n";
    return 1;
  }
  if (options.json) out << nlohmann::json{{"database", options.database}, {"catalogs", catalogs}}.dump(2) << "\n";
  return 0;
}

}  // namespace regemu::tools
