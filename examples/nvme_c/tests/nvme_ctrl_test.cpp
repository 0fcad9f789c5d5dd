// nvme_ctrl.c built twice, on regemu's readl() (regemu_iomap) and with
// plain volatile dereferences on a trapped mapping (regemu_map): each runs
// Linux's bring-up, shutdown and reset on a fresh yaml/nvme controller, and
// both must end the same way, in the same virtual time, without a
// violation. A driver sleeps a millisecond between status reads; the
// test's sleep moves the device's clock.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>

#include "examples/nvme_c/nvme_ctrl.h"
#include "regemu/fakes/device_test.hpp"
#include "regemu/regemu.h"

extern "C" {
int nvme_c_enable_plain(struct nvme_c_ctrl* ctrl, uint64_t asq, uint64_t acq, unsigned int depth);
int nvme_c_disable_plain(struct nvme_c_ctrl* ctrl);
int nvme_c_shutdown_plain(struct nvme_c_ctrl* ctrl);
}

namespace regemu::nvme_c {
namespace {

constexpr uint64_t kBar0Size = 0x4000;

struct Build {
  const char* name;
  void* (*map)(regemu_device* dev);
  int (*enable)(nvme_c_ctrl* ctrl, uint64_t asq, uint64_t acq, unsigned depth);
  int (*disable)(nvme_c_ctrl* ctrl);
  int (*shutdown)(nvme_c_ctrl* ctrl);
};

const Build kShimBuild{"regemu_iomap", [](regemu_device* dev) { return regemu_iomap(dev, "bar0", kBar0Size); },
                       nvme_c_enable, nvme_c_disable, nvme_c_shutdown};
const Build kPlainBuild{"regemu_map", [](regemu_device* dev) { return regemu_map(dev, "bar0", nullptr); },
                        nvme_c_enable_plain, nvme_c_disable_plain, nvme_c_shutdown_plain};

// What a run did: each step's result and wait, and the registers after.
struct Outcome {
  int enabled = 1;
  unsigned enable_ms = 0;
  uint32_t aqa = 0;
  uint64_t asq = 0;
  uint32_t cc_enabled = 0;
  int shut_down = 1;
  unsigned shutdown_ms = 0;
  uint32_t csts_shut_down = 0;
  int disabled = 1;
  unsigned disable_ms = 0;
  uint32_t cc_disabled = 0;
  uint32_t csts_disabled = 0;
  size_t violations = 0;
  bool operator==(const Outcome&) const = default;
};

void PrintTo(const Outcome& o, std::ostream* os) {
  *os << std::hex << "enable " << o.enabled << " after " << std::dec << o.enable_ms << " ms, AQA 0x" << std::hex
      << o.aqa << " ASQ 0x" << o.asq << " CC 0x" << o.cc_enabled << "; shutdown " << o.shut_down << " after "
      << std::dec << o.shutdown_ms << " ms, CSTS 0x" << std::hex << o.csts_shut_down << "; disable " << o.disabled
      << " after " << std::dec << o.disable_ms << " ms, CC 0x" << std::hex << o.cc_disabled << " CSTS 0x"
      << o.csts_disabled << std::dec << "; " << o.violations << " violation(s)";
}

Outcome RunDriver(const Build& build) {
  Outcome outcome;
  char err[4096] = "";
  regemu_device* dev = regemu_open(fakes::ShippedDatabase("nvme").c_str(), err, sizeof err);
  if (dev == nullptr) {
    ADD_FAILURE() << err;
    return outcome;
  }
  regemu_write16(dev, "config", 0x04, 0x0006);  // the PCI core: memory decode, bus master
  nvme_c_ctrl ctrl{};
  ctrl.bar = static_cast<uint8_t*>(build.map(dev));
  ctrl.msleep = [](void* context, unsigned ms) { regemu_step_ns(static_cast<regemu_device*>(context), ms * 1000000ull); };
  ctrl.context = dev;
  if (ctrl.bar == nullptr) {
    ADD_FAILURE() << build.name << ": " << regemu_last_error(dev);
    regemu_close(dev);
    return outcome;
  }
  outcome.enabled = build.enable(&ctrl, 0x100000, 0x200000, 32);
  outcome.enable_ms = ctrl.waited_ms;
  outcome.aqa = regemu_peek32(dev, "bar0", 0x24);
  outcome.asq = regemu_peek64(dev, "bar0", 0x28);
  outcome.cc_enabled = regemu_peek32(dev, "bar0", 0x14);
  outcome.shut_down = build.shutdown(&ctrl);
  outcome.shutdown_ms = ctrl.waited_ms;
  outcome.csts_shut_down = regemu_peek32(dev, "bar0", 0x1c);
  outcome.disabled = build.disable(&ctrl);
  outcome.disable_ms = ctrl.waited_ms;
  outcome.cc_disabled = regemu_peek32(dev, "bar0", 0x14);
  outcome.csts_disabled = regemu_peek32(dev, "bar0", 0x1c);
  outcome.violations = regemu_violation_count(dev);
  for (size_t i = 0; i < outcome.violations; ++i) ADD_FAILURE() << build.name << ": " << regemu_violation_text(dev, i);
  regemu_close(dev);
  return outcome;
}

TEST(NvmeCTest, ThePlainPointerBuildDoesWhatTheShimBuildDoes) {
  Outcome shim = RunDriver(kShimBuild);
  Outcome plain = RunDriver(kPlainBuild);
  EXPECT_EQ(plain, shim);
  // yaml/nvme: ready 2 ms after CC.EN rises, shutdown complete 1 ms after
  // CC.SHN is written, not ready 1 ms after CC.EN falls.
  EXPECT_EQ(shim.enabled, NVME_C_OK);
  EXPECT_EQ(shim.enable_ms, 2u);
  EXPECT_EQ(shim.aqa, 0x001f001fu);
  EXPECT_EQ(shim.asq, 0x100000u);
  EXPECT_EQ(shim.cc_enabled, 0x00460001u);
  EXPECT_EQ(shim.shut_down, NVME_C_OK);
  EXPECT_EQ(shim.shutdown_ms, 1u);
  EXPECT_EQ(shim.csts_shut_down & 0xc, 0x8u);
  EXPECT_EQ(shim.disabled, NVME_C_OK);
  EXPECT_EQ(shim.disable_ms, 1u);
  EXPECT_EQ(shim.cc_disabled & 1, 0u);
  EXPECT_EQ(shim.csts_disabled & 1, 0u);
  EXPECT_EQ(shim.violations, 0u);
}

}  // namespace
}  // namespace regemu::nvme_c
