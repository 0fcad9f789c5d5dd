#pragma once
// Prints a device's trace phase by phase: a heading per driver step, then
// that step's accesses, one line each with the register and a note. Long
// phases keep their first and last lines (the middle is counted, not
// shown) unless asked for everything.

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/violation.hpp"
#include "examples/demo/annotator.hpp"

namespace regemu::demo {

class PhasePrinter {
 public:
  // `max_lines`: accesses shown per phase before eliding (0: all).
  PhasePrinter(const emulator::Device& device, std::ostream& out, size_t max_lines);

  // Ends the current phase (prints its accesses) and starts the next.
  void Begin(std::string_view title);
  // Prints the accesses made since the last print.
  void Flush();
  // A line of the demo's own (an event from outside the driver, a result).
  void Say(std::string_view text);

 private:
  std::string Line(const emulator::TraceEntry& entry);

  const emulator::Device& device_;
  std::ostream& out_;
  size_t max_lines_;
  Annotator annotator_;
  uint64_t printed_through_ = 0;  // the last trace sequence printed
};

// Prints each of `violations` as the kit describes it, indented under a
// bug's run.
void PrintViolations(const std::vector<emulator::Violation>& violations, const emulator::Model& model,
                     std::ostream& out);

// A bug run's verdict: prints `device`'s violations and whether they are
// what a bug breaking one protocol rule causes (exactly one, protocol).
bool PrintOneProtocolViolation(const emulator::Device& device, const emulator::Model& model, std::ostream& out);

}  // namespace regemu::demo
