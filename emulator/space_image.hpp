#pragma once
// A space of a device as one binary image: at each offset, the byte a
// driver reading there would see, so that tools made for dumps of real
// hardware read it (IGT's `intel_reg --mmio=FILE` maps the file as the BAR;
// `regemu snapshot` writes it).
//
// Every value comes from the backdoor, as Peek sees it: making the image
// has no side effect (a clear-on-read register keeps its bits), records no
// violation and traces nothing. Byte by byte:
// - a register's byte: its stored value, little-endian at its offset (where
//   two registers overlap, the one the decode table holds, as Peek does);
// - a reserved range: 0, as on bare metal;
// - an alias window whose `enabled_by` bit is set: the target space's image
//   there (a GPU's MCHBAR mirror shows the mchbar registers); with the bit
//   clear, what lies beneath, as for a driver's read;
// - a memory space's RAM: its bytes;
// - anywhere else: the space's `unclaimed` value, its low 32 bits repeated,
//   which is what a 32-bit read returns there (the width MMIO drivers and
//   intel_reg read).
// A space a behaviour stopped decoding (PCI memory decode off, D3hot) is
// imaged as if it answered: the point is the registers, not the master
// abort a driver would get. Indexed (MSR) spaces number their registers
// instead of laying them out in bytes: they have no image and are refused.
//
// Register values are copied in one go; a memory space's bytes are read as
// the image is written. Image a device no other thread is driving.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"

namespace regemu::emulator {

// The most bytes one image may hold: more than any register BAR (a GPU's
// 16 MiB register BAR is the biggest shipped), far less than a
// memory space's gigabytes of mostly zeros, whose start can be imaged with
// a smaller size.
inline constexpr uint64_t kMaxSpaceImageBytes = uint64_t{256} << 20;

struct SpaceImageStats {
  uint64_t bytes = 0;           // the image covers offsets [0, bytes) of the space
  size_t registers = 0;         // registers of the space with a byte in the image
  size_t window_registers = 0;  // registers of other spaces shown through its alias windows
};

// Why the first `size` bytes of `space` (nullopt: the whole space) have no
// image, or "" when they have one: an indexed space, an empty image, one
// running past the space's end or holding more than kMaxSpaceImageBytes.
std::string SpaceImageRefusal(const Model& model, SpaceId space, std::optional<uint64_t> size = std::nullopt);

// The image of the first `size` bytes of `space` (nullopt: the whole
// space), and what it holds in `stats` when given. A refusal throws
// std::invalid_argument with SpaceImageRefusal's words.
std::vector<uint8_t> SpaceImage(const Device& device, SpaceId space, std::optional<uint64_t> size = std::nullopt,
                                SpaceImageStats* stats = nullptr);

// The same image written to `out` piece by piece, without a buffer of its
// size. Refuses as SpaceImage does; the caller checks `out` afterwards
// (writing stops at the first failure).
SpaceImageStats WriteSpaceImage(const Device& device, SpaceId space, std::optional<uint64_t> size, std::ostream& out);

}  // namespace regemu::emulator
