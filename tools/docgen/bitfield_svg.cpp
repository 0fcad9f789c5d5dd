#include "tools/docgen/bitfield_svg.hpp"

#include <algorithm>
#include <vector>

#include "tools/docgen/html.hpp"
#include "tools/docgen/policy_palette.hpp"

namespace regemu::docgen {
namespace {

constexpr int kCell = 26;         // px per bit
constexpr int kLeft = 8;          // margin before bit 31
constexpr int kNumbers = 14;      // the bit-number line above a row
constexpr int kBox = 42;          // box height
constexpr int kRowGap = 12;
constexpr double kCharWidth = 6.6;  // of the 11px sans-serif name, roughly
constexpr int kLabelSlope = 45;     // degrees, for names below narrow boxes

// A run of bits drawn as one box: a field, or bits no field covers.
struct Run {
  unsigned lsb = 0, msb = 0;
  const regdb::Field* field = nullptr;  // null: a gap
};

std::vector<Run> RunsOf(const regdb::Register& reg) {
  std::vector<Run> runs;
  std::vector<const regdb::Field*> owner(reg.width, nullptr);
  for (const regdb::Field& field : reg.fields) {
    for (unsigned b = field.bits.lsb; b <= field.bits.msb && b < reg.width; ++b) owner[b] = &field;
  }
  for (unsigned b = 0; b < reg.width;) {
    unsigned end = b;
    while (end + 1 < reg.width && owner[end + 1] == owner[b]) ++end;
    runs.push_back({b, end, owner[b]});
    b = end + 1;
  }
  return runs;
}

unsigned RowsOf(const regdb::Register& reg) { return reg.width > 32 ? 2 : 1; }
unsigned RowBits(const regdb::Register& reg) { return std::min(reg.width, 32u); }

// The x of the left edge of bit `bit`'s cell in its row (high bits on the left).
int CellX(const regdb::Register& reg, unsigned bit) {
  unsigned in_row = bit % RowBits(reg);
  return kLeft + static_cast<int>(RowBits(reg) - 1 - in_row) * kCell;
}
int RowOf(const regdb::Register& reg, unsigned bit) {
  return RowsOf(reg) == 2 && bit < 32 ? 1 : 0;
}
int RowTop(int row, int label_space) { return row * (kNumbers + kBox + label_space + kRowGap); }

std::string BitsLabel(unsigned msb, unsigned lsb) {
  return msb == lsb ? std::to_string(msb) : std::to_string(msb) + ":" + std::to_string(lsb);
}

}  // namespace

std::string BitfieldSvg(const regdb::Register& reg, const FieldMarks& marks) {
  std::vector<Run> runs = RunsOf(reg);
  uint64_t reset = reg.reset;

  // Names that do not fit their box hang below it; the longest sets the room they need.
  size_t longest_hanging = 0;
  for (const Run& run : runs) {
    if (run.field == nullptr) continue;
    double width = static_cast<double>((run.msb - run.lsb + 1) * kCell);
    if (static_cast<double>(run.field->name.size()) * kCharWidth + 6 > width) longest_hanging = std::max(longest_hanging, run.field->name.size());
  }
  int label_space = longest_hanging == 0 ? 4 : static_cast<int>(static_cast<double>(longest_hanging) * kCharWidth * 0.8) + 22;
  int width = kLeft * 2 + static_cast<int>(RowBits(reg)) * kCell + (longest_hanging == 0 ? 0 : 60);
  int height = RowTop(static_cast<int>(RowsOf(reg)), label_space) - kRowGap;

  std::string out = "<svg class=\"bitfield\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(width) +
                    "\" height=\"" + std::to_string(height) + "\" viewBox=\"0 0 " + std::to_string(width) + " " +
                    std::to_string(height) + "\" role=\"img\" aria-label=\"bit fields of " + Escape(reg.name) + "\">\n";

  // Bit numbers above each row.
  for (unsigned row = 0; row < RowsOf(reg); ++row) {
    int top = RowTop(static_cast<int>(row), label_space);
    for (unsigned i = 0; i < RowBits(reg); ++i) {
      unsigned bit = (RowsOf(reg) == 2 && row == 0 ? 32 : 0) + i;
      out += "<text class=\"bitno\" x=\"" + std::to_string(CellX(reg, bit) + kCell / 2) + "\" y=\"" +
             std::to_string(top + kNumbers - 3) + "\">" + std::to_string(bit) + "</text>";
    }
    out += "\n";
  }

  for (const Run& run : runs) {
    regdb::Access access = run.field != nullptr ? run.field->access : reg.default_access;
    const PolicyFamily& family = FamilyOf(access);
    std::string klass = run.field != nullptr ? "field" : "gap";
    std::string hover;
    const FieldMark* mark = nullptr;
    if (run.field != nullptr) {
      auto found = marks.find(run.field->name);
      if (found != marks.end()) mark = &found->second;
      hover = run.field->name + " [" + BitsLabel(run.msb, run.lsb) + "] " + PolicyInWords(access);
      if (!run.field->doc.empty()) hover += "\n" + run.field->doc.substr(0, run.field->doc.find('\n'));
      if (mark != nullptr && !mark->hover.empty()) hover += "\n" + mark->hover;
    } else {
      hover = "bits " + BitsLabel(run.msb, run.lsb) + " (no field): " + PolicyInWords(access);
    }
    out += "<g class=\"" + klass + (mark != nullptr && !mark->css_class.empty() ? " " + mark->css_class : "") + "\"";
    if (run.field != nullptr) out += " data-field=\"" + Escape(run.field->name) + "\"";
    out += "><title>" + Escape(hover) + "</title>";
    // A run crossing bit 32 of a 64-bit register is drawn in both rows: still one group, one field.
    for (unsigned row_lsb = run.lsb; row_lsb <= run.msb;) {
      int row = RowOf(reg, row_lsb);
      unsigned row_msb = std::min(run.msb, RowsOf(reg) == 2 && row_lsb < 32 ? 31u : reg.width - 1);
      int top = RowTop(row, label_space) + kNumbers;
      int x = CellX(reg, row_msb);
      int w = static_cast<int>(row_msb - row_lsb + 1) * kCell;
      out += "<rect class=\"" + std::string(family.css_class) + "\" x=\"" + std::to_string(x) + "\" y=\"" +
             std::to_string(top) + "\" width=\"" + std::to_string(w) + "\" height=\"" + std::to_string(kBox) + "\"/>";
      // Reset bits, one per cell.
      for (unsigned b = row_lsb; b <= row_msb; ++b) {
        out += "<text class=\"resetbit\" x=\"" + std::to_string(CellX(reg, b) + kCell / 2) + "\" y=\"" +
               std::to_string(top + kBox - 5) + "\">" + (((reset >> b) & 1) != 0 ? "1" : "0") + "</text>";
      }
      if (run.field != nullptr && row_lsb == run.lsb) {
        const std::string& name = run.field->name;
        if (static_cast<double>(name.size()) * kCharWidth + 6 <= w) {
          out += "<text class=\"fieldname\" x=\"" + std::to_string(x + w / 2) + "\" y=\"" + std::to_string(top + 18) +
                 "\">" + Escape(name) + "</text>";
        } else {
          int lx = x + w / 2;
          int ly = top + kBox + 12;
          out += "<text class=\"fieldname hanging\" x=\"" + std::to_string(lx) + "\" y=\"" + std::to_string(ly) +
                 "\" transform=\"rotate(" + std::to_string(kLabelSlope) + " " + std::to_string(lx) + " " +
                 std::to_string(ly) + ")\">" + Escape(name) + "</text>";
        }
      }
      row_lsb = row_msb + 1;
    }
    out += "</g>\n";
  }
  out += "</svg>\n";
  return out;
}

}  // namespace regemu::docgen
