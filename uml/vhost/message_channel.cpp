#include "regemu/uml/vhost/message_channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace regemu::uml {
namespace {

// Once a message has begun, the rest must follow within this long: a peer
// that stops part-way (or a kernel that hangs) must not hang this side.
constexpr int kRestOfMessageMs = 2000;

bool WaitReadable(int fd) {
  pollfd p{fd, POLLIN, 0};
  for (;;) {
    int ready = ::poll(&p, 1, kRestOfMessageMs);
    if (ready < 0 && errno == EINTR) continue;
    return ready > 0;
  }
}

// Reads exactly `size` bytes (the payload; its fds came with the header).
bool ReadExactly(int fd, uint8_t* data, size_t size) {
  size_t done = 0;
  while (done < size) {
    if (!WaitReadable(fd)) return false;
    ssize_t got = ::recv(fd, data + done, size - done, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    done += static_cast<size_t>(got);
  }
  return true;
}

}  // namespace

void CloseAll(std::vector<int>& fds) {
  for (int fd : fds) ::close(fd);
  fds.clear();
}

ReceiveStatus ReceiveMessage(int fd, VhostUserMessage& message, std::string& error) {
  message.payload.clear();
  CloseAll(message.fds);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFds)];
  size_t done = 0;
  auto* header = reinterpret_cast<uint8_t*>(&message.header);
  while (done < sizeof message.header) {
    if (done != 0 && !WaitReadable(fd)) {
      error = "the peer stopped inside a message header for over " + std::to_string(kRestOfMessageMs) + " ms";
      CloseAll(message.fds);
      return ReceiveStatus::kError;
    }
    iovec io{header + done, sizeof message.header - done};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t got = ::recvmsg(fd, &msg, MSG_CMSG_CLOEXEC);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0 && done == 0) return ReceiveStatus::kClosed;
    if (got <= 0) {
      error = got == 0 ? "the peer closed the socket inside a message header" : std::string("recvmsg: ") + std::strerror(errno);
      return ReceiveStatus::kError;
    }
    for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      for (size_t i = 0; i < count; ++i) {
        int received;
        std::memcpy(&received, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
        if (message.fds.size() < kMaxFds) {
          message.fds.push_back(received);
        } else {
          ::close(received);
        }
      }
    }
    if ((msg.msg_flags & MSG_CTRUNC) != 0) {
      error = "a message carried more file descriptors than " + std::to_string(kMaxFds);
      CloseAll(message.fds);
      return ReceiveStatus::kError;
    }
    done += static_cast<size_t>(got);
  }
  if (message.header.size > kMaxPayload) {
    error = "a message's payload of " + std::to_string(message.header.size) + " bytes is over the " +
            std::to_string(kMaxPayload) + " this side reads (request " + std::to_string(message.header.request) + ")";
    CloseAll(message.fds);
    return ReceiveStatus::kError;
  }
  message.payload.resize(message.header.size);
  if (!ReadExactly(fd, message.payload.data(), message.payload.size())) {
    error = "the peer closed the socket, or stopped for over " + std::to_string(kRestOfMessageMs) +
            " ms, inside a message's payload";
    CloseAll(message.fds);
    return ReceiveStatus::kError;
  }
  return ReceiveStatus::kOk;
}

bool SendMessage(int fd, uint32_t request, uint32_t flags, const void* payload, uint32_t size, int pass_fd) {
  std::vector<uint8_t> bytes(sizeof(VhostUserHeader) + size);
  VhostUserHeader header{request, flags, size};
  std::memcpy(bytes.data(), &header, sizeof header);
  if (size != 0) std::memcpy(bytes.data() + sizeof header, payload, size);
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
  size_t done = 0;
  while (done < bytes.size()) {
    iovec io{bytes.data() + done, bytes.size() - done};
    msghdr msg{};
    msg.msg_iov = &io;
    msg.msg_iovlen = 1;
    if (pass_fd >= 0 && done == 0) {
      msg.msg_control = control;
      msg.msg_controllen = sizeof control;
      cmsghdr* c = CMSG_FIRSTHDR(&msg);
      c->cmsg_level = SOL_SOCKET;
      c->cmsg_type = SCM_RIGHTS;
      c->cmsg_len = CMSG_LEN(sizeof(int));
      std::memcpy(CMSG_DATA(c), &pass_fd, sizeof pass_fd);
    }
    ssize_t put = ::sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0) return false;
    done += static_cast<size_t>(put);
  }
  return true;
}

bool SendReplyU64(int fd, uint32_t request, uint64_t value) {
  return SendMessage(fd, request, kReplyFlags, &value, sizeof value);
}

}  // namespace regemu::uml
