// The quick start's first test (docs/quickstart.md): a driver's bring-up of
// the shipped NVMe controller, against the installed package. The same file
// builds in regemu's own tree (tests/fakes), against the source tree's yaml/.
#include <cstdint>
#include <functional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"

namespace {

using regemu::fakes::FieldIs;
using regemu::fakes::MmioBus;
using regemu::fakes::ViolationIs;

// The driver under test: PCI memory decode on, the admin queue, CC.EN, then
// wait for CSTS.RDY. `sleep` is its delay; the test's moves virtual time.
bool EnableNvme(MmioBus& config, MmioBus& bar0, const std::function<void(uint64_t ns)>& sleep) {
  config.Write16(0x04, 0x0006);        // PCI command: memory space, bus master
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

class FirstTest : public regemu::fakes::DeviceTest {
 protected:
  void SetUp() override { LoadDevice(regemu::fakes::ShippedDatabase("nvme")); }
  std::function<void(uint64_t)> sleep_ = [this](uint64_t ns) { device().Advance(ns); };
};

TEST_F(FirstTest, EnableWaitsForReady) {
  ASSERT_TRUE(EnableNvme(bus("config"), bus("bar0"), sleep_));
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 1));
  EXPECT_GE(device().now_ns(), 2'000'000u);  // yaml/nvme is ready 2 ms after CC.EN
}

// A driver bug: resizing the admin queue while the controller is enabled.
// The strict fixture would fail the test at the Write32 line; the test takes
// the violation it provoked and checks it instead.
TEST_F(FirstTest, ResizingTheAdminQueueWhileEnabledIsCaught) {
  ASSERT_TRUE(EnableNvme(bus("config"), bus("bar0"), sleep_));
  bus("bar0").Write32(0x24, 0x00070007);
  EXPECT_THAT(TakeViolations(),
              ::testing::ElementsAre(ViolationIs("protocol", "AQA", "only be modified while CC.EN is 0")));
}

}  // namespace
