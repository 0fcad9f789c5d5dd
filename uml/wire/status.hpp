#pragma once
// The outcome of one step of the wire layer: ok, or what the peer (or the
// system) got wrong, in words. The wire layer never throws: the kernel side
// is untrusted input, and a malformed message is something to report and
// survive, not an exceptional path.

#include <string>
#include <utility>

namespace regemu::uml {

class [[nodiscard]] Status {
 public:
  static Status Ok() { return Status(); }
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  Status() = default;
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}

  bool failed_ = false;
  std::string message_;
};

}  // namespace regemu::uml
