#pragma once
// The fixture of examples/cmsdk's tests: a strict device of yaml/cmsdk_apb
// (fakes::DeviceTest fails a test on every violation it does not take)
// whose `apb` space is mapped at 0x40000000, where cmsdk_apb.h's pointers
// and the Linux drivers' base pointers go; virtual time only, moved by the
// test (the mapping's accesses take none); the interrupt lines; and where
// in the driver (file, line, function, from its debug information) each
// violation was made.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <exception>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "examples/cmsdk/cmsdk_apb.h"
#include "regemu/emulator/trap/trap_site.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace regemu::cmsdk {

// The AN385's timers' clock: 25 MHz, a tick every 40 ns.
inline constexpr uint64_t kRateHz = 25'000'000;
inline constexpr uint64_t kTickNs = 40;
inline constexpr uint64_t kSecondNs = 1'000'000'000;

class CmsdkTest : public fakes::DeviceTest {
 protected:
  void SetUp() override {
    emulator::DeviceOptions options;
    options.on_violation = [this](const emulator::Violation& violation) {
      sites_[violation.sequence] = emulator::CurrentTrappedAccessSite();
    };
    LoadDevice(fakes::ShippedDatabase("cmsdk_apb"), options);
    try {
      MappedSpace("apb", CMSDK_APB_BASE);
    } catch (const std::exception& e) {
      GTEST_FAIL() << "cannot map yaml/cmsdk_apb's apb space at 0x40000000, where cmsdk_apb.h's "
                      "peripherals are (the address is taken in this process): "
                   << e.what();
    }
    device().SetAccessCost(0);  // time moves only as the test moves it
  }

  void Run(uint64_t ns) { device().Advance(ns); }
  // Virtual time until `t_ns` since the device was loaded.
  void RunUntil(uint64_t t_ns) {
    ASSERT_GE(t_ns, device().now_ns());
    device().Advance(t_ns - device().now_ns());
  }
  uint64_t Now() { return device().now_ns(); }
  // `line` rises with the tick at `t_ns`: still low at t_ns itself (what
  // happens at a tick shows just after its instant, as a read there sees
  // the count before it: read_at_tick: old), up 1 ns later.
  void ExpectRiseAt(std::string_view line, uint64_t t_ns) {
    RunUntil(t_ns);
    EXPECT_FALSE(Line(line)) << line << " up at " << t_ns << " ns already";
    RunUntil(t_ns + 1);
    EXPECT_TRUE(Line(line)) << line << " not up just after " << t_ns << " ns";
  }
  bool Line(std::string_view line) { return device().line_asserted(line); }
  uint64_t Edges(std::string_view line) { return device().line_edges(line); }
  // A register by its database name, through the backdoor.
  uint64_t Peek(std::string_view reg) {
    std::optional<emulator::RegisterId> id = device().model().FindRegister(reg);
    EXPECT_TRUE(id.has_value()) << reg;
    return id ? device().PeekRegister(*id) : ~uint64_t{0};
  }

  // Where in the driver the access behind violation `v` was made.
  emulator::trap::CodeLocation SiteOf(const emulator::Violation& v) const {
    auto it = sites_.find(v.sequence);
    if (it == sites_.end() || !it->second) return {};
    return it->second->location;
  }

 private:
  std::map<uint64_t, std::optional<emulator::TrappedAccessSite>> sites_;
};

// The line of examples/cmsdk/`file` holding `text` (its first), 0 when none.
inline unsigned SourceLine(std::string_view file, std::string_view text) {
  std::ifstream source(std::string(CMSDK_SOURCE_DIR) + "/" + std::string(file));
  std::string line;
  for (unsigned number = 1; std::getline(source, line); ++number) {
    if (line.find(text) != std::string::npos) return number;
  }
  return 0;
}

// A protocol violation at `reg` whose rule says `text`.
inline auto ProtocolViolation(std::string reg, std::string text) {
  return fakes::ViolationIs("protocol", std::move(reg), std::move(text));
}

}  // namespace regemu::cmsdk
