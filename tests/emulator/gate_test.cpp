// `kind: gate` (yaml/README.md, "kind: gate"): conditions that let accesses
// to ranges through. Its first case is slice steering (ICL PRM Vol 13,
// "Slice Registers and Die Recovery"): reads of slice-located registers go
// to the slice the selector names; a fused-off slice answers 0 and the read
// is a `protocol` violation; writes are multicast and pass.
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;

constexpr const char* kDevice = R"(device: slices
spaces:
  - {name: mmio, kind: mmio, size: 0x10000}
registers:
  - name: MCR_SELECTOR
    space: mmio
    offset: 0xFDC
    fields: [{name: SLICE, bits: "30:27", access: rw}]
  - name: SLICE_ENABLE
    space: mmio
    offset: 0x9138
    access: ro
    fields: [{name: S_ENA, bits: "7:0", access: ro, reset: 0x3}]
  - {name: L3_CONFIG, space: mmio, offset: 0xB118}
  - {name: SAMPLER_MODE, space: mmio, offset: 0xE18C, masked: true}
  - {name: OUTSIDE, space: mmio, offset: 0xB400}
behaviours:
  - name: steering
    kind: gate
    space: mmio
    gates:
      - name: present_slice
        when: "(SLICE_ENABLE.S_ENA >> MCR_SELECTOR.SLICE) & 1"
        refuses: reads
        violation: "a read of a fused-off slice reads 0: steer MCR_SELECTOR to a present slice first"
        ref: "ICL PRM Vol 13, Slice Registers and Die Recovery"
    ranges:
      - {first: 0xB100, last: 0xB3FF, name: "L3 bank config"}
      - {first: 0xE100, last: 0xE1FF, name: SC}
)";

class SliceGateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DeviceOptions options;
    options.coverage = true;
    device_ = MakeDevice(kDevice, std::move(options));
    const Model& m = device_->model();
    selector_ = RegisterNamed(m, "MCR_SELECTOR");
    fuse_ = RegisterNamed(m, "SLICE_ENABLE");
    l3_ = RegisterNamed(m, "L3_CONFIG");
    sampler_ = RegisterNamed(m, "SAMPLER_MODE");
    outside_ = RegisterNamed(m, "OUTSIDE");
  }
  static constexpr uint64_t Slice(uint64_t n) { return n << 27; }

  std::unique_ptr<Device> device_;
  RegisterId selector_ = 0, fuse_ = 0, l3_ = 0, sampler_ = 0, outside_ = 0;
};

// Coverage: each gate letting a guarded access through, and refusing one.
TEST_F(SliceGateTest, CoversTheGateOpenAndClosed) {
  device_->ReadRegister(l3_);
  device_->WriteRegister(selector_, Slice(1));
  device_->ReadRegister(sampler_);
  device_->ReadRegister(l3_);
  device_->WriteRegister(selector_, Slice(2));
  device_->ReadRegister(l3_);
  device_->ClearViolations();
  std::map<std::string, uint64_t> hits = testing_support::PointHits(*device_, "steering");
  EXPECT_EQ(hits.size(), 2u);
  EXPECT_EQ(hits.at("gates open/present_slice"), 3u);
  EXPECT_EQ(hits.at("gates closed/present_slice"), 1u);
}

TEST_F(SliceGateTest, AllSlicesPresentReadsNormally) {
  device_->WriteRegister(l3_, 0x1234);
  EXPECT_EQ(device_->ReadRegister(l3_), 0x1234u);
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->ReadRegister(l3_), 0x1234u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceGateTest, SliceZeroFusedOffReadsZeroUntilSteeredToSliceOne) {
  device_->PokeRegister(fuse_, 0x2);  // GT3 fused to GT2 with a slice 0 fault
  device_->WriteRegister(l3_, 0xABCD);  // writes are multicast: no steering needed
  EXPECT_EQ(device_->ReadRegister(l3_), 0u);
  ASSERT_EQ(device_->violations().size(), 1u);
  EXPECT_THAT(device_->violations()[0],
              AllOf(Field(&Violation::kind, ViolationKind::kProtocol), Field(&Violation::register_name, "L3_CONFIG"),
                    Field(&Violation::rule,
                          AllOf(HasSubstr("a read of a fused-off slice reads 0: steer MCR_SELECTOR"),
                                HasSubstr("(ICL PRM Vol 13, Slice Registers and Die Recovery) at 0xb118 in L3 bank config"),
                                HasSubstr("[gate 'present_slice' of 'steering' closed: (SLICE_ENABLE.S_ENA >> "
                                          "MCR_SELECTOR.SLICE) & 1, with SLICE_ENABLE.S_ENA = 0x2, "
                                          "MCR_SELECTOR.SLICE = 0x0]")))));
  device_->ClearViolations();
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->ReadRegister(l3_), 0xABCDu);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceGateTest, MaskedSliceRegisterKeepsItsValueBehindTheSteering) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(sampler_, 0x00010001);
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->ReadRegister(sampler_), 0x1u);
}

TEST_F(SliceGateTest, SteeringToAnAbsentSliceReadsZeroEvenWithSliceZeroPresent) {
  device_->PokeRegister(fuse_, 0x1);  // one slice
  device_->WriteRegister(l3_, 0x55);
  device_->WriteRegister(selector_, Slice(3));
  EXPECT_EQ(device_->ReadRegister(l3_), 0u);
  EXPECT_EQ(device_->violations().size(), 1u);
}

TEST_F(SliceGateTest, RegistersOutsideTheRangesAreNotSteered) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(outside_, 0x77);
  EXPECT_EQ(device_->ReadRegister(outside_), 0x77u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceGateTest, BackdoorPeekSeesTheStoredValue) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(l3_, 0x99);
  EXPECT_EQ(device_->PeekRegister(l3_), 0x99u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceGateTest, NarrowReadOfASliceRegisterIsSteeredToo) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(l3_, 0x11223344);
  const RegisterModel& r = device_->model().registers()[l3_];
  EXPECT_EQ(device_->Read(r.space, r.offset + 2, 16), 0u);
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->Read(r.space, r.offset + 2, 16), 0x1122u);
}

// A power domain as gates: two domains, a range needing both, a shadowed
// register written while its domain sleeps, a refused read answering
// all-ones as a `forcewake` violation.
constexpr const char* kDomains = R"(device: domains
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: ACK_A, space: mmio, offset: 0x0, access: rw}
  - {name: ACK_B, space: mmio, offset: 0x4, access: rw}
  - {name: A_REG, space: mmio, offset: 0x100}
  - {name: A_SHADOWED, space: mmio, offset: 0x104}
  - {name: AB_REG, space: mmio, offset: 0x200}
  - {name: B_WO, space: mmio, offset: 0x300}
behaviours:
  - name: power
    kind: gate
    space: mmio
    gates:
      - {name: a, when: "ACK_A & 1", violation: "domain a is asleep", kind: forcewake, reads_as: 0xFFFFFFFF,
         writes_pass: [A_SHADOWED]}
      - {name: b, when: "ACK_B & 1", violation: "domain b is asleep", kind: forcewake}
      - {name: b_writes, when: "ACK_B & 1", refuses: writes, violation: "domain b takes no writes asleep"}
    ranges:
      - {first: 0x100, last: 0x1FF, gates: [a]}
      - {first: 0x200, last: 0x2FF, gates: [a, b]}
      - {first: 0x300, last: 0x3FF, gates: [b_writes]}
      - {first: 0x400, last: 0x4FF, gates: []}
)";

TEST(GateTest, AClosedGateRefusesWithItsKindAndReadsAsValue) {
  auto device = MakeDevice(kDomains);
  const Model& m = device->model();
  RegisterId a_reg = RegisterNamed(m, "A_REG");
  device->PokeRegister(a_reg, 0x1234);
  EXPECT_EQ(device->ReadRegister(a_reg), 0xFFFFFFFFu);
  EXPECT_EQ(device->Read(0, 0x102, 16), 0xFFFFu);  // cut to the access's width
  device->WriteRegister(a_reg, 0x55);              // dropped
  ASSERT_EQ(device->violations().size(), 3u);
  EXPECT_THAT(device->violations()[0],
              AllOf(Field(&Violation::kind, ViolationKind::kForcewake), Field(&Violation::register_name, "A_REG"),
                    Field(&Violation::rule, HasSubstr("domain a is asleep at 0x100"))));
  device->ClearViolations();
  device->WriteRegister(RegisterNamed(m, "ACK_A"), 1);
  EXPECT_EQ(device->ReadRegister(a_reg), 0x1234u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

TEST(GateTest, WritesPassThroughAClosedGateToItsShadowedRegisters) {
  auto device = MakeDevice(kDomains);
  const Model& m = device->model();
  RegisterId shadowed = RegisterNamed(m, "A_SHADOWED");
  device->WriteRegister(shadowed, 0x77);
  EXPECT_THAT(device->violations(), IsEmpty());
  EXPECT_EQ(device->PeekRegister(shadowed), 0x77u);
  device->ReadRegister(shadowed);  // reads are still refused
  EXPECT_EQ(device->violations().size(), 1u);
}

TEST(GateTest, ARangeNeedsEveryGateItNamesOpenAndTheFirstClosedOneSpeaks) {
  auto device = MakeDevice(kDomains);
  const Model& m = device->model();
  RegisterId ab = RegisterNamed(m, "AB_REG");
  device->WriteRegister(RegisterNamed(m, "ACK_A"), 1);
  device->ReadRegister(ab);
  ASSERT_EQ(device->violations().size(), 1u);
  EXPECT_THAT(device->violations()[0].rule, HasSubstr("domain b is asleep"));
  EXPECT_EQ(device->ReadRegister(ab), 0u);  // b's refusal reads as 0
  device->ClearViolations();
  device->WriteRegister(RegisterNamed(m, "ACK_B"), 1);
  device->WriteRegister(ab, 9);
  EXPECT_EQ(device->ReadRegister(ab), 9u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

TEST(GateTest, AGateOfWritesLetsReadsThrough) {
  auto device = MakeDevice(kDomains);
  const Model& m = device->model();
  RegisterId wo = RegisterNamed(m, "B_WO");
  device->PokeRegister(wo, 3);
  EXPECT_EQ(device->ReadRegister(wo), 3u);
  EXPECT_THAT(device->violations(), IsEmpty());
  device->WriteRegister(wo, 4);
  EXPECT_EQ(device->PeekRegister(wo), 3u);
  ASSERT_EQ(device->violations().size(), 1u);
  EXPECT_EQ(device->violations()[0].kind, ViolationKind::kProtocol);  // the default kind
  // A range with `gates: []` is not gated.
  device->ClearViolations();
  device->Write(0, 0x400, 32, 1);
  EXPECT_THAT(device->violations(), Not(Contains(Field(&Violation::kind, ViolationKind::kProtocol))));
}

// Ranges may overlap, as a power-well table and a steering table do: an
// access in both needs the gates of both.
constexpr const char* kOverlapping = R"(device: overlapping
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
registers:
  - {name: POWER, space: mmio, offset: 0x0}
  - {name: STEER, space: mmio, offset: 0x4}
  - {name: WELL_REG, space: mmio, offset: 0x100}
  - {name: BOTH_REG, space: mmio, offset: 0x180}
behaviours:
  - name: table
    kind: gate
    space: mmio
    gates:
      - {name: well, when: "POWER == 1", violation: "the well is off"}
      - {name: steered, when: "STEER == 0", refuses: reads, violation: "steered away"}
    ranges:
      - {first: 0x100, last: 0x2FF, name: well, gates: [well]}
      - {first: 0x180, last: 0x1FF, name: steered unit, gates: [steered]}
)";

TEST(GateTest, OverlappingRangesNeedTheGatesOfAll) {
  auto device = MakeDevice(kOverlapping);
  const Model& m = device->model();
  RegisterId well = RegisterNamed(m, "WELL_REG");
  RegisterId both = RegisterNamed(m, "BOTH_REG");
  device->ReadRegister(both);
  ASSERT_EQ(device->violations().size(), 1u);
  EXPECT_THAT(device->violations()[0].rule, HasSubstr("the well is off at 0x180 in well, steered unit"));
  device->ClearViolations();
  device->WriteRegister(RegisterNamed(m, "POWER"), 1);
  device->WriteRegister(RegisterNamed(m, "STEER"), 1);
  device->ReadRegister(well);  // outside the steered unit
  EXPECT_THAT(device->violations(), IsEmpty());
  device->ReadRegister(both);
  ASSERT_EQ(device->violations().size(), 1u);
  EXPECT_THAT(device->violations()[0].rule, HasSubstr("steered away at 0x180"));
  device->ClearViolations();
  device->WriteRegister(both, 5);  // the steering gate guards reads only
  device->WriteRegister(RegisterNamed(m, "STEER"), 0);
  EXPECT_EQ(device->ReadRegister(both), 5u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

}  // namespace
}  // namespace regemu::emulator
