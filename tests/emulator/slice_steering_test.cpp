// The `slice-steering` kind (ICL PRM Vol 13, "Slice Registers and Die Recovery"):
// reads of slice-located registers go to the slice the selector names; a
// fused-off slice answers 0 and the read is a `protocol` violation.
#include <map>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
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
    kind: slice-steering
    space: mmio
    fuse: SLICE_ENABLE
    fuse_field: S_ENA
    selector: MCR_SELECTOR
    selector_field: SLICE
    ranges:
      - {first: 0xB100, last: 0xB3FF, unit: "L3 bank config"}
      - {first: 0xE100, last: 0xE1FF, unit: SC}
)";

class SliceSteeringTest : public ::testing::Test {
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

// Coverage: one point per slice the fuse field describes, hit by a read
// steered to it while present; a fused-off slice's read is a violation.
TEST_F(SliceSteeringTest, CoversTheSlicesReadsReached) {
  device_->ReadRegister(l3_);
  device_->WriteRegister(selector_, Slice(1));
  device_->ReadRegister(sampler_);
  device_->ReadRegister(l3_);
  device_->WriteRegister(selector_, Slice(2));
  device_->ReadRegister(l3_);
  device_->ClearViolations();
  std::map<std::string, uint64_t> hits = testing_support::PointHits(*device_, "steering");
  EXPECT_EQ(hits.size(), 8u);
  EXPECT_EQ(hits.at("slices read/slice 0"), 1u);
  EXPECT_EQ(hits.at("slices read/slice 1"), 2u);
  EXPECT_EQ(hits.at("slices read/slice 2"), 0u);
}

TEST_F(SliceSteeringTest, AllSlicesPresentReadsNormally) {
  device_->WriteRegister(l3_, 0x1234);
  EXPECT_EQ(device_->ReadRegister(l3_), 0x1234u);
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->ReadRegister(l3_), 0x1234u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceSteeringTest, SliceZeroFusedOffReadsZeroUntilSteeredToSliceOne) {
  device_->PokeRegister(fuse_, 0x2);  // GT3 fused to GT2 with a slice 0 fault
  device_->WriteRegister(l3_, 0xABCD);  // writes are multicast: no steering needed
  EXPECT_EQ(device_->ReadRegister(l3_), 0u);
  ASSERT_EQ(device_->violations().size(), 1u);
  EXPECT_THAT(device_->violations()[0],
              AllOf(Field(&Violation::kind, ViolationKind::kProtocol), Field(&Violation::register_name, "L3_CONFIG"),
                    Field(&Violation::rule, AllOf(HasSubstr("L3 bank config"), HasSubstr("slice 0"),
                                                  HasSubstr("fused off"), HasSubstr("steer MCR_SELECTOR")))));
  device_->ClearViolations();
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->ReadRegister(l3_), 0xABCDu);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceSteeringTest, MaskedSliceRegisterKeepsItsValueBehindTheSteering) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(sampler_, 0x00010001);
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->ReadRegister(sampler_), 0x1u);
}

TEST_F(SliceSteeringTest, SteeringToAnAbsentSliceReadsZeroEvenWithSliceZeroPresent) {
  device_->PokeRegister(fuse_, 0x1);  // one slice
  device_->WriteRegister(l3_, 0x55);
  device_->WriteRegister(selector_, Slice(3));
  EXPECT_EQ(device_->ReadRegister(l3_), 0u);
  EXPECT_EQ(device_->violations().size(), 1u);
}

TEST_F(SliceSteeringTest, RegistersOutsideTheRangesAreNotSteered) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(outside_, 0x77);
  EXPECT_EQ(device_->ReadRegister(outside_), 0x77u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceSteeringTest, BackdoorPeekSeesTheStoredValue) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(l3_, 0x99);
  EXPECT_EQ(device_->PeekRegister(l3_), 0x99u);
  EXPECT_THAT(device_->violations(), IsEmpty());
}

TEST_F(SliceSteeringTest, NarrowReadOfASliceRegisterIsSteeredToo) {
  device_->PokeRegister(fuse_, 0x2);
  device_->WriteRegister(l3_, 0x11223344);
  const RegisterModel& r = device_->model().registers()[l3_];
  EXPECT_EQ(device_->Read(r.space, r.offset + 2, 16), 0u);
  device_->WriteRegister(selector_, Slice(1));
  EXPECT_EQ(device_->Read(r.space, r.offset + 2, 16), 0x1122u);
}

// The VMM hook of a SW-virtualized guest answers reads of reserved ranges.
constexpr const char* kReservedDevice = R"(device: vm
spaces:
  - {name: mmio, kind: mmio, size: 0x200000}
ranges:
  - {name: SW_VIRT_RESERVED, kind: reserved, space: mmio, base: 0x178000, size: 0x1000}
)";

TEST(ReservedReadHookTest, BareMetalReadsZeroAndIgnoresWrites) {
  auto device = MakeDevice(kReservedDevice);
  device->Write(0, 0x178010, 32, 0xFFFFFFFF);
  EXPECT_EQ(device->Read(0, 0x178010, 32), 0u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

TEST(ReservedReadHookTest, VmmSuppliesReadsWithTheRangeAndItsOffset) {
  DeviceOptions options;
  std::vector<std::string> calls;
  options.reserved_read = [&](std::string_view range, uint64_t offset, unsigned width) -> std::optional<uint64_t> {
    calls.push_back(std::string(range) + "+" + std::to_string(offset) + "/" + std::to_string(width));
    if (offset == 0x10) return 0x1122334455667788ull;  // cut to the access width
    return std::nullopt;
  };
  auto device = MakeDevice(kReservedDevice, options);
  EXPECT_EQ(device->Read(0, 0x178010, 32), 0x55667788u);
  EXPECT_EQ(device->Read(0, 0x178020, 32), 0u);  // the VMM declines: bare-metal 0
  device->Write(0, 0x178010, 32, 1);             // writes stay ignored, the hook is not asked
  EXPECT_THAT(calls, ElementsAre("SW_VIRT_RESERVED+16/32", "SW_VIRT_RESERVED+32/32"));
  EXPECT_THAT(device->violations(), IsEmpty());
}

}  // namespace
}  // namespace regemu::emulator
