// Step 6: a driver's bring-up, tested against my_nvme. The driver code
// takes an MmioBus, so the same lines run on real MMIO or on the fake.
#include <cstdint>
#include <functional>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace {

// The driver: configure the admin queue, enable, wait for ready. `sleep`
// is the driver's delay (usleep_range on Linux); the test's moves the
// emulator's virtual clock.
bool EnableController(regemu::fakes::MmioBus& bar0, const std::function<void(uint64_t ns)>& sleep) {
  bar0.Write32(0x24, 0x001F001F);      // AQA: 32-entry admin queues
  bar0.Write64(0x28, 0x10000);         // ASQ
  bar0.Write64(0x30, 0x11000);         // ACQ
  bar0.Write32(0x14, 0x00460001);      // CC: IOCQES 4, IOSQES 6, EN
  for (int tries = 0; tries < 100; ++tries) {
    if (bar0.Read32(0x1C) & 1) return true;  // CSTS.RDY
    sleep(100'000);                          // 100 us
  }
  return false;
}

class MyDriverTest : public regemu::fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(MY_NVME_DIR); }
  std::function<void(uint64_t)> sleep_ = [this](uint64_t ns) { device().Advance(ns); };
};

TEST_F(MyDriverTest, EnableWaitsForReady) {
  ASSERT_TRUE(EnableController(bus("bar0"), sleep_));
  EXPECT_THAT(device(), regemu::fakes::FieldIs("CSTS.RDY", 1));
  EXPECT_GE(device().now_ns(), 2'000'000u);  // ready 2 ms after CC.EN
}

// A driver bug: resizing the admin queue while enabled breaks the rule.
TEST_F(MyDriverTest, AqaWhileEnabledIsAViolation) {
  ASSERT_TRUE(EnableController(bus("bar0"), sleep_));
  bus("bar0").Write32(0x24, 0x00070007);
  auto violations = TakeViolations();
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_THAT(violations[0].rule, ::testing::HasSubstr("only be modified while CC.EN is 0"));
}

}  // namespace
