#include "regemu/uml/wire/message_channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace regemu::uml {
namespace {

// Waits for `fd` to become readable; false on a timeout or a failure (errno says which; 0 for a timeout).
bool WaitReadable(int fd, int timeout_ms) {
  for (;;) {
    pollfd entry{fd, POLLIN, 0};
    int ready = ::poll(&entry, 1, timeout_ms);
    if (ready > 0) return true;  // readable, closed or failed: the read says which
    if (ready == 0) {
      errno = 0;
      return false;
    }
    if (errno != EINTR) return false;
  }
}

std::string Reason(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

void MessageChannel::TakeFds(msghdr& header, Message& message) {
  if ((header.msg_flags & MSG_CTRUNC) != 0) message.fds_dropped = true;
  for (cmsghdr* control = CMSG_FIRSTHDR(&header); control != nullptr; control = CMSG_NXTHDR(&header, control)) {
    if (control->cmsg_level != SOL_SOCKET || control->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (control->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int fd;
      std::memcpy(&fd, CMSG_DATA(control) + i * sizeof(int), sizeof(fd));
      if (message.fds.size() < vhost::kMaxFds) {
        message.fds.emplace_back(fd);
      } else {
        ::close(fd);
        message.fds_dropped = true;
      }
    }
  }
}

ReadOutcome MessageChannel::ReadExactly(uint8_t* data, size_t size, bool started, Message& message) {
  // Room for more fds than a message may carry, so extras arrive (and are
  // closed) rather than being cut off by the kernel.
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * vhost::kMaxFds * 2)];
  size_t done = 0;
  while (done < size) {
    if (started && !WaitReadable(fd_, partial_timeout_ms_)) {
      error_ = errno == 0 ? "the peer stopped in the middle of a message (" + std::to_string(done) + " of " +
                                std::to_string(size) + " bytes)"
                          : Reason("poll");
      return ReadOutcome::kError;
    }
    iovec io{data + done, size - done};
    msghdr header{};
    header.msg_iov = &io;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof(control);
    ssize_t got = ::recvmsg(fd_, &header, MSG_CMSG_CLOEXEC);
    if (got < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        // A non-blocking socket: wait as a blocking one would (bounded once started).
        if (!started && !WaitReadable(fd_, -1)) {
          error_ = Reason("poll");
          return ReadOutcome::kError;
        }
        continue;
      }
      error_ = Reason("recvmsg");
      return ReadOutcome::kError;
    }
    TakeFds(header, message);
    if (got == 0) {
      if (!started) return ReadOutcome::kClosed;
      error_ = "the peer closed the connection in the middle of a message (" + std::to_string(done) + " of " +
               std::to_string(size) + " bytes)";
      return ReadOutcome::kError;
    }
    done += static_cast<size_t>(got);
    started = true;
  }
  return ReadOutcome::kMessage;
}

ReadOutcome MessageChannel::Read(Message& message) {
  message = Message{};
  error_.clear();
  uint8_t header[sizeof(vhost::MessageHeader)];
  ReadOutcome outcome = ReadExactly(header, sizeof(header), false, message);
  if (outcome != ReadOutcome::kMessage) return outcome;
  std::memcpy(&message.header, header, sizeof(header));
  if (message.header.size > vhost::kMaxPayloadSize) {
    // The rest of the stream cannot be trusted to be where this says it ends.
    error_ = vhost::RequestName(message.header.request) + " announces a payload of " +
             std::to_string(message.header.size) + " bytes (at most " + std::to_string(vhost::kMaxPayloadSize) + ")";
    return ReadOutcome::kError;
  }
  message.payload.resize(message.header.size);
  return ReadExactly(message.payload.data(), message.payload.size(), true, message);
}

Status MessageChannel::WriteMessage(const vhost::MessageHeader& header, std::span<const uint8_t> payload,
                                    std::span<const int> fds) {
  std::vector<uint8_t> bytes(sizeof(header) + payload.size());
  std::memcpy(bytes.data(), &header, sizeof(header));
  if (!payload.empty()) std::memcpy(bytes.data() + sizeof(header), payload.data(), payload.size());
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * vhost::kMaxFds)];
  if (fds.size() > vhost::kMaxFds) return Status::Error("too many fds for one message");
  size_t done = 0;
  while (done < bytes.size()) {
    iovec io{bytes.data() + done, bytes.size() - done};
    msghdr message{};
    message.msg_iov = &io;
    message.msg_iovlen = 1;
    if (done == 0 && !fds.empty()) {
      // The fds go with the message's first byte, as full_sendmsg_fds sends them.
      message.msg_control = control;
      message.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
      cmsghdr* entry = CMSG_FIRSTHDR(&message);
      entry->cmsg_level = SOL_SOCKET;
      entry->cmsg_type = SCM_RIGHTS;
      entry->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
      std::memcpy(CMSG_DATA(entry), fds.data(), sizeof(int) * fds.size());
    }
    // MSG_NOSIGNAL: a closed peer is an error to report, not SIGPIPE.
    ssize_t sent = ::sendmsg(fd_, &message, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {
        pollfd entry{fd_, POLLOUT, 0};
        if (::poll(&entry, 1, partial_timeout_ms_) > 0 || errno == EINTR) continue;
        return Status::Error("the peer does not read: " + vhost::RequestName(header.request) + " not sent");
      }
      return Status::Error(Reason("sendmsg"));
    }
    done += static_cast<size_t>(sent);
  }
  return Status::Ok();
}

Status MessageChannel::Reply(uint32_t request, std::span<const uint8_t> payload) {
  vhost::MessageHeader header{request, vhost::kReplyFlags, static_cast<uint32_t>(payload.size())};
  return WriteMessage(header, payload, {});
}

Status MessageChannel::ReplyU64(uint32_t request, uint64_t value) {
  uint8_t payload[sizeof(value)];
  std::memcpy(payload, &value, sizeof(value));
  return Reply(request, payload);
}

Status MessageChannel::Send(uint32_t request, std::span<const uint8_t> payload, bool need_reply,
                            std::span<const int> fds) {
  vhost::MessageHeader header{request, vhost::kVersion | (need_reply ? vhost::kFlagNeedReply : 0u),
                              static_cast<uint32_t>(payload.size())};
  return WriteMessage(header, payload, fds);
}

Status MessageChannel::ReadU64Reply(uint32_t request, int timeout_ms, const std::function<void(int)>& wait_readable,
                                    uint64_t& value) {
  const std::string what = "the reply to " + std::to_string(request);
  if (wait_readable) {
    wait_readable(fd_);
    // The hook may return without the fd being readable (its own peer
    // went away): never block after it.
    timeout_ms = 0;
  }
  if (!WaitReadable(fd_, timeout_ms)) {
    return Status::Error(errno == 0 ? what + " did not come" : Reason("poll"));
  }
  Message reply;
  switch (Read(reply)) {
    case ReadOutcome::kMessage:
      break;
    case ReadOutcome::kClosed:
      return Status::Error("the peer closed the channel instead of sending " + what);
    case ReadOutcome::kError:
      return Status::Error(what + ": " + error_);
  }
  if (!reply.fds.empty() || reply.fds_dropped) return Status::Error(what + " came with fds");
  if (reply.header.flags != vhost::kReplyFlags) {
    return Status::Error(what + " has flags " + std::to_string(reply.header.flags) + ", not VERSION|REPLY (5)");
  }
  if (reply.header.request != request) {
    return Status::Error(what + " answers request " + std::to_string(reply.header.request) + " instead");
  }
  if (reply.payload.size() != sizeof(value)) {
    return Status::Error(what + " has " + std::to_string(reply.payload.size()) + " payload bytes, not 8");
  }
  std::memcpy(&value, reply.payload.data(), sizeof(value));
  return Status::Ok();
}

}  // namespace regemu::uml
