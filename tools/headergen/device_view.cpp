#include "tools/headergen/device_view.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <set>

namespace regemu::headergen {

namespace {

bool IsZeroOnWrite(regdb::Access access) { return access == regdb::Access::kMbz || access == regdb::Access::kRsvd; }

std::string StripIndex(const std::string& name_template) {
  std::string name = name_template;
  size_t at = name.find("{n}");
  if (at != std::string::npos) name.erase(at, 3);
  std::string out;
  for (char c : name) {
    if (c == '_' && !out.empty() && out.back() == '_') continue;
    out += c;
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  if (out.empty()) out = "REG";
  return out;
}

RegisterView Fold(const regdb::Register& reg, uint64_t base, std::set<std::string>& taken) {
  RegisterView view;
  view.reg = &reg;
  view.in_block = reg.block.has_value();
  view.offset = reg.offset - base;
  view.name = reg.block ? reg.block->local_name : reg.name;
  if (reg.array) {
    view.is_array = true;
    view.count = reg.array->count;
    view.start = reg.array->start;
    view.stride = reg.array->stride;
    view.name = StripIndex(reg.array->name_template);
    if (taken.count(view.name) != 0) view.name += "_ARRAY";
  }
  taken.insert(view.name);
  view.zero_on_write = BitsWhere(reg, IsZeroOnWrite);
  // A masked register's bits 31:16 are the write-enable mask, not reserved bits.
  if (reg.masked) view.zero_on_write &= 0xffff;
  view.alias_of = reg.alias_of;
  if (reg.block && reg.alias_of.rfind(reg.block->instance + "_", 0) == 0) {
    view.alias_of = reg.alias_of.substr(reg.block->instance.size() + 1);
  }
  return view;
}

}  // namespace

bool IsDeviceState(const regdb::Database& db, const regdb::Register& reg) {
  return reg.space < db.spaces.size() && db.spaces[reg.space].kind == regdb::SpaceKind::kState;
}

DeviceView BuildDeviceView(const regdb::Database& db) {
  DeviceView view;
  view.db = &db;
  view.c_prefix = (db.c_prefix.empty() ? Upper(db.device) : db.c_prefix) + "_";
  std::set<std::string> top_names;
  for (const regdb::Register& reg : db.registers) {
    if (!reg.block && !reg.array) top_names.insert(reg.name);
  }
  for (const regdb::Block& block : db.blocks) top_names.insert(block.name);
  for (const regdb::Block& block : db.blocks) view.blocks.push_back(BlockView{&block, {}});

  std::vector<std::set<std::string>> block_names(db.blocks.size());
  for (const regdb::Register& reg : db.registers) {
    if (reg.array && reg.array->index != 0) continue;
    if (IsDeviceState(db, reg)) continue;  // no driver reaches it: no accessor, no offset
    if (reg.block) {
      auto it = std::find_if(db.blocks.begin(), db.blocks.end(),
                             [&](const regdb::Block& b) { return b.name == reg.block->block; });
      if (it == db.blocks.end() || it->instances.empty() || it->instances.front().name != reg.block->instance) continue;
      size_t i = static_cast<size_t>(it - db.blocks.begin());
      view.blocks[i].registers.push_back(Fold(reg, reg.block->base, block_names[i]));
      continue;
    }
    if (reg.array) {
      view.registers.push_back(Fold(reg, 0, top_names));
    } else {
      std::set<std::string> own;  // a plain register keeps its (unique) name
      view.registers.push_back(Fold(reg, 0, own));
    }
  }

  for (const regdb::Register& reg : db.registers) {
    if (IsDeviceState(db, reg)) continue;
    const regdb::Space* space = nullptr;
    for (const regdb::Space& s : db.spaces) {
      if (s.name == reg.space_name) space = &s;
    }
    uint64_t size = space != nullptr && space->indexed() ? 1 : reg.size_bytes();
    view.placed.push_back(PlacedRegister{&reg, reg.space_name, reg.offset, size});
  }
  std::stable_sort(view.placed.begin(), view.placed.end(), [](const PlacedRegister& a, const PlacedRegister& b) {
    return a.space != b.space ? a.space < b.space : a.offset < b.offset;
  });
  return view;
}

std::string Upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

std::string Lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

std::string SafeIdentifier(std::string text) {
  static const std::set<std::string> kKeywords = {
      "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
      "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
      "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
      "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
      "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
      "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
      "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
      "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
      "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
      "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
      "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
      "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
      "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
      "xor_eq"};
  if (kKeywords.count(text) != 0) text += "_";
  // A field named as its datasheet spells it may start with a digit (HPET's
  // 32MODE_CNF): `_32MODE_CNF`, `_32mode_cnf()` (set_32mode_cnf needs nothing).
  if (!text.empty() && std::isdigit(static_cast<unsigned char>(text.front()))) text.insert(0, "_");
  return text;
}

std::string RangeSummary(const regdb::Range& range) {
  if (range.kind == regdb::RangeKind::kReserved) {
    return "reserved range in space " + range.space_name + " (reads 0, writes ignored)";
  }
  std::string text = "alias window in space " + range.space_name + " onto space " + range.target_space_name + " at " +
                     HexLiteral(range.target_offset);
  text += range.writes == regdb::AliasWrites::kIgnore ? ", read-only (writes ignored)" : ", writes forwarded";
  if (range.enabled_by) text += ", decoded while " + range.enabled_by->text;
  return text;
}

std::string HexLiteral(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(value));
  return buffer;
}

std::string CommentText(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\n' || c == '\r') c = ' ';
    if (c == '*' && i + 1 < text.size() && text[i + 1] == '/') {
      out += "* ";
      continue;
    }
    if (c == '/' && i + 1 < text.size() && (text[i + 1] == '*' || text[i + 1] == '/')) {
      out += "/ ";
      continue;
    }
    if (c == '\\') c = '/';  // a trailing backslash would continue a // comment
    out += c;
  }
  return out;
}

}  // namespace regemu::headergen
