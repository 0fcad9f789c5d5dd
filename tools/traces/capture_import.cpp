#include "tools/traces/capture_import.hpp"

#include <cstdio>

#include "regemu/regdb/numbers.hpp"
#include "tools/traces/pci_core_setup.hpp"
#include "tools/traces/register_knowledge.hpp"

namespace regemu::traces {
namespace {

// The bits of an access to `offset` a script may expect: what the model can
// know of each register under the access's bytes.
struct ReadBits {
  uint64_t known = 0;   // what the model can know
  uint64_t events = 0;  // status bits hardware raises on its own
};

ReadBits BitsOfRead(const emulator::Model& model, const RegisterKnowledge& knowledge, emulator::SpaceId space_id,
                    uint64_t offset, unsigned bytes) {
  const emulator::SpaceModel& space = model.spaces()[space_id];
  uint64_t known = 0;
  uint64_t events = 0;
  for (unsigned b = 0; b < bytes; ++b) {
    uint64_t at = offset + b;
    emulator::RegisterId id = space.decode.Lookup(at);
    if (id == emulator::DecodeTable::kNone) {
      // Reserved ranges read 0; alias windows and gaps are not known here.
      const emulator::RangeModel* range = space.RangeAt(at);
      if (range && range->kind == regdb::RangeKind::kReserved) known |= uint64_t{0xff} << (8 * b);
      continue;
    }
    const emulator::RegisterModel& r = model.registers()[id];
    const RegisterBits& bits = knowledge[id];
    uint64_t reg_known = r.width_mask & ~bits.unknowable & ~bits.status;
    known |= ((reg_known >> (8 * (at - r.offset))) & 0xff) << (8 * b);
    events |= ((bits.pokable >> (8 * (at - r.offset))) & 0xff) << (8 * b);
  }
  return {known, events};
}

std::string RegisterAt(const emulator::Model& model, emulator::SpaceId space_id, uint64_t offset) {
  const emulator::SpaceModel& space = model.spaces()[space_id];
  emulator::RegisterId id = space.decode.Lookup(offset);
  if (id != emulator::DecodeTable::kNone) return model.registers()[id].name;
  const emulator::RangeModel* range = space.RangeAt(offset);
  if (!range) return "(nothing decodes here)";
  if (range->kind == regdb::RangeKind::kReserved) return range->name + " (reserved)";
  emulator::RegisterId target = model.spaces()[range->target_space].decode.Lookup(range->TargetOffset(offset));
  return target == emulator::DecodeTable::kNone ? range->name : model.registers()[target].name + " via " + range->name;
}

// What `regemu replay` does before a capture, written into the script.
void WritePciCoreSetup(const regdb::Database& db, std::ostream& script) {
  for (const SetupWrite& write : MemoryDecodeWrites(db)) {
    script << "# The PCI core enabled memory decode before the driver ran; mmiotrace shows no config-space access.\n"
           << "write" << write.reg->width << " " << write.reg->name << " "
           << regdb::HexPadded(write.value, write.reg->width) << "\n";
  }
}

}  // namespace

std::string ScriptDuration(uint64_t ns) {
  if (ns % 1'000'000'000 == 0) return std::to_string(ns / 1'000'000'000) + "s";
  if (ns % 1'000'000 == 0) return std::to_string(ns / 1'000'000) + "ms";
  if (ns % 1'000 == 0) return std::to_string(ns / 1'000) + "us";
  return std::to_string(ns) + "ns";
}

ImportStats ImportCapture(std::istream& capture, const std::string& name, const regdb::Database& db,
                          const emulator::Model& model, const ImportOptions& options, std::ostream& script,
                          std::string& error) {
  ImportStats stats;
  auto map = CaptureAddressMap::Make(db, model, options.mappings, options.device, error);
  if (!map) return stats;
  RegisterKnowledge knowledge(db, model);
  CaptureReaderOptions reader_options;
  reader_options.format = options.format;
  CaptureReader reader(capture, name, reader_options);

  script << "# regemu import of " << name << " for device " << model.device() << "\n";
  WritePciCoreSetup(db, script);
  size_t notes_written = 0;
  std::optional<uint64_t> last_time;
  CaptureRecord record;
  while (reader.Next(record)) {
    CaptureFormat format = *reader.format();
    map->Observe(record, format);
    std::string at = "line " + std::to_string(record.line);
    switch (record.kind) {
      case CaptureKind::kRead:
      case CaptureKind::kWrite: {
        bool read = record.kind == CaptureKind::kRead;
        (read ? stats.reads : stats.writes)++;
        auto placed = map->Place(record, format);
        for (; notes_written < map->notes().size(); ++notes_written) script << "# " << map->notes()[notes_written] << "\n";
        unsigned bits = 8 * record.width;
        if (!placed) {
          ++stats.outside;
          script << "# " << at << ": " << (read ? "R" : "W") << bits << " " << regdb::Hex(record.address) << " "
                 << regdb::HexPadded(record.value, bits) << " is in no space of the database\n";
          continue;
        }
        if (options.time && record.has_time) {
          if (last_time && record.time_ns > *last_time) script << "step " << ScriptDuration(record.time_ns - *last_time) << "\n";
          if (!last_time || record.time_ns > *last_time) last_time = record.time_ns;
        }
        std::string target = model.spaces()[placed->space].name + " " + regdb::Hex(placed->offset);
        std::string comment = "  # " + at + " " + RegisterAt(model, placed->space, placed->offset) + "\n";
        if (!read) {
          script << "write" << bits << " " << target << " " << regdb::HexPadded(record.value, bits) << comment;
          continue;
        }
        ReadBits read_bits = BitsOfRead(model, knowledge, placed->space, placed->offset, record.width);
        // Hardware raised status bits the capture does not show the cause
        // of: the script pokes them in, so the driver's service and ack of
        // them replay (and the model's protocol rules see what it saw).
        if (uint64_t raised = record.value & read_bits.events & WidthMask(bits)) {
          script << "poke" << bits << " " << target << " " << regdb::HexPadded(record.value, bits)
                 << "  # hardware raised " << regdb::Hex(raised) << "\n";
        }
        uint64_t known = options.values ? read_bits.known & WidthMask(bits) : 0;
        if (known == 0) {
          script << "read" << bits << " " << target << comment;
        } else if (known == WidthMask(bits)) {
          script << "expect" << bits << " " << target << " " << regdb::HexPadded(record.value, bits) << comment;
        } else {
          script << "expect" << bits << " " << target << " " << regdb::HexPadded(record.value & known, bits) << " mask "
                 << regdb::HexPadded(known, bits) << comment;
        }
        break;
      }
      case CaptureKind::kMark:
        ++stats.marks;
        script << "# " << at << ": MARK " << record.text << "\n";
        break;
      case CaptureKind::kMap:
        script << "# " << at << ": MAP " << record.map_id << " " << regdb::Hex(record.address) << " length "
               << regdb::Hex(record.length) << "\n";
        break;
      case CaptureKind::kUnmap: script << "# " << at << ": UNMAP " << record.map_id << "\n"; break;
      case CaptureKind::kLost:
        stats.lost_events += record.value;
        script << "# " << at << ": WARNING: the tracer lost " << record.value << " events here\n";
        break;
      case CaptureKind::kUnknown:
        ++stats.unknown_records;
        if (stats.unknown_lines.size() < 100) stats.unknown_lines.push_back(record.line);
        script << "# " << at << ": UNKNOWN access at " << regdb::Hex(record.address) << " (opcode " << record.text
               << "): mmiotrace could not decode it\n";
        break;
      case CaptureKind::kPciDev: {
        char ids[16];
        std::snprintf(ids, sizeof ids, "%04x:%04x", record.pci.vendor, record.pci.device);
        script << "# " << at << ": PCIDEV " << ids << (record.pci.driver.empty() ? "" : " " + record.pci.driver)
               << "\n";
        break;
      }
      case CaptureKind::kVersion: break;
    }
  }
  stats.format = reader.format() ? std::string(CaptureFormatName(*reader.format())) : "";
  stats.lines = reader.lines();
  stats.bytes = reader.bytes();
  stats.problems = reader.problems();
  stats.problem_count = reader.problem_count();
  stats.notes = map->notes();
  stats.missing_bars = map->missing_bars();
  stats.read_failed = reader.read_failed();
  return stats;
}

}  // namespace regemu::traces
