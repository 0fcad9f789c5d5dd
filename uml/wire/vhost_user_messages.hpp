#pragma once
// vhost-user on the wire, as User-Mode Linux's virtio_uml speaks it (the
// master): the constants and layouts of arch/um/drivers/vhost_user.h in
// Linux 6.1. All fields are in native byte order (UML runs on the same
// host as the device, and vhost-user is a host-local protocol).
//
// A message is a 12-byte header followed by `size` bytes of payload; the
// fds a message carries travel as SCM_RIGHTS ancillary data with it
// (full_sendmsg_fds in arch/um/drivers/virtio_uml.c).

#include <cstddef>
#include <cstdint>
#include <string>

namespace regemu::uml::vhost {

// Header flags (vhost_user.h): bits 0-1 are the version, always 1.
inline constexpr uint32_t kVersion = 1;
inline constexpr uint32_t kVersionMask = 0x3;
inline constexpr uint32_t kFlagReply = 1u << 2;
inline constexpr uint32_t kFlagNeedReply = 1u << 3;
// The only flags a reply may carry: vhost_user_recv_resp (virtio_uml.c)
// returns -EPROTO unless flags == (VHOST_USER_FLAG_REPLY | VHOST_USER_VERSION).
inline constexpr uint32_t kReplyFlags = kVersion | kFlagReply;

// Feature bits (the u64 of GET_FEATURES / SET_FEATURES).
inline constexpr unsigned kFeatureIndirectDesc = 28;       // VIRTIO_RING_F_INDIRECT_DESC
inline constexpr unsigned kFeatureEventIdx = 29;           // VIRTIO_RING_F_EVENT_IDX
inline constexpr unsigned kFeatureProtocolFeatures = 30;   // VHOST_USER_F_PROTOCOL_FEATURES
inline constexpr unsigned kFeatureVersion1 = 32;           // VIRTIO_F_VERSION_1
inline constexpr unsigned kFeatureAccessPlatform = 33;     // VIRTIO_F_ACCESS_PLATFORM
inline constexpr unsigned kFeatureRingPacked = 34;         // VIRTIO_F_RING_PACKED

// Protocol feature bits (GET_PROTOCOL_FEATURES / SET_PROTOCOL_FEATURES);
// virtio_uml masks the device's offer with exactly these four
// (VHOST_USER_SUPPORTED_PROTOCOL_F, applied in vhost_user_init).
inline constexpr unsigned kProtocolReplyAck = 3;
inline constexpr unsigned kProtocolSlaveReq = 5;
inline constexpr unsigned kProtocolConfig = 9;
inline constexpr unsigned kProtocolInbandNotifications = 14;

constexpr uint64_t Bit(unsigned bit) { return uint64_t{1} << bit; }

// enum vhost_user_request (vhost_user.h).
enum class Request : uint32_t {
  kGetFeatures = 1,
  kSetFeatures = 2,
  kSetOwner = 3,
  kResetOwner = 4,
  kSetMemTable = 5,
  kSetLogBase = 6,
  kSetLogFd = 7,
  kSetVringNum = 8,
  kSetVringAddr = 9,
  kSetVringBase = 10,
  kGetVringBase = 11,
  kSetVringKick = 12,
  kSetVringCall = 13,
  kSetVringErr = 14,
  kGetProtocolFeatures = 15,
  kSetProtocolFeatures = 16,
  kGetQueueNum = 17,
  kSetVringEnable = 18,
  kSendRarp = 19,
  kNetSendMtu = 20,
  kSetSlaveReqFd = 21,
  kIotlbMsg = 22,
  kSetVringEndian = 23,
  kGetConfig = 24,
  kSetConfig = 25,
  kVringKick = 35,  // in-band kick (PROTOCOL_F_INBAND_NOTIFICATIONS), vu_notify
};

// enum vhost_user_slave_request: device -> master, on the slave channel.
enum class SlaveRequest : uint32_t {
  kIotlbMsg = 1,
  kConfigChangeMsg = 2,
  kVringHostNotifierMsg = 3,
  kVringCall = 4,  // in-band call; vu_req_read_message handles it
};

// "SET_MEM_TABLE (5)", "request 77": for messages a person reads.
std::string RequestName(uint32_t request);

struct MessageHeader {
  uint32_t request = 0;
  uint32_t flags = 0;
  uint32_t size = 0;  // payload bytes after the header
};
static_assert(sizeof(MessageHeader) == 12, "struct vhost_user_header is packed, 12 bytes");

struct VringState {
  uint32_t index = 0;
  uint32_t num = 0;
};
static_assert(sizeof(VringState) == 8);

struct VringAddr {
  uint32_t index = 0;
  uint32_t flags = 0;  // bit 0: VHOST_VRING_F_LOG; virtio_uml sends 0
  uint64_t desc = 0;   // the master's user addresses (see GuestMemory::TranslateUser)
  uint64_t used = 0;
  uint64_t avail = 0;
  uint64_t log = 0;    // virtio_uml sends (u64)-1: no logging
};
static_assert(sizeof(VringAddr) == 40);

struct MemoryRegion {
  uint64_t guest_addr = 0;
  uint64_t size = 0;
  uint64_t user_addr = 0;
  uint64_t mmap_offset = 0;  // where the region starts in its fd's file
};
static_assert(sizeof(MemoryRegion) == 32);

// The start of SET_MEM_TABLE's payload; `num` regions follow. virtio_uml
// sends its whole struct vhost_user_mem_regions (room for 2 regions, 72
// bytes) even with num = 1 (vhost_user_set_mem_table), so the payload may
// be longer than 8 + 32 * num.
struct MemoryTableHeader {
  uint32_t num = 0;
  uint32_t padding = 0;
};
static_assert(sizeof(MemoryTableHeader) == 8);

// The vhost-user specification's VHOST_MEMORY_BASELINE_NREGIONS; virtio_uml
// sends one region, two with highmem.
inline constexpr uint32_t kMaxMemoryRegions = 8;

// SET_VRING_CALL / SET_VRING_KICK carry a u64: the ring index in bits 0-7,
// and bit 8 when no fd comes with it (vhost_user_set_vring_fd).
inline constexpr uint64_t kVringIndexMask = 0xff;
inline constexpr uint64_t kVringNoFdMask = 1u << 8;

// The largest payload accepted. virtio_uml's largest is SET_MEM_TABLE (72
// bytes); GET/SET_CONFIG would add a config space of at most a page.
inline constexpr uint32_t kMaxPayloadSize = 4096 + 12;

// At most this many fds per message (SET_MEM_TABLE's region limit); more
// are closed on arrival and the message is refused.
inline constexpr size_t kMaxFds = kMaxMemoryRegions;

}  // namespace regemu::uml::vhost
