#pragma once
// The external time-travel controller ("calendar") of one User-Mode Linux
// kernel started with `time-travel=ext:PATH`: the kernel's clock and the
// devices' virtual clock are one, because the kernel may only move its
// time forward when this side says RUN.
//
// The protocol is Linux's include/uapi/linux/um_timetravel.h; the kernel
// side is arch/um/kernel/time.c (time_travel_ext_req, time_travel_ext_wait,
// time_travel_handle_message). Every message is 16 bytes both ways; every
// kernel message is answered with an ACK echoing its seq, GET's ACK
// carrying the current time. A REQUEST replaces the previous one. WAIT
// means the kernel is blocked until RUN; the kernel ACKs a RUN, and this
// side ignores ACKs. FREE_UNTIL is not used: each advance of the kernel's
// time is a REQUEST and a WAIT, so no device event is ever overtaken.
//
// Hostile input (a peer that is not a kernel) is bounded: an unknown op is
// reported and answered with an ACK, a short message is an error, time
// going backwards is clamped and reported.

#include <cstdint>
#include <string>

namespace regemu::uml {

class TimeTravelController {
 public:
  // Listens on the unix socket PATH (replacing a stale one); the kernel
  // connects during early boot and panics if nobody listens.
  explicit TimeTravelController(std::string path);
  ~TimeTravelController();
  TimeTravelController(const TimeTravelController&) = delete;
  TimeTravelController& operator=(const TimeTravelController&) = delete;

  const std::string& path() const { return path_; }
  // The fd to poll: the listening socket until the kernel connects, then the connection.
  int fd() const { return connection_ >= 0 ? connection_ : listener_; }
  bool connected() const { return connection_ >= 0; }

  // Handles what is readable on fd(): the connection, or one message.
  // False when the kernel closed the link (it powered off or died).
  bool HandleReadable();

  uint64_t now_ns() const { return now_ns_; }
  // Moves the shared clock forward (a device event the controller runs to).
  void SetNow(uint64_t ns) {
    if (ns > now_ns_) now_ns_ = ns;
  }
  // The kernel sent WAIT and awaits RUN; `requested_ns` is when it wants to run.
  bool waiting() const { return waiting_; }
  uint64_t requested_ns() const { return requested_ns_; }
  // Lets the waiting kernel run at now_ns() (>= its time): sends RUN.
  bool Run();

  // What went wrong with the link (for the report), or "".
  const std::string& error() const { return error_; }
  uint64_t messages() const { return messages_; }

 private:
  bool Send(uint32_t op, uint32_t seq, uint64_t time);

  std::string path_;
  int listener_ = -1;
  int connection_ = -1;
  uint64_t now_ns_ = 0;
  uint64_t requested_ns_ = UINT64_MAX;
  bool waiting_ = false;
  uint32_t next_seq_ = 1;
  uint64_t messages_ = 0;
  std::string error_;
};

}  // namespace regemu::uml
