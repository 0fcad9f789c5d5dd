#pragma once
// driver_fuzz's engine: the example i915 driver (examples/i915_mini) runs
// its probe, force-wake, interrupt and frequency paths against an Ice Lake
// device while the input plays the hardware side:
//   - what firmware leaves in PCI COMMAND (memory decode, bus mastering)
//     and STATUS (error bits pending) when the driver probes,
//   - the force-wake ack latency (up to kMaxForcewakeLatencyNs, well inside
//     i915's 50 ms ack timeout: a longer one would be broken hardware),
//   - interrupt events, each an engine and its 16 bits of data, arriving
//     before any chosen access of the driver (between any two accesses of
//     the handler too), or a latency change,
//   - how many times the handler runs, and the time between runs.
// The driver is correct when the device records no violation and the run
// ends within kMaxAccesses; the first violation, or the access limit, ends
// the run as a failure naming it. Every run can be written as a regemu
// script (the device's trace, with the hardware side's pokes, injects and
// steps in order) that `regemu run yaml/icl` replays to the same violation.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "examples/i915_mini/bugs.hpp"
#include "tests/fuzz/script_writer.hpp"

namespace regemu::fuzz {

struct DriverFailure {
  std::string message;       // the violation as the device records it, or the hang
  uint64_t access_index = 0;  // the driver's access it happened at (0-based)
};

class DriverHarness {
 public:
  static constexpr size_t kMaxEvents = 32;
  static constexpr size_t kMaxHandlerRuns = 8;
  static constexpr uint64_t kMaxForcewakeLatencyNs = 1'000'000;
  static constexpr uint64_t kMaxGapNs = 200'000;  // between two handler runs
  // Far above what the driver makes (a few hundred accesses and polls):
  // reaching it means the driver does not finish.
  static constexpr uint64_t kMaxAccesses = 200'000;

  // `model`: the shipped Ice Lake model (yaml/icl); `yaml_path` is named in
  // reproducers. Aborts with a message when the model lacks what the
  // driver needs.
  DriverHarness(std::shared_ptr<const emulator::Model> model, std::string yaml_path);
  ~DriverHarness();
  DriverHarness(const DriverHarness&) = delete;
  DriverHarness& operator=(const DriverHarness&) = delete;

  // Runs the driver, with `bugs` switched on, on the hardware behaviour the
  // input describes, from a fresh device. With `script`, writes the run
  // there as a reproducer.
  std::optional<DriverFailure> Run(const uint8_t* data, size_t size, i915_mini::Bugs bugs, ScriptWriter* script);

 private:
  class Execution;

  std::shared_ptr<const emulator::Model> model_;
  std::string yaml_path_;
  std::unique_ptr<emulator::Device> device_;
  emulator::DeviceSnapshot pristine_;
  ScriptWriter* script_ = nullptr;  // the run's reproducer, while one is written
};

}  // namespace regemu::fuzz
