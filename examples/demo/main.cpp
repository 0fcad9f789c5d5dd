// regemu_example_demo: the example driver (examples/i915_mini) on the
// shipped Ice Lake database, its accesses printed step by step with what
// each means, then each of its deliberate bugs on a fresh device with the
// violations regemu reports; then an OA stream of the example OA driver
// (examples/i915_perf) and one of its bugs; then the example Goldmont PMU
// driver (examples/goldmont_perf) on yaml/goldmont and its bugs; then the
// example MI200 counter collector (examples/rocm_collector) against
// regemu's metric oracle, and its bugs; then the example NVMe driver
// (examples/nvme) on yaml/nvme: bring-up, Identify Controller, shutdown,
// and one of its bugs; then the example HPET driver (examples/hpet) on
// yaml/hpet: hpet_enable, a 1 kHz tick, one-shot events with the "too late"
// check, and one of its bugs; then the example 8250 driver
// (examples/uart16550) on yaml/uart16550: probe, a line sent by THRE
// interrupts at 115200 baud, and one of its bugs; then the example
// DesignWare I2C driver (examples/dw_i2c) on yaml/dw_i2c: probe, a
// write-then-read of the EEPROM at 0x50, an absent address, and one of its
// bugs. Exit 0 when the drivers
// are clean and every bug caused exactly its kind of violation.
//
//   regemu_example_demo [--full] [DB]
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <stdexcept>

#include "examples/demo/buggy_runs.hpp"
#include "examples/demo/collector_run.hpp"
#include "examples/demo/happy_run.hpp"
#include "examples/demo/hpet_run.hpp"
#include "examples/demo/nvme_run.hpp"
#include "examples/demo/i2c_run.hpp"
#include "examples/demo/uart_run.hpp"
#include "examples/demo/oa_stream_run.hpp"
#include "examples/demo/pmu_run.hpp"
#include "examples/i915_mini/bugs.hpp"
#include "regemu/fakes/device_test.hpp"

int main(int argc, char** argv) {
  using namespace regemu;
  std::filesystem::path db = REGEMU_EXAMPLE_ICL_DB;
  size_t max_lines = 16;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full") == 0) {
      max_lines = 0;
    } else if (std::strcmp(argv[i], "--help") == 0 || argv[i][0] == '-') {
      std::cerr << "usage: " << argv[0] << " [--full] [DB]   (DB defaults to " << REGEMU_EXAMPLE_ICL_DB << ")\n";
      return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
    } else {
      db = argv[i];
    }
  }

  std::shared_ptr<const emulator::Model> model;
  try {
    model = fakes::CompileDatabase(db);
  } catch (const std::exception& error) {
    std::cerr << error.what() << "\n";
    return 2;
  }

  std::cout << "regemu example driver: a mini i915 (examples/i915_mini) on " << db.string() << "\n"
            << "One line per register access: virtual time, access, space, offset, value, register, what it means.\n";
  bool happy = demo::RunHappy(model, max_lines, std::cout);

  std::cout << "\nThe same driver with one bug at a time, each on a fresh device (lenient: record, go on):\n";
  bool bugs_caught = true;
  for (i915_mini::Bug bug : i915_mini::kAllBugs) bugs_caught = demo::RunBuggy(model, bug, std::cout) && bugs_caught;

  bool oa = demo::RunOaStream(model, std::cout);
  bool pmu = demo::RunGoldmontPmu(REGEMU_EXAMPLE_GOLDMONT_DB, std::cout);
  bool collector = demo::RunRocmCollector(REGEMU_EXAMPLE_MI200_DB, std::cout);
  bool nvme = demo::RunNvme(REGEMU_EXAMPLE_NVME_DB, std::cout);
  bool hpet = demo::RunHpet(REGEMU_EXAMPLE_HPET_DB, std::cout);
  bool uart = demo::RunUart(REGEMU_EXAMPLE_UART16550_DB, std::cout);
  bool i2c = demo::RunI2c(REGEMU_EXAMPLE_DW_I2C_DB, std::cout);

  bool ok = happy && bugs_caught && oa && pmu && collector && nvme && hpet && uart && i2c;
  std::cout << "\n" << (ok ? "demo: OK" : "demo: FAILED") << " (driver clean: " << (happy ? "yes" : "NO")
            << "; every bug caught as its kind: " << (bugs_caught ? "yes" : "NO")
            << "; OA stream clean and its bug caught: " << (oa ? "yes" : "NO")
            << "; PMU driver clean and its bugs caught: " << (pmu ? "yes" : "NO")
            << "; collector matches the oracle and its bugs show: " << (collector ? "yes" : "NO")
            << "; NVMe driver clean and its bug caught: " << (nvme ? "yes" : "NO")
            << "; HPET driver clean and its bug caught: " << (hpet ? "yes" : "NO")
            << "; 16550 driver clean and its bug caught: " << (uart ? "yes" : "NO")
            << "; DesignWare I2C driver clean and its bug caught: " << (i2c ? "yes" : "NO") << ")\n";
  return ok ? 0 : 1;
}
