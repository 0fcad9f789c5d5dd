#include "tools/convert/svd_derivation.hpp"

#include <algorithm>
#include <string_view>

namespace regemu::convert {

namespace {

std::string NameOf(pugi::xml_node node) { return ChildText(node, "name").value_or(""); }

// The element named `name` among `container`'s children of the given kinds.
pugi::xml_node NamedChild(pugi::xml_node container, const std::string& name,
                          std::initializer_list<std::string_view> kinds) {
  for (pugi::xml_node child : container.children()) {
    if (std::find(kinds.begin(), kinds.end(), std::string_view(child.name())) == kinds.end()) continue;
    if (NameOf(child) == name) return child;
  }
  return {};
}

}  // namespace

SvdDerivation::SvdDerivation(const SvdDocument& document, const SvdLimits& limits, regdb::Diagnostics& diagnostics)
    : document_(document), limits_(limits), diagnostics_(diagnostics) {
  for (pugi::xml_node peripheral : document.root().child("peripherals").children("peripheral")) {
    peripherals_.emplace(NameOf(peripheral), peripheral);
  }
  // Iteratively, not recursively: the file's depth is the attacker's.
  for (pugi::xml_node node = document.root(); node;) {
    if (std::string_view(node.name()) == "enumeratedValues" && node.child("name")) {
      enumerations_.emplace(NameOf(node), node);
    }
    if (node.first_child()) {
      node = node.first_child();
      continue;
    }
    while (node && !node.next_sibling() && node != document.root()) node = node.parent();
    if (!node || node == document.root()) break;
    node = node.next_sibling();
  }
}

pugi::xml_node SvdDerivation::ByPath(const std::string& path) {
  size_t dot = path.find('.');
  auto it = peripherals_.find(path.substr(0, dot));
  if (it == peripherals_.end()) return {};
  pugi::xml_node node = it->second;
  while (dot != std::string::npos) {
    size_t next = path.find('.', dot + 1);
    std::string part = path.substr(dot + 1, next == std::string::npos ? std::string::npos : next - dot - 1);
    std::string_view kind = node.name();
    pugi::xml_node container = kind == "peripheral" ? node.child("registers")
                               : kind == "cluster"  ? node
                               : kind == "register" ? node.child("fields")
                                                    : pugi::xml_node();
    node = NamedChild(container, part, {"register", "cluster", "field"});
    if (!node) return {};
    dot = next;
  }
  return node;
}

pugi::xml_node SvdDerivation::Base(pugi::xml_node node, const std::string& reference) {
  std::string_view kind = node.name();
  if (kind == "peripheral") {
    auto it = peripherals_.find(reference);
    return it == peripherals_.end() ? pugi::xml_node() : it->second;
  }
  if (kind == "enumeratedValues") {
    auto it = enumerations_.find(reference);
    return it == enumerations_.end() ? pugi::xml_node() : it->second;
  }
  if (reference.find('.') == std::string::npos) {
    if (pugi::xml_node sibling = NamedChild(node.parent(), reference, {kind})) return sibling;
  }
  return ByPath(reference);
}

std::optional<std::vector<pugi::xml_node>> SvdDerivation::Chain(pugi::xml_node node) {
  std::vector<pugi::xml_node> chain{node};
  for (pugi::xml_node current = node;;) {
    pugi::xml_attribute derived = current.attribute("derivedFrom");
    if (!derived) return chain;
    std::string reference = derived.value();
    pugi::xml_node base = Base(current, reference);
    if (!base) {
      diagnostics_.Error(document_.Loc(current), std::string("<") + current.name() + "> derivedFrom '" + reference +
                                                     "': no " + current.name() + " of that name");
      return std::nullopt;
    }
    if (std::find(chain.begin(), chain.end(), base) != chain.end()) {
      regdb::Diagnostic& error = diagnostics_.Error(
          document_.Loc(node), std::string("derivedFrom cycle: <") + node.name() + "> '" + NameOf(node) +
                                   "' derives from itself through '" + reference + "'");
      error.notes.push_back({document_.Loc(base), "the cycle comes back here"});
      return std::nullopt;
    }
    if (std::string_view(base.name()) != current.name()) {
      diagnostics_.Error(document_.Loc(current), std::string("derivedFrom '") + reference + "' names a <" +
                                                     base.name() + ">, not a <" + current.name() + ">");
      return std::nullopt;
    }
    if (chain.size() > limits_.max_derivation_depth) {
      diagnostics_.Error(document_.Loc(node), "derivedFrom chain longer than " +
                                                  std::to_string(limits_.max_derivation_depth) + "; refused");
      return std::nullopt;
    }
    chain.push_back(base);
    current = base;
  }
}

pugi::xml_node SvdDerivation::Find(const std::vector<pugi::xml_node>& chain, const char* name) {
  for (pugi::xml_node node : chain) {
    if (pugi::xml_node child = node.child(name)) return child;
  }
  return {};
}

std::optional<std::string> SvdDerivation::Text(const std::vector<pugi::xml_node>& chain, const char* name) {
  for (pugi::xml_node node : chain) {
    if (std::optional<std::string> text = ChildText(node, name)) return text;
  }
  return std::nullopt;
}

}  // namespace regemu::convert
