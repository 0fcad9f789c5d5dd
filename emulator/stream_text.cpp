#include "regemu/emulator/stream_text.hpp"

#include "regemu/regdb/numbers.hpp"

namespace regemu::emulator {

bool ParseStreamEntries(std::span<const std::string> words, unsigned width, std::vector<uint64_t>& out,
                        std::string& error) {
  uint64_t limit = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  for (const std::string& word : words) {
    if (word.size() >= 2 && word.front() == '"' && word.back() == '"') {
      for (size_t i = 1; i + 1 < word.size(); ++i) {
        char c = word[i];
        if (c == '\\' && i + 2 < word.size()) {
          char e = word[++i];
          c = e == 'n' ? '\n' : e == 'r' ? '\r' : e == 't' ? '\t' : e == 's' ? ' ' : e;
        }
        out.push_back(static_cast<unsigned char>(c));
      }
      continue;
    }
    auto parsed = regdb::ParseUnsigned(word);
    if (auto* bad = std::get_if<regdb::NumberError>(&parsed)) {
      error = "bad entry '" + word + "': " + bad->message + " (entries are numbers or \"text\")";
      return false;
    }
    if (std::get<uint64_t>(parsed) > limit) {
      error = "entry '" + word + "' does not fit in " + std::to_string(width) + " bits";
      return false;
    }
    out.push_back(std::get<uint64_t>(parsed));
  }
  if (out.empty()) {
    error = "no entries given";
    return false;
  }
  return true;
}

std::string DescribeStreamEntries(std::span<const StreamEntry> entries, size_t limit) {
  if (entries.empty()) return "nothing";
  std::string text;
  for (size_t i = 0; i < entries.size() && i < limit; ++i) {
    uint64_t value = entries[i].value;
    text += i == 0 ? "" : ", ";
    text += value >= 0x20 && value < 0x7F ? "'" + std::string(1, static_cast<char>(value)) + "'" : regdb::Hex(value);
    text += " at " + std::to_string(entries[i].time_ns) + " ns";
  }
  if (entries.size() > limit) text += ", ... (" + std::to_string(entries.size()) + " in all)";
  return text;
}

}  // namespace regemu::emulator
