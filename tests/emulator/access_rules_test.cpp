// The rules a write is held to, as hardware treats it (yaml/README.md,
// "Access policies"; emulator/README.md "Device"):
//   - read-only bits of a register that has writable bits take whatever is
//     written, ignored, as on hardware; a register no write can change is a
//     `read-only` violation, and so is a field marked `on_write: violation`;
//   - `mbz` stays a violation;
//   - `hazard`: a read-modify-write that carries back, as read, status bits
//     that act on the written value (w1c, w1t, w0s, ...) while changing
//     stored bits, in one register or across the registers one access
//     covers; a masked register written with value bits and no enables.
// The correct idioms stay silent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr const char* kDevice = R"(device: rules
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: config, kind: pci-config, size: 0x100}
registers:
  # No bit a write can change: an ID register.
  - {name: ID, space: mmio, offset: 0x0, reset: 0x8086, access: ro}
  - name: HW_STATUS
    space: mmio
    offset: 0x4
    fields:
      - {name: BUSY, bits: 0, access: hw}
      - {name: SPARE, bits: "7:1", access: rsvd}
  # A control register with read-only status bits that read 1.
  - name: CTL
    space: mmio
    offset: 0x8
    reset: 0x80000000
    fields:
      - {name: READY, bits: 31, access: ro, reset: 1}
      - {name: LOCK, bits: 30, access: ro, on_write: violation}
      - {name: RSVD, bits: "29:8", access: mbz}
      - {name: MODE, bits: "7:0", access: rw}
  # Control and write-1-to-clear status in one register.
  - name: IRQ_CTL
    space: mmio
    offset: 0xC
    fields:
      - {name: ERR, bits: 17, access: w1c}
      - {name: DONE, bits: 16, access: w1c}
      - {name: EN, bits: "1:0", access: rw}
  # Control with write-1-to-toggle and write-0-to-set status.
  - name: ODD_CTL
    space: mmio
    offset: 0x10
    reset: 0x0
    fields:
      - {name: FLIP, bits: 8, access: w1t}
      - {name: ZSET, bits: 4, access: w0s}
      - {name: EN, bits: 0, access: rw}
  # A pure W1C identity register (an IIR).
  - {name: IIR, space: mmio, offset: 0x14, access: w1c}
  # No side-effect bit at all.
  - name: PLAIN_CTL
    space: mmio
    offset: 0x18
    fields:
      - {name: STATE, bits: "31:24", access: ro}
      - {name: EN, bits: "7:0", access: rw}
  - {name: MODE_MASKED, space: mmio, offset: 0x20, masked: true}
  # PCI COMMAND and STATUS: one dword, two registers.
  - name: COMMAND
    space: config
    offset: 0x4
    width: 16
    fields:
      - {name: MSE, bits: 1, access: rw}
      - {name: BME, bits: 2, access: rw}
  - name: STATUS
    space: config
    offset: 0x6
    width: 16
    reset: 0x0010
    fields:
      - {name: CAP_LIST, bits: 4, access: ro, reset: 1}
      - {name: RMA, bits: 13, access: w1c}
      - {name: DPE, bits: 15, access: w1c}
)";

class AccessRulesTest : public ::testing::Test {
 protected:
  AccessRulesTest() : device_(MakeDevice(kDevice)) {
    mmio_ = SpaceNamed(device_->model(), "mmio");
    config_ = SpaceNamed(device_->model(), "config");
  }
  RegisterId Reg(std::string_view name) const { return RegisterNamed(device_->model(), name); }
  uint64_t Peek(std::string_view name) const { return device_->PeekRegister(Reg(name)); }
  void Poke(std::string_view name, uint64_t value) { device_->PokeRegister(Reg(name), value); }
  std::vector<std::string> Rules() const {
    std::vector<std::string> rules;
    for (const Violation& v : device_->violations()) rules.push_back(v.rule);
    return rules;
  }

  std::unique_ptr<Device> device_;
  SpaceId mmio_ = 0;
  SpaceId config_ = 0;
};

// ------------------------------------------------------------- read-only bits

// "Writing an ID register is a real mistake": no bit of ID takes a write.
// The advice is not to write it, never "write back the value read".
TEST_F(AccessRulesTest, WritingARegisterNoWriteCanChangeIsReadOnly) {
  device_->Write(mmio_, 0x0, 32, 0x1234);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_THAT(Rules(), ElementsAre(AllOf(HasSubstr("no bit of ID can be changed by a write"),
                                         HasSubstr("do not write this register"), Not(HasSubstr("value read")))));
  EXPECT_EQ(Peek("ID"), 0x8086u);
}

// Its hardware-owned and reserved bits make no difference: still no bit a write can change.
TEST_F(AccessRulesTest, HardwareOwnedAndReservedBitsAloneAreReadOnlyToo) {
  Poke("HW_STATUS", 0x1);
  device_->Write(mmio_, 0x4, 32, 0x0);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_EQ(device_->violations()[0].field_name, "BUSY");
}

// Writing the value it holds changes nothing, so it is no mistake.
TEST_F(AccessRulesTest, WritingAReadOnlyRegisterItsOwnValueIsSilent) {
  device_->Write(mmio_, 0x0, 32, 0x8086);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// "Drivers write constants to control registers whose read-only status bits
// read 1": the write's value for READY is ignored, MODE takes its part.
TEST_F(AccessRulesTest, AConstantToAControlRegisterIgnoresItsReadOnlyBits) {
  device_->Write(mmio_, 0x8, 32, 0x00000005);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("CTL"), 0x80000005u);
}

// i915's reset writes 0xFFFFFFFF to mask registers holding reserved and
// read-only bits: ignored where they are read-only, mbz where it says so.
TEST_F(AccessRulesTest, AllOnesToAMaskWithReadOnlyAndReservedBitsIsSilent) {
  device_->Write(mmio_, 0x18, 32, 0xFFFFFFFF);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("PLAIN_CTL"), 0xFFu);
}

// A field the database marks `on_write: violation` keeps the strict rule
// (a lock bit a driver must never try to set); the advice names its value.
TEST_F(AccessRulesTest, AFieldMarkedOnWriteViolationIsReadOnly) {
  device_->Write(mmio_, 0x8, 32, 0xC0000001);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_EQ(device_->violations()[0].field_name, "LOCK");
  EXPECT_THAT(Rules(), ElementsAre(AllOf(HasSubstr("on_write: violation"), HasSubstr("write them as they read (0x0)"))));
  EXPECT_EQ(Peek("CTL"), 0x80000001u);  // LOCK unchanged, MODE written
}

// A 1 written to a must-be-zero bit is still `mbz`.
TEST_F(AccessRulesTest, OneIntoAMustBeZeroBitIsStillMbz) {
  device_->Write(mmio_, 0x8, 32, 0x00000100);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kMbz));
  EXPECT_THAT(Rules(), ElementsAre(HasSubstr("write them as 0")));
}

// The Linux PCI core clears STATUS errors by writing back only the error
// bits that are set, 16 bits wide; CAP_LIST (ro, reads 1) gets a 0: ignored.
TEST_F(AccessRulesTest, LinuxPciStatusErrorClearIsSilent) {
  Poke("STATUS", 0xA010);
  uint64_t status = device_->Read(config_, 0x6, 16);
  device_->Write(config_, 0x6, 16, status & 0xF900);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("STATUS"), 0x0010u);
}

// --------------------------------------------------- hazard: read-modify-write

// "Set an enable bit by read-modify-write and ack every pending status by
// accident": the hazard names the status bits, their field and the idiom.
// The write still does what hardware does (the status is gone).
TEST_F(AccessRulesTest, ReadModifyWriteThatAcksStatusIsAHazard) {
  Poke("IRQ_CTL", 0x00030000);  // ERR and DONE pending
  uint64_t value = device_->Read(mmio_, 0xC, 32);
  device_->Write(mmio_, 0xC, 32, value | 0x1);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kHazard));
  const Violation v = device_->violations()[0];
  EXPECT_EQ(v.register_name, "IRQ_CTL");
  EXPECT_EQ(v.field_name, "DONE");
  EXPECT_THAT(v.rule, AllOf(HasSubstr("changes control bits 0x1 of IRQ_CTL"), HasSubstr("status bits 0x30000"),
                            HasSubstr("which clears them"), HasSubstr("with those status bits as 0"),
                            HasSubstr("separate write of exactly the bits being acked")));
  EXPECT_EQ(Peek("IRQ_CTL"), 0x1u);
}

// The idiom: the control change alone (status bits as 0), then the ack alone.
TEST_F(AccessRulesTest, ControlWriteThenSeparateAckIsSilent) {
  Poke("IRQ_CTL", 0x00030000);
  uint64_t value = device_->Read(mmio_, 0xC, 32);
  device_->Write(mmio_, 0xC, 32, (value & 0x3) | 0x1);
  device_->Write(mmio_, 0xC, 32, 0x00010001);  // ack DONE only, EN kept
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("IRQ_CTL"), 0x00020001u);
}

// Acking what was read while leaving the control bits as they are (i915's
// PIPESTAT ack: status | enables) is the idiom, not a hazard.
TEST_F(AccessRulesTest, AckingWhatWasReadWithControlUnchangedIsSilent) {
  Poke("IRQ_CTL", 0x00010002);
  uint64_t value = device_->Read(mmio_, 0xC, 32);
  device_->Write(mmio_, 0xC, 32, value);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("IRQ_CTL"), 0x2u);
}

// A constant written without a read before it carries nothing back.
TEST_F(AccessRulesTest, AConstantWithoutARecentReadIsSilent) {
  Poke("IRQ_CTL", 0x00010000);
  device_->Write(mmio_, 0xC, 32, 0x00010001);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// A write uses up what was read: a second write after it is a constant.
TEST_F(AccessRulesTest, AWriteUsesUpWhatWasRead) {
  Poke("IRQ_CTL", 0x00010000);
  device_->Read(mmio_, 0xC, 32);
  device_->Write(mmio_, 0xC, 32, 0x0);         // EN unchanged, nothing acked
  Poke("IRQ_CTL", 0x00010000);                 // hardware raises DONE again
  device_->Write(mmio_, 0xC, 32, 0x00010001);  // not read since the last write
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// A status bit read as 0 and written as 1 was not carried back: the
// driver acks it on purpose (it may have learned of it elsewhere).
TEST_F(AccessRulesTest, StatusBitsReadAsZeroAreNotCarriedBack) {
  device_->Read(mmio_, 0xC, 32);
  Poke("IRQ_CTL", 0x00010000);
  device_->Write(mmio_, 0xC, 32, 0x00010001);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// w1t carried back as 1 toggles; w0s carried back as 0 sets.
TEST_F(AccessRulesTest, ToggleAndZeroToSetBitsCarriedBackAreHazards) {
  Poke("ODD_CTL", 0x100 | 0x0);  // FLIP reads 1, ZSET reads 0
  uint64_t value = device_->Read(mmio_, 0x10, 32);
  device_->Write(mmio_, 0x10, 32, value | 0x1);
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kHazard));
  EXPECT_THAT(Rules(), ElementsAre(AllOf(HasSubstr("status bits 0x110"), HasSubstr("sets or toggles them"))));
  EXPECT_EQ(Peek("ODD_CTL"), 0x011u);  // FLIP toggled off, ZSET set, EN on
}

// Reading a pure W1C IIR and writing the same value back acks exactly
// what was seen: no stored bit changes, so no hazard.
TEST_F(AccessRulesTest, AckingAPureIirWithTheValueReadIsSilent) {
  Poke("IIR", 0x9);
  uint64_t value = device_->Read(mmio_, 0x14, 32);
  device_->Write(mmio_, 0x14, 32, value);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("IIR"), 0u);
}

// Writing back the value read to a register without side-effect bits is the
// plain read-modify-write, and fine.
TEST_F(AccessRulesTest, ReadModifyWriteWithoutStatusBitsIsSilent) {
  Poke("PLAIN_CTL", 0xAB000000);
  uint64_t value = device_->Read(mmio_, 0x18, 32);
  device_->Write(mmio_, 0x18, 32, value | 0x3);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("PLAIN_CTL"), 0xAB000003u);
}

// Across two registers one access covers: a dword read-modify-write of PCI
// COMMAND + STATUS writes the error bits back into STATUS. The advice is to
// write COMMAND on its own.
TEST_F(AccessRulesTest, DwordReadModifyWriteOfCommandAndStatusIsAHazard) {
  Poke("STATUS", 0x2010);
  uint64_t dword = device_->Read(config_, 0x4, 32);
  device_->Write(config_, 0x4, 32, dword | 0x6);
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kHazard));
  const Violation v = device_->violations()[0];
  EXPECT_EQ(v.register_name, "STATUS");
  EXPECT_EQ(v.field_name, "RMA");
  EXPECT_THAT(v.rule, AllOf(HasSubstr("changes COMMAND bits 0x6"), HasSubstr("status bits 0x2000 of STATUS (RMA)"),
                            HasSubstr("write COMMAND on its own (a 16-bit access at 0x4)")));
  EXPECT_EQ(Peek("STATUS"), 0x0010u);
}

// The same two registers written 16 bits at a time, as Linux does, are silent.
TEST_F(AccessRulesTest, SixteenBitWritesOfCommandAndStatusAreSilent) {
  Poke("STATUS", 0x2010);
  device_->Read(config_, 0x4, 32);
  device_->Write(config_, 0x4, 16, 0x6);
  uint64_t status = device_->Read(config_, 0x6, 16);
  device_->Write(config_, 0x6, 16, status & 0xF900);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("STATUS"), 0x0010u);
}

// What was read is device state: a snapshot keeps it, a reset forgets it.
TEST_F(AccessRulesTest, WhatWasReadIsSnapshotStateAndResetForgetsIt) {
  Poke("IRQ_CTL", 0x00010000);
  device_->Read(mmio_, 0xC, 32);
  DeviceSnapshot snapshot = device_->Snapshot();
  device_->Write(mmio_, 0xC, 32, 0x0);  // uses it up
  device_->Restore(snapshot);
  device_->Write(mmio_, 0xC, 32, 0x00010001);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kHazard));
  device_->ClearViolations();

  device_->Read(mmio_, 0xC, 32);
  device_->Reset();
  Poke("IRQ_CTL", 0x00010000);
  device_->Write(mmio_, 0xC, 32, 0x00010001);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// -------------------------------------------------------- hazard: masked write

// Value bits with no enable change nothing: the driver meant _MASKED_BIT_ENABLE.
TEST_F(AccessRulesTest, MaskedWriteWithoutEnablesIsAHazard) {
  device_->Write(mmio_, 0x20, 32, 0x00000001);
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kHazard));
  EXPECT_THAT(Rules(), ElementsAre(AllOf(HasSubstr("MODE_MASKED is a masked register"), HasSubstr("enables none"),
                                         HasSubstr("0x00010001 (_MASKED_BIT_ENABLE)"),
                                         HasSubstr("0x00010000 (_MASKED_BIT_DISABLE)"))));
  EXPECT_EQ(Peek("MODE_MASKED"), 0u);
}

// _MASKED_BIT_ENABLE, _MASKED_BIT_DISABLE, _MASKED_FIELD, a zero write and
// i915's 0xFFFF0000 domain reset are all silent.
TEST_F(AccessRulesTest, MaskedWritesWithEnablesAreSilent) {
  device_->Write(mmio_, 0x20, 32, 0x00010001);
  device_->Write(mmio_, 0x20, 32, 0x00010000);
  device_->Write(mmio_, 0x20, 32, 0x00F00050);
  device_->Write(mmio_, 0x20, 32, 0x00000000);
  device_->Write(mmio_, 0x20, 32, 0xFFFF0000);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  EXPECT_EQ(Peek("MODE_MASKED"), 0u);
}

// Strict mode fails on a hazard; a policy can record or ignore it.
TEST_F(AccessRulesTest, HazardFailsInStrictModeAndCanBeTuned) {
  device_->Write(mmio_, 0x20, 32, 0x1);
  EXPECT_EQ(device_->failing_violation_count(), 1u);
  device_->SetPolicy(ViolationPolicy::Strict().Set(ViolationKind::kHazard, ViolationAction::kIgnore));
  device_->Write(mmio_, 0x20, 32, 0x1);
  EXPECT_EQ(device_->violation_count(), 1u);
}

}  // namespace
}  // namespace regemu::emulator
