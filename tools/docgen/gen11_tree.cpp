// The Gen11 interrupt page: the tree an interrupt climbs, left to right:
// engine → its enable (and mask) half → its bit in a GT INT DW bank → the
// bank's bit in the master register, with the other sources (children)
// feeding the master beside the banks. Every register is a link.
#include <algorithm>
#include <map>

#include "regemu/regdb/behaviour_configs/gen11_interrupts.hpp"
#include "tools/docgen/behaviour_pictures.hpp"
#include "tools/docgen/html.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;
constexpr int kRow = 30;
constexpr int kBoxH = 22;
constexpr int kEngineX = 0, kEngineW = 100;
constexpr int kEnableX = 120, kEnableW = 290;
constexpr int kMaskX = 420, kMaskW = 260;
constexpr int kBankX = 700, kBankW = 340;  // room for "select ..., identity ..."
constexpr int kMasterX = 1070, kMasterW = 160;

std::string Box(int x, int y, int w, int h, const std::string& klass) {
  return "<rect class=\"" + klass + "\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\" width=\"" +
         std::to_string(w) + "\" height=\"" + std::to_string(h) + "\" rx=\"3\"/>";
}

std::string Text(int x, int y, const std::string& text, const std::string& klass = "node") {
  return "<text class=\"" + klass + "\" x=\"" + std::to_string(x) + "\" y=\"" + std::to_string(y) + "\">" + text + "</text>";
}

std::string Line(int x1, int y1, int x2, int y2) {
  return "<path class=\"edge\" d=\"M" + std::to_string(x1) + " " + std::to_string(y1) + " C" + std::to_string((x1 + x2) / 2) +
         " " + std::to_string(y1) + " " + std::to_string((x1 + x2) / 2) + " " + std::to_string(y2) + " " +
         std::to_string(x2) + " " + std::to_string(y2) + "\"/>";
}

std::string RegisterText(const regdb::Database& db, regdb::RegisterIndex reg, const std::string& suffix) {
  const std::string& name = db.registers[reg].name;
  return "<a href=\"" + Escape(RegisterHref(kDepth, name)) + "\">" + Escape(name) + "</a>" + Escape(suffix);
}

std::string HalfText(const regdb::Database& db, const regdb::Gen11InterruptsConfig::Half& half) {
  return RegisterText(db, half.reg, "[" + std::to_string(half.shift + 15) + ":" + std::to_string(half.shift) + "]");
}

}  // namespace

std::string Gen11InterruptTree(const Site& site, const regdb::BehaviourSpec& spec) {
  const auto* config = dynamic_cast<const regdb::Gen11InterruptsConfig*>(spec.config.get());
  if (config == nullptr) return "";
  const regdb::Database& db = site.db();
  std::vector<const regdb::Gen11InterruptsConfig::Engine*> engines;
  for (const auto& engine : config->engines) engines.push_back(&engine);
  std::stable_sort(engines.begin(), engines.end(), [](auto* a, auto* b) {
    return std::pair(a->bank, a->bit) < std::pair(b->bank, b->bit);
  });
  int rows = static_cast<int>(engines.size() + config->children.size());
  int height = std::max(rows, 1) * kRow + 40;
  std::string out = "<h2>Interrupt tree</h2>\n<p>An engine's interrupt reaches the CPU when its enable half lets it "
                    "through (the columns read left to right), its mask half does not hold it, its bank's bit is set in the master register and the "
                    "master's enable bit " + std::to_string(config->master_enable_bit) + " is set. The driver reads the "
                    "master, then each set bank's DW, selects a bit to read its identity (the Shared IIR), acks the "
                    "identity and then the DW.</p>\n";
  out += "<div class=\"picture\"><svg class=\"interrupt-tree\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
         std::to_string(kMasterX + kMasterW + 10) + "\" height=\"" + std::to_string(height) + "\">\n";
  int top = 24;
  out += Text(kEngineX, 14, "engine", "column") + Text(kEnableX, 14, "enable", "column") +
         Text(kMaskX, 14, "mask", "column") +
         Text(kBankX, 14, "GT INT DW bank", "column") + Text(kMasterX, 14, "master", "column");

  // The master, centred on everything feeding it.
  int master_y = top + (rows * kRow) / 2 - kBoxH;
  out += "<g class=\"tree-node master\">" + Box(kMasterX, master_y, kMasterW, kBoxH * 2, "master") +
         Text(kMasterX + 6, master_y + 16, RegisterText(db, config->master, "")) +
         Text(kMasterX + 6, master_y + 34, "enable: bit " + std::to_string(config->master_enable_bit), "detail") + "</g>\n";

  // Banks, each centred on its engines.
  std::map<unsigned, std::pair<int, int>> bank_rows;  // bank → first, last engine row
  for (size_t i = 0; i < engines.size(); ++i) {
    auto [it, fresh] = bank_rows.try_emplace(engines[i]->bank, static_cast<int>(i), static_cast<int>(i));
    it->second.second = static_cast<int>(i);
  }
  std::map<unsigned, int> bank_y;
  for (const auto& [bank, span] : bank_rows) {
    int y = top + (span.first + span.second) * kRow / 2;
    bank_y[bank] = y;
    const auto& b = config->banks[bank];
    out += "<g class=\"tree-node bank\">" + Box(kBankX, y, kBankW, kBoxH * 2, "bank") +
           Text(kBankX + 6, y + 15, RegisterText(db, b.dw, "")) +
           Text(kBankX + 6, y + kBoxH + 14, "select " + RegisterText(db, b.selector, "") + ", identity " +
                RegisterText(db, b.identity, ""), "detail") + "</g>";
    out += Line(kBankX + kBankW, y + kBoxH / 2, kMasterX, master_y + kBoxH);
    out += Text(kBankX + kBankW + 8, y + kBoxH / 2 - 3, "bit " + std::to_string(b.master_bit), "edge-label");
  }
  for (size_t i = 0; i < engines.size(); ++i) {
    const auto& engine = *engines[i];
    int y = top + static_cast<int>(i) * kRow;
    out += "<g class=\"tree-node engine\" data-engine=\"" + Escape(engine.name) + "\">" +
           Box(kEngineX, y, kEngineW, kBoxH, "engine") + Text(kEngineX + 6, y + 15, Escape(engine.name)) +
           "<title>class " + std::to_string(engine.cls) + ", instance " + std::to_string(engine.instance) + "</title></g>";
    out += Box(kEnableX, y, kEnableW, kBoxH, "gate") + Text(kEnableX + 6, y + 15, HalfText(db, engine.enable));
    out += Line(kEngineX + kEngineW, y + kBoxH / 2, kEnableX, y + kBoxH / 2);
    if (engine.mask) {
      out += Box(kMaskX, y, kMaskW, kBoxH, "gate mask") + Text(kMaskX + 6, y + 15, HalfText(db, *engine.mask));
    } else {
      out += Text(kMaskX + 6, y + 15, "never masked", "detail");
    }
    out += Line(kEnableX + kEnableW, y + kBoxH / 2, kMaskX, y + kBoxH / 2);
    auto found = bank_y.find(engine.bank);
    if (found != bank_y.end()) {
      out += Line(kMaskX + kMaskW, y + kBoxH / 2, kBankX, found->second + kBoxH / 2);
      out += Text(kMaskX + kMaskW + 6, y + kBoxH / 2 - 3, "bit " + std::to_string(engine.bit), "edge-label");
    }
    out += "\n";
  }
  for (size_t c = 0; c < config->children.size(); ++c) {
    const auto& child = config->children[c];
    int y = top + static_cast<int>(engines.size() + c) * kRow;
    out += "<g class=\"tree-node child\">" + Box(kBankX, y, kBankW, kBoxH, "child") + Text(kBankX + 6, y + 15,
           "<a href=\"" + Escape(BehaviourHref(kDepth, child.name)) + "\">" + Escape(child.name) + "</a>") + "</g>";
    out += Line(kBankX + kBankW, y + kBoxH / 2, kMasterX, master_y + kBoxH);
    out += Text(kBankX + kBankW + 8, y + kBoxH / 2 - 3, "bit " + std::to_string(child.master_bit), "edge-label");
  }
  out += "</svg></div>\n";
  return out;
}

}  // namespace regemu::docgen
