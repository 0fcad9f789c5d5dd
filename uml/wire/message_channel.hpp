#pragma once
// vhost-user messages on a unix stream socket: one 12-byte header, its
// payload, and the fds that came with it (SCM_RIGHTS). Used for both of
// the connection's channels: the master's socket (requests in, replies
// out) and the slave channel (SET_SLAVE_REQ_FD: the device's requests out,
// the master's replies in).
//
// Whole messages or a clear failure: reads and writes survive EINTR and
// short transfers; once a message's first byte is in, the rest must follow
// within a bound, so a peer that stops mid-message cannot hang the device.
// The channel does not own its fd.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "regemu/uml/wire/status.hpp"
#include "regemu/uml/wire/unique_fd.hpp"
#include "regemu/uml/wire/vhost_user_messages.hpp"

namespace regemu::uml {

struct Message {
  vhost::MessageHeader header;
  std::vector<uint8_t> payload;  // header.size bytes
  std::vector<UniqueFd> fds;     // at most vhost::kMaxFds
  // More fds came than one message may carry: the extras were closed.
  bool fds_dropped = false;
};

enum class ReadOutcome {
  kMessage,  // a whole message
  kClosed,   // the peer closed the connection between messages
  kError,    // a failure, or a close or a stall mid-message: the stream is beyond repair
};

class MessageChannel {
 public:
  // `partial_timeout_ms`: how long the rest of a started message may take.
  explicit MessageChannel(int fd, int partial_timeout_ms = 1000) : fd_(fd), partial_timeout_ms_(partial_timeout_ms) {}

  int fd() const { return fd_; }

  // Blocks until a message starts (call it when fd() is readable).
  // kError leaves the reason in error().
  ReadOutcome Read(Message& message);
  const std::string& error() const { return error_; }

  // A reply: flags exactly VERSION|REPLY (vhost_user_recv_resp in
  // arch/um/drivers/virtio_uml.c refuses anything else).
  Status Reply(uint32_t request, std::span<const uint8_t> payload);
  Status ReplyU64(uint32_t request, uint64_t value);
  // A request (flags VERSION, plus NEED_REPLY when asked).
  Status Send(uint32_t request, std::span<const uint8_t> payload, bool need_reply, std::span<const int> fds = {});

  // The reply to `request` on this channel: waits up to `timeout_ms`
  // (-1: no limit) for it to begin, by `wait_readable(fd)` when given (it
  // returns once fd is readable, doing the caller's other work meanwhile),
  // else by poll(). Checks the reply's flags and size (a u64).
  Status ReadU64Reply(uint32_t request, int timeout_ms, const std::function<void(int)>& wait_readable,
                      uint64_t& value);

 private:
  Status WriteMessage(const vhost::MessageHeader& header, std::span<const uint8_t> payload, std::span<const int> fds);
  // Reads exactly `size` bytes, collecting fds; `started`: bytes of this
  // message were already read (so a close is an error, and waits are bounded).
  ReadOutcome ReadExactly(uint8_t* data, size_t size, bool started, Message& message);
  void TakeFds(struct msghdr& header, Message& message);

  int fd_;
  int partial_timeout_ms_;
  std::string error_;
};

}  // namespace regemu::uml
