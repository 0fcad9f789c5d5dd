#include "tools/traces/mmiotrace_writer.hpp"

#include <ostream>
#include <stdexcept>

#include "regemu/regdb/numbers.hpp"

namespace regemu::traces {
namespace {

using regdb::Hex;

// The kernel's `%02x` and `%04x`: zero-padded, no 0x.
std::string Padded(uint64_t value, unsigned bits) { return regdb::HexPadded(value, bits).substr(2); }
// The kernel's `%x` / `%llx`: no 0x, no leading zeros.
std::string Bare(uint64_t value) { return Hex(value).substr(2); }

}  // namespace

std::string MmiotraceTimestamp(uint64_t time_ns) {
  // ns2usecs() adds 500 before dividing; near 2^64 that would wrap, so the
  // rounding is done on the remainder instead.
  uint64_t usecs = time_ns / 1000 + (time_ns % 1000 >= 500 ? 1 : 0);
  std::string fraction = std::to_string(usecs % 1'000'000);
  return std::to_string(usecs / 1'000'000) + "." + std::string(6 - fraction.size(), '0') + fraction;
}

void MmiotraceWriter::Version() { *out_ << "VERSION " << kMmiotraceVersion << "\n"; }

void MmiotraceWriter::PciDev(const MmiotracePciDevice& device) {
  *out_ << "PCIDEV " << Padded(device.bus, 8) << Padded(device.devfn, 8) << " " << Padded(device.vendor, 16)
        << Padded(device.device, 16) << " " << Bare(device.irq);
  for (uint64_t start_flags : device.bar_start_flags) *out_ << " " << Bare(start_flags);
  for (uint64_t size : device.bar_size) *out_ << " " << Bare(size);
  *out_ << " " << device.driver << "\n";
}

void MmiotraceWriter::Map(uint64_t time_ns, const MmiotraceMapping& mapping) {
  *out_ << "MAP " << MmiotraceTimestamp(time_ns) << " " << mapping.map_id << " " << Hex(mapping.phys) << " "
        << Hex(mapping.virt) << " " << Hex(mapping.len) << " 0x0 0\n";
}

void MmiotraceWriter::Unmap(uint64_t time_ns, uint32_t map_id) {
  *out_ << "UNMAP " << MmiotraceTimestamp(time_ns) << " " << map_id << " 0x0 0\n";
}

void MmiotraceWriter::Access(const MmiotraceAccess& access) {
  if (access.width_bytes != 1 && access.width_bytes != 2 && access.width_bytes != 4 && access.width_bytes != 8) {
    throw std::invalid_argument("mmiotrace: an access of " + std::to_string(access.width_bytes) +
                                " bytes (a CPU access is 1, 2, 4 or 8)");
  }
  *out_ << (access.direction == MmiotraceDirection::kRead ? "R " : "W ") << access.width_bytes << " "
        << MmiotraceTimestamp(access.time_ns) << " " << access.map_id << " " << Hex(access.phys) << " "
        << Hex(access.value) << " " << Hex(access.pc) << " 0\n";
}

void MmiotraceWriter::Mark(uint64_t time_ns, std::string_view text) {
  if (text.find('\n') != std::string_view::npos) {
    throw std::invalid_argument("mmiotrace: a marker's text holds a newline: '" + std::string(text) + "'");
  }
  *out_ << "MARK " << MmiotraceTimestamp(time_ns) << " " << text << "\n";
}

std::optional<MmiotraceAccess> ToMmiotraceAccess(const emulator::TraceEntry& entry, emulator::SpaceId space,
                                                 const MmiotraceMapping& mapping) {
  if (entry.space != space) return std::nullopt;
  if (entry.op != emulator::TraceOp::kRead && entry.op != emulator::TraceOp::kWrite) return std::nullopt;
  if (entry.width != 8 && entry.width != 16 && entry.width != 32 && entry.width != 64) return std::nullopt;
  return MmiotraceAccess{
      .direction = entry.op == emulator::TraceOp::kRead ? MmiotraceDirection::kRead : MmiotraceDirection::kWrite,
      .width_bytes = entry.width / 8u,
      .time_ns = entry.time_ns,
      .map_id = mapping.map_id,
      .phys = mapping.phys + entry.offset,
      .value = entry.value,
      .pc = 0,
  };
}

}  // namespace regemu::traces
