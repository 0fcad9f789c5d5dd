// script_fuzz: script text -> parse and run against each shipped database
// (yaml/hsw, yaml/bdw, yaml/icl, yaml/nvme, yaml/hpet, yaml/uart16550, yaml/dw_i2c, yaml/cmsdk_apb). Finds crashes and hangs in the script
// parser, the runner and whatever the commands reach in the device and its
// behaviours. Each device starts from the same snapshot for every input.
//
//   seed corpus: tests/scripts/*.script
//   dictionary:  tests/fuzz/script_fuzz.dict (commands, inject verbs, names)
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "tests/fuzz/shipped_devices.hpp"

using namespace regemu;

namespace {

// Virtual time costs real time in proportion to what the behaviours do in
// it (an OA unit at its fastest exponent writes a report every 160 ns), so
// a script asking for seconds of it is slow, not wrong. Inputs asking for
// more than this are skipped, as -max_len skips long inputs.
constexpr uint64_t kMaxVirtualNs = 10'000'000;

// A script for one database names registers the others lack, and each
// unknown name costs a "did you mean" search over every register (11,000
// on Haswell). Nobody reads the fuzzer's messages: a few errors exercise
// that path as well as the default fifty.
constexpr size_t kErrorLimit = 4;

uint64_t VirtualTimeAsked(const emulator::Script& script) {
  uint64_t total = 0;
  for (const emulator::ScriptCommand& command : script.commands) {
    uint64_t asked = command.op == emulator::ScriptOp::kStep ? command.value : command.timeout_ns;
    total = asked > kMaxVirtualNs ? kMaxVirtualNs + 1 : total + asked;
    if (total > kMaxVirtualNs) break;
  }
  return total;
}

struct Rig {
  std::shared_ptr<const emulator::Model> model;
  std::unique_ptr<emulator::Device> device;
  emulator::DeviceSnapshot pristine;
};

std::vector<Rig>& Rigs() {
  static std::vector<Rig> rigs = [] {
    std::vector<Rig> made;
    for (const fuzz::ShippedDevice& shipped : fuzz::ShippedDevices()) {
      emulator::DeviceOptions options;
      options.thread_safe = false;
      options.trace_capacity = 64;
      auto device = std::make_unique<emulator::Device>(shipped.model, options);
      emulator::DeviceSnapshot pristine = device->Snapshot();
      made.push_back({shipped.model, std::move(device), std::move(pristine)});
    }
    return made;
  }();
  return rigs;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (Rig& rig : Rigs()) {
    emulator::Script script = emulator::ParseScript(text, "fuzz.script", *rig.model, {.error_limit = kErrorLimit});
    if (!script.ok() || VirtualTimeAsked(script) > kMaxVirtualNs) continue;
    rig.device->Restore(rig.pristine);
    rig.device->ClearViolations();
    emulator::RunOptions options;
    options.max_virtual_ns = kMaxVirtualNs;  // a step computed from a value read is known only when it runs
    emulator::RunScript(script, *rig.device, options);
  }
  return 0;
}
