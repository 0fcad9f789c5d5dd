#include "chromium_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace regemu::doc_test {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// How long Chromium gets to exit by itself once its pipe is closed, before
// its process group is killed.
constexpr std::chrono::milliseconds kExitGrace{3000};

[[noreturn]] void ThrowErrno(const std::string& what) { throw std::runtime_error(what + ": " + std::strerror(errno)); }

int MillisecondsUntil(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(left);
}

// Waits for POLLIN/POLLOUT on fd until the deadline; false on timeout.
bool PollFor(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int n = ::poll(&p, 1, MillisecondsUntil(deadline));
    if (n > 0) return true;
    if (n == 0) return false;
    if (errno != EINTR) ThrowErrno("poll on the DevTools pipe");
  }
}

// A pipe whose two ends are close-on-exec, moved to fds above 10 so that
// dup2-ing them onto 3 and 4 in the child can never clobber one another.
struct Pipe {
  int read_end;
  int write_end;
};
Pipe MakePipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) ThrowErrno("pipe2");
  Pipe pipe{::fcntl(fds[0], F_DUPFD_CLOEXEC, 10), ::fcntl(fds[1], F_DUPFD_CLOEXEC, 10)};
  ::close(fds[0]);
  ::close(fds[1]);
  if (pipe.read_end < 0 || pipe.write_end < 0) ThrowErrno("fcntl(F_DUPFD_CLOEXEC)");
  return pipe;
}

fs::path MakeTempDir() {
  std::string pattern = (fs::temp_directory_path() / "regemu-chromium.XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) ThrowErrno("mkdtemp " + pattern);
  return pattern;
}

bool IsExecutable(const fs::path& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

}  // namespace

fs::path FindChromium() {
  if (const char* env = std::getenv("REGEMU_CHROMIUM"); env != nullptr && *env != '\0') {
    return IsExecutable(env) ? fs::path(env) : fs::path();
  }
  return IsExecutable("/usr/bin/chromium") ? fs::path("/usr/bin/chromium") : fs::path();
}

ChromiumProcess::ChromiumProcess(const fs::path& chromium) {
  // A write to a pipe whose reader died raises SIGPIPE, which would kill the
  // whole test binary; ignored, the write fails with EPIPE and we throw.
  ::signal(SIGPIPE, SIG_IGN);

  profile_dir_ = MakeTempDir();
  Pipe commands = MakePipe();  // we write, Chromium reads on fd 3
  Pipe answers = MakePipe();   // Chromium writes on fd 4, we read
  fs::path log = profile_dir_ / "stderr.log";

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  posix_spawn_file_actions_adddup2(&actions, commands.read_end, 3);
  posix_spawn_file_actions_adddup2(&actions, answers.write_end, 4);
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  // Its own process group: the browser, its zygote and renderers are killed
  // together, and a Ctrl-C at the terminal does not reach them twice.
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);

  std::vector<std::string> args = {
      chromium.string(),
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--remote-debugging-pipe",
      "--user-data-dir=" + (profile_dir_ / "profile").string(),
      "--allow-file-access-from-files",
      "--no-first-run",
      "--no-default-browser-check",
      "--hide-scrollbars",
      "--mute-audio",
      "--window-size=1280,900",
      "about:blank",
  };
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);

  int error = ::posix_spawn(&pid_, chromium.c_str(), &actions, &attributes, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attributes);
  ::close(commands.read_end);
  ::close(answers.write_end);
  to_chromium_ = commands.write_end;
  from_chromium_ = answers.read_end;
  if (error != 0) {
    pid_ = -1;
    Stop();
    throw std::runtime_error("cannot start " + chromium.string() + ": " + std::strerror(error));
  }
  ::fcntl(to_chromium_, F_SETFL, O_NONBLOCK);
}

ChromiumProcess::~ChromiumProcess() { Stop(); }

void ChromiumProcess::Send(const std::string& message, Clock::time_point deadline) {
  std::string framed = message + '\0';
  size_t sent = 0;
  while (sent < framed.size()) {
    ssize_t n = ::write(to_chromium_, framed.data() + sent, framed.size() - sent);
    if (n > 0) {
      sent += static_cast<size_t>(n);
    } else if (n < 0 && errno == EAGAIN) {
      if (!PollFor(to_chromium_, POLLOUT, deadline)) {
        throw std::runtime_error("chromium did not read its DevTools pipe in time");
      }
    } else if (n < 0 && errno == EPIPE) {
      throw std::runtime_error("chromium closed its DevTools pipe (it exited); its stderr ends:\n" + StderrTail());
    } else if (errno != EINTR) {
      ThrowErrno("write to chromium");
    }
  }
}

std::optional<std::string> ChromiumProcess::Receive(Clock::time_point deadline) {
  for (;;) {
    if (size_t end = received_.find('\0'); end != std::string::npos) {
      std::string message = received_.substr(0, end);
      received_.erase(0, end + 1);
      return message;
    }
    if (!PollFor(from_chromium_, POLLIN, deadline)) return std::nullopt;
    char buffer[65536];
    ssize_t n = ::read(from_chromium_, buffer, sizeof buffer);
    if (n > 0) {
      received_.append(buffer, static_cast<size_t>(n));
    } else if (n == 0) {
      throw std::runtime_error("chromium closed its DevTools pipe (it exited or crashed); its stderr ends:\n" +
                               StderrTail());
    } else if (errno != EINTR && errno != EAGAIN) {
      ThrowErrno("read from chromium");
    }
  }
}

std::string ChromiumProcess::StderrTail() const {
  std::ifstream in(profile_dir_ / "stderr.log");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::ostringstream tail;
  constexpr size_t kLines = 15;
  for (size_t i = lines.size() > kLines ? lines.size() - kLines : 0; i < lines.size(); ++i) {
    tail << "  " << lines[i] << "\n";
  }
  return tail.str();
}

void ChromiumProcess::Stop() {
  if (to_chromium_ >= 0) ::close(to_chromium_);
  if (from_chromium_ >= 0) ::close(from_chromium_);
  to_chromium_ = from_chromium_ = -1;
  if (pid_ > 0) {
    // A pidfd turns "has it exited yet?" into a poll with a timeout.
    int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
    if (pidfd >= 0) {
      pollfd exited{pidfd, POLLIN, 0};
      ::poll(&exited, 1, static_cast<int>(kExitGrace.count()));
      ::close(pidfd);
    }
    // Whatever is left of the group (a hung browser, orphaned renderers).
    ::kill(-pid_, SIGKILL);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }
  std::error_code ec;
  if (!profile_dir_.empty()) fs::remove_all(profile_dir_, ec);
}

}  // namespace regemu::doc_test
