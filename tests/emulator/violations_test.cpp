// Violations (emulator/violation.hpp, DESIGN.md "Access semantics"): one test
// per kind the core emits, the fields a violation carries, and the policy
// deciding whether it fails (strict, lenient, per kind, bounded, callback).
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/behaviour.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

constexpr const char* kDevice = R"(device: violations
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: narrow, kind: mmio, size: 0x100, widths: [16, 32]}
  - {name: mchbar, kind: mmio, size: 0x100}
  - {name: odd, kind: mmio, size: 0x6}
registers:
  - name: STATUS
    space: mmio
    offset: 0x100
    fields:
      - {name: BUSY, bits: 0, access: ro, on_write: violation}
      - {name: MODE, bits: "7:4", access: rw}
      - {name: SECRET, bits: "15:8", access: wo}
      - {name: RSVD, bits: "31:24", access: mbz}
  - {name: KEY, space: mmio, offset: 0x104, access: wo}
  - {name: SCRATCH, space: mmio, offset: 0x108}
  - {name: NARROW_CTL, space: narrow, offset: 0x0}
  - {name: TARGET, space: mchbar, offset: 0x0, reset: 0x12345678}
ranges:
  - {name: MIRROR, space: mmio, base: 0x800, size: 0x100, kind: alias,
     target: {space: mchbar, offset: 0x0}, writes: ignore}
)";

class ViolationsTest : public ::testing::Test {
 protected:
  void Make(DeviceOptions options = {}) {
    device_ = MakeDevice(kDevice, std::move(options));
    mmio_ = SpaceNamed(device_->model(), "mmio");
    status_ = RegisterNamed(device_->model(), "STATUS");
  }
  void SetUp() override { Make(); }

  std::unique_ptr<Device> device_;
  SpaceId mmio_ = 0;
  RegisterId status_ = 0;
};

// A write that would change a ro bit is a read-only violation naming the
// register, the field, where and what was written, and the rule.
TEST_F(ViolationsTest, ReadOnlyNamesRegisterFieldAndValue) {
  device_->PokeRegister(status_, 0x1);
  device_->Write(mmio_, 0x100, 32, 0x20);  // MODE := 2, BUSY := 0 (was 1)
  ASSERT_THAT(device_->violations(), SizeIs(1));
  const Violation v = device_->violations()[0];
  EXPECT_EQ(v.kind, ViolationKind::kReadOnly);
  EXPECT_EQ(v.op, TraceOp::kWrite);
  EXPECT_EQ(v.space, "mmio");
  EXPECT_EQ(v.offset, 0x100u);
  EXPECT_EQ(v.width, 32u);
  EXPECT_EQ(v.value, 0x20u);
  EXPECT_EQ(v.register_name, "STATUS");
  EXPECT_EQ(v.field_name, "BUSY");
  EXPECT_THAT(v.rule, Not(IsEmpty()));
  EXPECT_TRUE(v.fails);
  EXPECT_EQ(device_->PeekRegister(status_), 0x21u) << "the rw field is written, the ro field kept";
}

// Read-modify-write is legal: writing back the value read leaves the ro bit
// unchanged, so it is no violation.
TEST_F(ViolationsTest, WriteLeavingReadOnlyBitsUnchangedIsLegal) {
  device_->PokeRegister(status_, 0x1);
  uint64_t value = device_->Read(mmio_, 0x100, 32);
  device_->Write(mmio_, 0x100, 32, (value & ~uint64_t{0xF0}) | 0x30);
  EXPECT_EQ(device_->PeekRegister(status_), 0x31u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

// Reading bits that are all write-only is a write-only violation; a read
// that also covers readable bits is not (the wo bits just read as 0).
TEST_F(ViolationsTest, ReadingOnlyWriteOnlyBitsIsWriteOnly) {
  device_->PokeRegister(status_, 0xAB00);
  EXPECT_EQ(device_->Read(mmio_, 0x100, 32), 0u);
  EXPECT_THAT(device_->violations(), IsEmpty());

  EXPECT_EQ(device_->Read(mmio_, 0x101, 8), 0u);  // SECRET alone
  ASSERT_THAT(device_->violations(), SizeIs(1));
  const Violation v = device_->violations()[0];
  EXPECT_EQ(v.kind, ViolationKind::kWriteOnly);
  EXPECT_EQ(v.op, TraceOp::kRead);
  EXPECT_EQ(v.offset, 0x101u);
  EXPECT_EQ(v.width, 8u);
  EXPECT_EQ(v.register_name, "STATUS");
  EXPECT_EQ(v.field_name, "SECRET");

  device_->Read(mmio_, 0x104, 32);  // KEY: wo without fields
  ASSERT_THAT(device_->violations(), SizeIs(2));
  EXPECT_EQ(device_->violations()[1].register_name, "KEY");
  EXPECT_EQ(device_->violations()[1].field_name, "");
}

// Writing 1 to a must-be-zero bit is an mbz violation naming the field;
// writing 0 there is fine.
TEST_F(ViolationsTest, WritingOneToMustBeZeroIsMbz) {
  device_->Write(mmio_, 0x100, 32, 0x0000'0010);
  EXPECT_THAT(device_->violations(), IsEmpty());
  device_->Write(mmio_, 0x100, 32, 0x0100'0010);
  ASSERT_THAT(device_->violations(), SizeIs(1));
  EXPECT_EQ(device_->violations()[0].kind, ViolationKind::kMbz);
  EXPECT_EQ(device_->violations()[0].field_name, "RSVD");
  EXPECT_EQ(device_->violations()[0].value, 0x0100'0010u);
  EXPECT_EQ(device_->PeekRegister(status_), 0x10u) << "mbz bits are not stored";
}

// A width the space does not allow (8 bits where `widths: [16, 32]`) and a
// width that is no access width at all (12) are width violations.
TEST_F(ViolationsTest, DisallowedWidthIsWidth) {
  SpaceId narrow = SpaceNamed(device_->model(), "narrow");
  device_->Write(narrow, 0x0, 8, 0x1);
  device_->Read(narrow, 0x0, 8);
  device_->Read(mmio_, 0x108, 12);
  device_->Write(mmio_, 0x108, 12, 0x1);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kWidth, ViolationKind::kWidth, ViolationKind::kWidth,
                                           ViolationKind::kWidth));
  EXPECT_EQ(device_->violations()[2].width, 12u);
  EXPECT_EQ(device_->PeekRegister(RegisterNamed(device_->model(), "NARROW_CTL")), 0u);
  EXPECT_EQ(device_->PeekRegister(RegisterNamed(device_->model(), "SCRATCH")), 0u);
  device_->Read(narrow, 0x0, 16);
  EXPECT_THAT(device_->violations(), SizeIs(4)) << "an allowed width is fine";
}

// A 32-bit access at an offset that is not a multiple of 4 is an alignment
// violation, and the write has no effect.
TEST_F(ViolationsTest, MisalignedAccessIsAlignment) {
  device_->Write(mmio_, 0x10A, 32, 0xFFFF'FFFF);
  device_->Read(mmio_, 0x101, 16);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kAlignment, ViolationKind::kAlignment));
  EXPECT_EQ(device_->violations()[0].offset, 0x10Au);
  EXPECT_EQ(device_->PeekRegister(RegisterNamed(device_->model(), "SCRATCH")), 0u);
}

// An access where no register, range or window decodes, or outside the
// space (also one that starts inside and runs past the end), is unclaimed.
TEST_F(ViolationsTest, NoRegisterOrOutsideTheSpaceIsUnclaimed) {
  device_->Read(mmio_, 0x200, 32);
  device_->Write(mmio_, 0x200, 32, 1);
  device_->Read(mmio_, 0x1000, 32);
  device_->Write(mmio_, ~uint64_t{0} - 3, 32, 1);
  device_->Read(SpaceNamed(device_->model(), "odd"), 0x4, 32);  // bytes 4..7 of a 6-byte space
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kUnclaimed, ViolationKind::kUnclaimed,
                                           ViolationKind::kUnclaimed, ViolationKind::kUnclaimed,
                                           ViolationKind::kUnclaimed));
  EXPECT_EQ(device_->violations()[0].register_name, "");
  EXPECT_EQ(device_->violations()[2].offset, 0x1000u);
}

// A write through a `writes: ignore` alias window is an alias-write
// violation and leaves the target unchanged.
TEST_F(ViolationsTest, WriteToReadOnlyWindowIsAliasWrite) {
  device_->Write(mmio_, 0x800, 32, 0xDEAD'BEEF);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kAliasWrite));
  EXPECT_THAT(device_->violations()[0].rule, HasSubstr("MIRROR"));
  EXPECT_EQ(device_->PeekRegister(RegisterNamed(device_->model(), "TARGET")), 0x12345678u);
}

// A violation carries the accesses just before it, oldest first, as many
// as `violation_context` says.
TEST_F(ViolationsTest, CarriesThePreviousAccessesInOrder) {
  DeviceOptions options;
  options.violation_context = 2;
  Make(options);
  device_->Write(mmio_, 0x108, 32, 0x1);
  device_->Write(mmio_, 0x108, 32, 0x2);
  device_->Read(mmio_, 0x108, 32);
  device_->Write(mmio_, 0x100, 32, 0x1);  // BUSY
  ASSERT_THAT(device_->violations(), SizeIs(1));
  const Violation v = device_->violations()[0];
  ASSERT_THAT(v.recent, SizeIs(2));
  EXPECT_EQ(v.recent[0].op, TraceOp::kWrite);
  EXPECT_EQ(v.recent[0].value, 0x2u);
  EXPECT_EQ(v.recent[1].op, TraceOp::kRead);
  EXPECT_EQ(v.recent[1].value, 0x2u);
  EXPECT_LT(v.recent[1].sequence, v.sequence);
  EXPECT_EQ(v.recent[0].sequence + 1, v.recent[1].sequence);
}

// Strict (the default) fails on every driver mistake; lenient records the
// same violations without failing.
TEST_F(ViolationsTest, StrictFailsLenientRecords) {
  device_->Write(mmio_, 0x100, 32, 0x1);
  device_->Read(mmio_, 0x104, 32);
  EXPECT_EQ(device_->violation_count(), 2u);
  EXPECT_EQ(device_->failing_violation_count(), 2u);

  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  Make(options);
  device_->Write(mmio_, 0x100, 32, 0x1);
  device_->Read(mmio_, 0x104, 32);
  EXPECT_EQ(device_->violation_count(), 2u);
  EXPECT_EQ(device_->failing_violation_count(), 0u);
  EXPECT_FALSE(device_->violations()[0].fails);
}

// Set(kind, kIgnore) drops that kind entirely, Set(kind, kRecord) records
// it without failing; other kinds keep their action.
TEST_F(ViolationsTest, PerKindPolicy) {
  DeviceOptions options;
  options.policy = ViolationPolicy::Strict()
                       .Set(ViolationKind::kReadOnly, ViolationAction::kIgnore)
                       .Set(ViolationKind::kWriteOnly, ViolationAction::kRecord);
  Make(options);
  device_->Write(mmio_, 0x100, 32, 0x1);         // read-only: ignored
  device_->Read(mmio_, 0x104, 32);               // write-only: recorded
  device_->Write(mmio_, 0x100, 32, 0x0100'0000);  // mbz: fails
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kWriteOnly, ViolationKind::kMbz));
  EXPECT_EQ(device_->violation_count(), 2u);
  EXPECT_EQ(device_->failing_violation_count(), 1u);
  EXPECT_TRUE(device_->Trace().front().outcome == TraceOutcome::kOk) << "an ignored violation leaves no mark";
}

// At most `max_violations` are kept; later ones are only counted.
TEST_F(ViolationsTest, KeepsAtMostMaxViolations) {
  DeviceOptions options;
  options.max_violations = 3;
  Make(options);
  for (int i = 0; i < 5; ++i) device_->Read(mmio_, 0x104, 32);
  EXPECT_THAT(device_->violations(), SizeIs(3));
  EXPECT_EQ(device_->violation_count(), 5u);
  EXPECT_EQ(device_->failing_violation_count(), 5u);
  device_->ClearViolations();
  EXPECT_THAT(device_->violations(), IsEmpty());
  EXPECT_EQ(device_->violation_count(), 0u);
}

// on_violation sees every recorded violation as it happens, also those past
// max_violations, and none of the ignored kinds.
TEST_F(ViolationsTest, CallbackSeesEveryRecordedViolation) {
  std::vector<std::string> seen;
  DeviceOptions options;
  options.max_violations = 1;
  options.policy = ViolationPolicy::Strict().Set(ViolationKind::kMbz, ViolationAction::kIgnore);
  options.on_violation = [&seen](const Violation& v) { seen.push_back(v.Summary()); };
  Make(options);
  device_->Read(mmio_, 0x104, 32);
  device_->Write(mmio_, 0x100, 32, 0x1);
  device_->Write(mmio_, 0x100, 32, 0x0100'0000);  // mbz: ignored
  ASSERT_THAT(seen, SizeIs(2));
  EXPECT_THAT(seen[0], HasSubstr("write-only: read32 mmio 0x104 (KEY)"));
  EXPECT_THAT(seen[1], HasSubstr("read-only: write32 mmio 0x100 (STATUS.BUSY) value 0x00000001"));
  EXPECT_THAT(device_->violations(), SizeIs(1));
}

// An on_violation that throws (a test's fatal failure) abandons the access
// mid-record: its other violations are dropped with it, never recorded
// against the next access.
TEST_F(ViolationsTest, ThrowingCallbackLeavesNothingForTheNextAccess) {
  int calls = 0;
  DeviceOptions options;
  options.on_violation = [&calls](const Violation&) {
    if (calls++ == 0) throw std::runtime_error("fatal failure");
  };
  Make(options);
  device_->PokeRegister(status_, 0x1);
  // BUSY := 0 (ro) and RSVD := 1 (mbz): two violations, the first throws.
  EXPECT_THROW(device_->Write(mmio_, 0x100, 32, 0x0100'0000), std::runtime_error);
  EXPECT_THAT(device_->violations(), IsEmpty());
  device_->Write(mmio_, 0x108, 32, 0x1);  // clean
  EXPECT_THAT(device_->violations(), IsEmpty());
  device_->Read(mmio_, 0x104, 32);  // write-only: recorded alone
  ASSERT_THAT(device_->violations(), SizeIs(1));
  EXPECT_EQ(device_->violations()[0].kind, ViolationKind::kWriteOnly);
  EXPECT_EQ(calls, 2);
}

// `unmodelled` is an emulator gap, never the driver's fault: Strict()
// records it without failing, while every other kind fails.
TEST_F(ViolationsTest, UnmodelledIsRecordedNotFailing) {
  for (size_t i = 0; i < kViolationKindCount; ++i) {
    auto kind = static_cast<ViolationKind>(i);
    EXPECT_EQ(ViolationPolicy::Strict().action(kind),
              kind == ViolationKind::kUnmodelled ? ViolationAction::kRecord : ViolationAction::kFail)
        << ViolationKindName(kind);
    EXPECT_EQ(ViolationPolicy::Lenient().action(kind), ViolationAction::kRecord);
  }
  // A behaviour reports it through its context, as a gap in its model:
  // here a database's reactions that never settle.
  auto device = MakeDevice(R"y(device: loop
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: COUNT, space: mmio, offset: 0x0}
behaviours:
  - name: loop
    kind: reactions
    reactions:
      - {name: kick, on: {event: kick}, do: [{set: {COUNT: 1}}]}
      - {name: again, on: {change: COUNT}, when: "COUNT < 1000", do: [{set: {COUNT: "COUNT + 1"}}]}
)y");
  EXPECT_EQ(device->Inject("kick", {}), "");
  EXPECT_THAT(Kinds(*device), ElementsAre(ViolationKind::kUnmodelled));
  EXPECT_EQ(device->failing_violation_count(), 0u);
  EXPECT_FALSE(device->violations()[0].fails);
}

// The value of a read violation is the value the read returned (violation.hpp:
// "written value, or the value read"): here the space's unclaimed value.
TEST(ViolationValueTest, ReadViolationCarriesTheValueRead) {
  auto device = MakeDevice(R"(device: v
spaces:
  - {name: config, kind: pci-config, size: 0x100, unclaimed: 0xFFFFFFFF}
registers:
  - {name: VID, space: config, offset: 0x0, width: 16, access: ro, reset: 0x8086}
)");
  EXPECT_EQ(device->Read(0, 0x40, 16), 0xFFFFu);
  EXPECT_EQ(device->Read(0, 0x41, 16), 0xFFFFu);  // misaligned: refused, reads as unclaimed
  ASSERT_THAT(device->violations(), SizeIs(2));
  EXPECT_EQ(device->violations()[0].kind, ViolationKind::kUnclaimed);
  EXPECT_EQ(device->violations()[0].value, 0xFFFFu);
  EXPECT_EQ(device->violations()[1].kind, ViolationKind::kAlignment);
  EXPECT_EQ(device->violations()[1].value, 0xFFFFu);
}

// Kind names round-trip, so scripts can name every kind in expect-violation.
TEST(ViolationKindTest, NamesRoundTrip) {
  for (size_t i = 0; i < kViolationKindCount; ++i) {
    auto kind = static_cast<ViolationKind>(i);
    EXPECT_EQ(ViolationKindFromName(ViolationKindName(kind)), kind);
    EXPECT_THAT(ViolationKindMeaning(kind), Not(IsEmpty()));
  }
  EXPECT_EQ(ViolationKindFromName("alias-write"), ViolationKind::kAliasWrite);
  EXPECT_EQ(ViolationKindFromName("no-such-kind"), std::nullopt);
}

}  // namespace
}  // namespace regemu::emulator
