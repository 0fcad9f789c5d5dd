#pragma once
// Streams a capture's records, one line at a time, whatever its size: a
// 100 MB mmiotrace is read through one line buffer. The format is detected
// from the first meaningful line unless it is given. Malformed lines are
// skipped and kept as problems (the first `max_problems`; all are counted),
// never thrown: real captures are messy.
//
//   CaptureReader reader(file, "trace.txt");
//   CaptureRecord record;
//   while (reader.Next(record)) ...;
//   for (const CaptureProblem& p : reader.problems()) std::cerr << reader.Describe(p);

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "tools/traces/capture.hpp"

namespace regemu::traces {

struct CaptureProblem {
  uint64_t line = 0;
  std::string message;
};

struct CaptureReaderOptions {
  std::optional<CaptureFormat> format;  // none: detect it
  size_t max_line_length = 64 * 1024;   // a longer line is malformed (and skipped whole)
  size_t max_problems = 100;            // kept; the rest are counted
};

class CaptureReader {
 public:
  CaptureReader(std::istream& in, std::string name, CaptureReaderOptions options = {});

  // The next record; false at the end of the capture (or a read error: see read_failed()).
  bool Next(CaptureRecord& record);

  // Known once a meaningful line was read (or when it was given).
  std::optional<CaptureFormat> format() const { return format_; }
  const std::string& name() const { return name_; }
  uint64_t lines() const { return line_; }
  uint64_t bytes() const { return bytes_; }
  const std::vector<CaptureProblem>& problems() const { return problems_; }
  uint64_t problem_count() const { return problem_count_; }
  bool read_failed() const { return read_failed_; }

  // `NAME:LINE: error: MESSAGE`, the way every regemu diagnostic starts.
  std::string Describe(const CaptureProblem& problem) const;
  // Every kept problem, then how many more there were.
  std::string DescribeProblems() const;

 private:
  bool ReadLine(std::string_view& line);
  void Problem(std::string message);

  std::istream& in_;
  std::string name_;
  CaptureReaderOptions options_;
  std::optional<CaptureFormat> format_;
  std::vector<char> buffer_;
  uint64_t line_ = 0;
  uint64_t bytes_ = 0;
  std::vector<CaptureProblem> problems_;
  uint64_t problem_count_ = 0;
  bool read_failed_ = false;
};

}  // namespace regemu::traces
