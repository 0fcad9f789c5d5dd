#pragma once
// A gtest fixture for driver tests against a shipped database:
//
//   class MyDriverTest : public regemu::fakes::DeviceTest {};
//   TEST_F(MyDriverTest, Probe) {
//     LoadDevice(regemu::fakes::ShippedDatabase("icl"));
//     MyDriver driver(bus("config"), bus("mmio"));
//     driver.Probe();
//     EXPECT_THAT(device(), FieldIs("PCICMD.MSE", 1));
//   }
//
// The device is strict; every violation it recorded fails the test in
// TearDown with the register, the field, the rule and the accesses before
// it. A test that provokes a violation on purpose checks it and then calls
// TakeViolations().
//
// Protocol rules (protocol_rules.hpp) are switched on per test, after
// LoadDevice: EnableRule(NoAccessWithoutForcewake("render")). The first
// access breaking each rule fails the test in TearDown; TakeBreaches()
// acknowledges breaches a test provokes on purpose.

#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/fakes/fake_mmio_bus.hpp"
#include "regemu/fakes/protocol_rules.hpp"

namespace regemu::fakes {

// The shipped database `name` (a folder of `directory`, or of the
// environment variable REGEMU_DATABASE_DIR when it is set). Throws
// std::invalid_argument when there is no such database, naming the ones
// there are.
std::filesystem::path ShippedDatabaseIn(const std::filesystem::path& directory, std::string_view name);

// REGEMU_DATABASE_DIR is defined by the CMake package for each test linking
// regemu::fakes: the installed share/regemu/yaml for find_package(regemu),
// the source tree's yaml/ in regemu's own build. It is compiled into the
// test, not into the library, so an installed kit never reads the checkout
// it was built from.
#ifndef REGEMU_DATABASE_DIR
#define REGEMU_DATABASE_DIR ""
#endif
inline std::filesystem::path ShippedDatabase(std::string_view name) {
  return ShippedDatabaseIn(REGEMU_DATABASE_DIR, name);
}

// Loads, checks and compiles a database once per path per process. Throws
// std::runtime_error with the rendered diagnostics when it has errors.
std::shared_ptr<const emulator::Model> CompileDatabase(const std::filesystem::path& path);

class DeviceTest : public ::testing::Test {
 protected:
  // A fresh device of the database at `path`; replaces the previous one.
  emulator::Device& LoadDevice(const std::filesystem::path& path, emulator::DeviceOptions options = {});
  emulator::Device& device();
  // The bus of one space of the device (made on first use).
  FakeMmioBus& bus(std::string_view space);
  // The violations recorded so far, which then no longer fail the test.
  std::vector<emulator::Violation> TakeViolations();
  // Watches the loaded device's accesses from now on with `rule` (throws
  // std::logic_error before LoadDevice, std::invalid_argument when the
  // database lacks what the rule names). A new LoadDevice drops the rules.
  void EnableRule(std::unique_ptr<ProtocolRule> rule);
  // The rule breaches so far, which then no longer fail the test.
  std::vector<RuleBreach> TakeBreaches();

  void TearDown() override;

 private:
  std::unique_ptr<ProtocolChecker> checker_;  // declared before device_: it outlives it
  std::unique_ptr<emulator::Device> device_;
  size_t breaches_taken_ = 0;
  std::map<std::string, std::unique_ptr<FakeMmioBus>, std::less<>> buses_;
};

}  // namespace regemu::fakes
