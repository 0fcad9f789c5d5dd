#pragma once
// The compiled, immutable form of a checked database: per-space decode
// tables, per-register masks and resets, the range table and the behaviour
// programs. One Model is shared, read-only, by any number of Devices and
// threads; creating a Device from it is cheap.

#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/access_masks.hpp"
#include "regemu/emulator/decode_table.hpp"
#include "regemu/emulator/violation.hpp"
#include "regemu/regdb/database.hpp"
#include "regemu/regdb/register_scope.hpp"

namespace regemu::emulator {

using SpaceId = uint16_t;
using RegisterId = uint32_t;
class BehaviourProgram;

struct FieldModel {
  std::string name;
  uint64_t mask = 0;

  // Where the field's bits start: its value is (register & mask) >> shift().
  unsigned shift() const { return mask == 0 ? 0 : static_cast<unsigned>(std::countr_zero(mask)); }
};

// A write gate (regdb::WriteGate), compiled: the bits it gates, its
// condition over the device's registers, and the rule of a blocked write.
struct WriteGateModel {
  uint64_t mask = 0;
  regdb::Expression when;
  std::string rule;  // empty: a blocked write is no violation
  ViolationKind kind = ViolationKind::kProtocol;
};

struct RegisterModel {
  enum Flags : uint16_t {
    kPlain = 1 << 0,      // rw everywhere, no hooks: the fast path
    kMasked = 1 << 1,     // Intel masked register
    kHookRead = 1 << 2,   // a behaviour runs before frontdoor reads
    kHookWrite = 1 << 3,  // a behaviour runs after frontdoor writes
    kVolatile = 1 << 4,
    kWidthAllowed = 1 << 5,  // the space allows an access of the register's own width
    kGated = 1 << 6,         // overlaps a gated range: a behaviour's gate runs first
    kPlainRead = 1 << 7,     // reads have no side effect and no hook (kPlain implies it): the read fast path
    // A write does more than store the written bits: write-once, 1/0 to
    // clear/set/toggle, or any write clears/sets bits (WriteBits skips those
    // masks without it).
    kWriteEffects = 1 << 8,
    // Has write-1/0-to-act status bits (w1c, w0s, ...): the device
    // remembers what the driver last read of it (rmw_slot), to spot a
    // read-modify-write that acks status by accident (a `hazard`).
    kRmwTracked = 1 << 9,
    // One of several registers over one storage (regdb Register::view_of):
    // a change through it is copied to the others (view_next).
    kView = 1 << 10,
    // Shares its place with other registers that decode other accesses
    // (regdb Register::decode, decode_when): the decode table holds the
    // first of them, and Model::SelectBank picks the one that answers.
    kBanked = 1 << 11,
    // Has write gates (regdb WriteGate): a frontdoor write changes the gated
    // bits only while their condition holds (Device::WriteBits).
    kWriteGate = 1 << 12,
  };
  // A whole-register write of a register with none of these only checks,
  // stores and runs its write hooks (Device::WriteWhole).
  static constexpr uint16_t kFullWritePath = kMasked | kGated | kWriteEffects | kRmwTracked | kView | kWriteGate;

  uint64_t offset = 0;
  uint64_t reset = 0;
  uint64_t width_mask = 0;
  uint32_t masks = 0;  // index into Model::masks()
  uint32_t hooks_begin = 0;
  uint16_t hooks_count = 0;
  SpaceId space = 0;
  uint16_t flags = 0;
  uint8_t width = 32;
  uint8_t extent = 4;  // in offset units: bytes, or 1 in an indexed space
  uint32_t once_slot = 0;  // with write-once bits: its slot in the device's write-once state
  uint32_t rmw_slot = 0;   // with kRmwTracked: its slot in the device's read-seen state
  // With kView: the next register over the same storage, in a ring through
  // the storage and all its views.
  uint32_t view_next = 0;
  uint32_t bank = 0;  // with kBanked: index into Model::banks()
  std::string name;
  std::vector<FieldModel> fields;
  std::vector<WriteGateModel> write_gates;  // with kWriteGate

  bool has(Flags flag) const { return (flags & flag) != 0; }
  // The field holding the lowest set bit of `bits`, or "".
  std::string_view FieldAt(uint64_t bits) const;
  // The field named `field_name`, or nullptr.
  const FieldModel* FindField(std::string_view field_name) const;
  // What an expression operand naming this register or one of its fields
  // (regdb::RegisterScope's `REG` / `REG.FIELD`) reads while the register
  // holds `value`.
  uint64_t OperandValue(uint64_t operand, uint64_t value) const {
    if (!regdb::IsFieldOperand(operand)) return value;
    const FieldModel& field = fields[regdb::OperandField(operand)];
    return (value & field.mask) >> field.shift();
  }
};

// The part of a register the whole-register fast path reads, 16 bytes per
// register (RegisterModel, with its names, is ~100): a sweep over many
// registers stays in cache.
struct FastRegister {
  uint64_t offset = 0;
  uint8_t width = 32;
  uint16_t flags = 0;  // RegisterModel::Flags
};

// Split and banked registers: the registers at one place, in database
// order, each with the accesses it decodes and while what.
struct DecodeBank {
  struct Member {
    RegisterId reg = 0;
    regdb::DecodeDirection decode = regdb::DecodeDirection::kReadWrite;
    std::optional<regdb::Expression> when;  // over registers and fields (regdb RegisterScope ids)
  };
  std::vector<Member> members;
};

struct RangeModel {
  regdb::RangeKind kind = regdb::RangeKind::kReserved;
  regdb::AliasWrites writes = regdb::AliasWrites::kIgnore;
  regdb::WidthSet widths;
  SpaceId target_space = 0;
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t target_offset = 0;
  RegisterId enable_register = DecodeTable::kNone;  // window decodes while (value & enable_mask) != 0
  uint64_t enable_mask = 0;
  std::string name;

  bool Contains(uint64_t offset) const { return offset >= base && offset - base < size; }
  // Where an offset inside an alias window lands in the target space.
  uint64_t TargetOffset(uint64_t offset) const { return target_offset + (offset - base); }
};

// A behaviour's gated range (BehaviourProgram::GatedRanges) in its space.
struct GateModel {
  uint64_t first = 0;
  uint64_t last = 0;  // inclusive
  uint32_t behaviour = 0;  // index into Model::behaviours()
  uint32_t tag = 0;
};

struct SpaceModel {
  std::string name;
  regdb::SpaceKind kind = regdb::SpaceKind::kMmio;
  uint64_t size = 0;
  regdb::WidthSet widths;
  bool natural_alignment = true;
  bool indexed = false;
  uint64_t unclaimed = 0;
  std::optional<unsigned> pci_bar;  // the PCI BAR it is (`pci_bar:`), for a transport to a real bus
  std::vector<regdb::SpaceContent> contents;  // a memory space's bytes from reset
  bool dma = false;                           // `dma: true`: host memory the device reaches by DMA
  DecodeTable decode;
  std::vector<RangeModel> ranges;  // sorted by base, disjoint
  std::vector<GateModel> gates;    // sorted by first, disjoint

  // The range holding `offset`, or nullptr (binary search: off the register path).
  const RangeModel* RangeAt(uint64_t offset) const;
  // Memory spaces are RAM wherever no register or range decodes: the
  // access path asks after those.
  bool IsRam(uint64_t offset) const {
    return kind == regdb::SpaceKind::kMemory && offset < size && RangeAt(offset) == nullptr;
  }
  // The gate holding `offset`, or nullptr (binary search: only for gated
  // registers and for offsets off the register fast path).
  const GateModel* GateAt(uint64_t offset) const;
};

class Model {
 public:
  ~Model();
  Model(const Model&) = delete;
  Model& operator=(const Model&) = delete;

  const std::string& device() const { return device_; }
  const std::vector<SpaceModel>& spaces() const { return spaces_; }
  const std::vector<RegisterModel>& registers() const { return registers_; }
  const FastRegister& fast(RegisterId id) const { return fast_[id]; }
  const AccessMasks& masks(const RegisterModel& reg) const { return masks_[reg.masks]; }
  const std::vector<std::unique_ptr<BehaviourProgram>>& behaviours() const { return behaviours_; }
  // Behaviour indices hooked on a register, see RegisterModel::hooks_begin.
  const std::vector<uint32_t>& hooks() const { return hooks_; }
  // Per behaviour: the index of its interrupt parent, or kNoBehaviour (the
  // device's interrupt request).
  const std::vector<uint32_t>& interrupt_parents() const { return interrupt_parents_; }
  // Per behaviour: the one-bit status field its output's level is stored
  // in (`interrupt_parent: REG.FIELD`), or none (mask 0).
  struct OutputField {
    RegisterId reg = 0;
    uint64_t mask = 0;
  };
  const std::vector<OutputField>& interrupt_fields() const { return interrupt_fields_; }
  // Whether behaviour `i`'s output is part of the device's interrupt
  // request: it has neither a parent behaviour nor a status field.
  bool feeds_request(uint32_t i) const;
  // The behaviour routing the device's interrupt request, or kNoBehaviour.
  uint32_t interrupt_router() const { return interrupt_router_; }
  // The device's named interrupt lines (BehaviourProgram::OutputLines), and
  // per behaviour the index of its first one.
  const std::vector<std::string>& interrupt_lines() const { return interrupt_lines_; }
  const std::vector<uint32_t>& first_lines() const { return first_lines_; }
  // The device's named output streams (BehaviourProgram::OutputStreams),
  // and per behaviour the index of its first one.
  const std::vector<std::string>& output_streams() const { return output_streams_; }
  const std::vector<uint32_t>& first_streams() const { return first_streams_; }
  std::optional<uint32_t> FindStream(std::string_view name) const;
  std::optional<uint32_t> FindLine(std::string_view name) const;
  // Registers with write-once (w1, wo1) bits, see RegisterModel::once_slot.
  uint32_t once_slots() const { return once_slots_; }
  // Registers flagged kRmwTracked, see RegisterModel::rmw_slot.
  uint32_t rmw_slots() const { return rmw_slots_; }

  std::optional<SpaceId> FindSpace(std::string_view name) const;
  std::optional<RegisterId> FindRegister(std::string_view name) const;  // binary search over sorted names
  // The register holding `offset` of `space`, or DecodeTable::kNone (of
  // banked registers, the first: SelectBank names the one that answers).
  RegisterId Decode(SpaceId space, uint64_t offset) const { return spaces_[space].decode.Lookup(offset); }
  const std::vector<DecodeBank>& banks() const { return banks_; }
  // Of the registers sharing banked register `reg`'s place, the one that
  // decodes a read (or a write) while the registers hold `values`: the
  // first whose direction and condition both match; else the first whose
  // condition matches (its access policy then answers, as a read-only
  // register answers a write); else DecodeTable::kNone.
  RegisterId SelectBank(RegisterId reg, bool write, const std::vector<uint64_t>& values) const;

  // Approximate heap footprint, for the memory budget.
  size_t memory_bytes() const;

 private:
  friend struct ModelBuilder;
  Model() = default;

  std::string device_;
  std::vector<SpaceModel> spaces_;
  std::vector<RegisterModel> registers_;
  std::vector<FastRegister> fast_;  // per register, the fast path's view
  std::vector<AccessMasks> masks_;  // interned: registers with one layout share an entry
  std::vector<RegisterId> by_name_;  // register ids sorted by name
  std::vector<DecodeBank> banks_;
  std::vector<std::unique_ptr<BehaviourProgram>> behaviours_;
  std::vector<uint32_t> hooks_;
  std::vector<uint32_t> interrupt_parents_;
  std::vector<OutputField> interrupt_fields_;
  uint32_t interrupt_router_ = ~uint32_t{0};
  std::vector<std::string> interrupt_lines_;
  std::vector<uint32_t> first_lines_;
  std::vector<std::string> output_streams_;
  std::vector<uint32_t> first_streams_;
  uint32_t once_slots_ = 0;
  uint32_t rmw_slots_ = 0;
};

struct CompileResult {
  std::shared_ptr<const Model> model;  // null when errors is not empty
  std::vector<std::string> errors;
};

// Compiles a database that passed the checker (compiling one with errors is
// refused). Errors are limits of the emulator, e.g. offsets past 16 GiB, and
// the rules across behaviours (one driver per line, ...) for behaviours whose
// configs do not describe their outputs (a plugin kind's may not): the
// checker holds those rules for every config that does
// (regdb/checks/model_rules.cpp), so a shipped database never fails here.
CompileResult Compile(const regdb::Database& database);

}  // namespace regemu::emulator
