// Where no single register decodes (yaml/README.md "ranges", "spaces"):
// reserved ranges, alias windows (widths, alignment, enabled_by, ignored or
// forwarded writes), unclaimed offsets, accesses composed from several
// narrow registers (PCI configuration space), and indexed MSR spaces.
#include <cstdint>

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
using testing_support::SpaceNamed;

constexpr const char* kDevice = R"(device: ranges
spaces:
  - {name: config, kind: pci-config, size: 0x100, unclaimed: 0xFFFFFFFF}
  - {name: mmio, kind: mmio, size: 0x200000}
  - {name: mchbar, kind: mmio, size: 0x10000, widths: [32, 64]}
  - {name: msr, kind: msr, size: 0x100000000}
registers:
  - {name: VID, space: config, offset: 0x0, width: 16, access: ro, reset: 0x8086}
  - {name: DID, space: config, offset: 0x2, width: 16, access: ro, reset: 0x0A04}
  - name: PCICMD
    space: config
    offset: 0x4
    width: 16
    fields:
      - {name: IOSE, bits: 0, access: rw}
      - {name: MSE, bits: 1, access: rw}
  - {name: RID, space: config, offset: 0x8, width: 8, access: ro, reset: 0x09}
  - {name: CC_PI, space: config, offset: 0x9, width: 8, access: ro, reset: 0x00}
  - {name: CC_SUB, space: config, offset: 0xA, width: 8, access: ro, reset: 0x80}
  - {name: CC_BASE, space: config, offset: 0xB, width: 8, access: ro, reset: 0x03}
  - {name: CLS, space: config, offset: 0xC, width: 8, reset: 0x10}
  - {name: HDR, space: config, offset: 0xE, width: 8, access: ro, reset: 0x00}
  - {name: MCH_A, space: mchbar, offset: 0x5998, reset: 0x12345678}
  - {name: MCH_B, space: mchbar, offset: 0x59A0, width: 64, reset: 0x1122334455667788}
  - {name: MCH_KEY, space: mchbar, offset: 0x59A8, access: wo}
  - {name: EFER, space: msr, offset: 0xC0000080, width: 64, reset: 0x500}
  - {name: TSC_AUX, space: msr, offset: 0xC0000103, width: 32}
ranges:
  - {name: SW_VIRT, space: mmio, base: 0x178000, size: 0x1000, kind: reserved}
  - {name: MCHBAR_MIRROR, space: mmio, base: 0x140000, size: 0x10000, kind: alias,
     target: {space: mchbar, offset: 0x0}, widths: [16, 32, 64], writes: ignore, enabled_by: PCICMD.MSE}
  - {name: MCHBAR_RW, space: mmio, base: 0x100000, size: 0x10000, kind: alias,
     target: {space: mchbar, offset: 0x0}, writes: forward}
)";

class RangesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    device_ = MakeDevice(kDevice);
    const Model& model = device_->model();
    config_ = SpaceNamed(model, "config");
    mmio_ = SpaceNamed(model, "mmio");
    mchbar_ = SpaceNamed(model, "mchbar");
    msr_ = SpaceNamed(model, "msr");
  }
  void EnableMemorySpace() { device_->Write(config_, 0x4, 16, 0x2); }
  RegisterId Reg(const char* name) const { return RegisterNamed(device_->model(), name); }
  TraceEntry LastEntry() const { return device_->Trace(1).at(0); }

  std::unique_ptr<Device> device_;
  SpaceId config_ = 0, mmio_ = 0, mchbar_ = 0, msr_ = 0;
};

// ------------------------------------------------------------------ reserved

// A reserved range reads 0 at every width, ignores writes, is no violation
// ("not a driver mistake"), and is traced as reserved.
TEST_F(RangesTest, ReservedReadsZeroIgnoresWritesWithoutViolation) {
  device_->Write(mmio_, 0x178000, 32, 0xFFFF'FFFF);
  EXPECT_EQ(LastEntry().outcome, TraceOutcome::kReserved);
  EXPECT_EQ(device_->Read(mmio_, 0x178000, 32), 0u);
  EXPECT_EQ(LastEntry().outcome, TraceOutcome::kReserved);
  EXPECT_EQ(device_->Read(mmio_, 0x178FF8, 64), 0u);
  EXPECT_EQ(device_->Read(mmio_, 0x178FFF, 8), 0u);
  EXPECT_EQ(device_->Peek(mmio_, 0x178000, 32), 0u);
  EXPECT_THAT(device_->violations(), IsEmpty());
  // Just past the range nothing decodes.
  device_->Read(mmio_, 0x179000, 32);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed));
}

// ------------------------------------------------------------- alias windows

// With PCICMD.MSE set, the window reads the target space at the same offset
// within it, and the trace says the access went through a window.
TEST_F(RangesTest, WindowReadsTheTargetSpace) {
  EnableMemorySpace();
  EXPECT_EQ(device_->Read(mmio_, 0x145998, 32), 0x12345678u);
  EXPECT_EQ(LastEntry().outcome, TraceOutcome::kAlias);
  EXPECT_EQ(LastEntry().space, mmio_);
  EXPECT_EQ(LastEntry().offset, 0x145998u);
  EXPECT_EQ(device_->Read(mmio_, 0x1459A0, 64), 0x1122334455667788u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// The trace entry of a window access keeps the window's address (replaying
// it goes through the window) and names the register it reached; where the
// target has no register, it names none.
TEST_F(RangesTest, WindowAccessNamesTheRegisterItReached) {
  EnableMemorySpace();
  device_->Read(mmio_, 0x145998, 32);
  EXPECT_EQ(LastEntry().reg, Reg("MCH_A"));
  EXPECT_THAT(RenderTraceEntry(device_->model(), LastEntry()), HasSubstr("MCH_A (alias window)"));
  device_->Write(mmio_, 0x1059A0, 64, 0x1);  // the forwarding window
  EXPECT_EQ(LastEntry().reg, Reg("MCH_B"));
  device_->Read(mmio_, 0x140100, 32);  // nothing at mchbar 0x100: unclaimed there
  EXPECT_EQ(LastEntry().reg, kNoRegister);
}

// The window accepts only its own `widths` (16/32/64 here): an 8-bit read
// is a width violation even though the window is enabled.
TEST_F(RangesTest, WindowHonoursItsWidths) {
  EnableMemorySpace();
  device_->Read(mmio_, 0x145998, 8);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kWidth));
}

// A width the window allows but the target space does not (16 bits; mchbar
// takes 32/64) is refused by the target, and traced as that violation.
TEST_F(RangesTest, WindowAccessMustAlsoSuitTheTargetSpace) {
  EnableMemorySpace();
  device_->Read(mmio_, 0x145998, 16);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kWidth));
  EXPECT_EQ(LastEntry().outcome, TraceOutcome::kViolation);
  EXPECT_EQ(LastEntry().violation, static_cast<uint8_t>(ViolationKind::kWidth));
}

// A read through a window of write-only bits is a write-only violation, and
// the trace entry names that kind (the inner access's kind is not lost).
TEST_F(RangesTest, ViolationInsideTheTargetIsTracedWithItsKind) {
  EnableMemorySpace();
  EXPECT_EQ(device_->Read(mmio_, 0x1459A8, 32), 0u);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kWriteOnly));
  EXPECT_EQ(LastEntry().outcome, TraceOutcome::kViolation);
  EXPECT_EQ(LastEntry().violation, static_cast<uint8_t>(ViolationKind::kWriteOnly));
}

// Window accesses are aligned like any other: a 32-bit read at ...2 is an
// alignment violation.
TEST_F(RangesTest, WindowAccessMustBeAligned) {
  EnableMemorySpace();
  device_->Read(mmio_, 0x14599A, 32);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kAlignment));
}

// With PCICMD.MSE clear the window does not decode: the read is unclaimed
// (and returns the space's unclaimed value, 0); setting MSE makes it decode.
TEST_F(RangesTest, WindowDecodesOnlyWhileEnabled) {
  EXPECT_EQ(device_->Read(mmio_, 0x145998, 32), 0u);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed));
  device_->ClearViolations();

  EnableMemorySpace();
  EXPECT_EQ(device_->Read(mmio_, 0x145998, 32), 0x12345678u);
  EXPECT_THAT(device_->violations(), IsEmpty());

  device_->Write(config_, 0x4, 16, 0x1);  // IOSE alone: MSE clear again
  device_->Read(mmio_, 0x145998, 32);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed));
}

// `writes: ignore`: a write through the window is an alias-write violation
// and the target keeps its value.
TEST_F(RangesTest, IgnoredWindowWriteIsAliasWrite) {
  EnableMemorySpace();
  device_->Write(mmio_, 0x145998, 32, 0xDEAD'BEEF);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kAliasWrite));
  EXPECT_EQ(device_->PeekRegister(Reg("MCH_A")), 0x12345678u);
  // It names the register the driver meant to write, and where it is.
  const Violation v = device_->violations()[0];  // violations() returns a copy
  EXPECT_EQ(v.register_name, "MCH_A");
  EXPECT_EQ(v.space, "mmio");
  EXPECT_EQ(v.offset, 0x145998u);
  EXPECT_THAT(v.rule, HasSubstr("window 'MCHBAR_MIRROR' is a read-only view of space 'mchbar' (MCH_A at 0x5998)"));
  EXPECT_EQ(LastEntry().reg, Reg("MCH_A"));
}

// A write through the read-only window where the target has no register
// still is an alias-write, naming no register.
TEST_F(RangesTest, IgnoredWindowWriteToNoRegisterNamesNone) {
  EnableMemorySpace();
  device_->Write(mmio_, 0x140100, 32, 0x1);
  ASSERT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kAliasWrite));
  EXPECT_EQ(device_->violations()[0].register_name, "");
  EXPECT_THAT(device_->violations()[0].rule, HasSubstr("view of space 'mchbar': writes have no effect"));
}

// `writes: forward`: a write through the window writes the target register,
// with the target's semantics, and no violation.
TEST_F(RangesTest, ForwardedWindowWriteReachesTheTarget) {
  device_->Write(mmio_, 0x105998, 32, 0xCAFE'F00D);
  EXPECT_EQ(LastEntry().outcome, TraceOutcome::kAlias);
  EXPECT_EQ(device_->PeekRegister(Reg("MCH_A")), 0xCAFE'F00Du);
  EXPECT_EQ(device_->Read(mchbar_, 0x5998, 32), 0xCAFE'F00Du);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// ------------------------------------------------------------------ unclaimed

// Where nothing decodes, a read returns the space's `unclaimed` value cut to
// the access width (0xFFFFFFFF here, like an absent PCI function) and is
// an unclaimed violation; a write there changes nothing.
TEST_F(RangesTest, UnclaimedReadsTheSpacesUnclaimedValue) {
  EXPECT_EQ(device_->Read(config_, 0x40, 8), 0xFFu);
  EXPECT_EQ(device_->Read(config_, 0x40, 16), 0xFFFFu);
  EXPECT_EQ(device_->Read(config_, 0x40, 32), 0xFFFF'FFFFu);
  EXPECT_EQ(device_->Peek(config_, 0x40, 32), 0xFFFF'FFFFu);
  device_->Write(config_, 0x40, 32, 0);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed, ViolationKind::kUnclaimed,
                                           ViolationKind::kUnclaimed, ViolationKind::kUnclaimed));
}

// ----------------------------------------------------------- composed accesses

// A dword read of PCI configuration space is composed byte lane by byte
// lane from the registers under it: VID|DID (two 16-bit registers), and the
// four 8-bit registers of the revision/class dword.
TEST_F(RangesTest, DwordReadIsComposedFromNarrowRegisters) {
  EXPECT_EQ(device_->Read(config_, 0x0, 32), 0x0A04'8086u);
  EXPECT_EQ(device_->Read(config_, 0x8, 32), 0x0380'0009u);
  EXPECT_EQ(device_->Read(config_, 0x2, 16), 0x0A04u);
  EXPECT_EQ(device_->Read(config_, 0xA, 16), 0x0380u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// Bytes of a composed read that no register claims read as the matching
// bytes of the unclaimed value: CLS at 0xC and HDR at 0xE with gaps at 0xD
// and 0xF. Some register claims the access, so it is no violation (drivers
// read such dwords whole).
TEST_F(RangesTest, GapInComposedReadReadsUnclaimedBytes) {
  EXPECT_EQ(device_->Read(config_, 0xC, 32), 0xFF00'FF10u);
  EXPECT_EQ(device_->Read(config_, 0xE, 16), 0xFF00u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// A dword write is split the same way: each register takes its own lanes
// with its own policy (the ro IDs keep their value, and changing them is a
// read-only violation).
TEST_F(RangesTest, DwordWriteIsSplitAcrossNarrowRegisters) {
  device_->Write(config_, 0xC, 32, 0x0000'0020);  // CLS := 0x20, HDR written with its value
  EXPECT_EQ(device_->PeekRegister(Reg("CLS")), 0x20u);
  EXPECT_THAT(device_->violations(), IsEmpty());
  device_->Write(config_, 0x0, 32, 0x0A04'8087);  // VID changes: read-only
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
  EXPECT_EQ(device_->violations()[0].register_name, "VID");
  EXPECT_EQ(device_->PeekRegister(Reg("VID")), 0x8086u);
}

// ------------------------------------------------------------------------ MSR

// In an MSR space the offset is an MSR index, accesses are 64-bit (the
// default `widths`), and a register occupies its one index whatever its width.
TEST_F(RangesTest, MsrSpaceIsIndexed) {
  EXPECT_EQ(device_->Read(msr_, 0xC0000080, 64), 0x500u);
  device_->Write(msr_, 0xC0000080, 64, 0xD01);
  EXPECT_EQ(device_->PeekRegister(Reg("EFER")), 0xD01u);
  EXPECT_EQ(device_->Read(msr_, 0xC0000080, 64), 0xD01u);
  device_->Write(msr_, 0xC0000103, 64, 0xFFFF'FFFF'0000'0007);  // a 32-bit MSR keeps its low half
  EXPECT_EQ(device_->Read(msr_, 0xC0000103, 64), 0x7u);
  EXPECT_THAT(device_->violations(), IsEmpty());

  device_->Read(msr_, 0xC0000081, 64);  // no such MSR (not EFER's second byte)
  device_->Read(msr_, 0xC0000080, 32);  // only 64-bit accesses
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed, ViolationKind::kWidth));
}

}  // namespace
}  // namespace regemu::emulator
