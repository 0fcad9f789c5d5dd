// `kind: nvme-admin` (nvme_admin.hpp): the runtime, its compile step and
// its registration.
#include "nvme_admin.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nvme_admin_config.hpp"

namespace nvme_plugin {
namespace {

using regemu::emulator::Behaviour;
using regemu::emulator::BehaviourContext;
using regemu::emulator::BehaviourProgram;
using regemu::emulator::CopyableBehaviour;
using regemu::emulator::CoveragePoint;
using regemu::emulator::RegisterId;
using regemu::emulator::SpaceId;
using regemu::emulator::ViolationKind;

// Status Field values (completion DW3 31:17 without the phase tag): SC 7:0,
// SCT 10:8, DNR 14 (NVMe 1.4 §4.6 [M]; Linux nvme.h NVME_SC_*).
constexpr uint16_t kSuccess = 0x000;
constexpr uint16_t kDoNotRetry = 0x4000;
constexpr uint16_t kInvalidOpcode = 0x001 | kDoNotRetry;          // SCT 0, SC 01h
constexpr uint16_t kInvalidField = 0x002 | kDoNotRetry;           // SCT 0, SC 02h
constexpr uint16_t kInvalidNamespace = 0x00B | kDoNotRetry;       // SCT 0, SC 0Bh Invalid Namespace or Format
constexpr uint16_t kCommandSequenceError = 0x00C | kDoNotRetry;   // SCT 0, SC 0Ch
constexpr uint16_t kCompletionQueueInvalid = 0x100 | kDoNotRetry; // SCT 1, SC 00h
constexpr uint16_t kInvalidQueueId = 0x101 | kDoNotRetry;         // SCT 1, SC 01h
constexpr uint16_t kInvalidQueueSize = 0x102 | kDoNotRetry;       // SCT 1, SC 02h
constexpr uint16_t kInvalidQueueDeletion = 0x10C | kDoNotRetry;   // SCT 1, SC 0Ch

constexpr size_t kIdentifySize = 4096;

// Coverage points, in CoveragePoints() order.
enum Point : uint32_t {
  kIdentifyController,
  kIdentifyNamespace,
  kCreateCq,
  kCreateSq,
  kDeleteSq,
  kDeleteCq,
  kNumberOfQueues,
  kRefused,  // any command answered with an error status
  kPointCount,
};

uint64_t GetLe(std::span<const uint8_t> bytes, size_t offset, size_t size) {
  uint64_t value = 0;
  for (size_t i = 0; i < size; ++i) value |= uint64_t{bytes[offset + i]} << (8 * i);
  return value;
}

void PutLe(std::span<uint8_t> bytes, size_t offset, size_t size, uint64_t value) {
  for (size_t i = 0; i < size; ++i) bytes[offset + i] = static_cast<uint8_t>(value >> (8 * i));
}

// An identification string: ASCII, padded with spaces to `size` bytes.
void PutAscii(std::span<uint8_t> bytes, size_t offset, size_t size, const std::string& text) {
  for (size_t i = 0; i < size; ++i) bytes[offset + i] = i < text.size() ? static_cast<uint8_t>(text[i]) : ' ';
}

class NvmeAdminProgram : public BehaviourProgram {
 public:
  NvmeAdminProgram(std::string name, const NvmeAdminConfig& config)
      : BehaviourProgram("nvme-admin", std::move(name)), config_(config) {}
  const NvmeAdminConfig& config() const { return config_; }
  // The ring's completion tail (its stores announce a posted completion)
  // and CC (a Controller Reset forgets the I/O queues).
  std::vector<RegisterId> WriteHooks() const override {
    std::vector<RegisterId> hooks{config_.completion_tail};
    if (config_.cc_en.reg != config_.completion_tail) hooks.push_back(config_.cc_en.reg);
    return hooks;
  }
  std::vector<CoveragePoint> CoveragePoints() const override {
    return {{"admin commands", "identify controller"}, {"admin commands", "identify namespace"},
            {"admin commands", "create I/O CQ"},       {"admin commands", "create I/O SQ"},
            {"admin commands", "delete I/O SQ"},       {"admin commands", "delete I/O CQ"},
            {"admin commands", "number of queues"},    {"admin commands", "error status"}};
  }
  std::unique_ptr<Behaviour> Instantiate() const override;

 private:
  NvmeAdminConfig config_;
};

class NvmeAdminBehaviour : public CopyableBehaviour<NvmeAdminBehaviour> {
 public:
  explicit NvmeAdminBehaviour(const NvmeAdminProgram& program) : program_(&program) {}

  void OnReset(BehaviourContext&) override { Forget(); }

  // A Controller Reset (CC.EN 1 -> 0, by the host or by another behaviour)
  // deletes every I/O queue.
  void AfterWrite(BehaviourContext&, RegisterId reg, uint64_t before, uint64_t after) override {
    CheckReset(reg, before, after);
  }

  // The ring stored its completion tail: when it moved one slot forward
  // with the controller enabled, a completion was posted at `before`.
  // (A Controller Reset stores 0 too, but with CC.EN already 0.)
  void OnStore(BehaviourContext& context, RegisterId reg, uint64_t before, uint64_t after) override {
    const NvmeAdminConfig& c = config();
    CheckReset(reg, before, after);
    if (reg != c.completion_tail || Get(context, c.cc_en) == 0) return;
    uint64_t cq_size = Get(context, c.acq_size) + 1;
    if (after != (before + 1) % cq_size) return;
    Answer(context, before);
  }

 private:
  struct IoQueue {
    uint64_t base = 0;
    uint32_t entries = 0;  // 1's based
    uint16_t cq = 0;       // an SQ's completion queue
  };
  struct Outcome {
    uint16_t status = kSuccess;
    uint32_t result = 0;
  };

  const NvmeAdminConfig& config() const { return program_->config(); }
  static uint64_t Get(const BehaviourContext& context, const regemu::regdb::RegisterBits& bits) {
    return bits.bits.Get(context.Peek(bits.reg));
  }
  SpaceId memory() const { return static_cast<SpaceId>(config().memory); }

  void CheckReset(RegisterId reg, uint64_t before, uint64_t after) {
    const auto& en = config().cc_en;
    if (reg == en.reg && en.bits.Get(before) == 1 && en.bits.Get(after) == 0) Forget();
  }

  void Forget() {
    sqs_.clear();
    cqs_.clear();
    granted_sqs_ = granted_cqs_ = 0;
  }

  void Answer(BehaviourContext& context, uint64_t cq_slot) {
    const NvmeAdminConfig& c = config();
    uint64_t space_size = context.model().spaces()[memory()].size;
    uint64_t cq_entry = (Get(context, c.acq) & ~uint64_t{0xFFF}) + cq_slot * 16;
    if (cq_entry > space_size - 16) return;  // the ring reported it, and posted nothing
    std::array<uint8_t, 16> completion{};
    context.ReadMemory(memory(), cq_entry, completion);
    // The entry it answers: the one before the SQ head the completion reports.
    uint64_t sq_size = Get(context, c.asq_size) + 1;
    uint64_t sq_slot = (GetLe(completion, 8, 2) + sq_size - 1) % sq_size;
    uint64_t sq_entry = (Get(context, c.asq) & ~uint64_t{0xFFF}) + sq_slot * 64;
    if (sq_entry > space_size - 64) return;
    std::array<uint8_t, 64> command{};
    context.ReadMemory(memory(), sq_entry, command);

    Outcome outcome = Run(context, command);
    if (outcome.status != kSuccess) context.Cover(kRefused);
    PutLe(completion, 0, 4, outcome.result);
    uint64_t phase = GetLe(completion, 14, 2) & 1;
    PutLe(completion, 14, 2, phase | (uint64_t{outcome.status} << 1));
    context.WriteMemory(memory(), cq_entry, completion);
  }

  Outcome Run(BehaviourContext& context, std::span<const uint8_t> command) {
    uint8_t opcode = command[0];
    uint32_t nsid = static_cast<uint32_t>(GetLe(command, 4, 4));
    uint32_t cdw10 = static_cast<uint32_t>(GetLe(command, 40, 4));
    uint32_t cdw11 = static_cast<uint32_t>(GetLe(command, 44, 4));
    uint64_t prp1 = GetLe(command, 24, 8);
    uint64_t prp2 = GetLe(command, 32, 8);
    auto qid = static_cast<uint16_t>(cdw10 & 0xFFFF);
    uint32_t qsize = cdw10 >> 16;  // 0's based
    switch (opcode) {
      case 0x06: return Identify(context, cdw10 & 0xFF, nsid, prp1, prp2);
      case 0x05: return CreateCq(context, qid, qsize, prp1);
      case 0x01: return CreateSq(context, qid, qsize, static_cast<uint16_t>(cdw11 >> 16), prp1);
      case 0x00: return DeleteSq(context, qid);
      case 0x04: return DeleteCq(context, qid);
      case 0x09: return SetFeatures(context, cdw10 & 0xFF, cdw11);
      default: return {kInvalidOpcode};
    }
  }

  Outcome Identify(BehaviourContext& context, uint32_t cns, uint32_t nsid, uint64_t prp1, uint64_t prp2) {
    const NvmeAdminConfig& c = config();
    std::array<uint8_t, kIdentifySize> data{};
    if (cns == 0x01) {
      // Identify Controller (Linux nvme.h struct nvme_id_ctrl).
      context.Cover(kIdentifyController);
      PutLe(data, 0, 2, Get(context, c.vendor_id));             // VID
      PutLe(data, 2, 2, Get(context, c.subsystem_vendor_id));   // SSVID
      PutAscii(data, 4, 20, c.serial);                          // SN
      PutAscii(data, 24, 40, c.model);                          // MN
      PutAscii(data, 64, 8, c.firmware);                        // FR
      data[77] = c.mdts;                                        // MDTS
      PutLe(data, 78, 2, c.controller_id);                      // CNTLID
      PutLe(data, 80, 4, Get(context, c.version));              // VER: as VS
      data[111] = 1;                                            // CNTRLTYPE: I/O controller
      data[512] = 0x66;                                         // SQES: 64-byte entries
      data[513] = 0x44;                                         // CQES: 16-byte entries
      PutLe(data, 516, 4, 1);                                   // NN: one namespace
    } else if (cns == 0x00) {
      // Identify Namespace: one namespace, one LBA format of 512 bytes.
      if (nsid != 1) return {kInvalidNamespace};
      context.Cover(kIdentifyNamespace);
      PutLe(data, 0, 8, c.namespace_blocks);   // NSZE
      PutLe(data, 8, 8, c.namespace_blocks);   // NCAP
      PutLe(data, 16, 8, c.namespace_blocks);  // NUSE
      data[25] = 0;                            // NLBAF: one format (0's based)
      data[26] = 0;                            // FLBAS: format 0, no metadata
      PutLe(data, 128, 4, uint32_t{9} << 16);  // LBAF0: MS 0, LBADS 9 (512 bytes), RP 0
    } else {
      return {kInvalidField};
    }
    WriteData(context, prp1, prp2, data);
    return {};
  }

  // The data through PRP1, and PRP2 for what passes PRP1's memory page
  // (CC.MPS): a 4096-byte structure spans at most two pages.
  void WriteData(BehaviourContext& context, uint64_t prp1, uint64_t prp2, std::span<const uint8_t> data) {
    uint64_t page = uint64_t{0x1000} << Get(context, config().cc_mps);
    size_t first = static_cast<size_t>(std::min<uint64_t>(data.size(), page - (prp1 & (page - 1))));
    Put(context, prp1, data.first(first));
    if (first < data.size()) Put(context, prp2 & ~(page - 1), data.subspan(first));
  }

  void Put(BehaviourContext& context, uint64_t address, std::span<const uint8_t> bytes) {
    uint64_t space_size = context.model().spaces()[memory()].size;
    if (address > space_size || bytes.size() > space_size - address) {
      context.ReportViolationAt(ViolationKind::kUnmodelled, memory(), 0,
                                "nvme-admin '" + program_->name() + "': data at " + std::to_string(address) +
                                    " lies past the end of host memory; not written");
      return;
    }
    context.WriteMemory(memory(), address, bytes);
  }

  uint32_t SqLimit() const { return granted_sqs_ != 0 ? granted_sqs_ : config().max_io_queues; }
  uint32_t CqLimit() const { return granted_cqs_ != 0 ? granted_cqs_ : config().max_io_queues; }

  Outcome QueueSize(const BehaviourContext& context, uint32_t qsize) const {
    if (qsize == 0 || qsize > Get(context, config().cap_mqes)) return {kInvalidQueueSize};
    return {};
  }

  Outcome CreateCq(BehaviourContext& context, uint16_t qid, uint32_t qsize, uint64_t base) {
    if (qid == 0 || qid > CqLimit() || cqs_.contains(qid)) return {kInvalidQueueId};
    if (Outcome size = QueueSize(context, qsize); size.status != kSuccess) return size;
    context.Cover(kCreateCq);
    cqs_[qid] = IoQueue{base, qsize + 1, 0};
    return {};
  }

  Outcome CreateSq(BehaviourContext& context, uint16_t qid, uint32_t qsize, uint16_t cqid, uint64_t base) {
    if (cqid == 0 || !cqs_.contains(cqid)) return {kCompletionQueueInvalid};
    if (qid == 0 || qid > SqLimit() || sqs_.contains(qid)) return {kInvalidQueueId};
    if (Outcome size = QueueSize(context, qsize); size.status != kSuccess) return size;
    context.Cover(kCreateSq);
    sqs_[qid] = IoQueue{base, qsize + 1, cqid};
    return {};
  }

  Outcome DeleteSq(BehaviourContext& context, uint16_t qid) {
    if (qid == 0 || sqs_.erase(qid) == 0) return {kInvalidQueueId};
    context.Cover(kDeleteSq);
    return {};
  }

  Outcome DeleteCq(BehaviourContext& context, uint16_t qid) {
    if (qid == 0 || !cqs_.contains(qid)) return {kInvalidQueueId};
    for (const auto& [sq, queue] : sqs_) {
      if (queue.cq == qid) return {kInvalidQueueDeletion};
    }
    context.Cover(kDeleteCq);
    cqs_.erase(qid);
    return {};
  }

  // Number of Queues (FID 07h): NSQR in CDW11 15:0, NCQR in 31:16, both
  // 0's based; granted up to max_io_queues, before any I/O queue exists
  // (NVMe 1.4 §5.21.1.7 [M]).
  Outcome SetFeatures(BehaviourContext& context, uint32_t fid, uint32_t cdw11) {
    if (fid != 0x07) return {kInvalidField};
    uint32_t nsqr = cdw11 & 0xFFFF;
    uint32_t ncqr = cdw11 >> 16;
    if (nsqr == 0xFFFF || ncqr == 0xFFFF) return {kInvalidField};
    if (!sqs_.empty() || !cqs_.empty()) return {kCommandSequenceError};
    context.Cover(kNumberOfQueues);
    uint32_t nsqa = std::min(nsqr, config().max_io_queues - 1);
    uint32_t ncqa = std::min(ncqr, config().max_io_queues - 1);
    granted_sqs_ = nsqa + 1;
    granted_cqs_ = ncqa + 1;
    return {kSuccess, ncqa << 16 | nsqa};
  }

  const NvmeAdminProgram* program_;
  std::map<uint16_t, IoQueue> sqs_;
  std::map<uint16_t, IoQueue> cqs_;
  uint32_t granted_sqs_ = 0;  // 0: no Set Features yet (max_io_queues applies)
  uint32_t granted_cqs_ = 0;
};

std::unique_ptr<Behaviour> NvmeAdminProgram::Instantiate() const {
  return std::make_unique<NvmeAdminBehaviour>(*this);
}

std::unique_ptr<BehaviourProgram> CompileNvmeAdmin(const regemu::regdb::BehaviourSpec& spec,
                                                   const regemu::emulator::Model&, std::string& error) {
  const auto* config = regemu::emulator::ConfigOf<NvmeAdminConfig>(spec, error);
  if (config == nullptr) return nullptr;
  return std::make_unique<NvmeAdminProgram>(spec.name, *config);
}

}  // namespace

regemu::emulator::BehaviourKindDefinition NvmeAdminKind() {
  return {.name = "nvme-admin", .check = CheckNvmeAdminConfig, .compile = CompileNvmeAdmin};
}

void RegisterNvmeAdminKind() {
  static const bool registered = [] {
    regemu::emulator::RegisterBehaviourKind(NvmeAdminKind());
    return true;
  }();
  (void)registered;
}

}  // namespace nvme_plugin
