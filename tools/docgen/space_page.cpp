// s/NAME.html: a space's address map, to scale twice over. An overview bar
// shows the whole space (registers as ticks, reserved ranges and alias
// windows as spans, force-wake domains as coloured lanes); below it the
// populated part is drawn row by row (16 or 64 bytes a row, each register a
// box as wide as it is), with runs of empty rows folded into one line that
// says how much address space it skips. A 2 MiB MMIO space with a few
// hundred registers stays a few hundred rows.
#include <algorithm>
#include <bit>
#include <cstdio>
#include <map>
#include <variant>

#include "regemu/regdb/behaviour_configs/forcewake.hpp"
#include "tools/docgen/power_domains.hpp"
#include "tools/docgen/html.hpp"
#include "tools/docgen/pages.hpp"
#include "tools/docgen/policy_palette.hpp"

namespace regemu::docgen {
namespace {

constexpr PageDepth kDepth = PageDepth::kSubfolder;
constexpr int kOverviewWidth = 1000;
constexpr int kLane = 14;

struct DomainLane {
  std::string behaviour;
  std::string name;
  std::string colour;
  std::vector<std::pair<uint64_t, uint64_t>> ranges;  // inclusive
};

// The force-wake domains powering parts of `space`, one lane each.
std::vector<DomainLane> DomainsIn(const regdb::Database& db, regdb::SpaceIndex space) {
  std::vector<DomainLane> lanes;
  for (const regdb::BehaviourSpec& spec : db.behaviours) {
    const auto* config = dynamic_cast<const regdb::ForcewakeConfig*>(spec.config.get());
    if (config == nullptr || config->space != space) continue;
    for (size_t d = 0; d < config->domains.size(); ++d) {
      DomainLane lane{spec.name, config->domains[d].name, DomainColour(d), {}};
      for (const regdb::ForcewakeConfig::Range* range : RangesPoweredBy(*config, d)) {
        lane.ranges.emplace_back(range->first, range->last);
      }
      lanes.push_back(std::move(lane));
    }
  }
  return lanes;
}

// Overview coordinates: `size` is the extent the bar shows, from 0.
std::string X(uint64_t offset, uint64_t size) {
  return Coordinate(size == 0 ? 0 : static_cast<double>(offset) / static_cast<double>(size) * kOverviewWidth);
}

std::string W(uint64_t bytes, uint64_t size) {
  double w = size == 0 ? 0 : static_cast<double>(bytes) / static_cast<double>(size) * kOverviewWidth;
  return Coordinate(std::max(w, 1.0));
}

std::string RowId(uint64_t offset) { return "row-" + Hex(offset); }

// The bar of [0, extent): the whole space, or the part holding its registers.
std::string Overview(const Site& site, regdb::SpaceIndex index, const std::vector<DomainLane>& lanes,
                     uint64_t row_bytes, uint64_t extent) {
  const regdb::Database& db = site.db();
  struct {
    uint64_t size;
  } space{extent};
  int height = kLane * (3 + static_cast<int>(lanes.size())) + 16;
  std::string out = "<svg class=\"address-map\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" +
                    std::to_string(kOverviewWidth + 160) + "\" height=\"" + std::to_string(height) + "\">\n";
  auto label = [&](int lane, const std::string& text) {
    out += "<text class=\"lane-label\" x=\"" + std::to_string(kOverviewWidth + 6) + "\" y=\"" +
           std::to_string(lane * kLane + 11) + "\">" + Escape(text) + "</text>";
  };
  // Lane 0: registers, one tick per populated pixel column (a 10,000-register
  // space is 1,000 ticks, not 10,000), linking to its first row.
  std::map<int, std::pair<uint64_t, size_t>> columns;  // pixel → first offset, count
  for (const regdb::Register* reg : site.registers_in(index)) {
    if (reg->offset >= space.size) break;
    int column = static_cast<int>(static_cast<double>(reg->offset) / static_cast<double>(std::max<uint64_t>(space.size, 1)) * kOverviewWidth);
    auto [it, fresh] = columns.try_emplace(column, reg->offset, 0);
    ++it->second.second;
  }
  out += "<rect class=\"lane-bg\" x=\"0\" y=\"0\" width=\"" + std::to_string(kOverviewWidth) + "\" height=\"" +
         std::to_string(kLane - 2) + "\"/>";
  for (const auto& [column, first] : columns) {
    out += "<a href=\"#" + RowId(first.first / row_bytes * row_bytes) + "\"><rect class=\"tick\" x=\"" +
           std::to_string(column) + "\" y=\"0\" width=\"1\" height=\"" + std::to_string(kLane - 2) + "\"><title>" +
           std::to_string(first.second) + " register(s) from " + Hex(first.first) + "</title></rect></a>";
  }
  label(0, "registers");
  // Lane 1: reserved ranges and windows.
  out += "<rect class=\"lane-bg\" x=\"0\" y=\"" + std::to_string(kLane) + "\" width=\"" + std::to_string(kOverviewWidth) +
         "\" height=\"" + std::to_string(kLane - 2) + "\"/>";
  for (const regdb::Range& range : db.ranges) {
    if (range.space != index || range.base >= space.size) continue;
    std::string klass = range.kind == regdb::RangeKind::kAlias ? "window" : "reserved";
    out += "<a href=\"#" + RowId(range.base / row_bytes * row_bytes) + "\"><rect class=\"" + klass + "\" x=\"" +
           X(range.base, space.size) + "\" y=\"" + std::to_string(kLane) + "\" width=\"" + W(range.size, space.size) +
           "\" height=\"" + std::to_string(kLane - 2) + "\"><title>" + Escape(range.name) + " " + Hex(range.base) +
           "\xE2\x80\x93" + Hex(range.base + range.size - 1) + "</title></rect></a>";
  }
  label(1, "ranges, windows");
  // One lane per power domain.
  for (size_t l = 0; l < lanes.size(); ++l) {
    int y = static_cast<int>(2 + l) * kLane;
    for (const auto& [first, last] : lanes[l].ranges) {
      if (first >= space.size) continue;
      out += "<rect class=\"domain\" fill=\"" + lanes[l].colour + "\" x=\"" + X(first, space.size) + "\" y=\"" +
             std::to_string(y) + "\" width=\"" + W(last - first + 1, space.size) + "\" height=\"" +
             std::to_string(kLane - 2) + "\"><title>" + Escape(lanes[l].name) + ": " + Hex(first) + "\xE2\x80\x93" +
             Hex(last) + "</title></rect>";
    }
    label(static_cast<int>(2 + l), lanes[l].behaviour + ": " + lanes[l].name);
  }
  // The axis.
  int axis = static_cast<int>(2 + lanes.size()) * kLane + 10;
  for (int q = 0; q <= 4; ++q) {
    uint64_t offset = space.size / 4 * static_cast<uint64_t>(q);
    out += "<text class=\"axis\" x=\"" + std::to_string(q * kOverviewWidth / 4) + "\" y=\"" + std::to_string(axis) +
           "\" text-anchor=\"" + (q == 0 ? "start" : q == 4 ? "end" : "middle") + "\">" + Hex(offset) + "</text>";
  }
  out += "\n</svg>\n";
  return out;
}

// What the detailed map lists in address order: a row of registers, or a
// range folded into one line.
struct Row {
  uint64_t start = 0;
  std::vector<const regdb::Register*> registers;
};

// The domains powering `offset`, as colour stripes.
std::string DomainStripe(const std::vector<DomainLane>& lanes, uint64_t offset) {
  std::string out = "<span class=\"stripes\">";
  for (const DomainLane& lane : lanes) {
    for (const auto& [first, last] : lane.ranges) {
      if (offset >= first && offset <= last) {
        out += "<span class=\"stripe\" style=\"background:" + lane.colour + "\" title=\"powered by " +
               Escape(lane.behaviour + " " + lane.name) + "\"></span>";
        break;
      }
    }
  }
  return out + "</span>";
}

std::string RegisterBox(const regdb::Register& reg, uint64_t row_start, uint64_t row_bytes, uint64_t extent,
                        const CoverageMarks& coverage) {
  double left = static_cast<double>(reg.offset - row_start) / static_cast<double>(row_bytes) * 100.0;
  double width = static_cast<double>(extent) / static_cast<double>(row_bytes) * 100.0;
  char style[96];
  std::snprintf(style, sizeof style, "left:%.3f%%;width:%.3f%%", left, width);
  // The box's colour: the family of the policy most of its bits have.
  std::map<std::string_view, unsigned> bits;
  uint64_t covered = 0;
  for (const regdb::Field& field : reg.fields) {
    bits[FamilyOf(field.access).css_class] += field.bits.msb - field.bits.lsb + 1;
    covered |= field.mask();
  }
  bits[FamilyOf(reg.default_access).css_class] += static_cast<unsigned>(std::popcount(reg.width_mask() & ~covered));
  std::string_view family = std::max_element(bits.begin(), bits.end(), [](auto& a, auto& b) { return a.second < b.second; })->first;
  std::string klass = "reg " + std::string(family);
  std::string hover = reg.name + " " + Hex(reg.offset) + ", " + std::to_string(reg.width) + " bits";
  if (coverage.enabled) {
    const RegisterMark* mark = coverage.Of(reg.name);
    klass += mark != nullptr ? " covered" : " uncovered";
    hover += "\n" + (mark != nullptr ? mark->hover : std::string("no test read or wrote it"));
  }
  return "<a class=\"" + klass + "\" style=\"" + style + "\" href=\"" + Escape(RegisterHref(kDepth, reg.name)) +
         "\" title=\"" + Escape(hover) + "\">" + Escape(reg.name) + "</a>";
}

}  // namespace

std::string SpacePage(const Site& site, regdb::SpaceIndex index, const CoverageMarks& coverage) {
  const regdb::Database& db = site.db();
  const regdb::Space& space = db.spaces[index];
  PageFrame frame{space.name + " address map \xE2\x80\x94 " + db.device, db.device, kDepth};
  std::vector<DomainLane> lanes = DomainsIn(db, index);
  uint64_t row_bytes = space.indexed() ? 16 : space.size <= 0x1000 ? 16 : 64;

  std::string out = PageStart(frame);
  out += "<h1>" + Escape(space.name) + " <span class=\"marker\">" + std::string(regdb::SpaceKindName(space.kind)) +
         "</span></h1>\n";
  out += "<p class=\"where\">" + Hex(space.size) + (space.indexed() ? " indices" : " bytes") + ", accesses of " +
         space.widths.ToString() + " bits" + (space.natural_alignment && !space.indexed() ? ", naturally aligned" : "") +
         ", " + std::to_string(site.registers_in(index).size()) + " registers</p>\n";
  if (!space.doc.empty()) out += "<p>" + Escape(space.doc) + "</p>\n";
  out += "<h2>The whole space</h2>\n<div class=\"picture\">" + Overview(site, index, lanes, row_bytes, space.size) +
         "</div>\n";
  // Registers often sit in a small part of a large BAR (ICL: 2 MiB of 16):
  // that part again, to scale, where it is under a quarter of the space.
  uint64_t extent = 0;
  for (const regdb::Register* reg : site.registers_in(index)) extent = std::max(extent, reg->offset + reg->size_bytes());
  for (const DomainLane& lane : lanes) {
    for (const auto& range : lane.ranges) extent = std::max(extent, range.second + 1);
  }
  if (extent != 0 && extent < space.size / 4) {
    uint64_t rounded = uint64_t{1} << std::bit_width(extent - 1);  // a round number for the axis
    out += "<h2>Where the registers are: " + Hex(0) + "\xE2\x80\x93" + Hex(rounded - 1) + "</h2>\n<div class=\"picture\">" +
           Overview(site, index, lanes, row_bytes, rounded) + "</div>\n";
  }
  if (!lanes.empty()) {
    out += "<ul class=\"legend\">";
    for (const DomainLane& lane : lanes) {
      out += "<li><span class=\"stripe\" style=\"background:" + lane.colour + "\"></span> " +
             "<a href=\"" + Escape(BehaviourHref(kDepth, lane.behaviour)) + "\">" + Escape(lane.behaviour) + "</a> domain <b>" +
             Escape(lane.name) + "</b></li>";
    }
    out += "</ul>\n";
  }

  // Rows of registers, and folded ranges, in address order.
  std::vector<Row> rows;
  for (const regdb::Register* reg : site.registers_in(index)) {
    uint64_t start = reg->offset / row_bytes * row_bytes;
    if (rows.empty() || rows.back().start != start) rows.push_back({start, {}});
    rows.back().registers.push_back(reg);
  }
  std::vector<const regdb::Range*> ranges;
  for (const regdb::Range& range : db.ranges) {
    if (range.space == index) ranges.push_back(&range);
  }
  std::sort(ranges.begin(), ranges.end(), [](auto* a, auto* b) { return a->base < b->base; });

  out += "<h2>Row by row</h2>\n<p class=\"note\">" + std::to_string(row_bytes) + (space.indexed() ? " indices" : " bytes") +
         " a row, to scale; empty stretches are folded. Colour: the policy family of most of a register's bits.</p>\n";
  out += "<div class=\"map-rows\">\n";
  uint64_t next = 0;  // the first offset not yet shown
  size_t r = 0;
  size_t g = 0;
  auto fold = [&](uint64_t until) {
    if (until > next) {
      out += "<div class=\"fold\">" + Hex(next) + "\xE2\x80\x93" + Hex(until - 1) + ": " + Hex(until - next) +
             (space.indexed() ? " indices" : " bytes") + " with no register</div>\n";
    }
  };
  while (r < rows.size() || g < ranges.size()) {
    bool range_first = g < ranges.size() && (r >= rows.size() || ranges[g]->base < rows[r].start + row_bytes);
    if (range_first) {
      const regdb::Range& range = *ranges[g++];
      fold(range.base);
      std::string what = range.kind == regdb::RangeKind::kAlias
                             ? "window onto " + Escape(range.target_space_name) + " " + Hex(range.target_offset) + "\xE2\x80\x93" +
                                   Hex(range.target_offset + range.size - 1) +
                                   (range.writes == regdb::AliasWrites::kForward ? ", writes forwarded" : ", read-only") +
                                   (range.enabled_by ? ", decoded while " + Escape(range.enabled_by->text) + " is set" : "")
                             : std::string("reserved: reads 0, writes ignored");
      out += "<div class=\"band " + std::string(range.kind == regdb::RangeKind::kAlias ? "window" : "reserved") +
             "\" id=\"" + RowId(range.base / row_bytes * row_bytes) + "\">" + DomainStripe(lanes, range.base) + "<span class=\"addr\">" +
             Hex(range.base) + "</span> <b>" + Escape(range.name) + "</b> " + Hex(range.size) + " " +
             (space.indexed() ? "indices" : "bytes") + ": " + what + "</div>\n";
      next = std::max(next, range.base + range.size);
      continue;
    }
    const Row& row = rows[r++];
    fold(row.start);
    out += "<div class=\"row\" id=\"" + RowId(row.start) + "\">" + DomainStripe(lanes, row.start) + "<span class=\"addr\">" +
           Hex(row.start) + "</span><div class=\"lane\">";
    for (const regdb::Register* reg : row.registers) {
      out += RegisterBox(*reg, row.start, row_bytes, space.indexed() ? 1 : reg->size_bytes(), coverage);
    }
    out += "</div></div>\n";
    next = std::max(next, row.start + row_bytes);
  }
  fold(space.size);
  out += "</div>\n";
  out += PageEnd(frame);
  return out;
}

}  // namespace regemu::docgen
