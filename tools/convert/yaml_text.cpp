#include "tools/convert/yaml_text.hpp"

#include <cctype>
#include <cstdio>

namespace regemu::convert {

namespace {

// Names a generated C or C++ header cannot use as they are: the standard
// macros an SVD spells in capitals (RP2040's CLOCKS FC0_SRC has a value
// NULL) and the keywords.
bool ReservedInGeneratedCode(std::string_view id) {
  static constexpr std::string_view kReserved[] = {
      "NULL", "EOF", "BUFSIZ", "errno", "assert", "stdin", "stdout", "stderr", "alignas", "alignof", "and", "asm",
      "auto", "bitand", "bitor", "bool", "break", "case", "catch", "char", "class", "compl", "const", "constexpr",
      "continue", "default", "delete", "do", "double", "else", "enum", "explicit", "export", "extern", "false",
      "float", "for", "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "not",
      "operator", "or", "private", "protected", "public", "register", "return", "short", "signed", "sizeof",
      "static", "struct", "switch", "template", "this", "throw", "true", "try", "typedef", "typename", "union",
      "unsigned", "using", "virtual", "void", "volatile", "while", "xor"};
  for (std::string_view word : kReserved) {
    if (id == word) return true;
  }
  return false;
}

}  // namespace

std::string IdentifierFrom(std::string_view name, bool field) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '_' ? c : '_';
  if (out.empty()) return "_";
  if (std::isdigit(static_cast<unsigned char>(out[0]))) {
    bool has_letter = false;
    for (char c : out) has_letter = has_letter || std::isalpha(static_cast<unsigned char>(c));
    bool numeric_prefix = out.size() > 1 && out[0] == '0' && std::string_view("xXbB").find(out[1]) != std::string_view::npos;
    if (!field || !has_letter || numeric_prefix) out.insert(out.begin(), '_');
  }
  if (ReservedInGeneratedCode(out)) out += '_';
  return out;
}

std::string YamlName(std::string_view name, bool field) {
  std::string id = IdentifierFrom(name, field);
  std::string lower;
  for (char c : id) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (std::string_view word : {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}) {
    if (lower == word) return "\"" + id + "\"";
  }
  return id;
}

std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", u);
      out += buffer;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string FieldNameForHeaders(std::string_view name, std::string& note) {
  std::string yaml_name = YamlName(name, true);
  note.clear();
  if (yaml_name == "RESET" || yaml_name == "WIDTH") {
    note = yaml_name + " is named " + yaml_name + "_ here: a generated C header already has REGISTER_" + yaml_name;
    yaml_name += '_';
  }
  return yaml_name;
}

std::string ValueNameForHeaders(std::string_view name, std::string& note) {
  std::string yaml_name = YamlName(name);
  note.clear();
  for (std::string_view taken : {"MASK", "SHIFT", "WIDTH", "RESET"}) {
    if (yaml_name != taken) continue;
    note = "value " + yaml_name + " is named " + yaml_name + "_ here: a generated C header already has FIELD_" +
           yaml_name;
    yaml_name += '_';
  }
  return yaml_name;
}

}  // namespace regemu::convert
