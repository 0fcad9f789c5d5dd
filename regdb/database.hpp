#pragma once
// The register database as plain data: what the YAML says, with arrays and
// block instances expanded into concrete registers and every object carrying
// its source location. No runtime state lives here.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "regemu/regdb/access.hpp"
#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/expression.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/source.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {

// kState: the device's internal state (a queue head, a phase tag, the mask
// two views show), registers no bus access reaches: only the backdoor
// (peek/poke, dump, snapshots) and behaviours see them.
enum class SpaceKind : unsigned char { kPciConfig, kMmio, kMsr, kMemory, kState };
std::string_view SpaceKindName(SpaceKind kind);

// A set of access widths, one bit per width: 8 → bit 0, 16 → bit 1, 32 → bit 2, 64 → bit 3.
class WidthSet {
 public:
  constexpr WidthSet() = default;
  static constexpr WidthSet Of(std::initializer_list<unsigned> widths) {
    WidthSet set;
    for (unsigned w : widths) set.Add(w);
    return set;
  }
  static constexpr bool IsValidWidth(uint64_t width) { return width == 8 || width == 16 || width == 32 || width == 64; }
  constexpr void Add(unsigned width) { bits_ = static_cast<uint8_t>(bits_ | Bit(width)); }
  constexpr bool Contains(unsigned width) const { return (bits_ & Bit(width)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  std::string ToString() const;  // "8/16/32"
  friend constexpr bool operator==(WidthSet, WidthSet) = default;

 private:
  static constexpr uint8_t Bit(unsigned width) {
    return width == 8 ? 1 : width == 16 ? 2 : width == 32 ? 4 : width == 64 ? 8 : 0;
  }
  uint8_t bits_ = 0;
};

using SpaceIndex = uint32_t;
using RegisterIndex = uint32_t;
inline constexpr uint32_t kUnresolved = ~uint32_t{0};

// Bytes a memory space holds from reset (`contents:`): a structure the
// device hands out by DMA (NVMe's Identify data), a ROM image.
struct SpaceContent {
  uint64_t offset = 0;
  std::vector<uint8_t> bytes;
  std::string doc;
  SourceLoc loc;
};

struct Space {
  // The largest size a space may have (yaml/README.md: 1 ... 2^63): sums of
  // offsets and sizes inside a space stay clear of uint64_t's wrap.
  static constexpr uint64_t kMaxSize = uint64_t{1} << 63;

  std::string name;
  SpaceKind kind = SpaceKind::kMmio;
  uint64_t size = 0;
  WidthSet widths;
  bool natural_alignment = true;
  uint64_t unclaimed = 0;
  // The PCI BAR (0-5) this space is, for reading captures that carry bus
  // addresses (mmiotrace's PCIDEV and MAP lines); none for spaces no BAR maps.
  std::optional<unsigned> pci_bar;
  std::vector<SpaceContent> contents;  // memory spaces only; disjoint, sorted by offset
  // `dma: true`: the host memory the device reaches by DMA (a transport to
  // a real bus backs it with the host's: `regemu boot`, the kernel's RAM).
  bool dma = false;
  std::string doc;
  SourceLoc loc;
  SourceLoc size_loc;
  SourceLoc pci_bar_loc;

  // In an MSR space an offset is an index and a register occupies one of them.
  bool indexed() const { return kind == SpaceKind::kMsr; }
};

struct EnumValue {
  std::string name;
  uint64_t value = 0;
  std::string doc;
  SourceLoc loc;  // the value
  SourceLoc name_loc;
};

// `write_gate:` of a register or field: frontdoor writes change its bits
// only while `when` holds (a lock); a write it blocks is ignored, as the
// hardware does, and with `violation` is also that driver mistake.
struct WriteGate {
  Expression when;
  std::string violation;            // empty: the blocked write is no violation
  std::string kind = "protocol";    // a name of emulator/violation_kinds.def
  std::string ref;
};

struct Field {
  std::string name;
  BitRange bits;
  Access access = Access::kRw;
  std::optional<uint64_t> reset;  // in field units
  bool is_volatile = false;
  // `on_write: violation`: a write that would change this read-only field is
  // a `read-only` violation even where the register has writable bits
  // (elsewhere hardware ignores what is written to read-only bits).
  bool write_is_violation = false;
  std::vector<EnumValue> values;
  std::string doc;
  // `value:`: a computed field, whose value is this expression of other
  // registers' state, kept up to date by the device (read-only).
  YamlNode value_text;               // as written; null for a stored field
  std::optional<Expression> value;   // compiled by the checker
  YamlNode write_gate_text;          // `write_gate:` as written; null without one
  std::optional<WriteGate> write_gate;
  SourceLoc loc;
  SourceLoc bits_loc;
  SourceLoc reset_loc;
  SourceLoc on_write_loc;

  uint64_t mask() const;  // the field's bits in register position
};

// Where an expanded register came from, so generators can fold arrays and
// blocks back into functions of an index or a base.
struct ArrayOrigin {
  std::string name_template;  // "OAPERF_A{n}"
  uint32_t index = 0;         // position in the array, 0-based
  uint32_t start = 0;         // number of the first element's name
  uint32_t count = 0;
  uint64_t stride = 0;
  uint64_t first_offset = 0;
  SourceLoc stride_loc;
};

struct BlockOrigin {
  std::string block;
  std::string instance;
  uint64_t base = 0;
  std::string local_name;  // the register's name inside the block
};

// Which accesses a register at a shared place answers (yaml/README.md,
// "Split and banked registers"): RBR reads and THR writes at one offset.
enum class DecodeDirection : unsigned char { kReadWrite, kRead, kWrite };

struct Register {
  std::string name;
  std::string space_name;
  SpaceIndex space = kUnresolved;  // set by the checker's link step
  uint64_t offset = 0;
  unsigned width = 32;
  uint64_t reset = 0;
  bool reset_given = false;
  Access default_access = Access::kRw;  // bits no field covers
  bool masked = false;
  bool is_volatile = false;
  // An overlay's `changes:` named it (`register: NAME` or `field: NAME.F`):
  // what an overlay is about among an import's thousands
  // (`regemu header --changed-only`).
  bool changed_by_overlay = false;
  std::string alias_of;
  // A view: this register has no storage of its own but shows (with its own
  // access policies) the value of register `view_of`, as INTMS and INTMC
  // both show NVMe's interrupt mask. Every write through one view is seen
  // by the storage and all its other views.
  std::string view_of;
  // Split and banked registers: several registers at one place, each
  // decoding only the accesses of `decode` while `decode_when` holds
  // (LCR.DLAB == 1 selects DLL over RBR/THR). The checker proves no two of
  // them decode the same access.
  DecodeDirection decode = DecodeDirection::kReadWrite;
  YamlNode decode_when;                      // the condition as written; null without one
  std::optional<Expression> decode_condition;  // compiled by the checker
  YamlNode write_gate_text;                  // `write_gate:` as written; null without one
  std::optional<WriteGate> write_gate;       // compiled by the checker
  std::vector<Field> fields;
  std::string doc;
  std::string ref;
  std::optional<ArrayOrigin> array;
  std::optional<BlockOrigin> block;

  SourceLoc loc;  // the name
  SourceLoc space_loc;
  SourceLoc offset_loc;
  SourceLoc width_loc;
  SourceLoc reset_loc;
  SourceLoc alias_of_loc;
  SourceLoc view_of_loc;
  SourceLoc decode_loc;

  uint64_t size_bytes() const { return width / 8; }
  uint64_t width_mask() const { return width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }
  const Field* FindField(std::string_view field_name) const;
  // Shares its place with other registers, each decoding only some accesses.
  // (`decode` or `decode_when` given; a `decode: read-write` without a
  // condition still shares nothing, and the overlap checks say so.)
  bool banked() const { return decode_loc.known(); }
};

enum class RangeKind : unsigned char { kReserved, kAlias };
enum class AliasWrites : unsigned char { kIgnore, kForward };

// `REGISTER.FIELD` naming a condition, resolved by the checker's link step.
struct FieldRef {
  std::string text;
  std::string register_name;
  std::string field_name;
  RegisterIndex reg = kUnresolved;
  uint32_t field = kUnresolved;
  SourceLoc loc;
};

struct Range {
  std::string name;
  RangeKind kind = RangeKind::kReserved;
  std::string space_name;
  SpaceIndex space = kUnresolved;
  uint64_t base = 0;
  uint64_t size = 0;
  // Alias windows only.
  std::string target_space_name;
  SpaceIndex target_space = kUnresolved;
  uint64_t target_offset = 0;
  WidthSet widths;  // empty: the space's widths
  AliasWrites writes = AliasWrites::kIgnore;
  std::optional<FieldRef> enabled_by;
  std::string doc;
  std::string ref;

  SourceLoc loc;
  SourceLoc space_loc;
  SourceLoc base_loc;
  SourceLoc target_loc;
};

struct BlockInstance {
  std::string name;
  uint64_t base = 0;
  SourceLoc loc;
};

struct Block {
  std::string name;
  std::string space_name;
  SourceLoc space_loc;
  std::vector<BlockInstance> instances;
  std::string doc;
  std::string ref;
  SourceLoc loc;
};

// A block instance, for a behaviour written inside a block: each instance
// has its own copy, which names the registers of that instance as the
// block does (`CONTROL` is TIMER1_CONTROL in instance TIMER1).
struct InstanceName {
  std::string block;
  std::string instance;
};

// `let: {NAME: EXPR}`: a named expression over the device's state, usable
// wherever an expression is (conditions, values, rates, gates), compiled
// in place of its name. A block's lets are per instance.
struct LetDefinition {
  std::string name;
  YamlNode text;  // the expression as written
  SourceLoc loc;  // the name
  std::optional<InstanceName> instance;
  std::optional<Expression> expression;  // compiled by the checker (CompileLets)
};

struct BehaviourSpec {
  std::string kind;
  std::string name;  // a block's: INSTANCE_name
  YamlNode yaml;  // the whole mapping, read only by the kind's check
  SourceLoc loc;
  SourceLoc kind_loc;
  // The kind's check's result (behaviour_config.hpp); null until the checker
  // ran, and when the section has errors.
  std::shared_ptr<const BehaviourConfig> config;
  // Written inside a block: the instance it belongs to, and its name there.
  std::optional<InstanceName> instance;
  std::string local_name;
};

struct Database {
  std::string device;
  std::string doc;
  std::string ref;
  SourceLoc loc;
  // `c_prefix:`, the start of every C header macro; empty: DEVICE_.
  std::string c_prefix;
  std::vector<Space> spaces;
  std::vector<Register> registers;
  std::vector<Range> ranges;
  std::vector<Block> blocks;
  std::vector<BehaviourSpec> behaviours;
  std::vector<LetDefinition> lets;

  // The let `name` means here: the instance scope's own, else the device's.
  const LetDefinition* FindLet(std::string_view name) const;

  // Name lookups, valid after the checker's link step. Inside an
  // InstanceScope, register names are the instance's local ones, and only
  // its registers are found.
  std::optional<SpaceIndex> FindSpace(std::string_view name) const;
  std::optional<RegisterIndex> FindRegister(std::string_view name) const;
  const Register* RegisterNamed(std::string_view name) const;
  // The register `name` names outside any instance scope (for the message
  // that a block's behaviour reached outside its block).
  const Register* DeviceRegisterNamed(std::string_view name) const;
  // The register names a lookup can find now ("did you mean").
  std::vector<std::string> VisibleRegisterNames() const;
  // The block instance names are resolved in now, if any.
  const std::optional<InstanceName>& instance_scope() const { return instance_scope_; }
  // What a behaviour's own name for a line, a stream or a behaviour means
  // here: inside an instance scope, INSTANCE_name; elsewhere, name.
  std::string ScopedName(std::string_view name) const;
  // An event a behaviour listens to: `timer.limit`, said inside a block
  // whose instance has a behaviour `timer`, is that instance's
  // (TIMER1_timer.limit); any other event name is the device's.
  std::string ScopedEvent(std::string_view name) const;
  // The index of `reg`, one of `registers`.
  RegisterIndex IndexOf(const Register& reg) const { return static_cast<RegisterIndex>(&reg - registers.data()); }

  // Rebuilds the lookup tables; the link step calls it.
  void IndexNames();

 private:
  friend class InstanceScope;
  std::unordered_map<std::string, SpaceIndex> space_by_name_;
  std::unordered_map<std::string, RegisterIndex> register_by_name_;
  // Set only while a block's behaviour is checked (InstanceScope).
  mutable std::optional<InstanceName> instance_scope_;
};

// Resolves names in one block instance for its lifetime: the checker holds
// one while it checks a behaviour written inside a block.
class InstanceScope {
 public:
  InstanceScope(const Database& database, const std::optional<InstanceName>& instance) : database_(database) {
    database_.instance_scope_ = instance;
  }
  ~InstanceScope() { database_.instance_scope_.reset(); }
  InstanceScope(const InstanceScope&) = delete;
  InstanceScope& operator=(const InstanceScope&) = delete;

 private:
  const Database& database_;
};

}  // namespace regemu::regdb
