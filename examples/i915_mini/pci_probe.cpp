#include "examples/i915_mini/pci_probe.hpp"

#include "examples/i915_mini/pci_regs.hpp"

namespace regemu::i915_mini {
namespace {

// Linux sizes BAR0..BAR5 (PCI_STD_NUM_BARS); ICL implements 0, 2 and 4,
// and an unimplemented BAR reads back 0 and is skipped.
constexpr unsigned kBarsToSize = 6;

// One dword of a BAR: original value, all-ones, size mask, original value
// back (__pci_read_base / __pci_size_bars).
struct Sized {
  uint32_t original = 0;
  uint32_t mask = 0;
};
Sized SizeDword(fakes::MmioBus& config, uint64_t offset, uint32_t all_ones) {
  Sized sized;
  sized.original = config.Read32(offset);
  config.Write32(offset, sized.original | all_ones);
  sized.mask = config.Read32(offset);
  config.Write32(offset, sized.original);
  return sized;
}

// pci_size(): the lowest set bit of the implemented address bits.
uint64_t SizeFromMask(uint64_t mask) { return mask & ~(mask - 1); }

}  // namespace

std::optional<uint8_t> PciProbeResult::FindCapability(uint8_t id) const {
  for (const Capability& cap : capabilities) {
    if (cap.id == id) return cap.offset;
  }
  return std::nullopt;
}

const Bar* PciProbeResult::FindBar(unsigned index) const {
  for (const Bar& bar : bars) {
    if (bar.index == index) return &bar;
  }
  return nullptr;
}

void SizeBars(fakes::MmioBus& config, PciProbeResult& result) {
  // "No printks while decoding is disabled!": an all-ones BAR must not
  // decode an address while it is being sized.
  uint16_t command = config.Read16(pci::kCommand);
  if ((command & pci::kCommandDecodeEnable) != 0) {
    config.Write16(pci::kCommand, static_cast<uint16_t>(command & ~pci::kCommandDecodeEnable));
  }

  for (unsigned index = 0; index < kBarsToSize; ++index) {
    uint64_t offset = pci::kBaseAddress0 + 4 * index;
    Sized low = SizeDword(config, offset, 0xFFFFFFFF);
    if (low.mask == 0xFFFFFFFF) low.mask = 0;  // a function that does not answer
    Bar bar;
    bar.index = index;
    if ((low.original & pci::kBarSpaceIo) != 0) {
      bar.io = true;
      bar.size = SizeFromMask(low.mask & pci::kBarIoMask & pci::kIoSpaceLimit);
    } else {
      bar.prefetchable = (low.original & pci::kBarMemPrefetch) != 0;
      bar.is_64bit = (low.original & pci::kBarMemTypeMask) == pci::kBarMemType64;
      uint64_t mask = low.mask & pci::kBarMemMask;
      if (bar.is_64bit) {
        Sized high = SizeDword(config, offset + 4, 0xFFFFFFFF);
        mask |= uint64_t{high.mask} << 32;
        ++index;  // the next BAR is this one's upper dword
      }
      bar.size = SizeFromMask(mask);
    }
    if (bar.size != 0) result.bars.push_back(bar);
  }

  Sized rom = SizeDword(config, pci::kRomAddress, pci::kRomAddressMask);
  result.rom_size = SizeFromMask(rom.mask & pci::kRomAddressMask);

  if ((command & pci::kCommandDecodeEnable) != 0) config.Write16(pci::kCommand, command);
}

void WalkCapabilities(fakes::MmioBus& config, PciProbeResult& result) {
  if ((config.Read16(pci::kStatus) & pci::kStatusCapList) != 0) {
    uint8_t pos = config.Read8(pci::kCapabilityList);
    for (unsigned ttl = pci::kFindCapTtl; ttl > 0 && pos >= 0x40; --ttl) {
      pos = static_cast<uint8_t>(pos & ~3u);
      uint16_t header = config.Read16(pos);
      auto id = static_cast<uint8_t>(header & 0xFF);
      if (id == 0xFF) break;
      result.capabilities.push_back({id, pos});
      pos = static_cast<uint8_t>(header >> 8);
    }
  }

  uint64_t pos = pci::kExtCapStart;
  for (unsigned ttl = pci::kExtCapTtl; ttl > 0; --ttl) {
    uint32_t header = config.Read32(pos);
    if (header == 0 || header == 0xFFFFFFFF) break;
    result.ext_capabilities.push_back({static_cast<uint16_t>(header & 0xFFFF),
                                       static_cast<uint8_t>((header >> 16) & 0xF), static_cast<uint16_t>(pos)});
    pos = (header >> 20) & 0xFFC;
    if (pos < pci::kExtCapStart) break;
  }
}

void EnableDevice(fakes::MmioBus& config, Bugs bugs) {
  if (bugs.Has(Bug::kRmwCommandStatus)) {
    // THE BUG: the dword at 0x04 is COMMAND and STATUS; writing it back
    // writes 1s into every STATUS error bit that read as 1 (write 1 to clear).
    uint32_t command_status = config.Read32(pci::kCommand);
    config.Write32(pci::kCommand, command_status | pci::kCommandMemory | pci::kCommandMaster);
    return;
  }
  uint16_t command = config.Read16(pci::kCommand);
  if ((command & pci::kCommandMemory) == 0) {
    command = static_cast<uint16_t>(command | pci::kCommandMemory);
    config.Write16(pci::kCommand, command);
  }
  if ((command & pci::kCommandMaster) == 0) {
    command = static_cast<uint16_t>(command | pci::kCommandMaster);
    config.Write16(pci::kCommand, command);
  }
}

}  // namespace regemu::i915_mini
