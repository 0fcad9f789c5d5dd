// The same drivers through the C shim (regemu/regemu.h), as a C test would
// run them: regemu_map puts the `apb` space at 0x40000000, the interrupt
// lines are read with regemu_line_level and regemu_line_edges, time moves
// with regemu_step_ns, and a violation's text ends with the driver's file,
// line and function.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "examples/cmsdk/cmsdk_bugs.h"
#include "examples/cmsdk/cmsdk_timer.h"
#include "examples/cmsdk/sp805_wdt.h"
#include "examples/cmsdk/tests/cmsdk_test.hpp"
#include "regemu/regemu.h"

namespace regemu::cmsdk {
namespace {

using ::testing::HasSubstr;

struct Closer {
  void operator()(regemu_device* dev) const { regemu_close(dev); }
};
using DevicePtr = std::unique_ptr<regemu_device, Closer>;

class CmsdkCShimTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char err[4096] = "";
    dev_.reset(regemu_open(fakes::ShippedDatabase("cmsdk_apb").c_str(), err, sizeof err));
    ASSERT_NE(dev_, nullptr) << err;
    void* base = regemu_map(dev_.get(), "apb", reinterpret_cast<void*>(CMSDK_APB_BASE));
    ASSERT_EQ(base, reinterpret_cast<void*>(CMSDK_APB_BASE))
        << "cannot map yaml/cmsdk_apb's apb space at 0x40000000, where cmsdk_apb.h's peripherals are: "
        << regemu_last_error(dev_.get());
    ASSERT_EQ(regemu_set_access_cost(dev_.get(), 0), 0);
  }
  regemu_device* dev() { return dev_.get(); }

 private:
  DevicePtr dev_;
};

TEST_F(CmsdkCShimTest, TheApbTimersLineRisesAtZero) {
  cmsdk_timer_init(CMSDK_TIMER0, 1000, 1);
  cmsdk_timer_start(CMSDK_TIMER0);
  regemu_step_ns(dev(), 1000 * kTickNs);  // the tick's instant: not yet
  EXPECT_EQ(regemu_line_level(dev(), "TIMER0_TIMERINT"), 0);
  regemu_step_ns(dev(), 1);
  EXPECT_EQ(regemu_line_level(dev(), "TIMER0_TIMERINT"), 1);
  cmsdk_timer_clear_irq(CMSDK_TIMER0);
  EXPECT_EQ(regemu_line_level(dev(), "TIMER0_TIMERINT"), 0);
  EXPECT_EQ(regemu_line_edges(dev(), "TIMER0_TIMERINT"), 1u);
  EXPECT_EQ(regemu_violation_count(dev()), 0u);
}

TEST_F(CmsdkCShimTest, TheWatchdogResetsUnlessPinged) {
  sp805_wdt wdt{};
  ASSERT_EQ(sp805_wdt_probe(&wdt, reinterpret_cast<uint8_t*>(CMSDK_WATCHDOG_BASE), kRateHz, 1), 0);
  sp805_wdt_enable(&wdt);
  for (int i = 0; i < 5; ++i) {
    regemu_step_ns(dev(), kSecondNs * 2 / 5);
    sp805_wdt_ping(&wdt);
  }
  EXPECT_EQ(regemu_line_edges(dev(), "WDOGINT"), 0u);
  regemu_step_ns(dev(), kSecondNs);
  EXPECT_EQ(regemu_line_level(dev(), "WDOGINT"), 1);
  EXPECT_EQ(regemu_line_level(dev(), "WDOGRES"), 1);
  for (size_t i = 0; i < regemu_violation_count(dev()); ++i) ADD_FAILURE() << regemu_violation_text(dev(), i);
}

TEST_F(CmsdkCShimTest, APingWhileLockedNamesTheDriversLine) {
  sp805_wdt wdt{};
  wdt.bugs = 1u << CMSDK_BUG_PING_WHILE_LOCKED;
  ASSERT_EQ(sp805_wdt_probe(&wdt, reinterpret_cast<uint8_t*>(CMSDK_WATCHDOG_BASE), kRateHz, 1), 0);
  sp805_wdt_enable(&wdt);
  sp805_wdt_ping(&wdt);
  ASSERT_EQ(regemu_violation_count(dev()), 2u);
  EXPECT_STREQ(regemu_violation_kind(dev(), 0), "protocol");
  EXPECT_STREQ(regemu_violation_register(dev(), 0), "WDOGLOAD");
  std::string line = std::to_string(SourceLine("sp805_wdt.c", "writel_relaxed(wdt->load_val, wdt->base + WDTLOAD);"));
  EXPECT_THAT(regemu_violation_text(dev(), 0), HasSubstr("sp805_wdt.c:" + line + " in sp805_wdt_config"));
  EXPECT_STREQ(regemu_violation_register(dev(), 1), "WDOGINTCLR");
}

}  // namespace
}  // namespace regemu::cmsdk
