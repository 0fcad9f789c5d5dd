#pragma once
// vhost-user messages on a unix stream socket, read and written whole:
// a header, a payload bounded by kMaxPayload, and up to kMaxFds file
// descriptors (SCM_RIGHTS, on the header's bytes; extra ones are closed).

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/uml/vhost/vhost_user_messages.hpp"

namespace regemu::uml {

struct VhostUserMessage {
  VhostUserHeader header{};
  std::vector<uint8_t> payload;
  std::vector<int> fds;  // owned by the receiver: close what you do not keep
};

enum class ReceiveStatus { kOk, kClosed, kError };

// Reads one message; `error` says why on kError (then the stream is lost:
// a bad size leaves no way to find the next header).
ReceiveStatus ReceiveMessage(int fd, VhostUserMessage& message, std::string& error);
// Writes a header and a payload in one go, and `pass_fd` (when not -1) as
// SCM_RIGHTS on its first bytes, as the kernel's side passes its memory
// and eventfds; false on a failure.
bool SendMessage(int fd, uint32_t request, uint32_t flags, const void* payload, uint32_t size, int pass_fd = -1);
// A reply carrying a u64 (the ack of NEED_REPLY, or a GET's value).
bool SendReplyU64(int fd, uint32_t request, uint64_t value);
void CloseAll(std::vector<int>& fds);

}  // namespace regemu::uml
