// The only file that touches yaml-cpp. It drives yaml-cpp's event parser
// (not its Node API) so that it controls what hostile input can cost: depth
// is checked as containers open, every alias expansion is charged against a
// budget before it is copied, and a self-referencing alias is caught while
// its anchor is still open. yaml-cpp exceptions end here.

#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/exceptions.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb {
namespace {

// Thrown from inside the event handler to stop yaml-cpp at the first breach.
struct ParseAbort {
  SourceLoc loc;
  std::string message;
};

size_t CountNodes(const YamlNode& node) {
  size_t n = 1;
  for (const YamlNode& child : node.children) n += CountNodes(child);
  return n;
}

class TreeBuilder : public YAML::EventHandler {
 public:
  TreeBuilder(uint32_t file_id, const InputLimits& limits) : file_id_(file_id), limits_(limits) {}

  std::optional<YamlNode>& root() { return root_; }

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}

  void OnAnchor(const YAML::Mark&, const std::string& name) override { pending_anchor_name_ = name; }

  void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    YamlNode node;
    // yaml-cpp marks an empty value at the token after it, often the next
    // line's key; an empty mapping value is better located at its own key.
    const YamlNode* key = PendingMapKey();
    node.loc = key ? key->loc : Loc(mark);
    Complete(std::move(node), anchor);
  }

  void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                const std::string& value) override {
    YamlNode node;
    node.kind = YamlNode::Kind::kScalar;
    node.quoted = tag == "!";
    node.loc = Loc(mark);
    node.text = value;
    Complete(std::move(node), anchor);
  }

  void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
    if (open_anchors_.count(anchor) != 0) {
      throw ParseAbort{Loc(mark), "alias '*" + AnchorName(anchor) +
                                      "' refers to a node that contains it (a self-referencing alias cannot be expanded)"};
    }
    auto it = anchors_.find(anchor);
    if (it == anchors_.end()) throw ParseAbort{Loc(mark), "alias refers to an unknown anchor"};
    alias_nodes_ += it->second.size;
    if (alias_nodes_ > limits_.max_alias_nodes) {
      throw ParseAbort{Loc(mark), "aliases expand to more than " + std::to_string(limits_.max_alias_nodes) +
                                      " nodes (is this a billion-laughs file?)"};
    }
    Charge(Loc(mark), it->second.size);
    YamlNode copy = it->second.node;
    Attach(std::move(copy));
  }

  void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                       YAML::EmitterStyle::value) override {
    Open(mark, YamlNode::Kind::kSequence, anchor);
  }
  void OnSequenceEnd() override { Close(); }

  void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  YAML::EmitterStyle::value) override {
    Open(mark, YamlNode::Kind::kMap, anchor);
  }
  void OnMapEnd() override { Close(); }

  // Where the innermost still-open container of `kind` starts: yaml-cpp
  // reports an unclosed '[' or '{' where it gave up (often the end of the
  // file), so a note points back at the bracket itself.
  std::optional<SourceLoc> InnermostOpen(YamlNode::Kind kind) const {
    for (auto it = stack_.rbegin(); it != stack_.rend(); ++it) {
      if (it->node.kind == kind) return it->node.loc;
    }
    return std::nullopt;
  }

  SourceLoc Loc(const YAML::Mark& mark) const {
    if (mark.is_null()) return SourceLoc{file_id_, 0, 0};
    return SourceLoc{file_id_, static_cast<uint32_t>(mark.line + 1), static_cast<uint32_t>(mark.column + 1)};
  }

 private:
  struct Anchored {
    YamlNode node;
    size_t size;
  };
  struct OpenContainer {
    YamlNode node;
    YAML::anchor_t anchor;
  };

  void Charge(SourceLoc loc, size_t count) {
    nodes_ += count;
    if (nodes_ > limits_.max_nodes) {
      throw ParseAbort{loc, "document has more than " + std::to_string(limits_.max_nodes) + " nodes"};
    }
  }

  // The key whose value comes next, when the innermost open container is a
  // mapping waiting for a value.
  const YamlNode* PendingMapKey() const {
    if (stack_.empty() || !stack_.back().node.IsMap() || stack_.back().node.children.size() % 2 == 0) return nullptr;
    return &stack_.back().node.children.back();
  }

  void Open(const YAML::Mark& mark, YamlNode::Kind kind, YAML::anchor_t anchor) {
    Charge(Loc(mark), 1);
    if (stack_.size() >= limits_.max_depth) {
      throw ParseAbort{Loc(mark), "nesting deeper than " + std::to_string(limits_.max_depth) + " levels"};
    }
    if (anchor != 0) {
      open_anchors_.insert(anchor);
      TakeAnchorName(anchor);
    }
    YamlNode node;
    node.kind = kind;
    node.loc = Loc(mark);
    stack_.push_back(OpenContainer{std::move(node), anchor});
  }

  void Close() {
    OpenContainer done = std::move(stack_.back());
    stack_.pop_back();
    if (done.anchor != 0) open_anchors_.erase(done.anchor);
    Remember(done.node, done.anchor);
    Attach(std::move(done.node));
  }

  void Complete(YamlNode node, YAML::anchor_t anchor) {
    Charge(node.loc, 1);
    if (anchor != 0) TakeAnchorName(anchor);
    Remember(node, anchor);
    Attach(std::move(node));
  }

  void Remember(const YamlNode& node, YAML::anchor_t anchor) {
    if (anchor == 0) return;
    size_t size = CountNodes(node);
    anchors_[anchor] = Anchored{node, size};
  }

  void Attach(YamlNode node) {
    if (stack_.empty()) {
      root_ = std::move(node);
    } else {
      stack_.back().node.children.push_back(std::move(node));
    }
  }

  void TakeAnchorName(YAML::anchor_t anchor) {
    if (!pending_anchor_name_.empty()) anchor_names_[anchor] = std::move(pending_anchor_name_);
    pending_anchor_name_.clear();
  }

  std::string AnchorName(YAML::anchor_t anchor) const {
    auto it = anchor_names_.find(anchor);
    return it == anchor_names_.end() ? std::to_string(anchor) : it->second;
  }

  uint32_t file_id_;
  const InputLimits& limits_;
  std::optional<YamlNode> root_;
  std::vector<OpenContainer> stack_;
  std::unordered_map<YAML::anchor_t, Anchored> anchors_;
  std::unordered_map<YAML::anchor_t, std::string> anchor_names_;
  std::unordered_set<YAML::anchor_t> open_anchors_;
  std::string pending_anchor_name_;
  size_t nodes_ = 0;
  size_t alias_nodes_ = 0;
};

// Length of the valid UTF-8 sequence starting at `s[i]`, or 0 when invalid.
// Valid means well-formed in the Unicode sense (table 3-7): no overlong
// forms (C0 80 is a disguised NUL), no surrogates, nothing past U+10FFFF.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  if (c < 0x80) return 1;
  size_t len = 0;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) second_min = 0xA0;  // overlong below U+0800
    if (c == 0xED) second_max = 0x9F;  // surrogates U+D800..U+DFFF
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) second_min = 0x90;  // overlong below U+10000
    if (c == 0xF4) second_max = 0x8F;  // past U+10FFFF
  }
  if (len == 0 || i + len > s.size()) return 0;
  if (byte(i + 1) < second_min || byte(i + 1) > second_max) return 0;
  for (size_t k = 2; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
  }
  return len;
}

// A database is text: a NUL or an invalid UTF-8 byte means a binary file.
std::optional<size_t> FirstNonTextByte(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    if (text[i] == '\0') return i;
    size_t len = Utf8SequenceLength(text, i);
    if (len == 0) return i;
    i += len;
  }
  return std::nullopt;
}

}  // namespace

std::optional<YamlNode> ParseYamlFile(const SourceSet& sources, uint32_t file_id, const InputLimits& limits,
                                      Diagnostics& diagnostics) {
  const SourceFile& file = sources.file(file_id);
  SourceLoc file_start{file_id, 1, 1};
  if (file.text.size() > limits.max_file_bytes) {
    diagnostics.Error(file_start, "file is " + std::to_string(file.text.size()) + " bytes, more than the limit of " +
                                      std::to_string(limits.max_file_bytes));
    return std::nullopt;
  }
  if (auto bad = FirstNonTextByte(file.text)) {
    diagnostics.Error(sources.LocOfOffset(file_id, *bad),
                      "not a text file: byte " + std::to_string(*bad) + " is not UTF-8 text (binary file?)");
    return std::nullopt;
  }

  TreeBuilder builder(file_id, limits);
  TreeBuilder second(file_id, limits);
  const TreeBuilder* active = &builder;
  try {
    std::istringstream stream(file.text);
    YAML::Parser parser(stream);
    if (!parser.HandleNextDocument(builder)) return YamlNode{YamlNode::Kind::kNull, false, file_start, {}, {}};
    active = &second;
    if (parser.HandleNextDocument(second)) {
      SourceLoc where = second.root() ? second.root()->loc : file_start;
      diagnostics.Error(where, "expected one YAML document per file, found a second one");
      return std::nullopt;
    }
  } catch (const ParseAbort& abort) {
    diagnostics.Error(abort.loc, abort.message);
    return std::nullopt;
  } catch (const YAML::Exception& e) {
    Diagnostic& d = diagnostics.Error(builder.Loc(e.mark), "invalid YAML: " + e.msg);
    bool unclosed_sequence = e.msg == YAML::ErrorMsg::END_OF_SEQ_FLOW;
    if (unclosed_sequence || e.msg == YAML::ErrorMsg::END_OF_MAP_FLOW) {
      auto kind = unclosed_sequence ? YamlNode::Kind::kSequence : YamlNode::Kind::kMap;
      if (auto open = active->InnermostOpen(kind)) {
        d.notes.push_back(
            {*open, unclosed_sequence ? "the '[' opened here is not closed" : "the '{' opened here is not closed"});
      }
    }
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    diagnostics.Error(file_start, "out of memory while parsing");
    return std::nullopt;
  } catch (const std::exception& e) {
    diagnostics.Error(file_start, std::string("YAML parser failed: ") + e.what());
    return std::nullopt;
  }
  if (!builder.root()) return YamlNode{YamlNode::Kind::kNull, false, file_start, {}, {}};
  // A document that is only "---" is empty like an empty file: yaml-cpp
  // places its null past the last line, where no source line can be shown.
  if (builder.root()->IsNull()) builder.root()->loc = file_start;
  return std::move(builder.root());
}

}  // namespace regemu::regdb
