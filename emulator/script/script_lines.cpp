#include "regemu/emulator/script/script_lines.hpp"

#include <algorithm>

namespace regemu::emulator {

LineMarks::LineMarks(const Device& device) {
  marks_[""] = EdgeMark{TotalEdges(device, ""), 0};
  for (const std::string& line : device.model().interrupt_lines()) marks_[line] = EdgeMark{TotalEdges(device, line), 0};
}

uint64_t LineMarks::TotalEdges(const Device& device, const std::string& line) {
  return line.empty() ? device.interrupt_edges() : device.line_edges(line);
}

LineReading LineMarks::Read(const Device& device, const std::string& line) const {
  bool asserted = line.empty() ? device.interrupt_asserted() : device.line_asserted(line);
  return LineReading{asserted, TotalEdges(device, line) - marks_.at(line).edges};
}

void LineMarks::Mark(const Device& device, const std::string& line, uint32_t script_line) {
  marks_[line] = EdgeMark{TotalEdges(device, line), script_line};
}

void LineMarks::Restored(const Device& device) {
  for (auto& [line, mark] : marks_) mark.edges = std::min(mark.edges, TotalEdges(device, line));
}

std::string LineMarks::Since(const std::string& line) const {
  uint32_t at = marks_.at(line).script_line;
  return at == 0 ? "since the script began" : "since line " + std::to_string(at);
}

}  // namespace regemu::emulator
