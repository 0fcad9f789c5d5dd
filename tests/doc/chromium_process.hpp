#pragma once
// A headless Chromium as a child process, spoken to over
// --remote-debugging-pipe: Chromium reads DevTools Protocol messages from its
// fd 3 and writes its answers to fd 4, each message a JSON text ended by '\0'.
// This class owns the process, its temporary profile and the two pipes; it
// knows nothing of the protocol's content (cdp_client.hpp does).
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>

namespace regemu::doc_test {

// The Chromium to run: $REGEMU_CHROMIUM if set, else /usr/bin/chromium.
// Empty when neither is an executable file.
std::filesystem::path FindChromium();

class ChromiumProcess {
 public:
  // Starts Chromium headless on about:blank. Throws std::runtime_error when
  // it cannot be started.
  explicit ChromiumProcess(const std::filesystem::path& chromium);
  // Closes the pipes (Chromium exits on its own when fd 3 reaches EOF), then
  // kills whatever of its process group is still there after a grace period.
  ~ChromiumProcess();
  ChromiumProcess(const ChromiumProcess&) = delete;
  ChromiumProcess& operator=(const ChromiumProcess&) = delete;

  // Writes one message. Throws when Chromium is gone or does not read it
  // before the deadline.
  void Send(const std::string& message, std::chrono::steady_clock::time_point deadline);

  // The next whole message, or nullopt when the deadline passes first.
  // Throws when Chromium has closed its end (it exited or crashed).
  std::optional<std::string> Receive(std::chrono::steady_clock::time_point deadline);

  // The last lines Chromium wrote to stderr: put in error messages, since a
  // browser that dies usually says why there.
  std::string StderrTail() const;

  pid_t pid() const { return pid_; }

 private:
  void Stop();

  pid_t pid_ = -1;
  int to_chromium_ = -1;    // our end of Chromium's fd 3
  int from_chromium_ = -1;  // our end of Chromium's fd 4
  std::string received_;    // bytes read past the last whole message
  std::filesystem::path profile_dir_;
};

}  // namespace regemu::doc_test
