// The whole driver, step by step as i915 runs them, on one strict device
// with both protocol rules on: probe, engines, interrupts, an engine event
// delivered as MSI and serviced, frequencies.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <optional>

#include "examples/i915_mini/driver.hpp"
#include "examples/i915_mini/tests/i915_mini_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/fakes/protocol_rules.hpp"

namespace regemu::i915_mini {
namespace {

using fakes::FieldIs;
using fakes::NoAccessWithoutForcewake;
using ::testing::ElementsAre;
using ::testing::Field;

class DriverTest : public I915MiniTest {};

TEST_F(DriverTest, ProbesInitialisesAndServicesAnMsi) {
  EnableRule(NoAccessWithoutForcewake("render"));
  EnableRule(NoAccessWithoutForcewake("gt"));
  EnableRule(fakes::Gen11InterruptServiceOrder());
  FirmwareEnablesDecode();
  std::vector<std::string> steps;
  DriverOptions options;
  options.on_step = [&](std::string_view step) { steps.emplace_back(step); };
  I915Mini driver(config(), mmio(), VirtualDelay(), options);

  PciProbeResult probe = driver.Probe();
  EXPECT_EQ(probe.vendor_id, 0x8086u);
  EXPECT_EQ(probe.device_id, 0x8A52u);
  ASSERT_NE(probe.FindBar(0), nullptr);
  EXPECT_EQ(probe.FindBar(0)->size, 16u << 20);
  EXPECT_TRUE(probe.msi_enabled);
  EXPECT_THAT(device(), FieldIs("MC.MSIE", 1));
  EXPECT_THAT(device(), FieldIs("PCICMD", 0x0406));

  EngineInfo engines = driver.InitEngines();
  EXPECT_TRUE(engines.rcs_ring_ok);

  driver.InstallIrq();
  RaiseEngineInterrupt("RCS0", "0x1");
  ASSERT_EQ(device().messages().size(), 1u);  // as an MSI, not on INTx
  EXPECT_EQ(device().messages()[0].address, 0xFEE00000u);
  EXPECT_EQ(device().messages()[0].data, 0x4021u);
  IrqReport report = driver.HandleIrq();
  ASSERT_EQ(report.serviced().size(), 1u);
  EXPECT_EQ(report.serviced()[0].engine_class, 0);
  EXPECT_EQ(report.serviced()[0].data, 0x1);

  GtFrequencies freq = driver.ReadFrequencies();
  EXPECT_EQ(freq.rp0_mhz, 1100u);

  EXPECT_THAT(steps, ElementsAre("pci: vendor and device ID", "pci: BAR sizing (pci_read_bases)",
                                 "pci: capability lists", "pci: enable memory decode and bus mastering",
                                 "pci: MSI (msi_capability_init)", "forcewake: reset every domain",
                                 "engines: media fuses and render ring, RENDER + GT held", "irq: gen11_irq_reset",
                                 "irq: gen11_irq_postinstall", "irq: gen11_irq_handler",
                                 "rps: frequencies through the MCHBAR mirror"));
}

// From power-on (decode off) the driver turns memory decode on itself
// before touching GTTMMADR.
TEST_F(DriverTest, ProbeFromPowerOnEnablesDecodeBeforeMmio) {
  I915Mini driver(config(), mmio(), VirtualDelay());
  driver.Probe();
  EXPECT_THAT(device(), FieldIs("PCICMD.MSE", 1));
  EXPECT_EQ(driver.ReadFrequencies().rpn_mhz, 300u);
}

}  // namespace
}  // namespace regemu::i915_mini
