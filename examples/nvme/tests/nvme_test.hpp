#pragma once
// The fixture of the example NVMe driver's tests: a strict device of
// yaml/nvme (fakes::DeviceTest fails a test on every violation it does not
// take), its configuration space and BAR0 buses, host memory behind the
// device's `host` space, a virtual-time delay, and where in the driver each
// violation was made.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "examples/nvme/device_host_memory.hpp"
#include "examples/nvme/driver.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::nvme {

class NvmeTest : public fakes::DeviceTest {
 protected:
  void SetUp() override {
    emulator::DeviceOptions options;
    // Where the driver made each violating access (DeviceTest reports a
    // failure there; a test that takes the violation checks it here).
    options.on_violation = [this](const emulator::Violation& violation) {
      sites_[violation.sequence] = fakes::CurrentAccessSite();
    };
    LoadDevice(fakes::ShippedDatabase("nvme"), options);
    memory_ = std::make_unique<DeviceHostMemory>(device());
  }

  fakes::MmioBus& config() { return bus("config"); }
  fakes::MmioBus& bar0() { return bus("bar0"); }
  HostMemory& memory() { return *memory_; }
  // The driver's usleep: moves the device's virtual clock.
  Delay VirtualDelay() {
    return [this](uint64_t ns) { device().Advance(ns); };
  }
  // The interrupt as the driver's handler sees it: the INTx pin.
  std::function<bool()> InterruptPin() {
    return [this] { return device().interrupt_asserted(); };
  }

  // A driver with `bugs`, waiting for the interrupt before it looks at the
  // completion queue (or polling, with `interrupt_driven` false).
  std::unique_ptr<NvmeDriver> MakeDriver(Bugs bugs = {}, bool interrupt_driven = true) {
    DriverOptions options;
    options.bugs = bugs;
    if (interrupt_driven) options.admin.irq_pending = InterruptPin();
    return std::make_unique<NvmeDriver>(config(), bar0(), memory(), VirtualDelay(), options);
  }

  // How a violation names rule `name` of the database's `controller` behaviour.
  static std::string Rule(std::string_view name) { return "rule '" + std::string(name) + "' of 'controller'"; }
  // The driver's function that made the access violation `v` is about.
  std::string FunctionOf(const emulator::Violation& v) const {
    auto it = sites_.find(v.sequence);
    if (it == sites_.end() || !it->second) return "";
    return it->second->function_name();
  }
  std::string FileOf(const emulator::Violation& v) const {
    auto it = sites_.find(v.sequence);
    if (it == sites_.end() || !it->second) return "";
    return it->second->file_name();
  }

 private:
  std::unique_ptr<DeviceHostMemory> memory_;
  std::map<uint64_t, std::optional<hwreg::SourceLocation>> sites_;
};

// A violation of `kind` at register `reg`, whose rule text says `text` and
// names database rule `rule`.
inline auto RuleViolation(std::string kind, std::string reg, std::string text, std::string rule) {
  return ::testing::AllOf(fakes::ViolationIs(std::move(kind), std::move(reg), std::move(text)),
                          ::testing::Field("rule", &emulator::Violation::rule, ::testing::HasSubstr(rule)));
}

}  // namespace regemu::nvme
