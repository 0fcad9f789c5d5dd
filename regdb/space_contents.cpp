// `contents:` of a memory space (space_contents.hpp).
#include "regemu/regdb/space_contents.hpp"

#include <algorithm>
#include <array>

#include "regemu/regdb/numbers.hpp"

namespace regemu::regdb {
namespace {

// A structure handed out by DMA is pages, not gigabytes: bound what one
// item may spell out.
constexpr uint64_t kMaxItemBytes = uint64_t{1} << 20;

constexpr std::array<std::string_view, 8> kItemKeys{"offset", "width", "value", "text", "size", "pad", "bytes", "doc"};

std::optional<SpaceContent> ReadItem(const YamlNode& item, const Space& space, SchemaReader& reader) {
  if (!reader.ExpectMap(item, "a contents item", kItemKeys)) return std::nullopt;
  std::string what = "contents of space '" + space.name + "'";
  const YamlNode* offset = reader.Required(item, "offset", what);
  if (!offset) return std::nullopt;
  auto at = reader.Unsigned(*offset, "offset");
  if (!at) return std::nullopt;
  const YamlNode* value = item.Find("value");
  const YamlNode* text = item.Find("text");
  const YamlNode* bytes = item.Find("bytes");
  if ((value != nullptr) + (text != nullptr) + (bytes != nullptr) != 1) {
    reader.Error(item, what + ": an item gives exactly one of `value` (with `width`), `text` (with `size`) or `bytes`");
    return std::nullopt;
  }
  SpaceContent content;
  content.offset = *at;
  content.loc = item.loc;
  if (const YamlNode* doc = item.Find("doc")) content.doc = reader.Text(*doc, "doc").value_or("");
  if (value != nullptr) {
    unsigned width = 32;
    if (const YamlNode* w = item.Find("width")) {
      auto parsed = reader.Width(*w, "width of a contents value");
      if (!parsed) return std::nullopt;
      width = *parsed;
    }
    auto v = reader.Unsigned(*value, "value");
    if (!v) return std::nullopt;
    if (width < 64 && (*v >> width) != 0) {
      reader.Error(*value, what + ": " + Hex(*v) + " does not fit " + std::to_string(width) + " bits");
      return std::nullopt;
    }
    for (unsigned b = 0; b < width / 8; ++b) content.bytes.push_back(static_cast<uint8_t>(*v >> (8 * b)));
  } else if (text != nullptr) {
    auto t = reader.Text(*text, "text");
    if (!t) return std::nullopt;
    uint64_t size = t->size();
    if (const YamlNode* s = item.Find("size")) {
      auto parsed = reader.Unsigned(*s, "size", 1, kMaxItemBytes);
      if (!parsed) return std::nullopt;
      size = *parsed;
    }
    if (t->size() > size) {
      reader.Error(*text, what + ": the text is " + std::to_string(t->size()) + " bytes, more than its size " +
                              std::to_string(size));
      return std::nullopt;
    }
    uint8_t pad = 0;
    if (const YamlNode* p = item.Find("pad")) pad = static_cast<uint8_t>(reader.Unsigned(*p, "pad", 0, 255).value_or(0));
    content.bytes.assign(t->begin(), t->end());
    content.bytes.resize(size, pad);
  } else {
    if (!reader.ExpectSequence(*bytes, "bytes")) return std::nullopt;
    if (bytes->children.size() > kMaxItemBytes) {
      reader.Error(*bytes, what + ": more than " + std::to_string(kMaxItemBytes) + " bytes in one item");
      return std::nullopt;
    }
    for (const YamlNode& byte : bytes->children) {
      auto b = reader.Unsigned(byte, "a byte", 0, 255);
      if (!b) return std::nullopt;
      content.bytes.push_back(static_cast<uint8_t>(*b));
    }
  }
  if (value == nullptr && item.Find("width")) {
    reader.Error(*item.Find("width"), what + ": `width` goes with `value`");
    return std::nullopt;
  }
  if (content.offset > space.size || content.bytes.size() > space.size - content.offset) {
    reader.Error(*offset, what + ": " + std::to_string(content.bytes.size()) + " bytes at " + Hex(content.offset) +
                              " run past the end of the space (size " + Hex(space.size) + ")");
    return std::nullopt;
  }
  return content;
}

}  // namespace

void ReadSpaceContents(const YamlNode& contents, Space& space, SchemaReader& reader) {
  if (space.kind != SpaceKind::kMemory) {
    reader.Error(contents, "contents are only for memory spaces (space '" + space.name + "')");
    return;
  }
  if (!reader.ExpectSequence(contents, "contents")) return;
  std::vector<SpaceContent> items;
  for (const YamlNode& item : contents.children) {
    if (auto content = ReadItem(item, space, reader)) items.push_back(std::move(*content));
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const SpaceContent& a, const SpaceContent& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < items.size(); ++i) {
    const SpaceContent& before = items[i - 1];
    if (items[i].offset < before.offset + before.bytes.size()) {
      Diagnostic& error = reader.diagnostics().Error(items[i].loc, "contents of space '" + space.name + "': the item at " +
                                                         Hex(items[i].offset) + " overlaps the one at " +
                                                         Hex(before.offset) + " (" +
                                                         std::to_string(before.bytes.size()) + " bytes)");
      error.notes.push_back(Note{before.loc, "that item is here"});
    }
  }
  space.contents = std::move(items);
}

}  // namespace regemu::regdb
