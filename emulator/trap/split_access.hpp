#pragma once
// How one memory access of an instruction becomes device accesses: the
// widths a space allows (regdb `widths:`) decide whether it goes through
// whole or in pieces.

#include <cstddef>
#include <cstdint>

#include "regemu/regdb/database.hpp"

namespace regemu::emulator::trap {

struct DeviceAccess {
  uint64_t offset = 0;
  unsigned width = 0;  // bits: 8, 16, 32 or 64
};

// At most 64 bytes (a ZMM register) in byte pieces.
inline constexpr size_t kMaxPieces = 64;

// The device accesses for `size` bytes (1 to 64) at space offset `offset`,
// in address order, into `out`; returns how many:
//  - one access of the instruction's own width when the space allows it:
//    the frontdoor composes the byte lanes of every register it covers
//    (a 32-bit access straddling two 16-bit registers), and decides about
//    alignment;
//  - else pieces of the widest width the space allows below it (a 16-byte
//    SSE store on a 32-bit space is four 32-bit writes; a 64-bit load on a
//    32-bit space, two reads, low half first);
//  - one access of its own width when no narrower width is allowed either
//    (a 16-bit access to a 32-bit-only space): the device refuses it as a
//    `width` violation, as the hardware would.
size_t SplitAccess(uint64_t offset, unsigned size, regdb::WidthSet widths, DeviceAccess (&out)[kMaxPieces]);

}  // namespace regemu::emulator::trap
