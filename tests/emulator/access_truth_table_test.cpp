// Access-policy truth tables: every policy of regdb/access_policies.def ×
// register width (8/16/32/64) × byte lane (each byte alone with an 8-bit
// access, the whole register, and the upper 16 bits of a 32/64-bit register).
//
// The expected values come from a reference model written from the table in
// yaml/README.md ("Access policies"), one small function per policy, never
// from the emulator's masks. Lanes follow emulator/README.md: "an access
// narrower than its register touches only its lanes" — a byte read of an rc
// register clears that byte only, a byte write to a wc register clears that
// byte only.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/regdb/access.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;
using ::testing::UnorderedElementsAreArray;
using testing_support::CompileYaml;
using testing_support::Kinds;
using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

// ------------------------------------------------------------ the reference

enum class ReadAs { kValue, kZero, kWriteOnly };  // kWriteOnly: reads 0, and reading it is a violation
enum class AfterRead { kKeep, kClear, kSet };
enum class WriteCheck { kNone, kReadOnly, kMustBeZero };

// Every bit's value after a write of `value` to bits holding `old`.
using WriteFn = uint64_t (*)(uint64_t old, uint64_t value);

uint64_t Keep(uint64_t old, uint64_t) { return old; }
uint64_t Store(uint64_t, uint64_t value) { return value; }
uint64_t ClearAll(uint64_t, uint64_t) { return 0; }
uint64_t SetAll(uint64_t, uint64_t) { return ~uint64_t{0}; }
uint64_t OneClears(uint64_t old, uint64_t value) { return old & ~value; }
uint64_t OneSets(uint64_t old, uint64_t value) { return old | value; }
uint64_t OneToggles(uint64_t old, uint64_t value) { return old ^ value; }
uint64_t ZeroClears(uint64_t old, uint64_t value) { return old & value; }
uint64_t ZeroSets(uint64_t old, uint64_t value) { return old | ~value; }
uint64_t ZeroToggles(uint64_t old, uint64_t value) { return old ^ ~value; }

struct PolicyRef {
  const char* name;
  ReadAs read;
  AfterRead after_read;
  WriteFn write;
  bool once;  // only the first write after reset has the effect of `write`; later ones keep
  WriteCheck check;
};

// yaml/README.md "Access policies", row by row. "no effect (a write that
// changes the value is a driver mistake)" is Keep + kReadOnly; rc/rs writes
// are "no effect" and hw is "like ro", so they check the same.
constexpr PolicyRef kPolicies[] = {
    {"rw", ReadAs::kValue, AfterRead::kKeep, Store, false, WriteCheck::kNone},
    {"ro", ReadAs::kValue, AfterRead::kKeep, Keep, false, WriteCheck::kReadOnly},
    {"wo", ReadAs::kWriteOnly, AfterRead::kKeep, Store, false, WriteCheck::kNone},
    {"rc", ReadAs::kValue, AfterRead::kClear, Keep, false, WriteCheck::kReadOnly},
    {"rs", ReadAs::kValue, AfterRead::kSet, Keep, false, WriteCheck::kReadOnly},
    {"wrc", ReadAs::kValue, AfterRead::kClear, Store, false, WriteCheck::kNone},
    {"wrs", ReadAs::kValue, AfterRead::kSet, Store, false, WriteCheck::kNone},
    {"wc", ReadAs::kValue, AfterRead::kKeep, ClearAll, false, WriteCheck::kNone},
    {"ws", ReadAs::kValue, AfterRead::kKeep, SetAll, false, WriteCheck::kNone},
    {"wsrc", ReadAs::kValue, AfterRead::kClear, SetAll, false, WriteCheck::kNone},
    {"wcrs", ReadAs::kValue, AfterRead::kSet, ClearAll, false, WriteCheck::kNone},
    {"w1c", ReadAs::kValue, AfterRead::kKeep, OneClears, false, WriteCheck::kNone},
    {"w1s", ReadAs::kValue, AfterRead::kKeep, OneSets, false, WriteCheck::kNone},
    {"w1t", ReadAs::kValue, AfterRead::kKeep, OneToggles, false, WriteCheck::kNone},
    {"w0c", ReadAs::kValue, AfterRead::kKeep, ZeroClears, false, WriteCheck::kNone},
    {"w0s", ReadAs::kValue, AfterRead::kKeep, ZeroSets, false, WriteCheck::kNone},
    {"w0t", ReadAs::kValue, AfterRead::kKeep, ZeroToggles, false, WriteCheck::kNone},
    {"w1src", ReadAs::kValue, AfterRead::kClear, OneSets, false, WriteCheck::kNone},
    {"w1crs", ReadAs::kValue, AfterRead::kSet, OneClears, false, WriteCheck::kNone},
    {"w0src", ReadAs::kValue, AfterRead::kClear, ZeroSets, false, WriteCheck::kNone},
    {"w0crs", ReadAs::kValue, AfterRead::kSet, ZeroClears, false, WriteCheck::kNone},
    {"woc", ReadAs::kWriteOnly, AfterRead::kKeep, ClearAll, false, WriteCheck::kNone},
    {"wos", ReadAs::kWriteOnly, AfterRead::kKeep, SetAll, false, WriteCheck::kNone},
    {"w1", ReadAs::kValue, AfterRead::kKeep, Store, true, WriteCheck::kNone},
    {"wo1", ReadAs::kWriteOnly, AfterRead::kKeep, Store, true, WriteCheck::kNone},
    {"rsvd", ReadAs::kZero, AfterRead::kKeep, Keep, false, WriteCheck::kNone},
    {"mbz", ReadAs::kZero, AfterRead::kKeep, Keep, false, WriteCheck::kMustBeZero},
    {"fixed", ReadAs::kValue, AfterRead::kKeep, Keep, false, WriteCheck::kNone},
    {"hw", ReadAs::kValue, AfterRead::kKeep, Keep, false, WriteCheck::kReadOnly},
};

uint64_t Ones(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

// One access to the register under test: which register bits (`lanes`) it covers.
struct Case {
  const PolicyRef* policy;
  unsigned reg_width;
  unsigned access_width;
  unsigned byte;  // first byte of the access within the register

  uint64_t lanes() const { return Ones(access_width) << (8 * byte); }
  uint64_t reg_mask() const { return Ones(reg_width); }
  // An access-width value placed in register position, and back.
  uint64_t ToRegister(uint64_t access_value) const { return (access_value & Ones(access_width)) << (8 * byte); }
  uint64_t FromRegister(uint64_t reg_value) const { return (reg_value >> (8 * byte)) & Ones(access_width); }
};

// gtest names the case in failure messages.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.policy->name << ", " << c.reg_width << "-bit register, " << c.access_width << "-bit access at byte "
      << c.byte;
}

struct ReadResult {
  uint64_t value;  // in access position
  uint64_t after;  // the register afterwards
  std::vector<ViolationKind> violations;
};

ReadResult ReferenceRead(const Case& c, uint64_t old) {
  ReadResult r{0, old, {}};
  if (c.policy->read == ReadAs::kValue) r.value = c.FromRegister(old);
  if (c.policy->read == ReadAs::kWriteOnly) r.violations.push_back(ViolationKind::kWriteOnly);
  if (c.policy->after_read == AfterRead::kClear) r.after = old & ~c.lanes();
  if (c.policy->after_read == AfterRead::kSet) r.after = (old | c.lanes()) & c.reg_mask();
  return r;
}

struct WriteResult {
  uint64_t after;
  std::vector<ViolationKind> violations;
};

// `value` is in access position; `first` says whether no write reached the
// register since reset (only write-once policies care).
WriteResult ReferenceWrite(const Case& c, uint64_t old, uint64_t value, bool first) {
  uint64_t v = c.ToRegister(value);
  WriteResult r{old, {}};
  if (!c.policy->once || first) r.after = ((old & ~c.lanes()) | (c.policy->write(old, v) & c.lanes())) & c.reg_mask();
  if (c.policy->check == WriteCheck::kReadOnly && ((old ^ v) & c.lanes()) != 0) {
    r.violations.push_back(ViolationKind::kReadOnly);
  }
  if (c.policy->check == WriteCheck::kMustBeZero && (v & c.lanes()) != 0) r.violations.push_back(ViolationKind::kMbz);
  return r;
}

// ---------------------------------------------------------------- the tests

// Every byte holds both 0s and 1s, and the pattern agrees with the start
// value in some bits of every byte and differs in others.
constexpr uint64_t kStart = 0x96C3'5AA5'0FF0'3CE1;
constexpr uint64_t kPattern = 0xA55A'F00F'C33C'6996;
constexpr uint64_t kOffset = 0x10;

std::string DeviceYaml(const Case& c) {
  return "device: truth\n"
         "spaces:\n"
         "  - {name: mmio, kind: mmio, size: 0x100}\n"
         "registers:\n"
         "  - {name: R, space: mmio, offset: 0x10, width: " +
         std::to_string(c.reg_width) + ", access: " + c.policy->name + "}\n";
}

class AccessTruthTableTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    model_ = CompileYaml(DeviceYaml(c()));
    space_ = SpaceNamed(*model_, "mmio");
    reg_ = RegisterNamed(*model_, "R");
  }

  const Case& c() const { return GetParam(); }
  uint64_t start() const { return kStart & c().reg_mask(); }

  // A fresh device (no write since reset) whose register holds the start value.
  std::unique_ptr<Device> Fresh() const {
    auto device = std::make_unique<Device>(model_, DeviceOptions{});
    device->PokeRegister(reg_, start());
    return device;
  }
  uint64_t Read(Device& device) const { return device.Read(space_, kOffset + c().byte, c().access_width); }
  void Write(Device& device, uint64_t value) const {
    device.Write(space_, kOffset + c().byte, c().access_width, value);
  }

  std::shared_ptr<const Model> model_;
  SpaceId space_ = 0;
  RegisterId reg_ = 0;
};

// A frontdoor read returns the readable bits of its lanes, applies the
// policy's read side effect to those lanes only, and reports reading
// write-only bits.
TEST_P(AccessTruthTableTest, Read) {
  auto device = Fresh();
  ReadResult expected = ReferenceRead(c(), start());
  EXPECT_EQ(Read(*device), expected.value);
  EXPECT_EQ(device->PeekRegister(reg_), expected.after);
  EXPECT_THAT(Kinds(*device), ElementsAreArray(expected.violations));
}

// A frontdoor write of all-ones, zero, a pattern, or the value already held
// (read-modify-write) changes the written lanes as the policy says, and only
// breaking a rule (changing read-only bits, writing 1 to mbz bits) is a violation.
TEST_P(AccessTruthTableTest, WriteFromStartValue) {
  const uint64_t values[] = {Ones(c().access_width), 0, kPattern & Ones(c().access_width), c().FromRegister(start())};
  for (uint64_t value : values) {
    SCOPED_TRACE(::testing::Message() << "writing " << std::hex << value << " over " << start());
    auto device = Fresh();
    WriteResult expected = ReferenceWrite(c(), start(), value, /*first=*/true);
    Write(*device, value);
    EXPECT_EQ(device->PeekRegister(reg_), expected.after);
    EXPECT_THAT(Kinds(*device), ElementsAreArray(expected.violations));
  }
}

// A second write follows the policy again, except that write-once policies
// ignore it; after Reset() the register holds its reset value (0) and the
// next write is a first write again.
TEST_P(AccessTruthTableTest, SecondWriteThenReset) {
  auto device = Fresh();
  const uint64_t first = kPattern & Ones(c().access_width);
  const uint64_t second = ~kPattern & Ones(c().access_width);
  WriteResult after_first = ReferenceWrite(c(), start(), first, /*first=*/true);
  WriteResult after_second = ReferenceWrite(c(), after_first.after, second, /*first=*/false);
  Write(*device, first);
  Write(*device, second);
  EXPECT_EQ(device->PeekRegister(reg_), after_second.after);

  device->Reset();
  EXPECT_EQ(device->PeekRegister(reg_), 0u);
  WriteResult after_reset = ReferenceWrite(c(), 0, second, /*first=*/true);
  Write(*device, second);
  EXPECT_EQ(device->PeekRegister(reg_), after_reset.after);

  std::vector<ViolationKind> violations = after_first.violations;
  violations.insert(violations.end(), after_second.violations.begin(), after_second.violations.end());
  violations.insert(violations.end(), after_reset.violations.begin(), after_reset.violations.end());
  EXPECT_THAT(Kinds(*device), ElementsAreArray(violations));
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  for (const PolicyRef& policy : kPolicies) {
    for (unsigned width : {8u, 16u, 32u, 64u}) {
      cases.push_back({&policy, width, width, 0});
      if (width == 8) continue;  // its one byte lane is the whole register
      for (unsigned byte = 0; byte < width / 8; ++byte) cases.push_back({&policy, width, 8, byte});
      if (width >= 32) cases.push_back({&policy, width, 16, width / 8 - 2});
    }
  }
  return cases;
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string lane = c.access_width == c.reg_width ? "Whole"
                     : c.access_width == 8        ? "Byte" + std::to_string(c.byte)
                                                  : "Upper16";
  return std::string(c.policy->name) + "_W" + std::to_string(c.reg_width) + "_" + lane;
}

INSTANTIATE_TEST_SUITE_P(AllPolicies, AccessTruthTableTest, ::testing::ValuesIn(AllCases()), CaseName);

// The reference above has one row for every policy of the access table, so
// a policy added to access_policies.def without a reference row fails here.
TEST(AccessTruthTableCoverageTest, ReferenceHasARowForEveryPolicy) {
  std::vector<std::string> table;
  for (const regdb::AccessInfo& info : regdb::AllAccessPolicies()) table.emplace_back(info.name);
  std::vector<std::string> reference;
  for (const PolicyRef& policy : kPolicies) reference.emplace_back(policy.name);
  EXPECT_EQ(table.size(), 29u);
  EXPECT_THAT(reference, UnorderedElementsAreArray(table));
}

// ------------------------------------------------------ Intel masked registers

// yaml/README.md: "bits 31:16 of a write select which of bits 15:0 change".
constexpr const char* kMaskedDevice = R"(device: masked
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - {name: MODE, space: mmio, offset: 0x20, masked: true}
  - name: CTL
    space: mmio
    offset: 0x24
    masked: true
    fields:
      - {name: LOCKED, bits: "15:8", access: ro, on_write: violation}
      - {name: ENABLE, bits: "7:0", access: rw}
  - name: ONCE
    space: mmio
    offset: 0x28
    masked: true
    fields:
      - {name: A, bits: 0, access: w1}
      - {name: B, bits: 1, access: w1}
)";

class MaskedRegisterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    device_ = MakeDevice(kMaskedDevice);
    mmio_ = SpaceNamed(device_->model(), "mmio");
    mode_ = RegisterNamed(device_->model(), "MODE");
  }
  std::unique_ptr<Device> device_;
  SpaceId mmio_ = 0;
  RegisterId mode_ = 0;
};

// Enables in all of bits 31:16 let a write change all of bits 15:0.
TEST_F(MaskedRegisterTest, AllEnablesChangeEveryBit) {
  device_->PokeRegister(mode_, 0x5A5A);
  device_->Write(mmio_, 0x20, 32, 0xFFFF'1234);
  EXPECT_EQ(device_->PeekRegister(mode_), 0x1234u);
  device_->Write(mmio_, 0x20, 32, 0xFFFF'0000);
  EXPECT_EQ(device_->PeekRegister(mode_), 0x0000u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
}

// 0x00010001 enables bit 0 alone, so it sets bit 0 and leaves the others.
TEST_F(MaskedRegisterTest, OneEnableSetsOnlyItsBit) {
  device_->PokeRegister(mode_, 0x0F00);
  device_->Write(mmio_, 0x20, 32, 0x0001'0001);
  EXPECT_EQ(device_->PeekRegister(mode_), 0x0F01u);
  device_->Write(mmio_, 0x20, 32, 0x0001'FFFE);  // clears bit 0; the other 1s are not enabled
  EXPECT_EQ(device_->PeekRegister(mode_), 0x0F00u);
}

// A write with no enable bit changes nothing.
TEST_F(MaskedRegisterTest, WriteWithoutEnablesChangesNothing) {
  device_->PokeRegister(mode_, 0x1234);
  device_->Write(mmio_, 0x20, 32, 0x0000'FFFF);
  device_->Write(mmio_, 0x20, 32, 0x0000'0000);
  EXPECT_EQ(device_->PeekRegister(mode_), 0x1234u);
}

// A 16-bit write to the low half carries no enables (they are in the other
// lanes), and one to the high half carries no data lanes: neither changes
// anything. Value bits written without their enables are a `hazard` (the
// driver meant _MASKED_BIT_ENABLE); enables alone, or zeros, are not.
TEST_F(MaskedRegisterTest, HalfWidthWritesChangeNothing) {
  device_->PokeRegister(mode_, 0x1234);
  device_->Write(mmio_, 0x20, 16, 0xFFFF);  // hazard
  device_->Write(mmio_, 0x20, 16, 0x0000);
  device_->Write(mmio_, 0x22, 16, 0xFFFF);
  device_->Write(mmio_, 0x20, 8, 0xFF);  // hazard
  device_->Write(mmio_, 0x23, 8, 0xFF);
  EXPECT_EQ(device_->PeekRegister(mode_), 0x1234u);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kHazard, ViolationKind::kHazard));
}

// A masked write only changes enabled bits, so leaving a ro field's enables
// clear is never a read-only violation, whatever the data bits say; enabling
// it with a different value is, where the field asks for it (`on_write:
// violation`).
TEST_F(MaskedRegisterTest, ReadOnlyFieldIsCheckedOnlyWhereEnabled) {
  RegisterId ctl = RegisterNamed(device_->model(), "CTL");
  device_->PokeRegister(ctl, 0xAB00);
  device_->Write(mmio_, 0x24, 32, 0x00FF'FF12);  // ENABLE := 0x12; LOCKED not enabled
  EXPECT_EQ(device_->PeekRegister(ctl), 0xAB12u);
  EXPECT_THAT(Kinds(*device_), IsEmpty());
  device_->Write(mmio_, 0x24, 32, 0xFF00'0000);  // enables LOCKED with 0x00
  EXPECT_EQ(device_->PeekRegister(ctl), 0xAB12u);
  EXPECT_THAT(Kinds(*device_), ElementsAre(ViolationKind::kReadOnly));
}

// Write-once is per field (yaml/README.md: w1 "the first write after reset
// stores" is a field's policy): a masked write that enables only field A
// does not use up field B's first write.
TEST_F(MaskedRegisterTest, WriteOnceIsPerField) {
  RegisterId once = RegisterNamed(device_->model(), "ONCE");
  device_->Write(mmio_, 0x28, 32, 0x0001'0001);  // A's first write: A := 1
  device_->Write(mmio_, 0x28, 32, 0x0002'0002);  // B's first write: B := 1
  EXPECT_EQ(device_->PeekRegister(once), 0x3u);
  device_->Write(mmio_, 0x28, 32, 0x0003'0000);  // later writes of both: no effect
  EXPECT_EQ(device_->PeekRegister(once), 0x3u);
}

// Write-once fields in different byte lanes of one register: a byte write
// to one field is not a write of the other, so each keeps its first write;
// a byte write into one lane of a field uses the whole field up.
TEST(WriteOnceTest, EachFieldHasItsOwnFirstWrite) {
  auto device = MakeDevice(R"(device: once
spaces:
  - {name: mmio, kind: mmio, size: 0x100}
registers:
  - name: LOCKS
    space: mmio
    offset: 0x0
    fields:
      - {name: A, bits: "7:0", access: w1}
      - {name: B, bits: "15:8", access: wo1}
      - {name: C, bits: "31:16", access: w1}
)");
  RegisterId locks = RegisterNamed(device->model(), "LOCKS");
  device->Write(0, 0x0, 8, 0x11);  // A's first write
  device->Write(0, 0x1, 8, 0x22);  // B's first write
  device->Write(0, 0x2, 8, 0x33);  // C's first write (its low byte)
  EXPECT_EQ(device->PeekRegister(locks), 0x0033'2211u);
  device->Write(0, 0x3, 8, 0x44);  // C's second write: no effect
  device->Write(0, 0x0, 32, 0xFFFF'FFFF);  // second writes of all: no effect
  EXPECT_EQ(device->PeekRegister(locks), 0x0033'2211u);
  device->Reset();
  device->Write(0, 0x3, 8, 0x44);
  EXPECT_EQ(device->PeekRegister(locks), 0x4400'0000u);
}

}  // namespace
}  // namespace regemu::emulator
