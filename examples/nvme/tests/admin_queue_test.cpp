// The admin queue's entries on their own, byte by byte (NVMe 1.4 §4.2,
// §4.6 [M]), against a plain host memory: no device needed.
#include <gtest/gtest.h>

#include <array>
#include <map>

#include "examples/nvme/admin_queue.hpp"
#include "examples/nvme/identify.hpp"

namespace regemu::nvme {
namespace {

TEST(CommandTest, IdentifyControllerEncodesOpcodeCidPrp1AndCns) {
  Command identify;
  identify.opcode = kOpcodeIdentify;
  identify.prp1 = 0x1'2345'6000;
  identify.cdw10_15[0] = kCnsController;
  std::array<uint8_t, kSqeSize> sqe = identify.Encode(0x1234);
  EXPECT_EQ(sqe[0], 0x06);                   // CDW0 7:0 OPC
  EXPECT_EQ(sqe[1], 0x00);                   // FUSE 0, PSDT 0 (PRPs)
  EXPECT_EQ(sqe[2] | (sqe[3] << 8), 0x1234);  // CDW0 31:16 CID
  EXPECT_EQ(sqe[24], 0x00);                  // PRP1, little-endian
  EXPECT_EQ(sqe[25], 0x60);
  EXPECT_EQ(sqe[26], 0x45);
  EXPECT_EQ(sqe[27], 0x23);
  EXPECT_EQ(sqe[28], 0x01);
  EXPECT_EQ(sqe[40], 0x01);                  // CDW10.CNS
  for (size_t i : {4u, 5u, 6u, 7u, 32u, 41u, 63u}) EXPECT_EQ(sqe[i], 0) << "byte " << i;
}

TEST(CompletionTest, DecodesStatusWithoutThePhaseTag) {
  // DW0 result 7, SQHD 3, SQID 0, CID 0011h, phase 1, SC 01h (Invalid Command Opcode).
  std::array<uint8_t, kCqeSize> cqe{7, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0x11, 0x00, 0x03, 0x00};
  Completion completion = Completion::Decode(cqe);
  EXPECT_EQ(completion.result, 7u);
  EXPECT_EQ(completion.sq_head, 3);
  EXPECT_EQ(completion.sq_id, 0);
  EXPECT_EQ(completion.cid, 0x0011);
  EXPECT_EQ(completion.status, 0x0001);
}

}  // namespace
}  // namespace regemu::nvme
