#pragma once
// The fixture of the example HPET driver's tests: a strict device of
// yaml/hpet (fakes::DeviceTest fails a test on every violation it does not
// take), its MMIO bus, a virtual-time delay, where in the driver each
// violation was made, and an SMI: virtual time passing just before the
// driver's next comparator write, through a gmock bus delegating to the
// device (the MmioBus seam), as an NMI or SMI between Linux's counter read
// and comparator write would.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "examples/hpet/hpet.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/fakes/mock_mmio_bus.hpp"

namespace regemu::hpet {

// HPET_Tn_CMP(n).
constexpr uint64_t ComparatorOffset(uint32_t channel) { return 0x108 + 0x20 * uint64_t{channel}; }

class HpetTest : public fakes::DeviceTest {
 protected:
  void SetUp() override {
    emulator::DeviceOptions options;
    options.on_violation = [this](const emulator::Violation& violation) {
      sites_[violation.sequence] = fakes::CurrentAccessSite();
    };
    LoadDevice(fakes::ShippedDatabase("hpet"), options);
    smi_bus_.DelegateToFake(device(), "mmio");
    // Every access goes to the device; the one an SMI precedes is added by Smi().
    EXPECT_CALL(smi_bus_, Read(::testing::_, ::testing::_)).Times(::testing::AnyNumber());
    EXPECT_CALL(smi_bus_, Write(::testing::_, ::testing::_, ::testing::_)).Times(::testing::AnyNumber());
  }

  // The driver's udelay and TSC spin: the device's virtual clock.
  Delay VirtualDelay() {
    return [this](uint64_t ns) { device().Advance(ns); };
  }
  // A driver with `bugs` on the device's MMIO, through the bus that can
  // take an SMI.
  std::unique_ptr<HpetDriver> MakeDriver(Bugs bugs = {}) {
    return std::make_unique<HpetDriver>(smi_bus_, VirtualDelay(), bugs);
  }
  // `ns` of virtual time pass just before the next comparator write of `channel`.
  void Smi(uint32_t channel, uint64_t ns) {
    EXPECT_CALL(smi_bus_, Write(ComparatorOffset(channel), 32, ::testing::_))
        .WillOnce([this, ns](uint64_t offset, unsigned width, uint64_t value) {
          device().Advance(ns);
          smi_bus_.fake()->Write(offset, width, value);
        })
        .RetiresOnSaturation();
  }
  // Virtual time until the device's counter has counted `ns` more (it runs).
  void Run(uint64_t ns) { device().Advance(ns); }

  uint64_t Edges(std::string_view line) { return device().line_edges(line); }

  // How a violation names rule `name` of the database's `timers` behaviour.
  static std::string Rule(std::string_view name) { return "rule '" + std::string(name) + "' of 'timers'"; }
  // The driver function that made the access violation `v` is about.
  std::string FunctionOf(const emulator::Violation& v) const {
    auto it = sites_.find(v.sequence);
    if (it == sites_.end() || !it->second) return "";
    return it->second->function_name();
  }

 private:
  ::testing::NiceMock<fakes::MockMmioBus> smi_bus_;
  std::map<uint64_t, std::optional<hwreg::SourceLocation>> sites_;
};

inline auto RuleViolation(std::string kind, std::string reg, std::string text, std::string rule) {
  return ::testing::AllOf(fakes::ViolationIs(std::move(kind), std::move(reg), std::move(text)),
                          ::testing::Field("rule", &emulator::Violation::rule, ::testing::HasSubstr(rule)));
}

}  // namespace regemu::hpet
