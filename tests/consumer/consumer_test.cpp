// Links the installed regemu::fakes: a driver test against the installed
// Haswell database.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fakes/device_test.hpp"
#include "fakes/matchers.hpp"

namespace {

class ConsumerTest : public regemu::fakes::DeviceTest {};

TEST_F(ConsumerTest, DriverEnablesOaThroughTheInstalledKit) {
  LoadDevice(regemu::fakes::ShippedDatabase("hsw"));
  regemu::fakes::MmioBus& mmio = bus("mmio");
  mmio.Write32(0x2368, 0x01000001);  // the OA buffer first, in gen7_init_oa_buffer's order
  mmio.Write32(0x23B0, 0x01000000);
  mmio.Write32(0x2364, 0x01000038);
  mmio.Write32(0x2360, mmio.Read32(0x2360) | 1);
  EXPECT_THAT(device(), regemu::fakes::FieldIs("OACONTROL", 1));
  EXPECT_THAT(device(), regemu::fakes::Wrote("OACONTROL", 1));
}

}  // namespace
