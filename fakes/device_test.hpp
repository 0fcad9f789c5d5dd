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
// TearDown, once, with the register, the field, the rule and the accesses
// before it, reported at the driver or test line that made the access (the
// MmioBus helpers and hwreg ReadFrom/WriteTo carry their caller's
// source location; other accesses are reported at the TEST_F line).
// A test that provokes a violation on purpose checks it and then calls
// TakeViolations().
//
// FailAtAccess() fails the test at the access itself instead, inside the
// driver's call, so --gtest_break_on_failure stops with the driver on the
// stack; it is on by default when that flag is given. Failures reported
// then cannot be taken back by TakeViolations().
//
// Protocol rules (protocol_rules.hpp) are switched on per test, after
// LoadDevice: EnableRule(NoAccessWithoutForcewake("render")). The first
// access breaking each rule fails the test in TearDown; TakeBreaches()
// acknowledges breaches a test provokes on purpose.
//
// Drivers written against plain pointers (a BAR pointer, CMSIS structs at
// fixed addresses) get a trapped mapping of a space instead of a bus:
//   my_driver_probe(MappedSpace("bar0"));
// every load and store there is a frontdoor access (emulator/trap/,
// docs/trapped-mappings.md); a violation is reported at the driver's
// source line when the driver has debug information, else at the TEST_F
// line with the instruction's address and symbol.
//
// Coverage (docs/coverage.md): with the environment variable
// REGEMU_COVERAGE set (REGEMU_COVERAGE=cov/%p.json, %p the process id)
// every device the fixture loads counts what the test exercised, and each
// test process writes its file at exit; no code changes. In code, one
// switch does the same: call EnableCoverage() before LoadDevice, e.g. in
// the fixture's constructor; the environment variable, when set, still
// says where the file goes.

#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/trap/trapped_mapping.hpp"
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
  DeviceTest();

  // A fresh device of the database at `path`; replaces the previous one.
  emulator::Device& LoadDevice(const std::filesystem::path& path, emulator::DeviceOptions options = {});
  emulator::Device& device();
  // The bus of one space of the device (made on first use).
  FakeMmioBus& bus(std::string_view space);
  // One space of the device mapped into the process (made on first use, a
  // TrappedMapping): the pointer a plain-pointer driver is handed. With
  // `fixed_address`, exactly there (page-aligned; std::runtime_error when
  // the range is taken, std::invalid_argument when the space is already
  // mapped elsewhere). A device without an access cost gets one (1 us), so
  // that polling loops end. A new LoadDevice unmaps it.
  uint8_t* MappedSpace(std::string_view space, std::optional<uintptr_t> fixed_address = std::nullopt);
  // The violations recorded so far, which then no longer fail the test.
  std::vector<emulator::Violation> TakeViolations();
  // Watches the loaded device's accesses from now on with `rule` (throws
  // std::logic_error before LoadDevice, std::invalid_argument when the
  // database lacks what the rule names). A new LoadDevice drops the rules.
  void EnableRule(std::unique_ptr<ProtocolRule> rule);
  // The rule breaches so far, which then no longer fail the test.
  std::vector<RuleBreach> TakeBreaches();

  // Fail at the violating access itself (see above) or, with false, in TearDown.
  void FailAtAccess(bool at_access = true) { fail_at_access_ = at_access; }

  // Devices loaded from now on count coverage, written at exit to
  // `path_pattern` (%p: the process id) unless REGEMU_COVERAGE names
  // another; without a pattern, to regemu-coverage-%p.json in the working
  // directory when nothing else was chosen (SetCoverageOutput).
  void EnableCoverage(std::string path_pattern = "");

  void TearDown() override;

 private:
  // Where a violating access or a breach was made: the driver's line, and
  // for a trapped access its instruction.
  struct AccessSite {
    std::optional<hwreg::SourceLocation> location;
    std::string instruction;  // "" unless the access was trapped
  };
  static AccessSite CurrentSite();
  static void FailAt(const AccessSite& site, const std::string& message);

  void OnViolation(const emulator::Violation& violation);
  void OnBreach(size_t index);

  std::unique_ptr<ProtocolChecker> checker_;  // declared before device_: it outlives it
  std::unique_ptr<emulator::Device> device_;
  size_t breaches_taken_ = 0;
  bool fail_at_access_;
  bool coverage_ = false;  // EnableCoverage
  // Where each violating access (by sequence) and each breach was made,
  // and which were reported at the access already.
  std::map<uint64_t, AccessSite> violation_sites_;
  std::vector<AccessSite> breach_sites_;
  std::set<uint64_t> reported_violations_;
  size_t reported_breaches_ = 0;
  std::map<std::string, std::unique_ptr<FakeMmioBus>, std::less<>> buses_;
  // After device_: unmapped before the device goes.
  std::map<std::string, emulator::TrappedMapping, std::less<>> mappings_;
};

}  // namespace regemu::fakes
