// The `pci-config` behaviour on the Ice Lake database (yaml/icl/pci.yaml,
// pci_behaviour.yaml; yaml/README.md "behaviours"; Linux drivers/pci): BAR
// sizing exactly as Linux's __pci_read_base does it, the capability chains
// as pci_find_capability / pci_find_ext_capability walk them, memory decode
// and D3hot, and MSI in Linux's msi_capability_init order.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "regemu/emulator/device.hpp"
#include "regemu/regdb/loader.hpp"
#include "tests/emulator/device_test_support.hpp"

namespace regemu::emulator {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;
using testing_support::Kinds;
using testing_support::RegisterNamed;
using testing_support::SpaceNamed;

// Configuration-space offsets (yaml/icl/pci.yaml).
constexpr uint64_t kCommand = 0x04;
constexpr uint64_t kStatus = 0x06;
constexpr uint64_t kBar0 = 0x10;
constexpr uint64_t kBar2 = 0x18;
constexpr uint64_t kBar4 = 0x20;
constexpr uint64_t kRom = 0x30;
constexpr uint64_t kMsac = 0x60;
constexpr uint64_t kMsiControl = 0xAE;
constexpr uint64_t kMsiAddress = 0xB0;
constexpr uint64_t kMsiData = 0xB4;
constexpr uint64_t kMsiMask = 0xB8;
constexpr uint64_t kMsiPending = 0xBC;
constexpr uint64_t kPmcs = 0xD4;
// PCI_COMMAND bits (Linux pci_regs.h).
constexpr uint64_t kIo = 0x1;
constexpr uint64_t kMemory = 0x2;
constexpr uint64_t kMaster = 0x4;
constexpr uint64_t kIntxDisable = 0x400;
// An MMIO register no force-wake domain gates (GEN6_STOLEN_RESERVED, ro 0).
constexpr uint64_t kStolenReserved = 0x1082C0;
constexpr uint64_t kMirrorRpStateCap = 0x145998;  // MCHBAR mirror of RP_STATE_CAP

using Cap = std::pair<uint64_t, uint64_t>;  // a capability's position and ID

std::shared_ptr<const Model> IclModel() {
  return testing_support::CompileDatabaseAt(std::string(REGEMU_SOURCE_DIR) + "/yaml/icl");
}

class IclPciTest : public ::testing::Test {
 protected:
  IclPciTest()
      : device_(IclModel(), WithCoverage()),
        config_(SpaceNamed(device_.model(), "config")),
        mmio_(SpaceNamed(device_.model(), "mmio")),
        mchbar_(SpaceNamed(device_.model(), "mchbar")) {}

  static DeviceOptions WithCoverage() {
    DeviceOptions options;
    options.coverage = true;
    return options;
  }

  uint64_t Read(uint64_t offset, unsigned width) { return device_.Read(config_, offset, width); }
  void Write(uint64_t offset, unsigned width, uint64_t value) { device_.Write(config_, offset, width, value); }
  // pci_enable_device + pci_set_master: what the PCI core does before a driver touches its BARs.
  void EnableMemoryAndMastering() { Write(kCommand, 16, kMemory | kMaster); }
  void Inject(const char* level) {
    std::vector<std::string> args{level};
    ASSERT_EQ(device_.Inject("pci-request", args), "");
  }

  // Linux's __pci_read_base for one dword: read, write all-ones (the ROM:
  // 0xFFFFF800), read the size back, restore. Returns {l, sz}.
  std::pair<uint32_t, uint32_t> SizeDword(uint64_t offset, uint32_t ones = 0xFFFFFFFF) {
    auto l = static_cast<uint32_t>(Read(offset, 32));
    Write(offset, 32, l | ones);
    auto sz = static_cast<uint32_t>(Read(offset, 32));
    Write(offset, 32, l);
    return {l, sz};
  }

  // pci_read_bases around one BAR: decode off while sizing, then restored.
  uint64_t SizeMemoryBar(uint64_t offset, bool is_64bit) {
    auto command = static_cast<uint16_t>(Read(kCommand, 16));
    if ((command & (kIo | kMemory)) != 0) Write(kCommand, 16, command & ~(kIo | kMemory));
    auto [l, sz] = SizeDword(offset);
    uint64_t sz64 = sz;
    uint64_t mask64 = uint32_t{0xFFFFFFF0};  // PCI_BASE_ADDRESS_MEM_MASK
    if (is_64bit) {
      auto [l_hi, sz_hi] = SizeDword(offset + 4);
      (void)l_hi;
      sz64 |= uint64_t{sz_hi} << 32;
      mask64 |= uint64_t{0xFFFFFFFF} << 32;
    }
    if ((command & (kIo | kMemory)) != 0) Write(kCommand, 16, command);
    (void)l;
    return PciSize(sz64, mask64);
  }

  // pci_size: the lowest set bit of the masked size read-back.
  static uint64_t PciSize(uint64_t sz, uint64_t mask) {
    uint64_t size = sz & mask;
    if (size == 0) return 0;
    return size & ~(size - 1);
  }

  Device device_;
  SpaceId config_;
  SpaceId mmio_;
  SpaceId mchbar_;
};

// ------------------------------------------------------------------ BAR sizing

TEST_F(IclPciTest, Bar0SizingReadsBackSixteenMiBSixtyFourBitNonPrefetchable) {
  EnableMemoryAndMastering();  // sizing turns decode off and back on, as Linux does
  EXPECT_EQ(SizeDword(kBar0), std::make_pair(uint32_t{0x4}, uint32_t{0xFF000004}));
  EXPECT_EQ(SizeDword(kBar0 + 4), std::make_pair(uint32_t{0x0}, uint32_t{0xFFFFFFFF}));
  EXPECT_EQ(SizeMemoryBar(kBar0, true), uint64_t{16} << 20);
  EXPECT_EQ(Read(kBar0, 32), 0x4u) << "restored";
  EXPECT_EQ(Read(kCommand, 16), kMemory | kMaster) << "decode restored";
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, Bar2SizingFollowsMsacAndIsPrefetchable) {
  EXPECT_EQ(SizeDword(kBar2), std::make_pair(uint32_t{0xC}, uint32_t{0xF000000C}));
  EXPECT_EQ(SizeMemoryBar(kBar2, true), uint64_t{256} << 20) << "MSAC resets to APSZ = 1";
  struct Case {
    uint8_t apsz;
    uint64_t size;
  };
  // MSAC.APSZ: 0 = 128 MiB, 1 = 256, 3 = 512, 7 = 1 GiB, 0xF = 2 GiB, 0x1F = 4 GiB; 2 acts as 3.
  for (Case c : {Case{0x0, 128u << 20}, Case{0x1, 256u << 20}, Case{0x2, 512u << 20}, Case{0x3, 512u << 20},
                 Case{0x7, uint64_t{1} << 30}, Case{0xF, uint64_t{2} << 30}, Case{0x1F, uint64_t{4} << 30}}) {
    Write(kMsac, 8, c.apsz);
    EXPECT_EQ(SizeMemoryBar(kBar2, true), c.size) << "APSZ " << int{c.apsz};
  }
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, ShrinkingTheApertureClearsTheBaseBitsItHardwires) {
  Write(kMsac, 8, 0x0);  // 128 MiB: bit 27 is an address bit
  Write(kBar2, 32, 0x0800000C);
  EXPECT_EQ(Read(kBar2, 32), 0x0800000Cu);
  Write(kMsac, 8, 0x1);  // 256 MiB: bit 27 reads 0
  EXPECT_EQ(Read(kBar2, 32), 0x0000000Cu);
}

TEST_F(IclPciTest, IoBarSizingReadsBackSixtyFourBytes) {
  auto [l, sz] = SizeDword(kBar4);
  EXPECT_EQ(l, 0x1u);
  EXPECT_EQ(sz, 0x0000FFC1u);
  // Linux: I/O mask ~0x3 limited to IO_SPACE_LIMIT (0xFFFF).
  EXPECT_EQ(PciSize(sz, 0xFFFCu), 64u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

// ICL has no BAR5: it reads 0 before and after the all-ones write (PCI
// 3.0 6.2.5.1, an unimplemented BAR is hardwired 0), without a violation,
// so Linux's pci_read_bases skips it.
TEST_F(IclPciTest, UnimplementedBar5SizesToNothing) {
  EXPECT_EQ(SizeDword(0x24), std::make_pair(uint32_t{0}, uint32_t{0}));
  EXPECT_EQ(Read(0x28, 32), 0u);  // the CardBus CIS pointer, likewise
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, RomSizingReadsBackZeroSoLinuxSeesNoRom) {
  EXPECT_EQ(SizeDword(kRom, 0xFFFFF800), std::make_pair(uint32_t{0}, uint32_t{0}));
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, ReadModifyWriteOfRegistersWithHardwiredBitsIsNoViolation) {
  for (auto [offset, width] : {std::pair<uint64_t, unsigned>{kBar0, 32}, {kBar0 + 4, 32}, {kBar2, 32}, {kBar4, 32},
                               {kRom, 32}, {kCommand, 16}, {kMsiControl, 16}, {kMsiAddress, 32}, {kPmcs, 16}}) {
    Write(offset, width, Read(offset, width));
  }
  // A base address written without the type bits: they stay.
  Write(kBar0, 32, 0xC0000000);
  EXPECT_EQ(Read(kBar0, 32), 0xC0000004u);
  EXPECT_THAT(device_.violations(), IsEmpty());
  // A capability ID is still read-only: changing it is a mistake.
  Write(0x70, 8, 0x11);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kReadOnly));
}

// ------------------------------------------------------------- capabilities

TEST_F(IclPciTest, CapabilityChainWalksInTheSeedsOrder) {
  ASSERT_NE(Read(kStatus, 16) & 0x10, 0u) << "PCI_STATUS_CAP_LIST";
  std::vector<Cap> chain;  // {position, ID}
  uint64_t pos = Read(0x34, 8);
  for (int ttl = 48; ttl > 0 && pos >= 0x40; --ttl) {  // pci_find_capability
    pos &= ~uint64_t{3};
    uint64_t header = Read(pos, 16);
    if ((header & 0xFF) == 0xFF) break;
    chain.emplace_back(pos, header & 0xFF);
    pos = header >> 8;
  }
  EXPECT_THAT(chain, ElementsAre(Cap{0x40, 0x09}, Cap{0x70, 0x10},
                                 Cap{0xAC, 0x05}, Cap{0xD0, 0x01}));
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, ExtendedCapabilityChainWalksToTheEnd) {
  std::vector<Cap> chain;
  uint64_t pos = 0x100;
  for (int ttl = (4096 - 256) / 8; ttl > 0 && pos >= 0x100; --ttl) {  // pci_find_next_ext_capability
    uint64_t header = Read(pos, 32);
    if (header == 0) break;
    chain.emplace_back(pos, header & 0xFFFF);
    pos = (header >> 20) & 0xFFC;
  }
  EXPECT_THAT(chain, ElementsAre(Cap{0x100, 0x1B}, Cap{0x200, 0x0F},
                                 Cap{0x300, 0x13}, Cap{0x320, 0x10}));
}

// ------------------------------------------------------------ memory decode

TEST_F(IclPciTest, MmioIsNotDecodedUntilMemorySpaceEnable) {
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0xFFFFFFFFu);
  device_.Write(mmio_, kStolenReserved, 32, 0);
  ASSERT_THAT(Kinds(device_), ElementsAre(ViolationKind::kUnclaimed, ViolationKind::kUnclaimed));
  EXPECT_THAT(device_.violations()[0].rule, HasSubstr("PCICMD.MSE (Memory Space Enable) is clear"));
  EXPECT_EQ(device_.violations()[0].register_name, "GEN6_STOLEN_RESERVED");
  device_.ClearViolations();
  EnableMemoryAndMastering();
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0u);
  EXPECT_THAT(device_.violations(), IsEmpty());
  Write(kCommand, 16, 0);  // decode off again
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0xFFFFFFFFu);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kUnclaimed));
}

TEST_F(IclPciTest, MchbarMirrorIsOffWithMemoryDecodeButTheHostBridgesSpaceIsNot) {
  RegisterId rp_state_cap = RegisterNamed(device_.model(), "RP_STATE_CAP");
  uint64_t value = device_.PeekRegister(rp_state_cap);
  EXPECT_EQ(device_.Read(mmio_, kMirrorRpStateCap, 32), 0xFFFFFFFFu);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kUnclaimed));
  device_.ClearViolations();
  EXPECT_EQ(device_.Read(mchbar_, 0x5998, 32), value) << "mchbar is 0/0/0's, not gated by 0/2/0";
  EnableMemoryAndMastering();
  EXPECT_EQ(device_.Read(mmio_, kMirrorRpStateCap, 32), value);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, ResetTurnsMemoryDecodeOffAgain) {
  EnableMemoryAndMastering();
  device_.Reset();
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0xFFFFFFFFu);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kUnclaimed));
}

// --------------------------------------------------------------------- power

TEST_F(IclPciTest, D3hotTurnsMmioOffAsPowerViolationsAndConfigSpaceStaysUp) {
  EnableMemoryAndMastering();
  Write(kPmcs, 16, 0x3);  // D3hot
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0xFFFFFFFFu);
  device_.Write(mmio_, kStolenReserved, 32, 0);
  ASSERT_THAT(Kinds(device_), ElementsAre(ViolationKind::kPower, ViolationKind::kPower));
  EXPECT_THAT(device_.violations()[0].rule, HasSubstr("D3hot"));
  device_.ClearViolations();
  EXPECT_EQ(Read(0x00, 16), 0x8086u) << "configuration space answers in D3hot";
  EXPECT_EQ(Read(kPmcs, 16) & 0x3, 0x3u);
  Write(kPmcs, 16, 0x0);  // back to D0
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, D3hotWinsOverDecodeAndD0WithoutDecodeIsUnclaimed) {
  Write(kPmcs, 16, 0x3);
  device_.Read(mmio_, kStolenReserved, 32);
  Write(kPmcs, 16, 0x0);
  device_.Read(mmio_, kStolenReserved, 32);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kPower, ViolationKind::kUnclaimed));
}

TEST_F(IclPciTest, SnapshotAndRestoreKeepTheSpaceState) {
  EnableMemoryAndMastering();
  DeviceSnapshot decoded = device_.Snapshot();
  Write(kPmcs, 16, 0x3);
  DeviceSnapshot powered_down = device_.Snapshot();
  device_.Restore(decoded);
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0u);
  EXPECT_THAT(device_.violations(), IsEmpty());
  device_.Restore(powered_down);
  EXPECT_EQ(device_.Read(mmio_, kStolenReserved, 32), 0xFFFFFFFFu);
  EXPECT_THAT(Kinds(device_), ElementsAre(ViolationKind::kPower));
}

// ------------------------------------------------------------ interrupts

// Linux's msi_capability_init (drivers/pci/msi/msi.c) for one vector.
void EnableMsiLikeLinux(Device& device, SpaceId config, uint64_t address, uint64_t data) {
  auto read = [&](uint64_t offset, unsigned width) { return device.Read(config, offset, width); };
  auto write = [&](uint64_t offset, unsigned width, uint64_t value) { device.Write(config, offset, width, value); };
  write(kMsiControl, 16, read(kMsiControl, 16) & ~uint64_t{1});           // 1. disable
  uint64_t control = read(kMsiControl, 16);                                // 2. per-vector masking capable:
  ASSERT_NE(control & 0x100, 0u);
  write(kMsiMask, 32, read(kMsiMask, 32) | 1);                             //    mask the vector
  write(kMsiControl, 16, (read(kMsiControl, 16) & ~uint64_t{0x70}) | 0);   // 3. QSIZE = log2(1)
  write(kMsiAddress, 32, address);                                         //    address (32-bit form)
  write(kMsiData, 16, data);                                               //    data at +8
  read(kMsiControl, 16);                                                   //    flush
  write(kCommand, 16, read(kCommand, 16) | kIntxDisable);                  // 4. pci_intx_for_msi
  write(kMsiControl, 16, read(kMsiControl, 16) | 1);                       // 5. enable
  write(kMsiMask, 32, read(kMsiMask, 32) & ~uint64_t{1});                  // 6. unmask
}

TEST_F(IclPciTest, MsiEnabledInLinuxOrderTurnsAnInterruptIntoOneMessage) {
  EnableMemoryAndMastering();
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x4021);
  EXPECT_THAT(device_.violations(), IsEmpty());
  EXPECT_THAT(device_.messages(), IsEmpty());
  Inject("1");
  ASSERT_EQ(device_.messages().size(), 1u);
  EXPECT_EQ(device_.messages()[0].address, 0xFEE00000u);
  EXPECT_EQ(device_.messages()[0].data, 0x4021u);
  EXPECT_FALSE(device_.interrupt_asserted()) << "no INTx while MSI is enabled";
  EXPECT_EQ(Read(kStatus, 16) & 0x8, 0u) << "INTx status stays clear";
  Inject("1");
  EXPECT_EQ(device_.message_count(), 1u) << "one message per rising edge";
  Inject("0");
  Inject("1");
  EXPECT_EQ(device_.message_count(), 2u);
}

TEST_F(IclPciTest, MaskedVectorSetsPendingAndUnmaskDeliversIt) {
  EnableMemoryAndMastering();
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x21);
  Write(kMsiMask, 32, 1);
  Inject("1");
  EXPECT_THAT(device_.messages(), IsEmpty());
  EXPECT_EQ(Read(kMsiPending, 32), 1u);
  Write(kMsiMask, 32, 0);
  ASSERT_EQ(device_.messages().size(), 1u);
  EXPECT_EQ(device_.messages()[0].data, 0x21u);
  EXPECT_EQ(Read(kMsiPending, 32), 0u);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, MsiWithoutBusMasteringIsDroppedAsAProtocolViolation) {
  Write(kCommand, 16, kMemory);
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x21);
  Inject("1");
  EXPECT_THAT(device_.messages(), IsEmpty());
  ASSERT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device_.violations()[0].rule, HasSubstr("Bus Master Enable) is clear"));
  EXPECT_EQ(device_.violations()[0].register_name, "MC");
}

TEST_F(IclPciTest, ChangingTheMessageWhileEnabledAndUnmaskedIsAProtocolViolation) {
  EnableMemoryAndMastering();
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x21);
  Write(kMsiAddress, 32, 0xFEE00000);  // the same value: harmless
  EXPECT_THAT(device_.violations(), IsEmpty());
  Write(kMsiData, 16, 0x22);
  ASSERT_THAT(Kinds(device_), ElementsAre(ViolationKind::kProtocol));
  EXPECT_THAT(device_.violations()[0].rule, HasSubstr("MD changed while MSI is enabled and vector 0 is unmasked"));
  device_.ClearViolations();
  Write(kMsiMask, 32, 1);  // masked: the way to retarget
  Write(kMsiAddress, 32, 0xFEE01000);
  Write(kMsiMask, 32, 0);
  EXPECT_THAT(device_.violations(), IsEmpty());
}

TEST_F(IclPciTest, WithoutMsiTheRequestDrivesIntxUnlessDisabled) {
  EnableMemoryAndMastering();
  Inject("1");
  EXPECT_TRUE(device_.interrupt_asserted());
  EXPECT_EQ(Read(kStatus, 16) & 0x8, 0x8u);
  Write(kCommand, 16, kMemory | kMaster | kIntxDisable);
  EXPECT_FALSE(device_.interrupt_asserted());
  EXPECT_EQ(Read(kStatus, 16) & 0x8, 0x8u) << "INTx Disable does not hide the status";
  Inject("0");
  EXPECT_EQ(Read(kStatus, 16) & 0x8, 0u);
  EXPECT_THAT(device_.messages(), IsEmpty());
}

TEST_F(IclPciTest, EnablingMsiWhileTheRequestIsUpSendsIt) {
  EnableMemoryAndMastering();
  Inject("1");
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x21);
  EXPECT_EQ(device_.message_count(), 1u);
  EXPECT_FALSE(device_.interrupt_asserted());
}

// Coverage: each way the function's interrupt went out, the power states
// entered and memory decode switched on and off.
TEST_F(IclPciTest, CoversIntxMsiPowerStatesAndDecode) {
  EnableMemoryAndMastering();
  Inject("1");
  Inject("0");
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x21);
  Inject("1");
  Inject("0");
  Write(kMsiMask, 32, 1);
  Inject("1");
  Write(kMsiMask, 32, 0);
  Write(kPmcs, 16, 3);
  Write(kPmcs, 16, 0);
  Write(kCommand, 16, kMaster | kIntxDisable);
  EXPECT_THAT(device_.violations(), IsEmpty());
  EXPECT_THAT(testing_support::PointHits(device_, "pci"),
              UnorderedElementsAre(Pair("interrupts/INTx asserted", 1), Pair("interrupts/MSI sent", 1),
                                   Pair("interrupts/MSI held by its mask", 1),
                                   Pair("interrupts/MSI sent on unmask", 1),
                                   Pair("interrupts/MSI dropped without bus master", 0),
                                   Pair("power states entered/D0", 1), Pair("power states entered/D1", 0),
                                   Pair("power states entered/D2", 0), Pair("power states entered/D3hot", 1),
                                   Pair("memory decode/enabled", 1), Pair("memory decode/disabled", 1)));
}

TEST_F(IclPciTest, MsiWithoutBusMasteringIsCoveredAsDropped) {
  Write(kCommand, 16, kMemory);
  EnableMsiLikeLinux(device_, config_, 0xFEE00000, 0x21);
  Inject("1");
  device_.ClearViolations();
  EXPECT_EQ(testing_support::PointHits(device_, "pci").at("interrupts/MSI dropped without bus master"), 1u);
}

TEST_F(IclPciTest, InjectTakesZeroOrOne) {
  std::vector<std::string> args{"2"};
  EXPECT_THAT(device_.Inject("pci-request", args), HasSubstr("pci-request takes 0"));
}

// A function without per-vector masking or a power register: MSI still routes.
TEST(PciConfigBehaviourTest, MinimalFunctionRoutesMsiWithoutMasking) {
  auto device = testing_support::MakeDevice(R"(device: f
spaces:
  - {name: config, kind: pci-config, size: 0x100}
registers:
  - {name: CMD, space: config, offset: 0x04, width: 16}
  - {name: MC, space: config, offset: 0x42, width: 16}
  - {name: MA, space: config, offset: 0x44, width: 32}
  - {name: MD, space: config, offset: 0x48, width: 16}
behaviours:
  - {kind: pci-config, command: CMD, msi: {control: MC, address: MA, data: MD}}
)");
  SpaceId config = SpaceNamed(device->model(), "config");
  device->Write(config, 0x04, 16, kMaster);
  device->Write(config, 0x44, 32, 0x1000);
  device->Write(config, 0x48, 16, 0x7);
  device->Write(config, 0x42, 16, 1);
  std::vector<std::string> one{"1"};
  ASSERT_EQ(device->Inject("pci-request", one), "");
  ASSERT_EQ(device->messages().size(), 1u);
  EXPECT_EQ(device->messages()[0].address, 0x1000u);
  EXPECT_EQ(device->messages()[0].data, 0x7u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

// A status bit that becomes pending while another keeps the request up is
// a new event: a message-signalled function sends one more message for
// it (a driver whose handler reads the status once, as i2c_dw_isr does,
// would otherwise never hear of it); the INTx level shows one assertion.
TEST(PciConfigBehaviourTest, EachNewlyPendingStatusBitIsOneMoreMsi) {
  auto device = testing_support::MakeDevice(R"(device: f
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: regs, kind: mmio, size: 0x10}
registers:
  - {name: CMD, space: config, offset: 0x04, width: 16}
  - {name: MC, space: config, offset: 0x42, width: 16}
  - {name: MA, space: config, offset: 0x44, width: 32}
  - {name: MD, space: config, offset: 0x48, width: 16}
  - {name: STAT, space: regs, offset: 0x0}
behaviours:
  - {kind: pci-config, command: CMD, memory_spaces: [regs], msi: {control: MC, address: MA, data: MD}}
  - {name: irq, kind: interrupts, sources: [{name: any, status: STAT}]}
)");
  SpaceId config = SpaceNamed(device->model(), "config");
  SpaceId regs = SpaceNamed(device->model(), "regs");
  device->Write(config, 0x04, 16, kMaster | 0x2);
  device->Write(config, 0x44, 32, 0xFEE00000);
  device->Write(config, 0x48, 16, 0x41);
  device->Write(config, 0x42, 16, 1);
  device->Write(regs, 0x0, 32, 0b01);  // rises: a message
  device->Write(regs, 0x0, 32, 0b11);  // bit 1 joins while the request is up: one more
  device->Write(regs, 0x0, 32, 0b11);  // nothing new
  device->Write(regs, 0x0, 32, 0b10);  // bit 0 went, the request stays up
  device->Write(regs, 0x0, 32, 0b11);  // bit 0 again: one more
  EXPECT_EQ(device->messages().size(), 3u);
  device->Write(config, 0x42, 16, 0);  // MSI off: the INTx level
  device->Write(regs, 0x0, 32, 0);
  uint64_t edges = device->interrupt_edges();
  device->Write(regs, 0x0, 32, 0b01);
  device->Write(regs, 0x0, 32, 0b11);
  EXPECT_EQ(device->interrupt_edges(), edges + 1) << "a level shows one assertion, however many bits join it";
  EXPECT_EQ(device->messages().size(), 3u);
  EXPECT_THAT(device->violations(), IsEmpty());
}

}  // namespace
}  // namespace regemu::emulator
