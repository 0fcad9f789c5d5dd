#include "tools/convert/svd_dim.hpp"

#include <cctype>

#include "tools/convert/svd_document.hpp"

namespace regemu::convert {

namespace {

// "A,B,C", "0-7" or "A-D"; nothing on a malformed list.
std::vector<std::string> DimIndexList(const std::string& text, uint64_t limit) {
  std::vector<std::string> out;
  size_t dash = text.find('-');
  if (text.find(',') == std::string::npos && dash != std::string::npos && dash > 0) {
    std::string first = text.substr(0, dash);
    std::string last = text.substr(dash + 1);
    std::optional<uint64_t> lo = ParseSvdNumber(first);
    std::optional<uint64_t> hi = ParseSvdNumber(last);
    if (lo && hi && *lo <= *hi && *hi - *lo < limit) {
      for (uint64_t i = *lo; i <= *hi; ++i) out.push_back(std::to_string(i));
      return out;
    }
    if (first.size() == 1 && last.size() == 1 && std::isupper(static_cast<unsigned char>(first[0])) &&
        std::isupper(static_cast<unsigned char>(last[0])) && first[0] <= last[0]) {
      for (char c = first[0]; c <= last[0]; ++c) out.emplace_back(1, c);
      return out;
    }
    return {};
  }
  size_t start = 0;
  while (start <= text.size() && out.size() <= limit) {
    size_t comma = text.find(',', start);
    std::string item = FoldWhitespace(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (item.empty()) return {};
    out.push_back(item);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

}  // namespace

std::vector<DimCopy> ExpandDim(const std::string& name, const std::optional<std::string>& dim,
                               const std::optional<std::string>& increment, const std::optional<std::string>& index,
                               const SvdLimits& limits, std::string& error) {
  if (!dim) {
    if (name.find("%s") != std::string::npos) {
      error = "name '" + name + "' has %s but no <dim>";
      return {};
    }
    return {{name, 0, ""}};
  }
  std::optional<uint64_t> count = ParseSvdNumber(*dim);
  if (!count || *count == 0 || *count > limits.max_dim) {
    error = "<dim> '" + *dim + "' is not a count from 1 to " + std::to_string(limits.max_dim);
    return {};
  }
  std::optional<uint64_t> stride = increment ? ParseSvdNumber(*increment) : std::nullopt;
  if (!stride) {
    error = "<dim> needs a <dimIncrement> (a number)";
    return {};
  }
  std::vector<std::string> indices;
  if (index) {
    indices = DimIndexList(*index, limits.max_dim);
    if (indices.size() != *count) {
      error = "<dimIndex> '" + *index + "' does not list " + std::to_string(*count) + " indices";
      return {};
    }
  } else {
    for (uint64_t i = 0; i < *count; ++i) indices.push_back(std::to_string(i));
  }
  // NAME[%s] is an array in C; its copies are NAME0, NAME1, ...
  std::string pattern = name;
  if (size_t bracket = pattern.find("[%s]"); bracket != std::string::npos) pattern.replace(bracket, 4, "%s");
  size_t hole = pattern.find("%s");
  if (hole == std::string::npos) {
    error = "<dim> on '" + name + "', whose name has no %s to number the copies";
    return {};
  }
  if (*stride != 0 && *count - 1 > ~uint64_t{0} / *stride) {
    error = "<dim> " + *dim + " x <dimIncrement> " + *increment + " overflows";
    return {};
  }
  std::vector<DimCopy> copies;
  for (uint64_t i = 0; i < *count; ++i) {
    std::string copy = pattern;
    copy.replace(hole, 2, indices[i]);
    copies.push_back({copy, i * *stride, indices[i]});
  }
  return copies;
}

std::string NameForCopy(const std::string& reference, const DimCopy& copy) {
  std::string out = reference;
  if (size_t bracket = out.find("[%s]"); bracket != std::string::npos) out.replace(bracket, 4, "%s");
  if (size_t hole = out.find("%s"); hole != std::string::npos) out.replace(hole, 2, copy.index);
  return out;
}

}  // namespace regemu::convert
