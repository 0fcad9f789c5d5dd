#include "examples/i915_mini/msi.hpp"

#include "examples/i915_mini/pci_regs.hpp"

namespace regemu::i915_mini {

void EnableMsi(fakes::MmioBus& config, uint8_t pos, const MsiMessage& message) {
  const uint64_t flags = pos + pci::kMsiFlags;

  // pci_msi_set_enable(dev, 0): nothing may fire while it is half set up.
  uint16_t control = config.Read16(flags);
  config.Write16(flags, static_cast<uint16_t>(control & ~pci::kMsiFlagsEnable));

  // msi_setup_msi_desc + msi_mask: with per-vector masking, the vector
  // stays masked until the message is complete.
  control = config.Read16(flags);
  const bool is_64bit = (control & pci::kMsiFlags64Bit) != 0;
  const bool maskable = (control & pci::kMsiFlagsMaskBit) != 0;
  const uint64_t mask = pos + (is_64bit ? pci::kMsiMask64 : pci::kMsiMask32);
  uint32_t mask_bits = 0;
  if (maskable) {
    mask_bits = config.Read32(mask);
    mask_bits |= 1;
    config.Write32(mask, mask_bits);
  }

  // __pci_write_msi_msg: QSIZE = log2(1 vector) = 0, the message, and a
  // read back so the writes have reached the device.
  control = config.Read16(flags);
  config.Write16(flags, static_cast<uint16_t>(control & ~pci::kMsiFlagsQsize));
  config.Write32(pos + pci::kMsiAddressLo, static_cast<uint32_t>(message.address));
  if (is_64bit) {
    config.Write32(pos + pci::kMsiAddressHi, static_cast<uint32_t>(message.address >> 32));
    config.Write16(pos + pci::kMsiData64, message.data);
  } else {
    config.Write16(pos + pci::kMsiData32, message.data);
  }
  config.Read16(flags);

  // pci_intx_for_msi: the function must not also raise INTx.
  uint16_t command = config.Read16(pci::kCommand);
  if ((command & pci::kCommandIntxDisable) == 0) {
    config.Write16(pci::kCommand, static_cast<uint16_t>(command | pci::kCommandIntxDisable));
  }

  // pci_msi_set_enable(dev, 1), then unmask the vector (Linux keeps the
  // mask cached, so no read).
  control = config.Read16(flags);
  config.Write16(flags, static_cast<uint16_t>(control | pci::kMsiFlagsEnable));
  if (maskable) {
    mask_bits &= ~uint32_t{1};
    config.Write32(mask, mask_bits);
  }
}

}  // namespace regemu::i915_mini
