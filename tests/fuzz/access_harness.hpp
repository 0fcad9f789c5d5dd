#pragma once
// access_fuzz's engine: decodes bytes into typed operations against one
// device (frontdoor reads and writes by register or raw offset, backdoor
// peek and poke, virtual time, valid injects, reset, snapshot, restore),
// runs them, and checks after each one that
//   - the trace's sequence numbers only grow,
//   - a restore brings back every register as the snapshot saw it,
//   - no frontdoor write changes a bit no write may change (ro, hw, fixed,
//     rsvd, mbz, a masked register's enable half) of a register no
//     behaviour owns,
//   - the reference model (reference_model.hpp) agrees with the device on
//     every value it predicts.
// The device is made once and restored from a pristine snapshot for every
// input: nothing is compiled per input, and the per-operation path does
// not allocate unless a reproducer script is being written.
#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"
#include "tests/fuzz/inject_menu.hpp"
#include "tests/fuzz/reference_model.hpp"
#include "tests/fuzz/script_writer.hpp"

namespace regemu::fuzz {

struct HarnessSetup {
  std::string name;       // "icl"
  std::string yaml_path;  // "yaml/icl": the reproducer's `regemu run` command names it
  std::shared_ptr<const emulator::Model> model;
  std::shared_ptr<const regdb::Database> database;  // the one `model` was compiled from
  // Script text run once, before the pristine snapshot: what a driver does
  // at probe (memory decode on, power domains awake), so that operations
  // reach registers instead of being refused. It must not touch a register
  // the reference model tracks. Every reproducer starts with it.
  std::string bring_up;
};

struct InvariantFailure {
  size_t op_index = 0;       // 0-based
  std::string op;            // the operation as a script line
  std::string message;
  uint32_t script_line = 0;  // the reproducer's line that fails when replayed; 0 when none can
};

class AccessHarness {
 public:
  static constexpr size_t kMaxOps = 256;
  // Virtual time costs real time: an OA unit at its fastest triggers every
  // 160 ns, so 1 ms is 6,250 triggers (reports, or refusals when the
  // format or buffer is bad). A campaign found inputs spending 10 ms (the
  // bound before) on that and ran at a fifth of its speed; 1 ms still
  // fills and overflows the small OA buffers (128 KiB: 512 reports).
  static constexpr uint64_t kMaxStepNs = 20'000;
  static constexpr uint64_t kMaxInputNs = 1'000'000;
  // Every tracked register is compared with the model after each operation
  // (besides the registers the operation touched, checked one by one), in
  // one pass over the state; on databases with more registers than this,
  // after every (registers / kFullCheckRegisters)th operation instead, and
  // always at the end of the input.
  static constexpr size_t kFullCheckRegisters = 1024;

  // Aborts with a message when the bring-up does not run cleanly.
  explicit AccessHarness(HarnessSetup setup);
  AccessHarness(const AccessHarness&) = delete;
  AccessHarness& operator=(const AccessHarness&) = delete;

  const std::string& name() const { return setup_.name; }
  const emulator::Model& model() const { return *setup_.model; }
  // Test hook: ReferenceModel::OverridePolicyForTest, then restart the model from reset.
  void OverridePolicyForTest(emulator::RegisterId reg, uint64_t bits, regdb::Access policy);

  // Runs one input from the pristine state; the first broken invariant, if
  // any. With `script`, writes the input as a reproducer script there.
  std::optional<InvariantFailure> Run(const uint8_t* data, size_t size, ScriptWriter* script);
  // 0 (the default): an input runs operations until its bytes run out, at
  // most kMaxOps. N: exactly N (at most kMaxOps) whatever its length, an
  // exhausted input reading as zeros: inputs of one length in operations,
  // for throughput measurements.
  void set_operations_per_input(size_t count) { operations_per_input_ = std::min(count, kMaxOps); }

 private:
  class Execution;
  void OnTrace(const emulator::TraceEntry& entry);

  HarnessSetup setup_;
  std::unique_ptr<emulator::Device> device_;
  emulator::DeviceSnapshot pristine_;
  ReferenceModel reference_;
  ReferenceModel::State pristine_reference_;
  std::vector<InjectTemplate> injects_;
  std::vector<emulator::RegisterId> registers_;  // every register, for the fuzzer's register choice
  size_t full_check_period_ = 1;                 // operations
  size_t operations_per_input_ = 0;

  // What the trace observer saw.
  uint64_t last_sequence_ = 0;
  bool sequence_went_back_ = false;
  emulator::TraceEntry last_entry_;

  // Reused across inputs, so that an operation does not allocate.
  emulator::DeviceSnapshot snapshot_;
  std::vector<uint64_t> snapshot_values_;  // every register's value when snapshot_ was taken
  std::vector<uint64_t> device_values_;    // every register's value, for the full checks
  ReferenceModel::State snapshot_reference_;
  std::vector<std::string> inject_args_;
};

}  // namespace regemu::fuzz
