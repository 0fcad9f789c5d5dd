// driver_fuzz: bytes -> the hardware side of an Ice Lake GPU (pending PCI
// errors, force-wake ack latency, engine interrupts arriving before any
// access of the driver, handler runs) while the example i915 driver
// (examples/i915_mini) probes, wakes power domains, installs and runs its
// interrupt handler and reads frequencies (driver_harness.hpp). A violation
// the driver causes, or a driver that does not finish, aborts.
//
//   REGEMU_FUZZ_BUG=NAME[,NAME]  switch the example driver's bugs on
//                                (skip-forcewake, clear-dw-before-service,
//                                select-all-pending, write-mchbar-mirror,
//                                rmw-command-status): the fuzzer must find them.
//                                Unset: the correct driver, which must never fail.
//   REGEMU_FUZZ_SCRIPT=FILE      write each input's run as a reproducer script:
//                                regemu run yaml/icl FILE stops at the same violation
//
//   seed corpus: tests/fuzz/corpus/driver_fuzz
//   tools/driver_fuzz_bugs.sh: time to first crash for each bug
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "examples/i915_mini/bugs.hpp"
#include "tests/fuzz/driver_harness.hpp"
#include "tests/fuzz/shipped_devices.hpp"

using namespace regemu;

namespace {

i915_mini::Bugs BugsFromEnvironment() {
  i915_mini::Bugs bugs;
  for (std::string_view name : fuzz::NamesFromEnvironment("REGEMU_FUZZ_BUG")) {
    bool known = false;
    for (i915_mini::Bug bug : i915_mini::kAllBugs) {
      if (i915_mini::BugName(bug) != name) continue;
      bugs = bugs.With(bug);
      known = true;
    }
    if (!known) {
      std::string names;
      for (i915_mini::Bug bug : i915_mini::kAllBugs) names += " " + std::string(i915_mini::BugName(bug));
      std::fprintf(stderr, "driver_fuzz: REGEMU_FUZZ_BUG names '%.*s'; the bugs are:%s\n",
                   static_cast<int>(name.size()), name.data(), names.c_str());
      std::exit(2);
    }
  }
  return bugs;
}

fuzz::DriverHarness& Harness() {
  static const fuzz::ShippedDevice& icl = fuzz::ShippedDeviceNamed("icl");
  static fuzz::DriverHarness harness(icl.model, icl.yaml_path);
  return harness;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const i915_mini::Bugs bugs = BugsFromEnvironment();
  static const char* script_path = std::getenv("REGEMU_FUZZ_SCRIPT");
  // Written as it grows: a hang leaves the script up to the access that hung.
  std::optional<fuzz::ScriptWriter> script;
  if (script_path != nullptr) script.emplace(script_path);
  std::optional<fuzz::DriverFailure> failure = Harness().Run(data, size, bugs, script ? &*script : nullptr);
  if (failure) {
    std::fprintf(stderr, "driver_fuzz: the driver failed at its access %llu: %s\n",
                 static_cast<unsigned long long>(failure->access_index), failure->message.c_str());
    if (script_path != nullptr) std::fprintf(stderr, "driver_fuzz: reproducer script in %s\n", script_path);
    std::abort();
  }
  return 0;
}
