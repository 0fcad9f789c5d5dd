// A `fifo` behaviour drawn as what it connects: the way in (a register
// write, an input stream and its pace), the way out (a register read, or a
// drain at a rate to output streams and other FIFOs), and the fields it
// keeps in step.
#include <sstream>
#include <string>

#include "regemu/regdb/behaviour_configs/fifo.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;  // behaviour pages live in b/

std::string Bits(const regdb::Database& db, const regdb::RegisterBits& bits) {
  const std::string& name = db.registers[bits.reg].name;
  std::string field = bits.text.find('.') == std::string::npos ? "" : bits.text.substr(bits.text.find('.'));
  return RegisterLink(kDepth, name) + Escape(field);
}

std::string Rate(const regdb::FifoRate& rate) {
  if (rate.time) return "every <code>" + Escape(rate.time->text()) + "</code>";
  // num/den ticks per ns, shown in Hz (for reading; the model keeps the fraction).
  std::ostringstream hz;
  hz.precision(12);
  hz << static_cast<long double>(rate.clock.num) * 1e9L / static_cast<long double>(rate.clock.den);
  return "every <code>" + Escape(rate.ticks->text()) + "</code> ticks of a " + hz.str() + " Hz clock (exact)";
}

}  // namespace

std::string FifoTable(const Site& site, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::FifoConfig*>(spec.config.get());
  if (config == nullptr) return "";
  const regdb::Database& db = site.db();
  std::string out = "<h2>What it connects</h2>\n<table class=\"reactions\"><tbody>\n";
  out += "<tr><td><b>depth</b></td><td><code>" + Escape(config->depth.text()) + "</code> entries of " +
         std::to_string(config->width) + " bits</td></tr>\n";
  std::string in;
  if (config->push) in += "a frontdoor write of " + Bits(db, *config->push) + " pushes what is written";
  if (!config->input.empty()) {
    if (!in.empty()) in += "; ";
    in += "input stream <b>" + Escape(config->input) + "</b> (<code>inject " + Escape(config->input) +
          " BYTES...</code>), " + (config->arrive ? "one entry " + Rate(*config->arrive) : std::string("all at once"));
  }
  out += "<tr><td><b>in</b></td><td>" + in + "</td></tr>\n";
  std::string away;
  if (config->pop) away += "a frontdoor read of " + Bits(db, *config->pop) + " returns the oldest entry and removes it";
  if (config->drain) {
    if (!away.empty()) away += "; ";
    away += "drains one entry " + Rate(*config->drain) + " to ";
    for (size_t i = 0; i < config->routes.size(); ++i) {
      const regdb::FifoRoute& route = config->routes[i];
      away += i == 0 ? "" : ", else ";
      if (!route.stream.empty()) {
        away += "output stream <b>" + Escape(route.stream) + "</b>";
      } else {
        const std::string& behaviour = route.fifo.empty() ? route.bus : route.fifo;
        away += std::string(route.fifo.empty() ? "bus" : "fifo") + " <a href=\"" +
                Escape(BehaviourHref(kDepth, behaviour)) + "\">" + Escape(behaviour) + "</a>";
      }
      if (route.when) away += " while <code>" + Escape(route.when->text()) + "</code>";
    }
  }
  out += "<tr><td><b>out</b></td><td>" + away + "</td></tr>\n";
  if (config->level) out += "<tr><td><b>level</b></td><td>" + Bits(db, *config->level) + "</td></tr>\n";
  for (const regdb::FifoFlag& flag : config->flags) {
    out += "<tr><td><b>flag</b></td><td>" + Bits(db, flag.field) + " = 1 while <code>" + Escape(flag.when.text()) +
           "</code></td></tr>\n";
  }
  if (config->overrun) {
    out += "<tr><td><b>overrun</b></td><td>an entry finding it full is lost and sets " + Bits(db, *config->overrun) +
           "</td></tr>\n";
  }
  if (!config->overrun_rule.empty()) {
    out += "<tr><td><b>rule</b></td><td>" + Escape(config->overrun_rule) + "</td></tr>\n";
  }
  for (const regdb::FifoTrigger& clear : config->clear) {
    if (!clear.event.empty()) {
      out += "<tr><td><b>clear</b></td><td>the event <code>" + Escape(clear.event) + "</code></td></tr>\n";
      continue;
    }
    out += "<tr><td><b>clear</b></td><td>a write of " + RegisterLink(kDepth, db.registers[clear.reg].name) +
           (clear.when ? " with <code>" + Escape(clear.when->text()) + "</code>" : std::string()) + "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

}  // namespace regemu::docgen
