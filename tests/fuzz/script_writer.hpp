#pragma once
// A reproducer script as a fuzz harness writes it, line by line. With a
// file to mirror to, every piece also goes to the file as it is written
// (flushed), so that an input that never ends, a hang that libFuzzer
// reports as a timeout, still leaves its script up to the operation that
// hung. The fuzzing path never makes one: scripts are for reproducing.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace regemu::fuzz {

class ScriptWriter {
 public:
  ScriptWriter() = default;
  // Truncates `path`; exits with a message when it cannot be written.
  explicit ScriptWriter(const char* path) : mirror_(std::fopen(path, "wb")) {
    if (mirror_ == nullptr) {
      std::fprintf(stderr, "fuzz: cannot write the reproducer script '%s' (REGEMU_FUZZ_SCRIPT)\n", path);
      std::exit(2);
    }
  }
  ~ScriptWriter() {
    if (mirror_ != nullptr) std::fclose(mirror_);
  }
  ScriptWriter(const ScriptWriter&) = delete;
  ScriptWriter& operator=(const ScriptWriter&) = delete;

  ScriptWriter& operator+=(std::string_view piece) {
    text_ += piece;
    if (mirror_ != nullptr) {
      std::fwrite(piece.data(), 1, piece.size(), mirror_);
      std::fflush(mirror_);
    }
    return *this;
  }

  const std::string& text() const { return text_; }

 private:
  std::string text_;
  std::FILE* mirror_ = nullptr;
};

}  // namespace regemu::fuzz
