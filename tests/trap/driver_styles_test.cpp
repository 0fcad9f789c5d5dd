// Plain-pointer drivers (drivers/*.c, no regemu header) as gcc and clang
// build them at -O0, -O2 and -O3, against trapped mappings: CMSIS structs
// at their bus addresses, Linux-style readl/writel on a BAR pointer with a
// polling loop, a 64-bit register whole and in halves, memcpy to and from
// MMIO, and atomic read-modify-writes. Every build must make the same
// accesses and get the same results.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/fakes/matchers.hpp"
#include "tests/trap/driver_functions.hpp"
#include "tests/trap/trap_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using fakes::AccessesInOrder;
using fakes::FieldIs;
using fakes::ReadOf;
using fakes::WriteOf;
using trap_testing::Read;
using trap_testing::Write;

std::string BuildName(const ::testing::TestParamInfo<DriverBuild>& param) { return param.param.name; }

// --- CMSIS: peripherals at their bus addresses, fields by |= and &=.

class CmsisDriverTest : public ::testing::TestWithParam<DriverBuild> {
 protected:
  void SetUp() override {
    device_ = trap_testing::MakeDevice(trap_testing::kMcuDatabase);
    apb_ = testing_support::SpaceNamed(device_->model(), "apb");
    scs_ = testing_support::SpaceNamed(device_->model(), "scs");
    try {
      apb_mapping_.emplace(TrappedMapping::Map(*device_, apb_, reinterpret_cast<void*>(trap_testing::kApbBase)));
    } catch (const std::runtime_error& error) {
      GTEST_SKIP() << error.what();
    }
    // Under ASan, 0xE000E000 is inside the shadow gap ASan reserves.
    try {
      scs_mapping_.emplace(TrappedMapping::Map(*device_, scs_, reinterpret_cast<void*>(trap_testing::kScsBase)));
    } catch (const std::runtime_error& error) {
      scs_refused_ = error.what();
    }
  }
  const DriverBuild& driver() const { return GetParam(); }
  uint64_t Peek(std::string_view reg) const {
    return device_->PeekRegister(testing_support::RegisterNamed(device_->model(), reg));
  }

  std::unique_ptr<Device> device_;
  SpaceId apb_ = 0;
  SpaceId scs_ = 0;
  std::optional<TrappedMapping> apb_mapping_;
  std::optional<TrappedMapping> scs_mapping_;
  std::string scs_refused_;
};

// UART0->CR &= ~UE; UART0->CR &= ~LBE; BRR = divisor; LCR ^= ODD;
// CR |= TE | UE: each |=, &= and ^= a read, then a write, of the field's
// register at its own width, whatever the compiler made of it.
TEST_P(CmsisDriverTest, FieldReadModifyWritesAreAReadThenAWrite) {
  uint64_t before = device_->access_count();
  driver().cmsis_uart_init(0x1a0);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, apb_),
              ElementsAre(Read(0x1000, 32, 0), Write(0x1000, 32, 0), Read(0x1000, 32, 0), Write(0x1000, 32, 0),
                          Write(0x100c, 16, 0x1a0), Read(0x100e, 8, 0x03), Write(0x100e, 8, 0x83),
                          Read(0x1000, 32, 0), Write(0x1000, 32, 0x9)));
  EXPECT_EQ(Peek("UART0_CR"), 0x9u);
  EXPECT_EQ(device_->violation_count(), 0u);
}

// Sending empties the transmitter for 10 us of virtual time (a reaction);
// the next send polls the status until it is empty again, 1 us a read.
TEST_P(CmsisDriverTest, APollOnAStatusBitEndsWhenTheDeviceSetsIt) {
  EXPECT_EQ(driver().cmsis_uart_put('A', 100), 0);
  EXPECT_EQ(Peek("UART0_SR"), 0u) << "sending";
  EXPECT_EQ(driver().cmsis_uart_put('B', 3), -1) << "three polls are not 10 us";
  EXPECT_EQ(driver().cmsis_uart_put('B', 100), 0);
  EXPECT_EQ(Peek("UART0_DR"), uint64_t{'B'});
  EXPECT_GE(device_->now_ns(), 10'000u);
  EXPECT_EQ(device_->violation_count(), 0u);
}

TEST_P(CmsisDriverTest, A64BitRegisterIsOneLoad) {
  uint64_t before = device_->access_count();
  EXPECT_EQ(driver().cmsis_uart_timestamp(), 0x1122334455667788u);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, apb_),
              ElementsAre(Read(0x1010, 64, 0x1122334455667788u)));
}

// The NVIC sits above 2 GiB: no 32-bit displacement reaches it.
TEST_P(CmsisDriverTest, TheNvicAboveTwoGibIsReachedToo) {
  if (!scs_mapping_) GTEST_SKIP() << "cannot map the NVIC here: " << scs_refused_;
  driver().cmsis_nvic_enable_irq(37);
  driver().cmsis_nvic_enable_irq(3);
  EXPECT_EQ(Peek("NVIC_ISER1"), 1u << 5);
  EXPECT_EQ(Peek("NVIC_ISER0"), 1u << 3);
  driver().cmsis_nvic_disable_irq(37);
  EXPECT_EQ(Peek("NVIC_ISER1"), 0u);
  EXPECT_EQ(device_->violation_count(), 0u);
}

// __atomic builtins on a mailbox register: LOCK OR, LOCK AND, LOCK
// CMPXCHG (and its loop), XCHG, LOCK XADD, LOCK BTS.
TEST_P(CmsisDriverTest, AtomicReadModifyWritesOnARegister) {
  auto* sem = reinterpret_cast<volatile uint32_t*>(trap_testing::kApbBase + 0x100);
  auto* count = reinterpret_cast<volatile uint64_t*>(trap_testing::kApbBase + 0x108);
  auto* flags = reinterpret_cast<volatile uint64_t*>(trap_testing::kApbBase + 0x110);
  EXPECT_EQ(driver().atomic_fetch_set_bits(sem, 0x1), 0u);
  driver().atomic_set_bits(sem, 0x4);
  driver().atomic_clear_bits(sem, 0x1);
  EXPECT_EQ(Peek("MBOX_SEM"), 0x4u);
  EXPECT_EQ(driver().atomic_claim(sem, 0x4, 0x10), 1);
  uint64_t before = device_->access_count();
  EXPECT_EQ(driver().atomic_claim(sem, 0x4, 0x20), 0);
  EXPECT_THAT(trap_testing::AccessesSince(*device_, before, apb_), ElementsAre(Read(0x100, 32, 0x10)))
      << "a compare that fails writes nothing";
  EXPECT_EQ(driver().atomic_swap(sem, 7), 0x10u);
  EXPECT_EQ(Peek("MBOX_SEM"), 7u);
  EXPECT_EQ(driver().atomic_add64(count, 5), 0u);
  EXPECT_EQ(driver().atomic_add64(count, 5), 5u);
  EXPECT_EQ(Peek("MBOX_COUNT"), 10u);
  EXPECT_EQ(driver().atomic_test_and_set_bit(flags, 40), 0);
  EXPECT_EQ(driver().atomic_test_and_set_bit(flags, 40), 1);
  EXPECT_EQ(driver().atomic_test_and_set_bit(flags, 3), 0);
  EXPECT_EQ(Peek("MBOX_FLAGS"), (uint64_t{1} << 40) | 8u);
  EXPECT_EQ(device_->violation_count(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Builds, CmsisDriverTest, ::testing::ValuesIn(kDriverBuilds), BuildName);

// --- Linux style on the shipped NVMe controller's BAR0.

class NvmeDriverTest : public fakes::DeviceTest, public ::testing::WithParamInterface<DriverBuild> {
 protected:
  void SetUp() override {
    LoadDevice(fakes::ShippedDatabase("nvme"));
    bus("config").Write16(0x04, 0x0006);  // the PCI core: memory decode and bus mastering
    bar_ = MappedSpace("bar0");
    bar0_ = *device().model().FindSpace("bar0");
  }
  const DriverBuild& driver() const { return GetParam(); }
  uint64_t Peek(std::string_view reg) { return device().PeekRegister(*device().model().FindRegister(reg)); }

  uint8_t* bar_ = nullptr;
  SpaceId bar0_ = 0;
};

TEST_P(NvmeDriverTest, ReadlAndWritelAreFrontdoorAccesses) {
  EXPECT_EQ(driver().nvme_read_version(bar_), 0x00020000u);
  driver().nvme_mask_vectors(bar_, 0x6, 0x2);
  EXPECT_EQ(Peek("IVM"), 0x4u) << "INTMS set 0x6, INTMC cleared 0x2";
  EXPECT_THAT(device(), AccessesInOrder({ReadOf("VS", 0x00020000), WriteOf("INTMS", 0x6), WriteOf("INTMC", 0x2)}));
}

// CC.EN rising sets CSTS.RDY 2 ms later (yaml/nvme); a loop reading CSTS
// without sleeping ends because each read takes 1 us of virtual time.
TEST_P(NvmeDriverTest, APollingLoopEndsOnTheVirtualClock) {
  driver().nvme_configure_admin_queue(bar_, 0x10000, 0x20000, 32);
  EXPECT_EQ(Peek("AQA"), 0x001f001fu);
  EXPECT_EQ(Peek("ACQ"), 0x20000u);
  long polls = driver().nvme_enable_ctrl(bar_, 12, 1'000'000);
  EXPECT_GE(polls, 1900);
  EXPECT_LE(polls, 2001);
  EXPECT_GE(device().now_ns(), 2'000'000u);
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 1));
  EXPECT_THAT(device(), FieldIs("CC.IOSQES", 6));
  long down = driver().nvme_disable_ctrl(bar_, 1'000'000);
  EXPECT_GE(down, 900);
  EXPECT_THAT(device(), FieldIs("CC.EN", 0));
  EXPECT_THAT(device(), FieldIs("CSTS.RDY", 0));
}

TEST_P(NvmeDriverTest, A64BitRegisterReadsTheSameWholeAndInHalves) {
  uint64_t cap = Peek("CAP");
  uint64_t before = device().access_count();
  EXPECT_EQ(driver().reg64_readq(bar_, 0), cap);
  EXPECT_EQ(driver().reg64_lo_hi_readq(bar_, 0), cap);
  EXPECT_THAT(trap_testing::AccessesSince(device(), before, bar0_),
              ElementsAre(Read(0, 64, cap), Read(0, 32, cap & 0xffffffff), Read(4, 32, cap >> 32)));
}

// The MSI-X table (16-byte entries of 32-bit registers): libc's memcpy
// for a size known at run time, a struct copy for one entry.
TEST_P(NvmeDriverTest, MemcpyToAndFromMmio) {
  msix_entry table[4];
  for (uint32_t i = 0; i < 4; ++i) table[i] = {0xfee00000u + 0x10 * i, 0, 0x4020 + i, i & 1};
  driver().mmio_memcpy_toio(bar_ + 0x2000, table, sizeof table);
  EXPECT_EQ(Peek("MSIX2_MADDR"), 0xfee00020u);
  EXPECT_EQ(Peek("MSIX3_MDATA"), 0x4023u);
  EXPECT_EQ(Peek("MSIX1_VCTRL"), 1u);
  EXPECT_EQ(Peek("MSIX2_VCTRL"), 0u);
  msix_entry back[4] = {};
  driver().mmio_memcpy_fromio(back, bar_ + 0x2000, sizeof back);
  EXPECT_EQ(std::memcmp(back, table, sizeof table), 0);

  msix_entry one{0xfee0f000u, 0x1, 0x4099, 0};
  driver().mmio_msix_write_entry(bar_ + 0x2000, 5, &one);
  EXPECT_EQ(Peek("MSIX5_MUADDR"), 1u);
  msix_entry got{};
  driver().mmio_msix_read_entry(bar_ + 0x2000, 5, &got);
  EXPECT_EQ(std::memcmp(&got, &one, sizeof one), 0);

  driver().mmio_memset_io(bar_ + 0x2000, 0, 2 * sizeof(msix_entry));
  EXPECT_EQ(Peek("MSIX0_MADDR"), 0u);
  EXPECT_EQ(Peek("MSIX1_VCTRL"), 0u);
  EXPECT_EQ(Peek("MSIX2_MADDR"), 0xfee00020u) << "past the memset";
}

INSTANTIATE_TEST_SUITE_P(Builds, NvmeDriverTest, ::testing::ValuesIn(kDriverBuilds), BuildName);

}  // namespace
}  // namespace regemu::emulator
