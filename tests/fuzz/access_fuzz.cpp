// access_fuzz: bytes -> a shipped database (hsw, bdw, icl, nvme, hpet, uart16550, dw_i2c, cmsdk_apb) and a sequence of
// typed operations against a device of it, checked against an independent
// reference model of the access policies after every operation
// (access_harness.hpp). A broken invariant aborts, naming the operation.
//
//   REGEMU_FUZZ_DEVICES=icl      only these databases (comma-separated), for measurements
//   REGEMU_FUZZ_SCRIPT=FILE      write each input run as a reproducer script to FILE:
//                                regemu run --lenient yaml/icl FILE fails where the input did
//   REGEMU_FUZZ_OPS=N            exactly N operations per input, however long
//                                (tools/fuzz_throughput.sh: 64-operation inputs)
//
//   seed corpus: tests/fuzz/corpus/access_fuzz: seed_<database>_<bytes>, random
//     operations made once by a fixed-seed generator (first byte 0 hsw, 1 bdw,
//     2 icl, 4 hpet, 5 uart16550, 6 dw_i2c, 7 cmsdk_apb), plus what campaigns merged in
//   dictionary:  tests/fuzz/access_fuzz.dict (write values; the format is binary)
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tests/fuzz/access_harness.hpp"
#include "tests/fuzz/shipped_devices.hpp"

using namespace regemu;

namespace {

// What a driver does at probe, so that operations reach registers: the PCI
// core turns memory decode and bus mastering on, i915 wakes every
// force-wake domain (tests/scripts/icl_forcewake_domains.script).
std::string BringUp(std::string_view database) {
  // NVMe: memory decode, the admin queues in host memory, enabled and ready.
  if (database == "nvme") {
    return "write16 CMD 0x0006\nwrite32 AQA 0x001F001F\nwrite64 ASQ 0x10000\nwrite64 ACQ 0x20000\n"
           "write32 CC 0x00460001\nstep 2ms\n";
  }
  // HPET: every timer busy, so that steps bring events. Timer 0 periodic
  // (level, every 100 ticks, 32-bit mode, LegacyReplacement), timer 1
  // one-shot (edge, route 20), timer 2 by FSB message; the counter runs.
  if (database == "hpet") {
    return "write32 T0_CONF 0x0000014E\nwrite32 T0_CMP 100\nwrite32 T1_CONF 0x00002804\nwrite32 T1_CMP 50\n"
           "write64 T2_FSB_ROUTE 0xFEE0000000004041\nwrite32 T2_CONF 0x00004004\nwrite32 T2_CMP 200\n"
           "write32 GEN_CONF 0x3\nstep 1us\n";
  }
  // 16550: 115200 8N1 from the 1.8432 MHz clock, FIFOs on with a 1-byte
  // trigger, OUT2 and loopback (what transmits comes back), every
  // interrupt enabled: writes to THR move both FIFOs and the IIR.
  if (database == "uart16550") {
    return "write8 LCR 0x83\nwrite8 DLL 0x01\nwrite8 DLM 0x00\nwrite8 LCR 0x03\nwrite8 FCR 0x07\n"
           "write8 MCR 0x1B\nwrite8 IER 0x0F\nstep 1us\n";
  }
  // DesignWare I2C: Linux's i2c_dw_init_master and i2c_dw_xfer_init for
  // the EEPROM at 0x50 (disabled, programmed, enabled, master interrupts
  // unmasked): commands written to IC_DATA_CMD reach the bus.
  if (database == "dw_i2c") {
    return "write32 IC_ENABLE 0\nstep 1us\nwrite32 IC_CON 0x65\nwrite32 IC_TAR 0x50\nwrite32 IC_RX_TL 0\n"
           "write32 IC_TX_TL 8\nwrite32 IC_ENABLE 1\nstep 1us\nwrite32 IC_INTR_MASK 0x254\n";
  }
  // CMSDK (the AN385's timers): every counter running with its interrupt
  // (APB timer 0, dual timer 1 periodic, 2 one-shot /16), the watchdog
  // counting with its reset enabled and left unlocked, so that steps bring
  // limit events and writes reach the gated registers (a LOCK write the
  // fuzzer makes locks it again).
  if (database == "cmsdk_apb") {
    return "write32 TIMER0_RELOAD 100\nwrite32 TIMER0_CTRL 0x9\n"
           "write32 DUALTIMER1_LOAD 50\nwrite32 DUALTIMER1_CONTROL 0xE2\n"
           "write32 DUALTIMER2_LOAD 20\nwrite32 DUALTIMER2_CONTROL 0xA7\n"
           "write32 WDOGLOCK 0x1ACCE551\nwrite32 WDOGLOAD 1000\nwrite32 WDOGCONTROL 0x3\nstep 1us\n";
  }
  if (database != "icl") return "";
  std::string text = "write16 PCICMD 0x0006\n";
  std::vector<std::string> requests = {"FORCEWAKE_GT_GEN9", "FORCEWAKE_RENDER_GEN9"};
  for (int i = 0; i < 8; ++i) requests.push_back("FORCEWAKE_MEDIA_VDBOX_GEN11_" + std::to_string(i));
  for (int i = 0; i < 4; ++i) requests.push_back("FORCEWAKE_MEDIA_VEBOX_GEN11_" + std::to_string(i));
  for (const std::string& request : requests) text += "write32 " + request + " 0x00010001\n";
  return text + "step 1us\n";
}

bool Allowed(std::string_view name) {
  static const std::vector<std::string_view> allowed = fuzz::NamesFromEnvironment("REGEMU_FUZZ_DEVICES");
  return allowed.empty() || std::find(allowed.begin(), allowed.end(), name) != allowed.end();
}

std::vector<std::unique_ptr<fuzz::AccessHarness>>& Harnesses() {
  static std::vector<std::unique_ptr<fuzz::AccessHarness>> harnesses = [] {
    std::vector<std::unique_ptr<fuzz::AccessHarness>> made;
    for (const fuzz::ShippedDevice& shipped : fuzz::ShippedDevices()) {
      if (!Allowed(shipped.name)) continue;
      made.push_back(std::make_unique<fuzz::AccessHarness>(
          fuzz::HarnessSetup{shipped.name, shipped.yaml_path, shipped.model, shipped.database, BringUp(shipped.name)}));
      if (const char* ops = std::getenv("REGEMU_FUZZ_OPS")) made.back()->set_operations_per_input(std::strtoull(ops, nullptr, 10));
    }
    if (made.empty()) {
      std::fprintf(stderr, "access_fuzz: REGEMU_FUZZ_DEVICES names none of hsw, bdw, icl, nvme, hpet, uart16550, dw_i2c, cmsdk_apb\n");
      std::abort();
    }
    return made;
  }();
  return harnesses;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  auto& harnesses = Harnesses();
  fuzz::AccessHarness& harness = *harnesses[data[0] % harnesses.size()];
  static const char* script_path = std::getenv("REGEMU_FUZZ_SCRIPT");
  // Written as it grows: a hang leaves the script up to the operation that hung.
  std::optional<fuzz::ScriptWriter> script;
  if (script_path != nullptr) script.emplace(script_path);
  std::optional<fuzz::InvariantFailure> failure = harness.Run(data + 1, size - 1, script ? &*script : nullptr);
  if (failure) {
    std::fprintf(stderr, "access_fuzz: %s: operation %zu (%s): %s\n", harness.name().c_str(), failure->op_index,
                 failure->op.c_str(), failure->message.c_str());
    if (script_path != nullptr) std::fprintf(stderr, "access_fuzz: reproducer script in %s\n", script_path);
    std::abort();
  }
  return 0;
}
