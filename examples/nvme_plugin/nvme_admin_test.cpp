// The nvme-admin kind registered from a test binary, as a driver project's
// tests would: RegisterNvmeAdminKind() before LoadDevice, then a few lines
// of driver code submitting admin commands through yaml/nvme's admin queue.
// Built twice: in regemu's own build (examples/nvme_plugin) and in the
// consumer project against the installed package (tests/consumer).
//
// NVME_PLUGIN_DIR: this folder (my_nvme/ is the overlay database);
// NVME_DATABASE_DIR: the shipped yaml/nvme.
#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <span>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "nvme_admin.hpp"
#include "regemu/fakes/device_test.hpp"
#include "regemu/regdb/loader.hpp"

namespace nvme_plugin {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kAsq = 0x10000;  // page-aligned admin queues in host memory
constexpr uint64_t kAcq = 0x20000;
constexpr uint64_t kData = 0x30000;

// Status field values as a driver compares them (completion DW3 >> 17).
constexpr uint16_t kSuccess = 0x0000;
constexpr uint16_t kInvalidOpcode = 0x4001;
constexpr uint16_t kCompletionQueueInvalid = 0x4100;
constexpr uint16_t kInvalidQueueId = 0x4101;
constexpr uint16_t kInvalidQueueSize = 0x4102;
constexpr uint16_t kInvalidQueueDeletion = 0x410C;

struct Completion {
  uint32_t result = 0;
  uint16_t cid = 0;
  uint16_t status = 0;
};

class NvmeAdminTest : public regemu::fakes::DeviceTest {
 protected:
  void SetUp() override {
    RegisterNvmeAdminKind();
    LoadDevice(std::filesystem::path(NVME_PLUGIN_DIR) / "my_nvme");
    host_ = *device().model().FindSpace("host");
    // A driver's bring-up (nvme_pci_enable, nvme_pci_configure_admin_queue).
    bus("config").Write16(0x04, 0x0006);      // CMD: MSE, BME
    bus("bar0").Write32(0x24, 0x001F001F);    // AQA: 32 + 32 entries
    bus("bar0").Write64(0x28, kAsq);          // ASQ
    bus("bar0").Write64(0x30, kAcq);          // ACQ
    bus("bar0").Write32(0x14, 0x00460001);    // CC: IOSQES 6, IOCQES 4, EN
    device().Advance(2'000'000);              // CSTS.RDY after 2 ms
    ASSERT_EQ(bus("bar0").Read32(0x1C) & 1, 1u);
  }

  // Submits one command (CDW0 = CID << 16 | opcode) and returns its completion.
  Completion Submit(uint8_t opcode, uint32_t nsid = 0, uint64_t prp1 = 0, uint32_t cdw10 = 0, uint32_t cdw11 = 0) {
    std::array<uint8_t, 64> entry{};
    uint16_t cid = next_cid_++;
    Put(entry, 0, 4, uint32_t{cid} << 16 | opcode);
    Put(entry, 4, 4, nsid);
    Put(entry, 24, 8, prp1);
    Put(entry, 40, 4, cdw10);
    Put(entry, 44, 4, cdw11);
    device().WriteMemory(host_, kAsq + tail_ * 64, entry);
    uint32_t slot = tail_;
    tail_ = (tail_ + 1) % 32;
    bus("bar0").Write32(0x1000, tail_);       // SQ0TDBL
    std::array<uint8_t, 16> cqe{};
    device().ReadMemory(host_, kAcq + slot * 16, cqe);
    bus("bar0").Write32(0x1004, tail_);       // CQ0HDBL: consumed
    uint32_t dw3 = static_cast<uint32_t>(Get(cqe, 12, 4));
    EXPECT_EQ(dw3 & 0xFFFF, cid);
    EXPECT_EQ((dw3 >> 16) & 1, 1u) << "the phase tag of the first pass";
    return {static_cast<uint32_t>(Get(cqe, 0, 4)), cid, static_cast<uint16_t>(dw3 >> 17)};
  }

  uint64_t HostBytes(uint64_t address, size_t size) {
    std::array<uint8_t, 8> bytes{};
    device().ReadMemory(host_, address, std::span<uint8_t>(bytes.data(), size));
    return Get(bytes, 0, size);
  }

  static void Put(std::span<uint8_t> bytes, size_t at, size_t size, uint64_t value) {
    for (size_t i = 0; i < size; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
  }
  static uint64_t Get(std::span<const uint8_t> bytes, size_t at, size_t size) {
    uint64_t value = 0;
    for (size_t i = 0; i < size; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
    return value;
  }

  regemu::emulator::SpaceId host_ = 0;
  uint32_t tail_ = 0;
  uint16_t next_cid_ = 1;
};

// Identify Controller writes the whole structure: the PCI identity, the
// strings space padded, VER as VS says, entry sizes and one namespace.
TEST_F(NvmeAdminTest, IdentifyControllerWritesTheStructureAtPrp1) {
  std::array<uint8_t, 8> stale{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  device().WriteMemory(host_, kData + 4088, stale);
  EXPECT_EQ(Submit(0x06, 0, kData, 0x01).status, kSuccess);
  EXPECT_EQ(HostBytes(kData + 0, 2), 0x1B36u);    // VID
  EXPECT_EQ(HostBytes(kData + 2, 2), 0x1AF4u);    // SSVID
  std::array<char, 20> serial{};
  device().ReadMemory(host_, kData + 4, std::span(reinterpret_cast<uint8_t*>(serial.data()), serial.size()));
  EXPECT_EQ(std::string(serial.data(), serial.size()), "REGEMU-0001         ");
  EXPECT_EQ(HostBytes(kData + 77, 1), 7u);         // MDTS
  EXPECT_EQ(HostBytes(kData + 80, 4), 0x00020000u);  // VER 2.0.0
  EXPECT_EQ(HostBytes(kData + 512, 1), 0x66u);    // SQES
  EXPECT_EQ(HostBytes(kData + 513, 1), 0x44u);    // CQES
  EXPECT_EQ(HostBytes(kData + 516, 4), 1u);       // NN
  EXPECT_EQ(HostBytes(kData + 4088, 8), 0u);      // the last bytes: written too
}

// Identify Namespace 1: its size and one LBA format of 512-byte blocks.
TEST_F(NvmeAdminTest, IdentifyNamespaceOne) {
  EXPECT_EQ(Submit(0x06, 1, kData, 0x00).status, kSuccess);
  EXPECT_EQ(HostBytes(kData + 0, 8), 0x100000u);  // NSZE
  EXPECT_EQ(HostBytes(kData + 8, 8), 0x100000u);  // NCAP
  EXPECT_EQ(HostBytes(kData + 25, 1), 0u);        // NLBAF
  EXPECT_EQ((HostBytes(kData + 128, 4) >> 16) & 0xFF, 9u);  // LBAF0.LBADS
  EXPECT_EQ(Submit(0x06, 2, kData, 0x00).status, 0x400Bu);  // no NSID 2
}

// "Create the CQ before any SQ that uses it; delete all SQs of a CQ before
// the CQ" (Linux nvme pci.c nvme_update_cq_head), with the statuses Linux's nvme.h names (NVME_SC_*).
TEST_F(NvmeAdminTest, IoQueuesAreCreatedAndDeletedInOrder) {
  EXPECT_EQ(Submit(0x01, 0, 0x40000, 0x003F0001, 0x00010001).status, kCompletionQueueInvalid);
  EXPECT_EQ(Submit(0x05, 0, 0x41000, 0x003F0001, 0x00000003).status, kSuccess);
  EXPECT_EQ(Submit(0x05, 0, 0x41000, 0x003F0001, 0x00000003).status, kInvalidQueueId);  // CQ 1 exists
  EXPECT_EQ(Submit(0x05, 0, 0x42000, 0x08000002, 0x00000003).status, kInvalidQueueSize);  // > CAP.MQES
  EXPECT_EQ(Submit(0x01, 0, 0x40000, 0x003F0001, 0x00010001).status, kSuccess);
  EXPECT_EQ(Submit(0x04, 0, 0, 1).status, kInvalidQueueDeletion);  // SQ 1 uses CQ 1
  EXPECT_EQ(Submit(0x00, 0, 0, 1).status, kSuccess);
  EXPECT_EQ(Submit(0x04, 0, 0, 1).status, kSuccess);
  EXPECT_EQ(Submit(0x00, 0, 0, 1).status, kInvalidQueueId);  // gone
}

// Number of Queues grants what is asked up to the configured 8 (0's based),
// and the grant bounds the queue identifiers.
TEST_F(NvmeAdminTest, NumberOfQueuesIsCappedAndBoundsQueueIds) {
  EXPECT_EQ(Submit(0x09, 0, 0, 0x07, 0x00020003).result, 0x00020003u);
  Completion capped = Submit(0x09, 0, 0, 0x07, 0x003F003F);
  EXPECT_EQ(capped.status, kSuccess);
  EXPECT_EQ(capped.result, 0x00070007u);
  EXPECT_EQ(Submit(0x05, 0, 0x41000, 0x003F0009, 0x00000003).status, kInvalidQueueId);
  EXPECT_EQ(Submit(0x05, 0, 0x41000, 0x003F0008, 0x00000003).status, kSuccess);
}

TEST_F(NvmeAdminTest, OtherOpcodesAreInvalid) {
  EXPECT_EQ(Submit(0x7C).status, kInvalidOpcode);  // Doorbell Buffer Config
  EXPECT_EQ(Submit(0x0C).status, kInvalidOpcode);  // Asynchronous Event Request
}

// A Controller Reset deletes the I/O queues: CQ 1 can be created again.
TEST_F(NvmeAdminTest, ControllerResetForgetsTheQueues) {
  EXPECT_EQ(Submit(0x05, 0, 0x41000, 0x003F0001, 0x00000003).status, kSuccess);
  bus("bar0").Write32(0x14, 0x00460000);  // CC.EN 1 -> 0
  device().Advance(1'000'000);
  bus("bar0").Write32(0x14, 0x00460001);
  device().Advance(2'000'000);
  tail_ = 0;
  EXPECT_EQ(Submit(0x05, 0, 0x41000, 0x003F0001, 0x00000003).status, kSuccess);
}

// The kind's check reports each mistake at its line, with a close match;
// the includes here are absolute paths into the shipped database.
TEST(NvmeAdminCheckTest, ReportsMistakesAtTheirLines) {
  RegisterNvmeAdminKind();
  std::filesystem::path dir = std::filesystem::path(::testing::TempDir()) / "nvme_admin_check";
  std::filesystem::create_directories(dir);
  std::string nvme = NVME_DATABASE_DIR;
  std::ofstream(dir / "device.yaml") << "device: bad\n"
                                        "include:\n"
                                        "  - " << nvme << "/pci.yaml\n"
                                        "  - " << nvme << "/pci_behaviour.yaml\n"
                                        "  - " << nvme << "/controller.yaml\n"
                                        "  - " << nvme << "/controller_behaviour.yaml\n"
                                        "  - " << NVME_PLUGIN_DIR << "/my_nvme/admin_ring.yaml\n"
                                        "spaces:\n"
                                        "  - {name: config, kind: pci-config, size: 0x1000}\n"
                                        "  - {name: bar0, kind: mmio, size: 0x4000, widths: [32, 64], pci_bar: 0}\n"
                                        "  - {name: host, kind: memory, size: 0x1000000000000}\n"
                                        "behaviours:\n"
                                        "  - name: commands\n"
                                        "    kind: nvme-admin\n"
                                        "    ring: admn\n"                   // line 15
                                        "    memory: bar0\n"                 // line 16
                                        "    completion_tail: ADMIN_CQ_TAIL\n"
                                        "    vendor_id: ID.VIDD\n"           // line 18
                                        "    subsystem_vendor_id: SS.SSVID\n"
                                        "    max_io_queues: 0\n"             // line 20
                                        "    namespace_blocks: 0x1000\n"
                                        "    serial: \"S\"\n"
                                        "    model: \"M\"\n"
                                        "    firmware: \"a firmware name\"\n";  // line 24
  regemu::regdb::LoadedDatabase loaded = regemu::regdb::LoadAndCheck(dir);
  std::string report = regemu::regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics);
  EXPECT_EQ(loaded.diagnostics.error_count(), 5u) << report;
  EXPECT_THAT(report, HasSubstr("device.yaml:15:11: error: nvme-admin behaviour 'commands': 'admn' is not a ring "
                                "behaviour of the database"));
  EXPECT_THAT(report, HasSubstr("did you mean 'admin'"));
  EXPECT_THAT(report, HasSubstr("device.yaml:16:13: error"));
  EXPECT_THAT(report, HasSubstr("device.yaml:18:16: error"));
  EXPECT_THAT(report, HasSubstr("device.yaml:20:20: error"));
  EXPECT_THAT(report, HasSubstr("device.yaml:24:15: error"));
}

}  // namespace
}  // namespace nvme_plugin
