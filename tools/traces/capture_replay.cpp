#include "tools/traces/capture_replay.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "regemu/emulator/device.hpp"
#include "regemu/regdb/numbers.hpp"
#include "tools/traces/pci_core_setup.hpp"
#include "tools/traces/register_knowledge.hpp"

namespace regemu::traces {
namespace {

using emulator::Model;
using emulator::RegisterId;
using emulator::SpaceId;

// One register's share of an access: byte `access_byte` of the access is
// byte `reg_byte` of register `reg`, for `count` bytes.
struct Lane {
  RegisterId reg = emulator::DecodeTable::kNone;
  unsigned access_byte = 0;
  unsigned reg_byte = 0;
  unsigned count = 0;
};

// What decodes under an access's bytes: registers (through alias windows
// too), reserved bytes, and bytes nothing decodes.
struct Decoded {
  std::vector<Lane> lanes;
  uint64_t reserved = 0;  // bits of the access in reserved ranges
  std::string reserved_range;
  uint64_t nothing = 0;   // bits nothing decodes
};

void DecodeBytes(const Model& model, SpaceId space_id, uint64_t offset, unsigned bytes, unsigned first_byte,
                 Decoded& out, int depth = 0) {
  const emulator::SpaceModel& space = model.spaces()[space_id];
  for (unsigned b = 0; b < bytes;) {
    uint64_t at = offset + b;
    RegisterId id = at < space.size ? space.decode.Lookup(at) : emulator::DecodeTable::kNone;
    if (id != emulator::DecodeTable::kNone) {
      const emulator::RegisterModel& r = model.registers()[id];
      unsigned reg_byte = static_cast<unsigned>(at - r.offset);
      unsigned count = std::min<unsigned>(r.extent - reg_byte, bytes - b);
      out.lanes.push_back({id, first_byte + b, reg_byte, count});
      b += count;
      continue;
    }
    uint64_t bit = uint64_t{0xff} << (8 * (first_byte + b));
    const emulator::RangeModel* range = at < space.size ? space.RangeAt(at) : nullptr;
    if (range && range->kind == regdb::RangeKind::kReserved) {
      out.reserved |= bit;
      out.reserved_range = range->name;
    } else if (range && depth < 4) {
      DecodeBytes(model, range->target_space, range->TargetOffset(at), 1, first_byte + b, out, depth + 1);
    } else if (space.kind != regdb::SpaceKind::kMemory) {
      out.nothing |= bit;
    }
    ++b;
  }
}

// Register bits moved to where they sit in the access, and back.
uint64_t ToAccess(const Lane& lane, uint64_t reg_bits) {
  return ((reg_bits >> (8 * lane.reg_byte)) & WidthMask(8 * lane.count)) << (8 * lane.access_byte);
}
uint64_t ToRegister(const Lane& lane, uint64_t access_bits) {
  return ((access_bits >> (8 * lane.access_byte)) & WidthMask(8 * lane.count)) << (8 * lane.reg_byte);
}

// The access's bits, sorted by what the model knows of them.
struct Expectation {
  uint64_t unknowable = 0, status = 0, pokable = 0, fixed = 0, stored = 0, reads_zero = 0, just_cleared = 0;
};

class Replayer {
 public:
  Replayer(const regdb::Database& db, std::shared_ptr<const Model> model, const ReplayOptions& options,
           CaptureAddressMap map, ReplayReport& report)
      : db_(db), model_(*model), options_(options), map_(std::move(map)), knowledge_(db, *model),
        cleared_(model->registers().size()), cleared_line_(model->registers().size()),
        last_write_line_(model->registers().size()), tainted_(model->registers().size()), report_(report) {
    emulator::DeviceOptions device_options;
    device_options.policy = emulator::ViolationPolicy::Strict();
    device_options.thread_safe = false;
    device_options.trace_capacity = 0;
    device_options.max_violations = 0;  // kept here, with their capture lines
    device_options.on_violation = [this](const emulator::Violation& v) { OnViolation(v); };
    device_ = std::make_unique<emulator::Device>(std::move(model), device_options);
  }

  void EnableMemoryDecode();
  void Run(CaptureReader& reader);
  void Finish();

 private:
  void OnViolation(const emulator::Violation& v);
  void Access(const CaptureRecord& record, const PlacedAccess& placed);
  void Read(const CaptureRecord& record, const PlacedAccess& placed, const Decoded& decoded);
  void Write(const CaptureRecord& record, const PlacedAccess& placed, const Decoded& decoded);
  void Gap(const std::string& space, uint64_t address, const CaptureRecord& record);
  void Mistake(const CaptureRecord& record, const PlacedAccess& placed, const Decoded& decoded, uint64_t captured,
               uint64_t model_value, uint64_t bits, std::string kind, std::string why);
  void AdvanceTo(const CaptureRecord& record);

  const regdb::Database& db_;
  const Model& model_;
  const ReplayOptions& options_;
  CaptureAddressMap map_;
  RegisterKnowledge knowledge_;
  std::unique_ptr<emulator::Device> device_;
  std::vector<uint64_t> cleared_;  // per register: status bits the driver's last write cleared
  std::vector<uint64_t> cleared_line_;
  std::vector<uint64_t> last_write_line_;
  // Per register: bits a write that broke a rule should have set. Hardware
  // took that write (the model may not have): until the driver writes them
  // again, what they read says nothing about the database.
  std::vector<uint64_t> tainted_;
  ReplayReport& report_;
  uint64_t line_ = 0;
  bool in_gap_ = false;  // the current access is a gap: its `unclaimed` violation is not the driver's
  bool broke_rule_ = false;  // the current access recorded a violation
  std::optional<uint64_t> first_time_;
  struct GapCount {
    uint64_t end = 0, reads = 0, writes = 0, first_line = 0;
  };
  std::map<std::pair<std::string, uint64_t>, GapCount> gaps_;  // (space, address)
};

void Replayer::OnViolation(const emulator::Violation& v) {
  if (in_gap_ && v.kind == emulator::ViolationKind::kUnclaimed) return;
  broke_rule_ = true;
  ++report_.violation_count;
  if (report_.violations.size() < options_.max_listed) report_.violations.push_back({line_, v});
}

// An mmiotrace sees no configuration-space access: the PCI core enabled
// memory decode (pci_enable_device) before the traced driver mapped its
// BAR. Without that a pci-config behaviour keeps the BARs' spaces off.
void Replayer::EnableMemoryDecode() {
  for (const SetupWrite& write : MemoryDecodeWrites(db_)) {
    auto space = model_.FindSpace(write.reg->space_name);
    if (!space) continue;
    device_->Write(*space, write.reg->offset, write.reg->width, write.value);
    report_.notes.push_back("before the capture: " + write.reg->name + " = " +
                            regdb::HexPadded(write.value, write.reg->width) +
                            " (memory decode on, as the PCI core leaves it; mmiotrace has no config-space accesses)");
  }
}

void Replayer::AdvanceTo(const CaptureRecord& record) {
  if (!record.has_time) return;
  if (!first_time_) first_time_ = record.time_ns;
  if (record.time_ns < *first_time_) return;
  uint64_t target = record.time_ns - *first_time_;
  uint64_t now = device_->now_ns();
  if (target > now) device_->Advance(target - now);
}

void Replayer::Gap(const std::string& space, uint64_t address, const CaptureRecord& record) {
  GapCount& gap = gaps_[{space, address}];
  if (gap.first_line == 0) gap.first_line = record.line;
  gap.end = std::max(gap.end, address + record.width);
  (record.kind == CaptureKind::kRead ? gap.reads : gap.writes)++;
}

void Replayer::Run(CaptureReader& reader) {
  CaptureRecord record;
  while (reader.Next(record)) {
    line_ = record.line;
    CaptureFormat format = *reader.format();
    map_.Observe(record, format);
    switch (record.kind) {
      case CaptureKind::kRead:
      case CaptureKind::kWrite: {
        (record.kind == CaptureKind::kRead ? report_.reads : report_.writes)++;
        auto placed = map_.Place(record, format);
        if (!placed) {
          ++report_.outside_accesses;
          Gap("", record.address, record);
          continue;
        }
        AdvanceTo(record);
        Access(record, *placed);
        break;
      }
      case CaptureKind::kMark: ++report_.marks; break;
      case CaptureKind::kMap: ++report_.maps; break;
      case CaptureKind::kLost: report_.lost_events += record.value; break;
      case CaptureKind::kUnknown:
        ++report_.unknown_records;
        if (report_.unknown_lines.size() < options_.max_listed) report_.unknown_lines.push_back(record.line);
        break;
      default: break;
    }
  }
  report_.format = reader.format() ? std::string(CaptureFormatName(*reader.format())) : "";
  report_.lines = reader.lines();
  report_.bytes = reader.bytes();
  report_.problems = reader.problems();
  report_.problem_count = reader.problem_count();
  report_.read_failed = reader.read_failed();
}

void Replayer::Access(const CaptureRecord& record, const PlacedAccess& placed) {
  Decoded decoded;
  DecodeBytes(model_, placed.space, placed.offset, record.width, 0, decoded);
  uint64_t width_mask = WidthMask(8 * record.width);
  in_gap_ = decoded.nothing == width_mask;
  broke_rule_ = false;
  if (in_gap_) {
    ++report_.gap_accesses;
    Gap(model_.spaces()[placed.space].name, placed.offset, record);
  } else {
    ++report_.modelled;
  }
  if (record.kind == CaptureKind::kRead) {
    Read(record, placed, decoded);
  } else {
    Write(record, placed, decoded);
  }
  in_gap_ = false;
}

void Replayer::Write(const CaptureRecord& record, const PlacedAccess& placed, const Decoded& decoded) {
  device_->Write(placed.space, placed.offset, 8 * record.width, record.value);
  for (const Lane& lane : decoded.lanes) {
    const RegisterBits& bits = knowledge_[lane.reg];
    uint64_t written = ToRegister(lane, record.value);
    uint64_t lanes = ToRegister(lane, ~uint64_t{0});
    tainted_[lane.reg] = broke_rule_ ? tainted_[lane.reg] | lanes : tainted_[lane.reg] & ~lanes;
    uint64_t cleared = ((written & bits.one_clears) | (~written & bits.zero_clears)) & lanes;
    cleared_[lane.reg] = (cleared_[lane.reg] & ~lanes) | cleared;
    cleared_line_[lane.reg] = record.line;
    last_write_line_[lane.reg] = record.line;
  }
}

void Replayer::Read(const CaptureRecord& record, const PlacedAccess& placed, const Decoded& decoded) {
  uint64_t value = device_->Read(placed.space, placed.offset, 8 * record.width);
  if (in_gap_) return;
  uint64_t captured = record.value;
  Expectation e;
  for (const Lane& lane : decoded.lanes) {
    const RegisterBits& bits = knowledge_[lane.reg];
    // A read that broke a rule (a sleeping force-wake domain, decode off)
    // got no answer from the model to set against hardware's.
    e.unknowable |= broke_rule_ ? ToAccess(lane, ~uint64_t{0}) : ToAccess(lane, bits.unknowable | tainted_[lane.reg]);
    e.status |= ToAccess(lane, bits.status);
    e.pokable |= ToAccess(lane, bits.pokable);
    e.fixed |= ToAccess(lane, bits.fixed);
    e.stored |= ToAccess(lane, bits.stored);
    e.reads_zero |= ToAccess(lane, bits.reads_zero);
    e.just_cleared |= ToAccess(lane, cleared_[lane.reg]);
  }
  uint64_t known = WidthMask(8 * record.width) & ~e.unknowable & ~decoded.nothing;
  if (known == 0) {
    ++report_.unknowable_reads;
  } else {
    ++report_.compared_reads;
  }
  uint64_t diff = (captured ^ value) & known;
  if (uint64_t bad = diff & decoded.reserved) {
    Mistake(record, placed, decoded, captured, value, bad, "reserved",
            "reserved range " + decoded.reserved_range + " read " + regdb::Hex(captured & decoded.reserved) +
                "; the database has nothing there, so the model reads 0");
  }
  // Status bits hardware set on its own: an event the capture does not
  // show. Unless the driver had just cleared them, the model takes it.
  uint64_t raised = captured & ~value & WidthMask(8 * record.width) & (e.pokable | (e.status & known));
  if (uint64_t stuck = raised & e.just_cleared & known) {
    uint64_t cleared_at = 0;
    for (const Lane& lane : decoded.lanes) {
      if (ToRegister(lane, stuck)) cleared_at = cleared_line_[lane.reg];
    }
    Mistake(record, placed, decoded, captured, value, stuck, "w1c-still-set",
            "write-to-clear bit(s) " + regdb::Hex(stuck) + " still set right after the driver cleared them (line " +
                std::to_string(cleared_at) + "): on this hardware they do not clear that way");
    raised &= ~stuck;
  }
  if (raised) {
    ++report_.hardware_events;
    for (const Lane& lane : decoded.lanes) {
      uint64_t take = ToRegister(lane, raised & e.pokable);
      if (take) device_->PokeRegister(lane.reg, device_->PeekRegister(lane.reg) | take);
    }
  }
  if (uint64_t lost = diff & e.status & ~captured) {
    Mistake(record, placed, decoded, captured, value, lost, "status",
            "status bit(s) " + regdb::Hex(lost) + " the model holds set read 0 on hardware");
  }
  if (uint64_t fixed = diff & e.fixed) {
    Mistake(record, placed, decoded, captured, value, fixed, "read-only",
            "read-only bit(s) " + regdb::Hex(fixed) + " read " + regdb::Hex(captured & fixed) +
                "; the database can only produce " + regdb::Hex(value & fixed) +
                " (their reset): a wrong reset, or hardware changes them and they should be volatile or hw");
  }
  if (uint64_t reserved = diff & e.reads_zero) {
    Mistake(record, placed, decoded, captured, value, reserved, "reserved",
            "reserved bit(s) " + regdb::Hex(reserved) + " read 1; the database says they read 0 (a field is missing)");
  }
  if (uint64_t stored = diff & e.stored) {
    uint64_t written_at = 0;
    for (const Lane& lane : decoded.lanes) {
      if (ToRegister(lane, stored)) written_at = last_write_line_[lane.reg];
    }
    std::string source =
        written_at ? "what the driver wrote (line " + std::to_string(written_at) + ")" : "their reset value";
    Mistake(record, placed, decoded, captured, value, stored, "stored",
            "bit(s) " + regdb::Hex(stored) + " read " + regdb::Hex(captured & stored) + " instead of " + source +
                ", " + regdb::Hex(value & stored) + ": hardware changes them (volatile or hw) or the reset is wrong");
  }
  for (const Lane& lane : decoded.lanes) cleared_[lane.reg] &= ~ToRegister(lane, ~uint64_t{0});
}

void Replayer::Mistake(const CaptureRecord& record, const PlacedAccess& placed, const Decoded& decoded,
                       uint64_t captured, uint64_t model_value, uint64_t bits, std::string kind, std::string why) {
  ++report_.mistake_count;
  if (report_.mistakes.size() >= options_.max_listed) return;
  ReplayMistake m;
  m.line = record.line;
  m.space = model_.spaces()[placed.space].name;
  m.offset = placed.offset;
  m.width = 8 * record.width;
  m.reg = decoded.lanes.empty() ? decoded.reserved_range : model_.registers()[decoded.lanes.front().reg].name;
  m.captured = captured;
  m.model = model_value;
  m.bits = bits;
  m.kind = std::move(kind);
  m.why = std::move(why);
  report_.mistakes.push_back(std::move(m));
}

// Neighbouring addresses (within gap_join bytes) become one range.
void Replayer::Finish() {
  report_.notes.insert(report_.notes.begin(), map_.notes().begin(), map_.notes().end());
  report_.missing_bars = map_.missing_bars();
  report_.final_time_ns = device_->now_ns();
  for (const auto& [key, count] : gaps_) {
    const auto& [space, address] = key;
    ReplayGap* last = report_.gaps.empty() ? nullptr : &report_.gaps.back();
    if (last && last->space == space && address <= last->end + options_.gap_join) {
      last->end = std::max(last->end, count.end);
      ++last->addresses;
      last->reads += count.reads;
      last->writes += count.writes;
      last->first_line = std::min(last->first_line, count.first_line);
      continue;
    }
    report_.gaps.push_back({space, address, count.end, 1, count.reads, count.writes, count.first_line});
  }
}

}  // namespace

ReplayReport ReplayCapture(std::istream& capture, const std::string& name, const regdb::Database& db,
                           std::shared_ptr<const emulator::Model> model, const ReplayOptions& options,
                           std::string& error) {
  ReplayReport report;
  report.capture = name;
  auto map = CaptureAddressMap::Make(db, *model, options.mappings, options.device, error);
  if (!map) return report;
  Replayer replayer(db, std::move(model), options, std::move(*map), report);
  replayer.EnableMemoryDecode();
  CaptureReaderOptions reader_options;
  reader_options.format = options.format;
  CaptureReader reader(capture, name, reader_options);
  replayer.Run(reader);
  replayer.Finish();
  return report;
}

}  // namespace regemu::traces
