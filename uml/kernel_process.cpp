#include "regemu/uml/kernel_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/personality.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace regemu::uml {

KernelProcess::KernelProcess(const std::string& kernel, const std::vector<std::string>& arguments) {
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(kernel.c_str()));
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_ = ::fork();
  if (pid_ < 0) {
    int error = errno;
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    throw std::runtime_error(std::string("fork: ") + std::strerror(error));
  }
  if (pid_ == 0) {
    ::setpgid(0, 0);
    // Without address-space randomisation: UML's physical memory starts
    // where its image ends, so with it the addresses a driver programs
    // (ASQ, ACQ, PRPs) would differ from run to run.
    ::personality(ADDR_NO_RANDOMIZE);
    int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, 0);
    ::dup2(pipe_fds[1], 1);
    ::dup2(pipe_fds[1], 2);
    ::execv(kernel.c_str(), argv.data());
    const char* message = "regemu: cannot execute the kernel\n";
    ssize_t ignored = ::write(2, message, std::strlen(message));
    (void)ignored;
    ::_exit(127);
  }
  ::setpgid(pid_, pid_);  // also here: no race with the child's own call
  ::close(pipe_fds[1]);
  console_ = pipe_fds[0];
}

KernelProcess::~KernelProcess() {
  Kill();
  if (console_ >= 0) ::close(console_);
}

std::string KernelProcess::ReadConsole() {
  if (console_ < 0) return "";
  char buffer[4096];
  ssize_t got;
  do {
    got = ::read(console_, buffer, sizeof buffer);
  } while (got < 0 && errno == EINTR);
  if (got <= 0) {
    ::close(console_);
    console_ = -1;
    return "";
  }
  return std::string(buffer, static_cast<size_t>(got));
}

bool KernelProcess::Exited() {
  if (status_) return true;
  if (pid_ < 0) return true;
  int status = 0;
  pid_t got = ::waitpid(pid_, &status, WNOHANG);
  if (got == pid_) {
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return true;
  }
  return false;
}

void KernelProcess::Kill() {
  if (pid_ < 0) return;
  // The whole group: UML's helper processes too, even after the main one exited.
  ::kill(-pid_, SIGKILL);
  if (!status_) {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  pid_ = -1;
}

}  // namespace regemu::uml
