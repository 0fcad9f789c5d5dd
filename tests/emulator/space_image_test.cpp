// A space as one binary image (space_image.hpp): each register's value
// little-endian at its offset, reserved ranges 0, the `unclaimed` value
// elsewhere, enabled alias windows showing their target, a memory space's
// bytes; all by the backdoor, so making an image changes nothing.
#include "regemu/emulator/space_image.hpp"

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::CompileDatabaseAt;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

// mmio reads all-ones where nothing decodes, so that the reserved range's
// zeros and the window's bytes stand out. `raw` has no alignment rule: its
// STRADDLE crosses WriteSpaceImage's 64 KiB pieces.
constexpr const char* kDevice = R"(device: image
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: mmio, kind: mmio, size: 0x2000, unclaimed: 0xFFFFFFFF}
  - {name: bank, kind: mmio, size: 0x100}
  - {name: raw, kind: mmio, size: 0x20000, alignment: none}
  - {name: ram, kind: memory, size: 0x100000000}
  - {name: msr, kind: msr, size: 0x1000}
registers:
  - name: PCICMD
    space: config
    offset: 0x4
    width: 16
    fields:
      - {name: MSE, bits: 1, access: rw}
  - {name: BYTE8, space: mmio, offset: 0x10, width: 8, reset: 0xA1}
  - {name: HALF16, space: mmio, offset: 0x12, width: 16, reset: 0xB2C3}
  - {name: WORD32, space: mmio, offset: 0x14, reset: 0x11223344}
  - {name: QUAD64, space: mmio, offset: 0x18, width: 64, reset: 0x8877665544332211}
  - name: STATUS
    space: mmio
    offset: 0x20
    fields:
      - {name: EVENTS, bits: "7:0", access: rc}
  - {name: BANK_ID, space: bank, offset: 0x40, access: ro, reset: 0xCAFEF00D}
  - {name: STRADDLE, space: raw, offset: 0xFFFE, reset: 0x44332211}
  - {name: RAM_DOORBELL, space: ram, offset: 0x0}
  - {name: EFER, space: msr, offset: 0x80, width: 64}
ranges:
  - {name: HOLE, space: mmio, base: 0x100, size: 0x100, kind: reserved}
  - {name: BANK_MIRROR, space: mmio, base: 0x1000, size: 0x100, kind: alias,
     target: {space: bank, offset: 0x0}, writes: ignore, enabled_by: PCICMD.MSE}
)";

// `bytes` bytes of `image` at `offset`, little-endian.
uint64_t At(const std::vector<uint8_t>& image, uint64_t offset, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned b = 0; b < bytes; ++b) value |= uint64_t{image.at(offset + b)} << (8 * b);
  return value;
}

class SpaceImageTest : public ::testing::Test {
 protected:
  void SetUp() override {
    device_ = MakeDevice(kDevice);
    mmio_ = SpaceNamed(device_->model(), "mmio");
  }
  SpaceId Space(const char* name) const { return SpaceNamed(device_->model(), name); }
  RegisterId Reg(const char* name) const { return RegisterNamed(device_->model(), name); }

  std::unique_ptr<Device> device_;
  SpaceId mmio_ = 0;
};

// The image is the whole space, each register's value little-endian at its
// offset whatever its width, as the driver last left it.
TEST_F(SpaceImageTest, RegistersSitLittleEndianAtTheirOffsets) {
  device_->Write(mmio_, 0x14, 32, 0xDEADBEEF);
  SpaceImageStats stats;
  std::vector<uint8_t> image = SpaceImage(*device_, mmio_, std::nullopt, &stats);
  ASSERT_EQ(image.size(), 0x2000u);
  EXPECT_EQ(image[0x10], 0xA1);
  EXPECT_EQ(image[0x12], 0xC3);  // the low byte first
  EXPECT_EQ(image[0x13], 0xB2);
  EXPECT_EQ(At(image, 0x14, 4), 0xDEADBEEFu);
  EXPECT_EQ(At(image, 0x18, 8), 0x8877665544332211u);
  EXPECT_EQ(image[0x18], 0x11);
  EXPECT_EQ(stats.bytes, 0x2000u);
  EXPECT_EQ(stats.registers, 5u);
  EXPECT_EQ(stats.window_registers, 0u) << "the window is closed: PCICMD.MSE is 0";
}

// A reserved range reads 0 on bare metal; a byte nothing decodes reads the
// space's `unclaimed` value (all-ones here), also beside a narrow register.
TEST_F(SpaceImageTest, ReservedRangesAreZeroAndGapsUnclaimed) {
  std::vector<uint8_t> image = SpaceImage(*device_, mmio_);
  EXPECT_EQ(At(image, 0x100, 8), 0u);
  EXPECT_EQ(At(image, 0x1F8, 8), 0u);
  EXPECT_EQ(At(image, 0x0, 4), 0xFFFFFFFFu);
  EXPECT_EQ(image[0x11], 0xFF) << "between BYTE8 and HALF16";
  EXPECT_EQ(At(image, 0x200, 4), 0xFFFFFFFFu);
  EXPECT_EQ(At(image, 0x1FFC, 4), 0xFFFFFFFFu);
}

// Backdoor only: a clear-on-read register keeps its bits, nothing is traced
// and no violation is recorded, although the image covers unclaimed bytes.
TEST_F(SpaceImageTest, MakingAnImageHasNoSideEffect) {
  device_->PokeRegister(Reg("STATUS"), 0x5A);
  uint64_t accesses = device_->access_count();
  std::vector<uint8_t> image = SpaceImage(*device_, mmio_);
  EXPECT_EQ(At(image, 0x20, 4), 0x5Au);
  EXPECT_EQ(device_->PeekRegister(Reg("STATUS")), 0x5Au);
  EXPECT_EQ(device_->access_count(), accesses);
  EXPECT_THAT(device_->violations(), IsEmpty());
  // The frontdoor read, by contrast, clears it.
  EXPECT_EQ(device_->Read(mmio_, 0x20, 32), 0x5Au);
  EXPECT_EQ(At(SpaceImage(*device_, mmio_), 0x20, 4), 0u);
}

// An alias window shows its target space while its enable bit is set, and
// what lies beneath (here: unclaimed) while it is clear, as a driver's read
// would; the image agrees with the frontdoor read through the window.
TEST_F(SpaceImageTest, AliasWindowShowsItsTargetWhileEnabled) {
  EXPECT_EQ(At(SpaceImage(*device_, mmio_), 0x1040, 4), 0xFFFFFFFFu);

  device_->Write(Space("config"), 0x4, 16, 0x2);  // PCICMD.MSE
  SpaceImageStats stats;
  std::vector<uint8_t> image = SpaceImage(*device_, mmio_, std::nullopt, &stats);
  EXPECT_EQ(At(image, 0x1040, 4), 0xCAFEF00Du);
  EXPECT_EQ(At(image, 0x1040, 4), device_->Read(mmio_, 0x1040, 32));
  EXPECT_EQ(At(image, 0x1000, 4), 0u) << "the bank's own unclaimed value (0), not mmio's";
  EXPECT_EQ(stats.registers, 5u);
  EXPECT_EQ(stats.window_registers, 1u);
}

// A memory space images its RAM, with its registers on top; its start can
// be imaged although the whole 4 GiB is refused.
TEST_F(SpaceImageTest, MemorySpaceShowsItsBytes) {
  SpaceId ram = Space("ram");
  const std::vector<uint8_t> report{1, 2, 3, 4, 5};
  device_->WriteMemory(ram, 0x1000, report);
  device_->PokeRegister(Reg("RAM_DOORBELL"), 0x600D);
  std::vector<uint8_t> image = SpaceImage(*device_, ram, 0x2000);
  ASSERT_EQ(image.size(), 0x2000u);
  EXPECT_EQ(std::vector<uint8_t>(image.begin() + 0x1000, image.begin() + 0x1005), report);
  EXPECT_EQ(At(image, 0x0, 4), 0x600Du);
  EXPECT_EQ(At(image, 0x1005, 8), 0u) << "never written";
}

// WriteSpaceImage streams the very bytes SpaceImage returns, also for a
// register crossing from one of its pieces into the next, counted once.
TEST_F(SpaceImageTest, StreamedImageEqualsTheInMemoryOne) {
  SpaceId raw = Space("raw");
  std::ostringstream out;
  SpaceImageStats stats = WriteSpaceImage(*device_, raw, std::nullopt, out);
  std::string text = out.str();
  std::vector<uint8_t> streamed(text.begin(), text.end());
  EXPECT_EQ(streamed, SpaceImage(*device_, raw));
  EXPECT_EQ(At(streamed, 0xFFFE, 4), 0x44332211u);
  EXPECT_EQ(stats.bytes, 0x20000u);
  EXPECT_EQ(stats.registers, 1u);
}

// What has no image is refused with the reason: an MSR space (numbered
// registers, no bytes), an empty image, one past the end, one over the limit.
TEST_F(SpaceImageTest, RefusesWhatHasNoImage) {
  const Model& model = device_->model();
  EXPECT_THAT(SpaceImageRefusal(model, Space("msr")), HasSubstr("space 'msr' is an msr space"));
  EXPECT_THAT(SpaceImageRefusal(model, mmio_, 0), HasSubstr("at least one byte"));
  EXPECT_THAT(SpaceImageRefusal(model, mmio_, 0x2001), HasSubstr("runs past the end of space 'mmio' (size 0x2000)"));
  EXPECT_THAT(SpaceImageRefusal(model, Space("ram")), HasSubstr("larger than an image may be (0x10000000 bytes)"));
  EXPECT_EQ(SpaceImageRefusal(model, mmio_), "");
  EXPECT_EQ(SpaceImageRefusal(model, Space("ram"), kMaxSpaceImageBytes), "");
  EXPECT_THROW(SpaceImage(*device_, Space("msr")), std::invalid_argument);
  std::ostringstream out;
  EXPECT_THROW(WriteSpaceImage(*device_, mmio_, 0x4000, out), std::invalid_argument);
  EXPECT_THAT(out.str(), IsEmpty());
}

// yaml/icl: GTTMMADR's 16 MiB with MCHBAR mirrored at 0x140000 once the
// driver sets PCICMD.MSE (yaml/icl/mmio.yaml), and the Gen11 master
// interrupt control at 0x190010.
TEST(SpaceImageIcl, MchbarMirrorShowsTheMchbarRegisters) {
  Device device(CompileDatabaseAt(REGEMU_SOURCE_DIR "/yaml/icl"));
  const Model& model = device.model();
  SpaceId mmio = SpaceNamed(model, "mmio");
  device.Write(SpaceNamed(model, "config"), 0x4, 16, 0x6);  // PCICMD: MSE, BME
  device.PokeRegister(RegisterNamed(model, "MAD_INTER_CHANNEL"), 0x12345678);
  device.Write(mmio, 0x190010, 32, 0x80000000);  // GEN11_GFX_MSTR_IRQ.MASTER_IRQ

  SpaceImageStats stats;
  std::vector<uint8_t> image = SpaceImage(device, mmio, std::nullopt, &stats);
  ASSERT_EQ(image.size(), 0x1000000u);
  EXPECT_EQ(At(image, 0x140000 + 0x5000, 4), 0x12345678u);
  EXPECT_EQ(At(image, 0x145000, 4), device.Read(mmio, 0x145000, 32));
  EXPECT_EQ(At(image, 0x190010, 4), 0x80000000u);
  SpaceId mchbar = SpaceNamed(model, "mchbar");
  size_t mchbar_registers = 0;
  for (const RegisterModel& r : model.registers()) mchbar_registers += r.space == mchbar ? 1 : 0;
  EXPECT_EQ(stats.window_registers, mchbar_registers) << "the mirror shows all of mchbar's 64 KiB";
  EXPECT_GT(stats.registers, 200u);
}

}  // namespace
}  // namespace regemu::emulator
