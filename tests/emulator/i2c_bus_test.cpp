// `kind: i2c-bus` at run time: a command FIFO draining onto the bus one
// byte time per command, a register-pointer target (pointer set by the
// first written byte, sequential reads, page-wrapped writes), a repeated
// START on a direction change, an address nobody acknowledges (the nack
// signal, the FIFOs cleared on it), the `active` field, and a test loading
// a target's memory. The device is a sketch of a controller, not any
// shipped database.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kController = R"y(device: controller
spaces:
  - {name: regs, kind: mmio, size: 0x20, widths: [32]}
registers:
  - {name: CMD, space: regs, offset: 0x0, access: wo}
  - {name: TAR, space: regs, offset: 0x4, fields: [{name: ADDR, bits: "6:0"}]}
  - {name: DATA, space: regs, offset: 0x8, access: ro}
  - name: STATUS
    space: regs
    offset: 0xC
    fields:
      - {name: BUSY, bits: 0, access: hw}
      - {name: NACKED, bits: 1, access: w1c}
      - {name: STOPS, bits: "7:4", access: hw}
  - {name: RXLEVEL, space: regs, offset: 0x10, access: hw}
behaviours:
  - name: commands
    kind: fifo
    depth: 8
    width: 16
    push: CMD
    drain: 10us
    to: [{bus: bus}]
    clear: [{event: bus.nack}]
  - name: received
    kind: fifo
    depth: 4
    pop: DATA
    level: RXLEVEL
  - name: bus
    kind: i2c-bus
    commands: {data: "7:0", read: 8, stop: 9, restart: 10}
    address: TAR.ADDR
    receive: received
    active: [STATUS.BUSY]
    targets:
      - {name: eeprom, address: 0x50, size: 16, page: 4, contents: [0x10, 0x11, 0x12, 0x13, 0x14]}
  - name: wire
    kind: reactions
    reactions:
      - {name: nacked, on: {event: bus.nack, args: [address]}, do: [{set: {STATUS.NACKED: 1}}]}
      - {name: stopped, on: {event: bus.stop}, do: [{set: {STATUS.STOPS: "STATUS.STOPS + 1"}}]}
)y";

constexpr uint64_t kRead = 0x100, kStop = 0x200, kRestart = 0x400;

class I2cBusTest : public ::testing::Test {
 protected:
  I2cBusTest() {
    DeviceOptions options;
    options.policy = ViolationPolicy::Lenient();
    device_ = MakeDevice(kController, options);
    device_->WriteRegister(Id("TAR"), 0x50);
  }
  RegisterId Id(const char* name) const { return RegisterNamed(device_->model(), name); }
  uint64_t Peek(const char* name) const { return device_->PeekRegister(Id(name)); }
  void Commands(std::vector<uint64_t> entries) {
    for (uint64_t entry : entries) device_->WriteRegister(Id("CMD"), entry);
  }
  std::string Inject(std::string_view verb, std::vector<std::string> args) { return device_->Inject(verb, args); }
  std::vector<uint64_t> Received() {
    std::vector<uint64_t> bytes;
    while (Peek("RXLEVEL") != 0) bytes.push_back(device_->ReadRegister(Id("DATA")));
    return bytes;
  }

  std::unique_ptr<Device> device_;
};

// A random read: the word address written, then a repeated START and
// sequential reads from there, one command per byte time.
TEST_F(I2cBusTest, WriteThenReadReturnsTheTargetsBytesAtTheBusRate) {
  Commands({0x02, kRestart | kRead, kRead, kStop | kRead});
  device_->Advance(19'999);
  EXPECT_EQ(Peek("RXLEVEL"), 0u);  // the word address is still on the wire
  device_->Advance(1);
  EXPECT_EQ(Peek("RXLEVEL"), 1u);  // the first read command ends at 20 us
  EXPECT_EQ(Peek("STATUS") & 1, 1u);
  device_->Advance(20'000);
  EXPECT_THAT(Received(), ElementsAre(0x12u, 0x13u, 0x14u));
  EXPECT_EQ(Peek("STATUS") & 1, 0u);        // the STOP released the bus
  EXPECT_EQ(Peek("STATUS") >> 4 & 0xF, 1u);  // one bus.stop signal
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// A direction change opens a new address phase even without RESTART; the
// pointer survives between transfers (a current-address read).
TEST_F(I2cBusTest, ReadsContinueFromThePointerAndRollOverAtTheEnd) {
  Commands({0x0F, kRead, kStop | kRead});
  device_->Advance(100'000);
  EXPECT_THAT(Received(), ElementsAre(0xFFu, 0x10u));  // byte 15 (erased), then byte 0
  Commands({kStop | kRead});
  device_->Advance(100'000);
  EXPECT_THAT(Received(), ElementsAre(0x11u));
}

// Writes store at the pointer and wrap inside their page (AT24 page write).
TEST_F(I2cBusTest, WrittenBytesStoreAtThePointerAndWrapInTheirPage) {
  Commands({0x06, 0xA6, 0xA7, kStop | 0xA4});  // page 4..7: 6, 7, then back to 4
  device_->Advance(100'000);
  Commands({0x04, kRead, kRead, kRead, kStop | kRead});
  device_->Advance(100'000);
  EXPECT_THAT(Received(), ElementsAre(0xA4u, 0xFFu, 0xA6u, 0xA7u));
}

TEST_F(I2cBusTest, AnAddressNobodyAcknowledgesSignalsNackAndStop) {
  device_->WriteRegister(Id("TAR"), 0x51);
  Commands({0x00, kRestart | kRead, kStop | kRead});
  device_->Advance(10'000);
  EXPECT_EQ(Peek("STATUS") & 2, 2u);         // bus.nack reached the reaction
  EXPECT_EQ(Peek("STATUS") >> 4 & 0xF, 1u);  // and the master sent a STOP
  EXPECT_EQ(Peek("STATUS") & 1, 0u);
  device_->Advance(100'000);                 // the rest was flushed on bus.nack
  EXPECT_EQ(Peek("RXLEVEL"), 0u);
  EXPECT_EQ(Peek("STATUS") >> 4 & 0xF, 1u);
}

TEST_F(I2cBusTest, ATestLoadsATargetsMemory) {
  EXPECT_EQ(Inject("bus", {"load", "eeprom", "8", "0xDE", "0xAD"}), "");
  Commands({0x08, kRead, kStop | kRead});
  device_->Advance(100'000);
  EXPECT_THAT(Received(), ElementsAre(0xDEu, 0xADu));
  EXPECT_THAT(Inject("bus", {"load", "rom", "0", "1"}), HasSubstr("no target 'rom'"));
  EXPECT_THAT(Inject("bus", {"load", "eeprom", "15", "1", "2"}), HasSubstr("holds 16 bytes"));
  EXPECT_THAT(Inject("bus", {"fly"}), HasSubstr("usage: inject bus push COMMAND"));
}

TEST_F(I2cBusTest, ResetRestoresTheTargetsContents) {
  EXPECT_EQ(Inject("bus", {"load", "eeprom", "0", "0x99"}), "");
  device_->Reset();
  device_->WriteRegister(Id("TAR"), 0x50);
  Commands({0x00, kStop | kRead});
  device_->Advance(100'000);
  EXPECT_THAT(Received(), ElementsAre(0x10u));
}

}  // namespace
}  // namespace regemu::emulator
