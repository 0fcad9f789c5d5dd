#pragma once
// vhost-user as User-Mode Linux speaks it (arch/um/drivers/vhost_user.h,
// arch/um/drivers/virtio_uml.c): a 12-byte header {request, flags, size}
// and a payload of `size` bytes, native (little-endian) byte order; file
// descriptors ride along as SCM_RIGHTS.

#include <cstdint>

namespace regemu::uml {

inline constexpr uint32_t kVhostUserVersion = 1;
inline constexpr uint32_t kFlagReply = 1u << 2;
inline constexpr uint32_t kFlagNeedReply = 1u << 3;
// UML refuses a reply whose flags are anything else (vhost_user_recv_resp).
inline constexpr uint32_t kReplyFlags = kVhostUserVersion | kFlagReply;

// Feature bits (virtio's and vhost-user's).
inline constexpr unsigned kFeatureProtocolFeatures = 30;  // VHOST_USER_F_PROTOCOL_FEATURES
inline constexpr unsigned kFeatureVersion1 = 32;          // VIRTIO_F_VERSION_1
inline constexpr unsigned kProtocolReplyAck = 3;
inline constexpr unsigned kProtocolSlaveReq = 5;
inline constexpr unsigned kProtocolInbandNotifications = 14;

enum VhostUserRequest : uint32_t {
  kGetFeatures = 1,
  kSetFeatures = 2,
  kSetOwner = 3,
  kResetOwner = 4,
  kSetMemTable = 5,
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
  kSetSlaveReqFd = 21,
  kVringKick = 35,  // an in-band kick (INBAND_NOTIFICATIONS)
};
inline constexpr uint32_t kSlaveVringCall = 4;  // VHOST_USER_SLAVE_VRING_CALL

inline constexpr uint32_t kVringIndexMask = 0xFF;
inline constexpr uint64_t kVringPollMask = 1u << 8;  // SET_VRING_CALL/KICK without an fd

#pragma pack(push, 1)
struct VhostUserHeader {
  uint32_t request;
  uint32_t flags;
  uint32_t size;
};
struct VringState {
  uint32_t index;
  uint32_t num;
};
struct VringAddr {
  uint32_t index;
  uint32_t flags;
  uint64_t desc, used, avail, log;
};
struct MemoryRegionDesc {
  uint64_t guest_addr;
  uint64_t size;
  uint64_t user_addr;
  uint64_t mmap_offset;
};
#pragma pack(pop)
static_assert(sizeof(VhostUserHeader) == 12);
static_assert(sizeof(VringAddr) == 40);
static_assert(sizeof(MemoryRegionDesc) == 32);

// The largest payload this side reads (a memory table of kMaxRegions, with
// room to spare); a larger `size` is a protocol error.
inline constexpr uint32_t kMaxPayload = 4096;
inline constexpr uint32_t kMaxRegions = 8;
inline constexpr unsigned kMaxFds = 8;

}  // namespace regemu::uml
