// A trapped mapping's life: where it goes, what it refuses, the virtual
// time its accesses take, accesses that span registers, and the range it
// gives back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "tests/trap/trap_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using trap_testing::MakeDevice;
using testing_support::SpaceNamed;
using trap_testing::Read;
using trap_testing::Write;

constexpr uintptr_t kFixed = 0x20000000;

// Whether [address, address + size) is free: a mapping there would get it.
bool IsFree(uintptr_t address, size_t size) {
  void* probe = mmap(reinterpret_cast<void*>(address), size, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (probe == MAP_FAILED) return false;
  munmap(probe, size);
  return probe == reinterpret_cast<void*>(address);
}

class MappingTest : public ::testing::Test {
 protected:
  MappingTest() : device_(MakeDevice(trap_testing::kRamDatabase)), bar_(SpaceNamed(device_->model(), "bar")) {}

  std::unique_ptr<Device> device_;
  SpaceId bar_;
};

TEST_F(MappingTest, LoadsAndStoresAreFrontdoorAccesses) {
  TrappedMapping mapping = TrappedMapping::Map(*device_, bar_);
  EXPECT_EQ(mapping.size(), 0x100u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(mapping.base()) % static_cast<uintptr_t>(sysconf(_SC_PAGESIZE)), 0u);
  EXPECT_EQ(&mapping.device(), device_.get());
  EXPECT_EQ(mapping.space(), bar_);
  auto* regs = static_cast<volatile uint32_t*>(mapping.base());
  device_->Poke(bar_, 0x10, 64, 0xaabbccdd'11223344);
  uint64_t before = device_->access_count();
  EXPECT_EQ(regs[4], 0x11223344u);
  regs[5] = 0x55667788;
  EXPECT_EQ(device_->Peek(bar_, 0x10, 64), 0x55667788'11223344u);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, bar_),
              ElementsAre(Read(0x10, 32, 0x11223344), Write(0x14, 32, 0x55667788)));
}

// A device without an access cost gets 1 us per access from its first
// mapping, so that a polling loop sees time pass; one with a cost keeps
// it; MapOptions sets it, 0 included.
TEST_F(MappingTest, EachAccessTakesTheDevicesAccessCost) {
  TrappedMapping mapping = TrappedMapping::Map(*device_, bar_);
  EXPECT_EQ(device_->access_cost_ns(), kDefaultTrappedAccessCostNs);
  auto* regs = static_cast<volatile uint64_t*>(mapping.base());
  uint64_t start = device_->now_ns();
  regs[0] = regs[1];  // a read and a write
  EXPECT_EQ(device_->now_ns() - start, 2 * kDefaultTrappedAccessCostNs);

  DeviceOptions costly;
  costly.access_cost_ns = 30;
  auto other = MakeDevice(trap_testing::kRamDatabase, costly);
  TrappedMapping kept = TrappedMapping::Map(*other, bar_);
  EXPECT_EQ(other->access_cost_ns(), 30u);

  MapOptions still;
  still.access_cost_ns = 0;
  auto third = MakeDevice(trap_testing::kRamDatabase);
  TrappedMapping frozen = TrappedMapping::Map(*third, bar_, still);
  static_cast<volatile uint64_t*>(frozen.base())[0] = 1;
  EXPECT_EQ(third->now_ns(), 0u);
}

TEST_F(MappingTest, AFixedAddressIsWhereTheSpaceGoesAndComesBackFreeAfterwards) {
  if (!IsFree(kFixed, 0x1000)) GTEST_SKIP() << "the test's fixed address is taken in this process";
  {
    TrappedMapping mapping = TrappedMapping::Map(*device_, bar_, reinterpret_cast<void*>(kFixed));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(mapping.base()), kFixed);
    *reinterpret_cast<volatile uint32_t*>(kFixed + 8) = 0x1234;
    EXPECT_EQ(device_->Peek(bar_, 8, 32), 0x1234u);
    EXPECT_FALSE(IsFree(kFixed, 0x1000));
  }
  EXPECT_TRUE(IsFree(kFixed, 0x1000)) << "unmapping gives the range back";
}

TEST_F(MappingTest, AFixedAddressThatIsTakenIsRefusedWithWhatIsThere) {
  if (!IsFree(kFixed, 0x1000)) GTEST_SKIP() << "the test's fixed address is taken in this process";
  void* taken = mmap(reinterpret_cast<void*>(kFixed), 0x1000, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
                     -1, 0);
  ASSERT_EQ(taken, reinterpret_cast<void*>(kFixed));
  try {
    TrappedMapping::Map(*device_, bar_, reinterpret_cast<void*>(kFixed));
    ADD_FAILURE() << "mapped over a taken range";
  } catch (const std::runtime_error& error) {
    EXPECT_THAT(error.what(), AllOf(HasSubstr("cannot map space 'bar' of device 'ram'"),
                                    HasSubstr("[0x20000000, 0x20001000) is already in use"),
                                    HasSubstr("20000000-20001000 r--p")));
  }
  EXPECT_EQ(*static_cast<volatile uint8_t*>(taken), 0u) << "what was there is untouched";
  munmap(taken, 0x1000);
}

TEST_F(MappingTest, WhatCannotBeMappedIsSaidSo) {
  const Model& model = device_->model();
  EXPECT_THROW(
      {
        try {
          TrappedMapping::Map(*device_, SpaceNamed(model, "msr"));
        } catch (const std::invalid_argument& error) {
          EXPECT_THAT(error.what(), HasSubstr("its offsets are MSR indices"));
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(
      {
        try {
          TrappedMapping::Map(*device_, SpaceNamed(model, "inside"));
        } catch (const std::invalid_argument& error) {
          EXPECT_THAT(error.what(), HasSubstr("a `state` space"));
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(
      {
        try {
          TrappedMapping::Map(*device_, bar_, reinterpret_cast<void*>(kFixed + 0x10));
        } catch (const std::invalid_argument& error) {
          EXPECT_THAT(error.what(), HasSubstr("must be page-aligned"));
          throw;
        }
      },
      std::invalid_argument);
  EXPECT_THROW(TrappedMapping::Map(*device_, 99), std::invalid_argument);
}

// A 32-bit load over two 16-bit registers is one 32-bit access: the
// frontdoor composes the lanes (as a dword read of VID and DID does).
TEST_F(MappingTest, AnAccessOverTwoRegistersIsOneAccessOfItsWidth) {
  SpaceId cfg = SpaceNamed(device_->model(), "cfg");
  TrappedMapping mapping = TrappedMapping::Map(*device_, cfg);
  uint64_t before = device_->access_count();
  EXPECT_EQ(*static_cast<volatile uint32_t*>(mapping.base()), 0x12348086u);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, cfg), ElementsAre(Read(0, 32, 0x12348086)));
}

// The page holds more than the space: bytes past its end are the
// device's to refuse, as any access past a space's end.
TEST_F(MappingTest, PastTheSpaceButInsideThePageIsTheDevicesToRefuse) {
  TrappedMapping mapping = TrappedMapping::Map(*device_, bar_);
  static_cast<volatile uint32_t*>(mapping.base())[0x200 / 4] = 1;
  std::vector<Violation> violations = device_->violations();
  ASSERT_EQ(violations.size(), 1u);
  EXPECT_EQ(violations[0].offset, 0x200u);
}

TEST_F(MappingTest, AMovedMappingIsStillOneMapping) {
  TrappedMapping first = TrappedMapping::Map(*device_, bar_);
  void* base = first.base();
  TrappedMapping second = std::move(first);
  EXPECT_EQ(first.base(), nullptr);  // NOLINT(bugprone-use-after-move): moved-from is documented
  EXPECT_EQ(second.base(), base);
  static_cast<volatile uint32_t*>(base)[0] = 7;
  EXPECT_EQ(device_->Peek(bar_, 0, 32), 7u);
}

}  // namespace
}  // namespace regemu::emulator
