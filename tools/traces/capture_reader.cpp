#include "tools/traces/capture_reader.hpp"

#include <utility>

namespace regemu::traces {

CaptureReader::CaptureReader(std::istream& in, std::string name, CaptureReaderOptions options)
    : in_(in), name_(std::move(name)), options_(options), format_(options.format),
      buffer_(options.max_line_length + 2) {}

void CaptureReader::Problem(std::string message) {
  ++problem_count_;
  if (problems_.size() < options_.max_problems) problems_.push_back({line_, std::move(message)});
}

// One line into the fixed buffer. A line longer than the buffer is a
// problem; the rest of it is skipped without being stored.
bool CaptureReader::ReadLine(std::string_view& line) {
  if (!in_.getline(buffer_.data(), static_cast<std::streamsize>(buffer_.size()))) {
    if (in_.eof() && in_.gcount() == 0) {
      if (in_.bad()) read_failed_ = true;
      return false;
    }
    if (in_.bad()) {
      read_failed_ = true;
      return false;
    }
    if (!in_.eof()) {
      // failbit without eof: the buffer filled before the newline.
      ++line_;
      in_.clear();
      uint64_t skipped = static_cast<uint64_t>(in_.gcount());
      // The rest of the line, its newline included.
      for (auto c = in_.get(); in_; c = in_.get()) {
        ++skipped;
        if (c == '\n') break;
      }
      in_.clear(in_.rdstate() & ~std::ios::failbit);
      bytes_ += skipped;
      Problem("line longer than " + std::to_string(options_.max_line_length) + " bytes; skipped");
      line = {};
      return true;
    }
  }
  ++line_;
  size_t length = static_cast<size_t>(in_.gcount());
  bytes_ += length;
  // gcount counts the newline getline consumed; the last line may have none.
  if (length > 0 && buffer_[length - 1] == '\0') --length;
  line = std::string_view(buffer_.data(), length);
  // A NUL inside a line (binary garbage) ends it for every parser alike.
  if (size_t nul = line.find('\0'); nul != std::string_view::npos) line = line.substr(0, nul);
  return true;
}

bool CaptureReader::Next(CaptureRecord& record) {
  std::string_view line;
  std::string error;
  while (ReadLine(line)) {
    if (line.empty()) continue;
    if (!format_) {
      CaptureFormat detected;
      if (!DetectCaptureFormat(line, detected)) {
        bool comment = line.find_first_not_of(" \t\r") == std::string_view::npos ||
                       line[line.find_first_not_of(" \t\r")] == '#';
        if (!comment) Problem("not a line of any capture format regemu reads (mmiotrace, i915_reg_rw, R/W log)");
        continue;
      }
      format_ = detected;
    }
    record = CaptureRecord{};
    record.line = line_;
    bool ok = false;
    switch (*format_) {
      case CaptureFormat::kMmiotrace: ok = ParseMmiotraceLine(line, record, error); break;
      case CaptureFormat::kI915RegRw: ok = ParseI915RegRwLine(line, record, error); break;
      case CaptureFormat::kRegisterLog: ok = ParseRegisterLogLine(line, record, error); break;
    }
    if (ok) return true;
    if (!error.empty()) Problem(std::move(error));
  }
  return false;
}

std::string CaptureReader::Describe(const CaptureProblem& problem) const {
  return name_ + ":" + std::to_string(problem.line) + ": error: " + problem.message + "\n";
}

std::string CaptureReader::DescribeProblems() const {
  std::string text;
  for (const CaptureProblem& problem : problems_) text += Describe(problem);
  if (problem_count_ > problems_.size()) {
    text += name_ + ": " + std::to_string(problem_count_ - problems_.size()) + " more malformed line(s) not shown\n";
  }
  return text;
}

}  // namespace regemu::traces
