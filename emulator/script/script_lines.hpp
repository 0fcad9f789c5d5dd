#pragma once
// The interrupt lines as a script run sees them (script_runner.cpp):
// read-irq, expect-irq, expect-edges and mark-edges. A line is a named one
// (Model::interrupt_lines) or "" for the device's interrupt output (`irq`
// in scripts). Edges are counted from a mark per line: where the script
// began, or its last mark-edges or expect-edges.

#include <cstdint>
#include <map>
#include <string>

#include "regemu/emulator/device.hpp"

namespace regemu::emulator {

struct LineReading {
  bool asserted = false;
  uint64_t edges = 0;  // rising edges since the line's mark
};

class LineMarks {
 public:
  // Marks every line of `device` at its edge count now.
  explicit LineMarks(const Device& device);

  LineReading Read(const Device& device, const std::string& line) const;
  // Moves the line's mark to its count now; `script_line` says where, for messages.
  void Mark(const Device& device, const std::string& line, uint32_t script_line);
  // A restore brings edge counts back with the rest of the state; a line
  // whose count went back past its mark counts again from there.
  void Restored(const Device& device);
  // Where the line's count starts: "since line 7" or "since the script began".
  std::string Since(const std::string& line) const;

 private:
  struct EdgeMark {
    uint64_t edges = 0;
    uint32_t script_line = 0;  // 0: the script's start
  };
  static uint64_t TotalEdges(const Device& device, const std::string& line);

  std::map<std::string, EdgeMark> marks_;
};

}  // namespace regemu::emulator
