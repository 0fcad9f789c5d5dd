#include "tools/convert/amdgpu_header_scan.hpp"

#include <cctype>
#include <optional>
#include <vector>

namespace regemu::convert {

namespace {

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

std::string_view TrimLeft(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  return text;
}

std::string_view Trim(std::string_view text) {
  text = TrimLeft(text);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) text.remove_suffix(1);
  return text;
}

// A C integer literal as the headers write them: 0x hex or decimal, with an
// optional U/L suffix (0x80000000L).
std::optional<uint64_t> ParseCNumber(std::string_view text) {
  while (!text.empty() && (text.back() == 'L' || text.back() == 'l' || text.back() == 'U' || text.back() == 'u')) {
    text.remove_suffix(1);
  }
  unsigned radix = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    radix = 16;
    text.remove_prefix(2);
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    unsigned digit = 0;
    if (c >= '0' && c <= '9') {
      digit = static_cast<unsigned>(c - '0');
    } else if (radix == 16 && c >= 'a' && c <= 'f') {
      digit = static_cast<unsigned>(c - 'a' + 10);
    } else if (radix == 16 && c >= 'A' && c <= 'F') {
      digit = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return std::nullopt;
    }
    if (value > (UINT64_MAX - digit) / radix) return std::nullopt;
    value = value * radix + digit;
  }
  return value;
}

class Scanner {
 public:
  Scanner(const regdb::SourceSet& sources, uint32_t file_id, const AmdgpuLimits& limits,
          regdb::Diagnostics& diagnostics, const std::function<void(const HeaderDefine&)>& on_define)
      : text_(sources.file(file_id).text),
        file_id_(file_id),
        limits_(limits),
        diagnostics_(diagnostics),
        on_define_(on_define) {}

  bool Run() {
    size_t errors_before = diagnostics_.error_count();
    uint32_t line_number = 0;
    for (size_t start = 0; start < text_.size();) {
      size_t end = text_.find('\n', start);
      if (end == std::string_view::npos) end = text_.size();
      ++line_number;
      std::string_view line = text_.substr(start, end - start);
      start = end + 1;
      if (line.size() > limits_.max_line_chars) {
        Error(line_number, 1,
              "line of " + std::to_string(line.size()) + " characters, longer than " +
                  std::to_string(limits_.max_line_chars) + ": not a generated register header");
        return false;
      }
      Line(line_number, line);
      if (diagnostics_.truncated()) return false;
    }
    if (in_comment_) Error(comment_line_, 1, "the file ends inside this /* comment (truncated?)");
    for (uint32_t open : open_conditionals_) {
      Error(open, 1, "the file ends inside this #ifndef: no #endif (truncated?)");
    }
    return diagnostics_.error_count() == errors_before;
  }

 private:
  void Error(uint32_t line, size_t column, std::string message) {
    diagnostics_.Error({file_id_, line, static_cast<uint32_t>(column)}, std::move(message));
  }

  void Line(uint32_t line_number, std::string_view whole) {
    std::string_view line = whole;
    if (in_comment_) {
      size_t close = line.find("*/");
      if (close == std::string_view::npos) return;
      in_comment_ = false;
      line.remove_prefix(close + 2);
    }
    line = Trim(line);
    if (line.empty()) return;
    if (line.starts_with("/*")) {
      size_t close = line.find("*/", 2);
      if (close == std::string_view::npos) {
        in_comment_ = true;
        comment_line_ = line_number;
        return;
      }
      line = Trim(line.substr(close + 2));
      if (line.empty()) return;
    }
    if (line.starts_with("//")) {
      std::string_view comment = Trim(line.substr(2));
      if (comment.starts_with("addressBlock:")) address_block_ = Trim(comment.substr(13));
      return;
    }
    size_t column = static_cast<size_t>(line.data() - whole.data()) + 1;
    if (line.starts_with("#ifndef") || line.starts_with("#ifdef")) {
      open_conditionals_.push_back(line_number);
    } else if (line.starts_with("#endif")) {
      if (open_conditionals_.empty()) {
        Error(line_number, column, "#endif without #ifndef");
      } else {
        open_conditionals_.pop_back();
      }
    } else if (line.starts_with("#define") && line.size() > 7 && (line[7] == ' ' || line[7] == '\t')) {
      Define(line_number, whole, TrimLeft(line.substr(7)));
    } else {
      Error(line_number, column,
            "expected `#define NAME VALUE`, an include guard or a comment: not "
            "a generated register header");
    }
  }

  void Define(uint32_t line_number, std::string_view whole, std::string_view rest) {
    size_t name_end = 0;
    while (name_end < rest.size() && IsIdentifierChar(rest[name_end])) ++name_end;
    size_t name_column = static_cast<size_t>(rest.data() - whole.data()) + 1;
    std::string_view name = rest.substr(0, name_end);
    if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) != 0) {
      Error(line_number, name_column, "#define without a name");
      return;
    }
    std::string_view value_text = TrimLeft(rest.substr(name_end));
    if (size_t comment = value_text.find("//"); comment != std::string_view::npos) {
      value_text = value_text.substr(0, comment);
    }
    value_text = Trim(value_text);
    if (value_text.empty()) return;  // the include guard's own #define
    size_t value_column = static_cast<size_t>(value_text.data() - whole.data()) + 1;
    std::optional<uint64_t> value = ParseCNumber(value_text);
    if (!value) {
      Error(line_number, value_column, std::string(name) + ": '" + std::string(value_text) + "' is not a number");
      return;
    }
    on_define_(HeaderDefine{name, *value, address_block_, {file_id_, line_number, static_cast<uint32_t>(name_column)}});
  }

  std::string_view text_;
  uint32_t file_id_;
  const AmdgpuLimits& limits_;
  regdb::Diagnostics& diagnostics_;
  const std::function<void(const HeaderDefine&)>& on_define_;
  bool in_comment_ = false;
  uint32_t comment_line_ = 0;
  std::vector<uint32_t> open_conditionals_;
  std::string_view address_block_;
};

}  // namespace

bool ScanAmdgpuHeader(const regdb::SourceSet& sources, uint32_t file_id, const AmdgpuLimits& limits,
                      regdb::Diagnostics& diagnostics, const std::function<void(const HeaderDefine&)>& on_define) {
  return Scanner(sources, file_id, limits, diagnostics, on_define).Run();
}

}  // namespace regemu::convert
