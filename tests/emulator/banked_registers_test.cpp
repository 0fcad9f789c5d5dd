// Split and banked registers at run time: an access reaches the register
// that decodes it now (RBR for a read at 0 and THR for a write while
// LCR.DLAB = 0, DLL for both while it is 1), with that register's own
// policies, trace name and hooks.
#include <cstdint>
#include <memory>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"
#include "tests/regdb/banked_uart.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;


class BankedRegistersTest : public ::testing::Test {
 protected:
  std::unique_ptr<Device> device_ = MakeDevice(regemu::testing_support::kBankedUart);
  SpaceId io_ = SpaceNamed(device_->model(), "io");

  RegisterId Id(const char* name) const { return RegisterNamed(device_->model(), name); }
  uint64_t Peek(const char* name) const { return device_->PeekRegister(Id(name)); }
  RegisterId LastRegister() const { return device_->Trace(1).at(0).reg; }
};

TEST_F(BankedRegistersTest, ReadsAndWritesAtOneOffsetReachDifferentRegisters) {
  device_->PokeRegister(Id("RBR"), 0x41);
  device_->Write(io_, 0, 8, 0x5A);  // THR
  EXPECT_EQ(LastRegister(), Id("THR"));
  EXPECT_EQ(Peek("THR"), 0x5Au);
  EXPECT_EQ(device_->Read(io_, 0, 8), 0x41u);  // RBR, not what was written
  EXPECT_EQ(LastRegister(), Id("RBR"));

  device_->Write(io_, 2, 8, 0xC7);  // FCR
  EXPECT_EQ(Peek("FCR"), 0xC7u);
  EXPECT_EQ(device_->Read(io_, 2, 8), 0x01u);  // IIR keeps its value
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(BankedRegistersTest, AFieldSelectsTheBank) {
  // Linux serial8250_do_set_divisor: LCR.DLAB = 1, DLL, DLM, LCR.DLAB = 0.
  device_->Write(io_, 3, 8, 0x83);
  device_->Write(io_, 0, 8, 0x01);
  EXPECT_EQ(LastRegister(), Id("DLL"));
  device_->Write(io_, 1, 8, 0x00);
  EXPECT_EQ(LastRegister(), Id("DLM"));
  EXPECT_EQ(device_->Read(io_, 0, 8), 0x01u);  // DLL reads back
  device_->Write(io_, 3, 8, 0x03);
  device_->Write(io_, 1, 8, 0x05);  // IER again
  EXPECT_EQ(LastRegister(), Id("IER"));
  EXPECT_EQ(Peek("DLL"), 0x01u);
  EXPECT_EQ(Peek("THR"), 0x00u);
  EXPECT_EQ(Peek("IER"), 0x05u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

TEST_F(BankedRegistersTest, BackdoorAccessByOffsetFollowsTheBankToo) {
  device_->PokeRegister(Id("LCR"), 0x80);
  EXPECT_TRUE(device_->Poke(io_, 0, 8, 0x0C));
  EXPECT_EQ(Peek("DLL"), 0x0Cu);
  EXPECT_EQ(device_->Peek(io_, 0, 8), 0x0Cu);
  device_->PokeRegister(Id("LCR"), 0x00);
  device_->PokeRegister(Id("RBR"), 0x33);
  EXPECT_EQ(device_->Peek(io_, 0, 8), 0x33u);
}

TEST(BankedRegistersFallbackTest, AnAccessOnlyTheOtherDirectionDecodesMeetsThatRegistersPolicy) {
  // Only a read-only register decodes at 0: a write is its `read-only` violation.
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  auto device = MakeDevice(R"y(device: split
spaces:
  - {name: io, kind: mmio, size: 8, widths: [8]}
registers:
  - {name: RBR, space: io, offset: 0, width: 8, access: ro, decode: read, decode_when: "SEL.B == 0"}
  - {name: OTHER, space: io, offset: 0, width: 8, decode_when: "SEL.B == 1"}
  - {name: SEL, space: io, offset: 1, width: 8, fields: [{name: B, bits: 0}]}
)y",
                           options);
  SpaceId io = SpaceNamed(device->model(), "io");
  device->Write(io, 0, 8, 0x1);
  EXPECT_THAT(Kinds(*device), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_EQ(device->violations().at(0).register_name, "RBR");
}

}  // namespace
}  // namespace regemu::emulator
