#include "examples/nvme/admin_queue.hpp"

#include <vector>

#include "regemu/regs/nvme.hpp"

namespace regemu::nvme {

using regs::nvme::CQHDBL;
using regs::nvme::SQTDBL;

namespace {

void Put(std::span<uint8_t> bytes, size_t at, uint64_t value, unsigned size) {
  for (unsigned i = 0; i < size; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
}

uint64_t Get(std::span<const uint8_t> bytes, size_t at, unsigned size) {
  uint64_t value = 0;
  for (unsigned i = 0; i < size; ++i) value |= uint64_t{bytes[at + i]} << (8 * i);
  return value;
}

}  // namespace

std::array<uint8_t, kSqeSize> Command::Encode(uint16_t cid) const {
  std::array<uint8_t, kSqeSize> bytes{};
  Put(bytes, 0, opcode, 1);  // CDW0 7:0 OPC; FUSE and PSDT 0 (PRPs)
  Put(bytes, 2, cid, 2);     // CDW0 31:16 CID
  Put(bytes, 4, nsid, 4);
  Put(bytes, 24, prp1, 8);
  Put(bytes, 32, prp2, 8);
  for (size_t i = 0; i < cdw10_15.size(); ++i) Put(bytes, 40 + 4 * i, cdw10_15[i], 4);
  return bytes;
}

Completion Completion::Decode(const std::array<uint8_t, kCqeSize>& bytes) {
  Completion cqe;
  cqe.result = static_cast<uint32_t>(Get(bytes, 0, 4));
  cqe.sq_head = static_cast<uint16_t>(Get(bytes, 8, 2));
  cqe.sq_id = static_cast<uint16_t>(Get(bytes, 10, 2));
  cqe.cid = static_cast<uint16_t>(Get(bytes, 12, 2));
  cqe.status = static_cast<uint16_t>(Get(bytes, 14, 2) >> 1);
  return cqe;
}

AdminQueue::AdminQueue(Ctrl& ctrl, HostMemory& memory, AdminQueueConfig config)
    : ctrl_(ctrl), memory_(memory), config_(std::move(config)) {}

void AdminQueue::Init() {
  sq_tail_ = 0;
  cq_head_ = 0;
  cq_phase_ = 1;
  std::vector<uint8_t> zero(size_t{config_.depth} * kCqeSize, 0);
  memory_.Write(config_.cq_dma, zero);
}

uint16_t AdminQueue::NextCid() {
  // nvme_cid: the blk-mq tag in 11:0 (one synchronous command at a time:
  // its slot), the generation counter in 15:12.
  genctr_ = static_cast<uint8_t>((genctr_ + 1) & 0xF);
  return static_cast<uint16_t>((genctr_ << 12) | sq_tail_);
}

void AdminQueue::Submit(const Command& command, uint16_t cid) {
  std::array<uint8_t, kSqeSize> sqe = command.Encode(cid);
  memory_.Write(config_.sq_dma + uint64_t{sq_tail_} * kSqeSize, sqe);
  if (++sq_tail_ == config_.depth) sq_tail_ = 0;
  ctrl_.bar0.Write32(ctrl_.SqDoorbell(0), SQTDBL::Get(0).set_sqt(sq_tail_).reg_value());
}

std::optional<Completion> AdminQueue::Reap() {
  std::array<uint8_t, kCqeSize> bytes{};
  memory_.Read(config_.cq_dma + uint64_t{cq_head_} * kCqeSize, bytes);
  uint8_t phase = bytes[14] & 1;
  if (phase != cq_phase_) return std::nullopt;  // nvme_cqe_pending
  Completion cqe = Completion::Decode(bytes);
  if (ctrl_.bugs.Has(Bug::kWrongPhase)) {
    cq_phase_ ^= 1;  // flipped per entry
    if (++cq_head_ == config_.depth) cq_head_ = 0;
  } else if (++cq_head_ == config_.depth) {
    cq_head_ = 0;
    cq_phase_ ^= 1;  // nvme_update_cq_head: flipped at the wrap
  }
  return cqe;
}

void AdminQueue::RingCqDoorbell() {
  ctrl_.bar0.Write32(ctrl_.CqDoorbell(0), CQHDBL::Get(0).set_cqh(cq_head_).reg_value());
}

Status AdminQueue::Execute(const Command& command, Completion& completion) {
  uint16_t cid = NextCid();
  Submit(command, cid);
  Status status = Status::kTimedOut;
  PollUntil(ctrl_.delay, config_.timeout_ns, [&] {
    if (config_.irq_pending && !config_.irq_pending()) return false;
    bool consumed = false;
    while (std::optional<Completion> cqe = Reap()) {
      consumed = true;
      if (cqe->cid == cid) {
        completion = *cqe;
        status = Status::kOk;
      } else {
        status = Status::kBadCompletion;  // Linux: "invalid id %d completed on queue %d"
      }
      if (status == Status::kOk) break;
    }
    if (consumed) RingCqDoorbell();
    return status != Status::kTimedOut;
  });
  return status;
}

}  // namespace regemu::nvme
