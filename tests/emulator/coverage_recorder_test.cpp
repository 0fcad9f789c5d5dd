// What a device with DeviceOptions::coverage counts (emulator/coverage/coverage.hpp):
// frontdoor reads and writes on the fast and the policy paths, fields a
// write changed, policy effects only where they acted, violations (also
// past max_violations, not when ignored), and nothing for the backdoor.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/emulator/device.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using testing_support::MakeDevice;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;
using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Key;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

constexpr const char* kDatabase = R"(device: cov
spaces:
  - {name: mmio, kind: mmio, size: 0x1000}
  - {name: config, kind: pci-config, size: 0x100}
registers:
  - {name: PLAIN, space: mmio, offset: 0x0}
  - name: CTL
    space: mmio
    offset: 0x4
    fields:
      - {name: LEVEL, bits: "15:8", access: rw}
      - {name: MODE, bits: "7:0", access: rw}
  - {name: STATUS, space: mmio, offset: 0x8, access: w1c}
  - {name: EVENTS, space: mmio, offset: 0xC, access: rc}
  - {name: MODE_MASKED, space: mmio, offset: 0x10, masked: true}
  - name: ONCE
    space: mmio
    offset: 0x14
    fields:
      - {name: LOCKED, bits: 0, access: w1}
  - {name: ID, space: mmio, offset: 0x18, reset: 0x8086, access: ro}
  - name: TOGGLES
    space: mmio
    offset: 0x1C
    fields:
      - {name: FLIP, bits: 8, access: w1t}
      - {name: ZSET, bits: 4, access: w0s}
      - {name: ANY_CLEARS, bits: 0, access: wc}
  - {name: CMD, space: config, offset: 0x4, width: 16}
  - {name: STS, space: config, offset: 0x6, width: 16, access: w1c}
)";

struct Covered {
  std::unique_ptr<Device> device;

  explicit Covered(DeviceOptions options = {}) {
    options.coverage = true;
    device = MakeDevice(kDatabase, std::move(options));
  }
  RegisterId Reg(const char* name) const { return RegisterNamed(device->model(), name); }
  uint64_t Read(const char* name) { return device->ReadRegister(Reg(name)); }
  void Write(const char* name, uint64_t value) { device->WriteRegister(Reg(name), value); }
  ModelCoverage Coverage() const { return device->Coverage().value(); }
  RegisterCoverage Of(const char* name) const {
    ModelCoverage coverage = Coverage();
    auto it = coverage.touched.find(name);
    return it == coverage.touched.end() ? RegisterCoverage{} : it->second;
  }
};

DeviceOptions Lenient() {
  DeviceOptions options;
  options.policy = ViolationPolicy::Lenient();
  return options;
}

TEST(CoverageRecorderTest, OffByDefault) {
  auto device = MakeDevice(kDatabase);
  device->ReadRegister(RegisterNamed(device->model(), "PLAIN"));
  EXPECT_FALSE(device->Coverage().has_value());
}

TEST(CoverageRecorderTest, DescribesTheModel) {
  Covered covered;
  ModelCoverage coverage = covered.Coverage();
  EXPECT_EQ(coverage.device, "cov");
  EXPECT_EQ(coverage.registers, 10u);
  EXPECT_EQ(coverage.fields, 6u);
  EXPECT_EQ(coverage.devices, 1u);
  EXPECT_THAT(coverage.touched, IsEmpty());
  EXPECT_THAT(coverage.effect_registers,
              UnorderedElementsAre(Pair("w1c", 2), Pair("rc", 1), Pair("masked-write", 1), Pair("w1", 1),
                                   Pair("w1t", 1), Pair("w0s", 1), Pair("wc", 1)));
}

// PLAIN takes the whole-register fast paths, which bypass ReadBits/WriteBits.
TEST(CoverageRecorderTest, CountsFastPathReadsAndWrites) {
  Covered covered;
  ASSERT_TRUE(covered.device->model().registers()[covered.Reg("PLAIN")].has(RegisterModel::kPlain));
  covered.Read("PLAIN");
  covered.Read("PLAIN");
  covered.Write("PLAIN", 5);
  RegisterCoverage plain = covered.Of("PLAIN");
  EXPECT_EQ(plain.reads, 2u);
  EXPECT_EQ(plain.writes, 1u);
  EXPECT_THAT(plain.effects, IsEmpty());
}

TEST(CoverageRecorderTest, CountsFieldsAWriteChanged) {
  Covered covered;
  covered.Write("CTL", 0x0001);  // MODE changes (fast path)
  covered.Write("CTL", 0x0001);  // nothing changes
  covered.device->Write(SpaceNamed(covered.device->model(), "mmio"), 0x5, 8, 0x02);  // LEVEL, one byte lane
  RegisterCoverage ctl = covered.Of("CTL");
  EXPECT_EQ(ctl.writes, 3u);
  EXPECT_THAT(ctl.fields_changed, UnorderedElementsAre(Pair("MODE", 1), Pair("LEVEL", 1)));
}

TEST(CoverageRecorderTest, W1cCountsOnlyWhenItCleared) {
  Covered covered;
  covered.device->PokeRegister(covered.Reg("STATUS"), 0x3);
  covered.Write("STATUS", 0x0);  // writes 0: w1c does nothing
  covered.Write("STATUS", 0x1);  // clears bit 0
  covered.Write("STATUS", 0x1);  // bit 0 is already clear
  RegisterCoverage status = covered.Of("STATUS");
  EXPECT_EQ(status.writes, 3u);
  EXPECT_THAT(status.effects, ElementsAre(Pair("w1c", 1)));
}

TEST(CoverageRecorderTest, RcCountsOnlyWhenTheReadClearedBits) {
  Covered covered;
  covered.Read("EVENTS");  // reads 0: nothing to clear
  covered.device->PokeRegister(covered.Reg("EVENTS"), 0x5);
  covered.Read("EVENTS");
  RegisterCoverage events = covered.Of("EVENTS");
  EXPECT_EQ(events.reads, 2u);
  EXPECT_THAT(events.effects, ElementsAre(Pair("rc", 1)));
}

TEST(CoverageRecorderTest, MaskedWriteNeedsEnables) {
  Covered covered(Lenient());
  covered.Write("MODE_MASKED", 0x00010001);
  covered.Write("MODE_MASKED", 0x00000001);  // no enable: a hazard, changes nothing
  EXPECT_THAT(covered.Of("MODE_MASKED").effects, ElementsAre(Pair("masked-write", 1)));
  EXPECT_THAT(covered.Coverage().violations, ElementsAre(Pair("hazard", ElementsAre(Pair("MODE_MASKED", 1)))));
}

TEST(CoverageRecorderTest, WriteOnceCountsTheStoringWrite) {
  Covered covered;
  covered.Write("ONCE", 1);
  covered.Write("ONCE", 0);  // used up until reset
  covered.device->Reset();
  covered.Write("ONCE", 1);
  EXPECT_THAT(covered.Of("ONCE").effects, ElementsAre(Pair("w1", 2)));
}

TEST(CoverageRecorderTest, ToggleZeroSetAndAnyWriteClears) {
  Covered covered;
  covered.device->PokeRegister(covered.Reg("TOGGLES"), 0x1);  // ANY_CLEARS set, ZSET clear
  covered.Write("TOGGLES", 0x110);  // FLIP toggles; ZSET written 1: nothing; ANY_CLEARS cleared
  covered.Write("TOGGLES", 0x000);  // ZSET written 0: set; ANY_CLEARS already clear
  EXPECT_THAT(covered.Of("TOGGLES").effects, UnorderedElementsAre(Pair("w1t", 1), Pair("wc", 1), Pair("w0s", 1)));
}

// A dword of PCI config space reaches COMMAND and STATUS: each counts.
TEST(CoverageRecorderTest, AnAccessSpanningRegistersCountsEach) {
  Covered covered(Lenient());  // writing the status back as read is a hazard
  SpaceId config = SpaceNamed(covered.device->model(), "config");
  covered.device->PokeRegister(covered.Reg("STS"), 0x8000);
  covered.device->Read(config, 0x4, 32);
  covered.device->Write(config, 0x4, 32, 0x80000006);
  EXPECT_EQ(covered.Of("CMD").reads, 1u);
  EXPECT_EQ(covered.Of("CMD").writes, 1u);
  EXPECT_EQ(covered.Of("STS").reads, 1u);
  EXPECT_THAT(covered.Of("STS").effects, ElementsAre(Pair("w1c", 1)));
}

TEST(CoverageRecorderTest, TheBackdoorDoesNotCount) {
  Covered covered;
  SpaceId mmio = SpaceNamed(covered.device->model(), "mmio");
  covered.device->Peek(mmio, 0xC, 32);
  covered.device->Poke(mmio, 0x8, 32, 1);
  covered.device->PeekRegister(covered.Reg("PLAIN"));
  covered.device->PokeRegister(covered.Reg("PLAIN"), 1);
  EXPECT_THAT(covered.Coverage().touched, IsEmpty());
}

TEST(CoverageRecorderTest, CountsViolationsPastMaxButNotIgnoredOnes) {
  DeviceOptions options = Lenient();
  options.max_violations = 1;
  Covered covered(std::move(options));
  for (int i = 0; i < 3; ++i) covered.Write("ID", 0x1234);
  covered.device->Read(SpaceNamed(covered.device->model(), "mmio"), 0x800, 32);  // no register there
  EXPECT_EQ(covered.device->violations().size(), 1u);
  covered.device->SetPolicy(ViolationPolicy::Lenient().Set(ViolationKind::kReadOnly, ViolationAction::kIgnore));
  covered.Write("ID", 0x1234);
  EXPECT_THAT(covered.Coverage().violations,
              UnorderedElementsAre(Pair("read-only", ElementsAre(Pair("ID", 3))),
                                   Pair("unclaimed", ElementsAre(Pair("", 1)))));
}

// Reset, snapshots and restores describe the device; coverage the test.
TEST(CoverageRecorderTest, RestoreKeepsTheCounts) {
  Covered covered;
  DeviceSnapshot snapshot = covered.device->Snapshot();
  covered.Read("PLAIN");
  covered.device->Restore(snapshot);
  covered.device->Reset();
  EXPECT_EQ(covered.Of("PLAIN").reads, 1u);
}

TEST(CoverageRecorderTest, ADestroyedDeviceHandsItsCountsToTheProcess) {
  std::string yaml = kDatabase;
  yaml.replace(0, yaml.find('\n'), "device: handed_over");
  for (int i = 0; i < 2; ++i) {
    DeviceOptions options;
    options.coverage = true;
    auto device = MakeDevice(yaml, std::move(options));
    device->ReadRegister(RegisterNamed(device->model(), "PLAIN"));
  }
  CoverageData collected = CollectedCoverage();
  ASSERT_THAT(collected.models, testing::Contains(Key("handed_over")));
  const ModelCoverage& model = collected.models.at("handed_over");
  EXPECT_EQ(model.devices, 2u);
  EXPECT_EQ(model.touched.at("PLAIN").reads, 2u);
}

TEST(CoverageRecorderTest, TheLayoutTellsEditedDatabasesApart) {
  std::string edited = kDatabase;
  edited.replace(edited.find("offset: 0x18"), 12, "offset: 0x20");
  edited.replace(edited.find("offset: 0x10"), 12, "offset: 0x18");
  DeviceOptions options;
  options.coverage = true;
  auto original = MakeDevice(kDatabase, options);
  auto again = MakeDevice(kDatabase, options);
  auto changed = MakeDevice(edited, options);
  EXPECT_EQ(original->Coverage()->layout, again->Coverage()->layout);
  EXPECT_NE(original->Coverage()->layout, changed->Coverage()->layout);
}

}  // namespace
}  // namespace regemu::emulator
