#pragma once
// A User-Mode Linux kernel as a child process: started in a process group
// of its own (UML forks helper processes), its console read through a
// pipe so that the caller can pass it on and watch it, and killed with
// SIGKILL, group and all, when it is abandoned: a panicked or hung UML
// does not exit by itself and may ignore SIGTERM, and none may outlive
// the command that started it.

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace regemu::uml {

class KernelProcess {
 public:
  // Starts `kernel` with `arguments`; throws std::runtime_error when it cannot.
  KernelProcess(const std::string& kernel, const std::vector<std::string>& arguments);
  ~KernelProcess();  // kills what is left
  KernelProcess(const KernelProcess&) = delete;
  KernelProcess& operator=(const KernelProcess&) = delete;

  // The read end of the console (stdout and stderr of the kernel); -1 once it closed.
  int console_fd() const { return console_; }
  // Reads what the console has (call when console_fd() is readable); "" at its end.
  std::string ReadConsole();
  // Whether it has exited (reaps it); its exit status then.
  bool Exited();
  std::optional<int> exit_status() const { return status_; }
  void Kill();

 private:
  pid_t pid_ = -1;
  int console_ = -1;
  std::optional<int> status_;
};

}  // namespace regemu::uml
