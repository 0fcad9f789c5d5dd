#pragma once
// The fixture of the example driver's tests: a strict Ice Lake device from
// the shipped database (fakes::DeviceTest fails a test on every violation
// it does not take), its two buses, a virtual-time delay, and helpers for
// what happens outside the driver (firmware, interrupt sources).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/emulator/violation.hpp"
#include "examples/i915_mini/delay.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::i915_mini {

class I915MiniTest : public fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(fakes::ShippedDatabase("icl")); }

  fakes::MmioBus& config() { return bus("config"); }
  fakes::MmioBus& mmio() { return bus("mmio"); }
  // The driver's udelay: moves the device's virtual clock.
  Delay VirtualDelay() {
    return [this](uint64_t ns) { device().Advance(ns); };
  }

  // What firmware leaves for the OS: memory decode and bus mastering on.
  void FirmwareEnablesDecode() { config().Write16(pci::kCommand, pci::kCommandMemory | pci::kCommandMaster); }
  // An interrupt source raising `data` (16 bits) on `engine` ("RCS0").
  void RaiseEngineInterrupt(const std::string& engine, const std::string& data) {
    ASSERT_EQ(device().Inject("irq", std::vector<std::string>{engine, data}), "");
  }
};

// A violation of `kind` at register `reg` whose rule says `rule`.
using fakes::ViolationIs;

}  // namespace regemu::i915_mini
