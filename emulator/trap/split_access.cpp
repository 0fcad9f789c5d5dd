#include "regemu/emulator/trap/split_access.hpp"

namespace regemu::emulator::trap {

size_t SplitAccess(uint64_t offset, unsigned size, regdb::WidthSet widths, DeviceAccess (&out)[kMaxPieces]) {
  unsigned bits = size * 8;
  if (size <= 8 && widths.Contains(bits)) {
    out[0] = {offset, bits};
    return 1;
  }
  unsigned piece = 0;
  for (unsigned width : {64u, 32u, 16u, 8u}) {
    if (width < bits && widths.Contains(width)) {
      piece = width;
      break;
    }
  }
  if (piece == 0) {
    // No narrower width either: the instruction's own, for the device to
    // refuse. Wider than 64 bits, no single access can carry it: bytes.
    if (size <= 8) {
      out[0] = {offset, bits};
      return 1;
    }
    piece = 8;
  }
  size_t count = 0;
  for (unsigned done = 0; done < size && count < kMaxPieces; done += piece / 8) {
    out[count++] = {offset + done, piece};
  }
  return count;
}

}  // namespace regemu::emulator::trap
