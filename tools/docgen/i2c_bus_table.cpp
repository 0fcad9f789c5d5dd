// An `i2c-bus` behaviour drawn as what is on the wire: the command entry's
// layout, where the address comes from, where read bytes go, the signals
// reactions hear, and each target with its memory.
#include <string>

#include "regemu/regdb/behaviour_configs/i2c_bus.hpp"
#include "regemu/regdb/numbers.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;  // behaviour pages live in b/

std::string BitsOf(const regdb::FieldBits& bits) {
  unsigned width = 0;
  for (uint64_t mask = bits.mask >> bits.shift; mask != 0; mask >>= 1) ++width;
  if (width <= 1) return "bit " + std::to_string(bits.shift);
  return "bits " + std::to_string(bits.shift + width - 1) + ":" + std::to_string(bits.shift);
}

}  // namespace

std::string I2cBusTable(const Site& site, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::I2cBusConfig*>(spec.config.get());
  if (config == nullptr) return "";
  const regdb::Database& db = site.db();
  std::string out = "<h2>On the bus</h2>\n<table class=\"reactions\"><tbody>\n";
  out += "<tr><td><b>command</b></td><td>data " + BitsOf(config->data) + ", read " + BitsOf(config->read) + ", STOP " +
         BitsOf(config->stop) + (config->restart.mask != 0 ? ", RESTART " + BitsOf(config->restart) : std::string()) +
         " (entries drained into it by a fifo, one per byte time)</td></tr>\n";
  out += "<tr><td><b>address</b></td><td><code>" + Escape(config->address.text()) + "</code> at each START</td></tr>\n";
  out += "<tr><td><b>read bytes</b></td><td>to fifo <a href=\"" + Escape(BehaviourHref(kDepth, config->receive)) +
         "\">" + Escape(config->receive) + "</a></td></tr>\n";
  for (const regdb::RegisterBits& active : config->active) {
    out += "<tr><td><b>active</b></td><td>" + RegisterLink(kDepth, db.registers[active.reg].name) +
           Escape(active.text.find('.') == std::string::npos ? "" : active.text.substr(active.text.find('.'))) +
           " = 1 while a transfer holds the bus</td></tr>\n";
  }
  out += "<tr><td><b>signals</b></td><td><code>" + Escape(spec.name) + ".start</code>, <code>" + Escape(spec.name) +
         ".nack</code> (no target acknowledged), <code>" + Escape(spec.name) + ".stop</code></td></tr>\n";
  for (const regdb::I2cTarget& target : config->targets) {
    out += "<tr><td><b>target</b></td><td><b>" + Escape(target.name) + "</b> at " + Escape(regdb::Hex(target.address)) +
           ": " + std::to_string(target.size) + " bytes behind a " + std::to_string(target.pointer_bytes) +
           "-byte pointer" +
           (target.page != 0 ? ", writes wrap in " + std::to_string(target.page) + "-byte pages" : std::string()) +
           "</td></tr>\n";
  }
  return out + "</tbody></table>\n";
}

}  // namespace regemu::docgen
