#include "tools/convert/svd_document.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <variant>

#include "regemu/regdb/numbers.hpp"

namespace regemu::convert {

namespace {

// Counts elements without recursion (a deeply nested file must not
// overflow the stack) and stops counting past the limit.
size_t CountElements(pugi::xml_node root, size_t limit) {
  size_t count = 0;
  for (pugi::xml_node node = root; node;) {
    if (node.type() == pugi::node_element && ++count > limit) return count;
    if (node.first_child()) {
      node = node.first_child();
      continue;
    }
    while (node && !node.next_sibling() && node != root) node = node.parent();
    if (!node || node == root) break;
    node = node.next_sibling();
  }
  return count;
}

pugi::xml_node FirstDoctype(const pugi::xml_document& document) {
  for (pugi::xml_node node = document.first_child(); node; node = node.next_sibling()) {
    if (node.type() == pugi::node_doctype) return node;
  }
  return {};
}

}  // namespace

bool SvdDocument::Parse(const regdb::SourceSet& sources, uint32_t file_id, const SvdLimits& limits,
                        regdb::Diagnostics& diagnostics) {
  sources_ = &sources;
  file_id_ = file_id;
  const std::string& text = sources.file(file_id).text;
  // parse_doctype keeps a DOCTYPE as a node so it can be refused; pugixml
  // never reads the DTD inside it, so its entities are never defined.
  unsigned flags = (pugi::parse_default | pugi::parse_doctype) & ~pugi::parse_wconv_attribute;
  pugi::xml_parse_result result = document_.load_buffer(text.data(), text.size(), flags, pugi::encoding_utf8);
  if (!result) {
    size_t offset = result.offset < 0 ? 0 : static_cast<size_t>(result.offset);
    diagnostics.Error(sources.LocOfOffset(file_id, offset),
                      std::string("not well-formed XML: ") + result.description());
    return false;
  }
  if (pugi::xml_node doctype = FirstDoctype(document_)) {
    diagnostics.Error(Loc(doctype), "a DOCTYPE is not part of CMSIS-SVD; refused (no DTD or entity is ever read)");
    return false;
  }
  if (CountElements(document_, limits.max_elements) > limits.max_elements) {
    diagnostics.Error(Loc(document_.document_element()),
                      "more than " + std::to_string(limits.max_elements) + " XML elements; refused");
    return false;
  }
  pugi::xml_node device = document_.document_element();
  if (std::string_view(device.name()) != "device") {
    diagnostics.Error(Loc(device), std::string("not a CMSIS-SVD file: the root element is <") + device.name() +
                                       ">, not <device>");
    return false;
  }
  return true;
}

regdb::SourceLoc SvdDocument::Loc(pugi::xml_node node) const {
  if (!sources_ || !node) return {};
  ptrdiff_t offset = node.offset_debug();
  if (offset < 0) return {};
  // offset_debug is past the '<' (an element's name, a DOCTYPE's
  // contents); point at the '<' itself.
  size_t at = static_cast<size_t>(offset);
  const std::string& text = sources_->file(file_id_).text;
  while (at > 0 && at < text.size() && text[at] != '<') --at;
  return sources_->LocOfOffset(file_id_, at);
}

std::optional<std::string> ChildText(pugi::xml_node node, const char* name) {
  pugi::xml_node child = node.child(name);
  if (!child) return std::nullopt;
  std::string_view text = child.text().get();
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return std::string(text);
}

std::string FoldWhitespace(std::string_view text) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::optional<uint64_t> ParseSvdNumber(std::string_view text) {
  // SVD's binary prefix is '#'; the scale suffixes are SVD's own. The
  // digits are read by regdb's number parser, as a database's are.
  std::string digits(text);
  if (digits.starts_with("#")) digits.replace(0, 1, "0b");
  uint64_t scale = 1;
  bool hex = digits.starts_with("0x") || digits.starts_with("0X");
  if (!digits.empty() && !hex) {
    switch (digits.back()) {
      case 'k': case 'K': scale = uint64_t{1} << 10; break;
      case 'm': case 'M': scale = uint64_t{1} << 20; break;
      case 'g': case 'G': scale = uint64_t{1} << 30; break;
      case 't': case 'T': scale = uint64_t{1} << 40; break;
      default: break;
    }
    if (scale != 1) digits.pop_back();
  }
  std::variant<uint64_t, regdb::NumberError> parsed = regdb::ParseUnsigned(digits);
  const uint64_t* value = std::get_if<uint64_t>(&parsed);
  if (!value || *value > std::numeric_limits<uint64_t>::max() / scale) return std::nullopt;
  return *value * scale;
}

std::optional<std::string> CanonicalSvdWord(std::string_view text, std::initializer_list<std::string_view> words,
                                            std::string_view what, std::string& note) {
  for (std::string_view word : words) {
    if (word == text) return std::string(word);
  }
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  for (std::string_view word : words) {
    if (word.size() == text.size() && std::equal(word.begin(), word.end(), text.begin(),
                                                 [&](char a, char b) { return lower(a) == lower(b); })) {
      note = std::string(what) + " '" + std::string(text) + "' read as '" + std::string(word) +
             "' (SVD's words are case-sensitive)";
      return std::string(word);
    }
  }
  return std::nullopt;
}

std::optional<bool> ParseSvdBool(std::string_view text) {
  if (text == "true" || text == "1") return true;
  if (text == "false" || text == "0") return false;
  return std::nullopt;
}

}  // namespace regemu::convert
