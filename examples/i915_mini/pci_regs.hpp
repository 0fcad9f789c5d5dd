#pragma once
// The PCI configuration-space layout generic PCI code relies on (PCI Local
// Bus spec; Linux include/uapi/linux/pci_regs.h and drivers/pci).
// The probe walks the configuration space the way Linux does, by these
// spec offsets rather than by one device's registers; the static_asserts
// check them against the generated Ice Lake header, so a database that
// moved a register would stop the build here.

#include <cstdint>

#include "regemu/regs/icl.hpp"

namespace regemu::i915_mini::pci {

inline constexpr uint64_t kVendorId = 0x00;
inline constexpr uint64_t kDeviceId = 0x02;
inline constexpr uint64_t kCommand = 0x04;
inline constexpr uint16_t kCommandIo = 0x0001;
inline constexpr uint16_t kCommandMemory = 0x0002;
inline constexpr uint16_t kCommandMaster = 0x0004;
inline constexpr uint16_t kCommandIntxDisable = 0x0400;
inline constexpr uint16_t kCommandDecodeEnable = kCommandIo | kCommandMemory;
inline constexpr uint64_t kStatus = 0x06;
inline constexpr uint16_t kStatusCapList = 0x0010;

inline constexpr uint64_t kBaseAddress0 = 0x10;
inline constexpr unsigned kStdBarCount = 6;
inline constexpr uint32_t kBarSpaceIo = 0x1;
inline constexpr uint32_t kBarMemTypeMask = 0x6;
inline constexpr uint32_t kBarMemType64 = 0x4;
inline constexpr uint32_t kBarMemPrefetch = 0x8;
inline constexpr uint32_t kBarMemMask = ~uint32_t{0xF};
inline constexpr uint32_t kBarIoMask = ~uint32_t{0x3};
inline constexpr uint32_t kIoSpaceLimit = 0xFFFF;  // x86
inline constexpr uint64_t kRomAddress = 0x30;
inline constexpr uint32_t kRomAddressMask = 0xFFFFF800;

inline constexpr uint64_t kCapabilityList = 0x34;
inline constexpr unsigned kFindCapTtl = 48;
inline constexpr uint8_t kCapIdPm = 0x01;
inline constexpr uint8_t kCapIdMsi = 0x05;
inline constexpr uint8_t kCapIdVndr = 0x09;
inline constexpr uint8_t kCapIdExp = 0x10;
inline constexpr uint8_t kCapIdMsix = 0x11;

inline constexpr uint64_t kExtCapStart = 0x100;
inline constexpr unsigned kExtCapTtl = (4096 - 256) / 8;

// MSI capability, relative to its position.
inline constexpr uint64_t kMsiFlags = 2;
inline constexpr uint16_t kMsiFlagsEnable = 0x0001;
inline constexpr uint16_t kMsiFlagsQsize = 0x0070;
inline constexpr uint16_t kMsiFlags64Bit = 0x0080;
inline constexpr uint16_t kMsiFlagsMaskBit = 0x0100;
inline constexpr uint64_t kMsiAddressLo = 4;
inline constexpr uint64_t kMsiAddressHi = 8;  // 64-bit form
inline constexpr uint64_t kMsiData32 = 8;
inline constexpr uint64_t kMsiData64 = 12;
inline constexpr uint64_t kMsiMask32 = 12;
inline constexpr uint64_t kMsiMask64 = 16;

namespace icl = ::regemu::regs::icl;
static_assert(icl::VID2::kOffset == kVendorId && icl::DID2::kOffset == kDeviceId);
static_assert(icl::PCICMD::kOffset == kCommand && icl::PCISTS2::kOffset == kStatus);
static_assert(icl::PCICMD::MSE::kMask == kCommandMemory && icl::PCICMD::BME::kMask == kCommandMaster &&
              icl::PCICMD::INTDIS::kMask == kCommandIntxDisable);
static_assert(icl::PCISTS2::CAP_LIST::kMask == kStatusCapList);
static_assert(icl::GTTMMADR::kOffset == kBaseAddress0 && icl::ROMADR::kOffset == kRomAddress);
static_assert(icl::CAPPOINT::kOffset == kCapabilityList);
static_assert(icl::MC::kOffset == icl::MSI_CAPID::kOffset + kMsiFlags &&
              icl::MA::kOffset == icl::MSI_CAPID::kOffset + kMsiAddressLo &&
              icl::MD::kOffset == icl::MSI_CAPID::kOffset + kMsiData32 &&
              icl::MSI_MASK::kOffset == icl::MSI_CAPID::kOffset + kMsiMask32);
static_assert(icl::MC::MSIE::kMask == kMsiFlagsEnable && icl::MC::MME::kMask == kMsiFlagsQsize &&
              icl::MC::C64::kMask == kMsiFlags64Bit && icl::MC::PVM::kMask == kMsiFlagsMaskBit);

}  // namespace regemu::i915_mini::pci
