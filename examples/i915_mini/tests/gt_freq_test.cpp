// GT frequencies through the MCHBAR mirror, from C++ (gt_freq.cpp) and
// from the Linux-style C file (mchbar_freq.c) running on regemu's
// readl() (regemu::c) and, built again with plain volatile loads, on a
// trapped mapping: all read the database's values.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "examples/i915_mini/gt_freq.hpp"
#include "examples/i915_mini/mchbar_freq.h"
#include "examples/i915_mini/tests/i915_mini_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "regemu/iomem.h"
#include "regemu/regemu.h"
#include "regemu/regs/icl.h"

namespace regemu::i915_mini {
namespace {

class GtFreqTest : public I915MiniTest {};

TEST_F(GtFreqTest, ReadsTheRpsLimitsThroughTheMirror) {
  FirmwareEnablesDecode();
  device().PokeRegister(*device().model().FindRegister("GT_PERF_STATUS"), 0x00001600);
  GtFrequencies freq = ReadGtFrequencies(mmio());
  // yaml/icl/mchbar.yaml's placeholders: RP0 0x16, RP1 0x0B, RPn 0x06, RPe 0x0B.
  EXPECT_EQ(freq.rp0_mhz, 1100u);
  EXPECT_EQ(freq.rp1_mhz, 550u);
  EXPECT_EQ(freq.rpn_mhz, 300u);
  EXPECT_EQ(freq.rpe_mhz, 550u);
  EXPECT_EQ(freq.perf_status, 0x00001600u);
  // Reads through the mirror are traced as reads of the MCHBAR registers.
  EXPECT_THAT(device(), fakes::AccessesInOrder({fakes::ReadOf("RP_STATE_CAP"), fakes::ReadOf("GT_PERF_STATUS",
                                                                                              0x00001600)}));
}

TEST_F(GtFreqTest, TheMirrorBaseIsTheDatabasesWindow) {
  const emulator::Model& model = device().model();
  const emulator::SpaceModel& mmio_space = model.spaces()[*model.FindSpace("mmio")];
  const emulator::RangeModel* window = mmio_space.RangeAt(kMchbarMirrorBase);
  ASSERT_NE(window, nullptr);
  EXPECT_EQ(window->name, "MCHBAR_MIRROR");
  EXPECT_EQ(window->base, kMchbarMirrorBase);
  EXPECT_EQ(window->target_space, *model.FindSpace("mchbar"));
  EXPECT_EQ(window->target_offset, 0u);
  EXPECT_EQ(window->size, regs::icl::MCHBAR_MIRROR_SIZE);
  EXPECT_EQ(kMchbarMirrorBase, ICL_MCHBAR_MIRROR_BASE);  // the C header agrees
}

// The C file compiled unchanged against regemu/iomem.h: its own device
// (the C shim opens one from the database), GTTMMADR mapped like ioremap.
TEST(MchbarFreqCTest, TheCFileReadsTheSameFrequencies) {
  char err[1024] = "";
  regemu_device* dev = regemu_open(fakes::ShippedDatabase("icl").c_str(), err, sizeof err);
  ASSERT_NE(dev, nullptr) << err;
  regemu_write16(dev, "config", pci::kCommand, pci::kCommandMemory);  // the PCI core enabled the device
  auto* regs = static_cast<uint8_t*>(regemu_iomap(dev, "mmio", 16u << 20));
  ASSERT_NE(regs, nullptr);

  icl_gt_freq freq{};
  icl_read_gt_freq(regs, &freq);
  EXPECT_EQ(freq.rp0_mhz, 1100u);
  EXPECT_EQ(freq.rp1_mhz, 550u);
  EXPECT_EQ(freq.rpn_mhz, 300u);
  EXPECT_EQ(freq.rpe_mhz, 550u);
  EXPECT_EQ(freq.perf_status, 0u);
  EXPECT_EQ(regemu_violation_count(dev), 0u);
  for (size_t i = 0; i < regemu_violation_count(dev); ++i) ADD_FAILURE() << regemu_violation_text(dev, i);
  regemu_close(dev);
}

// The same C file built with readl() as a plain volatile load
// (REGEMU_PLAIN_MMIO, examples/plain_mmio.h) on a trapped mapping of the
// same device: the same frequencies, from the same register reads.
extern "C" void icl_read_gt_freq_plain(uint8_t* regs, icl_gt_freq* freq);

TEST(MchbarFreqCTest, ThePlainPointerBuildReadsWhatTheShimBuildReads) {
  char err[1024] = "";
  regemu_device* dev = regemu_open(fakes::ShippedDatabase("icl").c_str(), err, sizeof err);
  ASSERT_NE(dev, nullptr) << err;
  regemu_write16(dev, "config", pci::kCommand, pci::kCommandMemory);
  ASSERT_EQ(regemu_poke32(dev, "mchbar", ICL_GT_PERF_STATUS, 0x00001a00), 0) << regemu_last_error(dev);
  auto* shim_regs = static_cast<uint8_t*>(regemu_iomap(dev, "mmio", 16u << 20));
  auto* plain_regs = static_cast<uint8_t*>(regemu_map(dev, "mmio", nullptr));
  ASSERT_NE(shim_regs, nullptr);
  ASSERT_NE(plain_regs, nullptr) << regemu_last_error(dev);

  icl_gt_freq through_shim{};
  icl_read_gt_freq(shim_regs, &through_shim);
  icl_gt_freq through_pointers{};
  icl_read_gt_freq_plain(plain_regs, &through_pointers);
  EXPECT_EQ(through_pointers.rp0_mhz, through_shim.rp0_mhz);
  EXPECT_EQ(through_pointers.rp1_mhz, through_shim.rp1_mhz);
  EXPECT_EQ(through_pointers.rpn_mhz, through_shim.rpn_mhz);
  EXPECT_EQ(through_pointers.rpe_mhz, through_shim.rpe_mhz);
  EXPECT_EQ(through_pointers.perf_status, through_shim.perf_status);
  EXPECT_EQ(through_shim.rp0_mhz, 1100u);
  EXPECT_EQ(through_shim.perf_status, 0x00001a00u);
  EXPECT_EQ(regemu_violation_count(dev), 0u);
  for (size_t i = 0; i < regemu_violation_count(dev); ++i) ADD_FAILURE() << regemu_violation_text(dev, i);
  EXPECT_EQ(regemu_unmap(dev, plain_regs), 0);
  regemu_close(dev);
}

}  // namespace
}  // namespace regemu::i915_mini
