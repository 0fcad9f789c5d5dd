// The process's coverage: what its destroyed devices recorded, written to
// one file at exit (docs/coverage.md).
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include "regemu/emulator/coverage/coverage.hpp"

namespace regemu::emulator {
namespace {

struct Collected {
  std::mutex mutex;
  CoverageData data;
  std::string pattern;  // SetCoverageOutput
  bool hooked = false;  // the exit and fork handlers are registered
};

// Never destroyed: a device held in a static may hand its counts over
// during static destruction, after this would have been gone.
Collected& State() {
  static Collected* state = new Collected;
  return *state;
}

std::string OutputPattern(const Collected& state) {
  const char* environment = std::getenv(kCoverageEnvironment);
  if (environment != nullptr && *environment != '\0') return environment;
  return state.pattern;
}

std::filesystem::path Expand(std::string pattern) {
  std::string pid = std::to_string(getpid());
  for (size_t at = pattern.find("%p"); at != std::string::npos; at = pattern.find("%p", at + pid.size())) {
    pattern.replace(at, 2, pid);
  }
  return pattern;
}

void WriteAtExit() {
  std::string error;
  if (!FlushCoverage(error)) std::fprintf(stderr, "regemu: coverage not written: %s\n", error.c_str());
}

// A forked child starts with nothing of its own: what the parent collected
// is the parent's to write (else a child that exits would count it twice).
void BeforeFork() { State().mutex.lock(); }
void AfterForkInParent() { State().mutex.unlock(); }
void AfterForkInChild() {
  State().data = CoverageData{};
  State().mutex.unlock();
}

}  // namespace

bool CoverageFromEnvironment() {
  const char* environment = std::getenv(kCoverageEnvironment);
  return environment != nullptr && *environment != '\0';
}

void SetCoverageOutput(std::string path_pattern) {
  Collected& state = State();
  std::lock_guard lock(state.mutex);
  state.pattern = std::move(path_pattern);
}

void ChooseCoverageOutput(std::string path_pattern) {
  if (!path_pattern.empty()) {
    SetCoverageOutput(std::move(path_pattern));
  } else if (CoverageOutputPath().empty()) {
    SetCoverageOutput("regemu-coverage-%p.json");
  }
}

std::filesystem::path CoverageOutputPath() {
  Collected& state = State();
  std::lock_guard lock(state.mutex);
  std::string pattern = OutputPattern(state);
  return pattern.empty() ? std::filesystem::path() : Expand(pattern);
}

void CollectCoverage(const ModelCoverage& model) {
  Collected& state = State();
  std::lock_guard lock(state.mutex);
  MergeInto(state.data, model);
  if (!state.hooked) {
    state.hooked = true;
    std::atexit(WriteAtExit);
    pthread_atfork(BeforeFork, AfterForkInParent, AfterForkInChild);
  }
}

CoverageData CollectedCoverage() {
  Collected& state = State();
  std::lock_guard lock(state.mutex);
  return state.data;
}

bool FlushCoverage(std::string& error) {
  Collected& state = State();
  std::lock_guard lock(state.mutex);
  std::string pattern = OutputPattern(state);
  if (state.data.models.empty() || pattern.empty()) return true;
  // This process's file: one process, in each model it used.
  CoverageData file = state.data;
  file.processes = 1;
  for (auto& [key, model] : file.models) model.processes = 1;
  return WriteCoverageFile(Expand(pattern), file, error);
}

}  // namespace regemu::emulator
