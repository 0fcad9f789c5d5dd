#include "regemu/uml/time_travel_controller.hpp"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "regemu/uml/unix_socket.hpp"

namespace regemu::uml {
namespace {

// include/uapi/linux/um_timetravel.h, enum um_timetravel_ops.
enum Op : uint32_t {
  kAck = 0,
  kStart = 1,
  kRequest = 2,
  kWait = 3,
  kGet = 4,
  kUpdate = 5,
  kRun = 6,
  kFreeUntil = 7,
  kGetTod = 8,
};

struct Message {
  uint32_t op;
  uint32_t seq;
  uint64_t time;
};
static_assert(sizeof(Message) == 16, "struct um_timetravel_msg is 16 bytes");

// The wall clock the kernel sees (GET_TOD): fixed, so that runs repeat.
// 2026-01-01T00:00:00Z.
constexpr uint64_t kTimeOfDayNs = 1767225600ull * 1000000000ull;

}  // namespace

TimeTravelController::TimeTravelController(std::string path) : path_(std::move(path)) {
  listener_ = ListenUnix(path_);
}

TimeTravelController::~TimeTravelController() {
  if (connection_ >= 0) ::close(connection_);
  if (listener_ >= 0) ::close(listener_);
  ::unlink(path_.c_str());
}

bool TimeTravelController::Send(uint32_t op, uint32_t seq, uint64_t time) {
  Message message{op, seq, time};
  if (!WriteAll(connection_, &message, sizeof message)) {
    error_ = std::string("time-travel link: write failed: ") + std::strerror(errno);
    return false;
  }
  return true;
}

bool TimeTravelController::HandleReadable() {
  if (connection_ < 0) {
    connection_ = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (connection_ < 0) {
      error_ = std::string("time-travel link: accept failed: ") + std::strerror(errno);
      return false;
    }
    return true;
  }
  Message message{};
  ReadResult got = ReadAll(connection_, &message, sizeof message);
  if (got == ReadResult::kClosed) return false;
  if (got == ReadResult::kError) {
    error_ = std::string("time-travel link: ") + (errno == 0 ? "short message" : std::strerror(errno));
    return false;
  }
  ++messages_;
  uint64_t answer = 0;
  switch (message.op) {
    case kAck:
      return true;  // of our RUN
    case kStart:
      break;
    case kRequest:
      requested_ns_ = message.time;
      break;
    case kWait:
      waiting_ = true;
      break;
    case kGet:
      answer = now_ns_;
      break;
    case kUpdate:
      // The kernel tells its time before it kicks a device: never behind ours.
      if (message.time > now_ns_) now_ns_ = message.time;
      break;
    case kGetTod:
      answer = kTimeOfDayNs + now_ns_;
      break;
    default:
      error_ = "time-travel link: unknown op " + std::to_string(message.op) + " (answered with an ACK)";
      break;
  }
  return Send(kAck, message.seq, answer);
}

bool TimeTravelController::Run() {
  waiting_ = false;
  if (requested_ns_ < now_ns_) requested_ns_ = now_ns_;
  return Send(kRun, next_seq_++, now_ns_);
}

}  // namespace regemu::uml
