// The C++ backend: hwreg-style register classes.
#include <ostream>
#include <string>

#include "tools/headergen/backends.hpp"

namespace regemu::headergen {

namespace {

std::string IntType(unsigned width) { return "uint" + std::to_string(width) + "_t"; }

void DocLines(std::ostream& os, const std::string& indent, const std::string& doc, const std::string& ref) {
  if (!doc.empty()) os << indent << "/// " << CommentText(doc) << "\n";
  if (!ref.empty()) os << indent << "/// ref: " << CommentText(ref) << "\n";
}

void Field(std::ostream& os, const RegisterView& view, const regdb::Field& field) {
  const regdb::Register& reg = *view.reg;
  const regdb::AccessInfo& info = regdb::Info(field.access);
  std::string type = IntType(reg.width);
  std::string name = SafeIdentifier(field.name);
  if (name == view.name) name += "_FIELD";  // a member may not share its class's name
  std::string accessor = SafeIdentifier(Lower(field.name));
  os << "\n";
  DocLines(os, "  ", field.doc, "");
  os << "  /// bits " << field.bits.msb << ":" << field.bits.lsb << ", " << info.name << " (" << info.summary << ")\n";
  if (!field.value_text.IsNull()) os << "  /// computed: " << CommentText(field.value_text.text) << "\n";
  os << "  struct " << name << " : ::regemu::hwreg::BitField<" << field.bits.msb << ", " << field.bits.lsb << "> {\n";
  os << "    static constexpr std::string_view kAccess = \"" << info.name << "\";\n";
  os << "    static constexpr bool kReadable = " << (info.readable() ? "true" : "false") << ";\n";
  os << "    static constexpr bool kWritable = " << (info.writable() ? "true" : "false") << ";\n";
  os << "    static constexpr bool kReadHasSideEffect = " << (info.read_has_side_effect() ? "true" : "false") << ";\n";
  os << "    static constexpr bool kVolatile = " << (field.is_volatile ? "true" : "false") << ";\n";
  os << "    static constexpr uint64_t kReset = " << HexLiteral(field.reset.value_or(0)) << ";\n";
  if (!field.values.empty()) {
    os << "    enum class Value : " << type << " {\n";
    for (const regdb::EnumValue& value : field.values) {
      if (!value.doc.empty()) os << "      /// " << CommentText(value.doc) << "\n";
      os << "      " << SafeIdentifier(value.name) << " = " << HexLiteral(value.value) << ",\n";
    }
    os << "    };\n";
  }
  os << "  };\n";
  os << "  constexpr " << type << " " << accessor << "() const { return GetField<" << name << ">(); }\n";
  bool settable = field.access != regdb::Access::kMbz && field.access != regdb::Access::kRsvd;
  if (settable) {
    os << "  constexpr " << view.name << "& set_" << Lower(field.name) << "(" << type << " value) { return SetField<"
       << name << ">(value); }\n";
  }
  if (!field.values.empty()) {
    os << "  constexpr " << name << "::Value " << SafeIdentifier(Lower(field.name) + "_value") << "() const { return static_cast<" << name
       << "::Value>(" << accessor << "()); }\n";
    if (settable) {
      os << "  constexpr " << view.name << "& set_" << Lower(field.name) << "(" << name
         << "::Value value) { return SetField<" << name << ">(static_cast<uint64_t>(value)); }\n";
    }
  }
}

void Register(std::ostream& os, const RegisterView& view, const std::string& space_doc) {
  const regdb::Register& reg = *view.reg;
  std::string type = IntType(reg.width);
  std::string base = reg.masked ? "::regemu::hwreg::MaskedRegister<" + view.name + ">"
                                : "::regemu::hwreg::Register<" + view.name + ", " + type + ">";
  uint64_t must_be_zero = BitsWhere(reg, [](regdb::Access a) { return a == regdb::Access::kMbz; });
  os << "\n";
  DocLines(os, "", reg.doc, reg.ref);
  os << "/// " << space_doc << ", " << reg.width << " bits, reset " << HexLiteral(reg.reset);
  if (reg.masked) os << ", masked (bits 31:16 of a write select which of bits 15:0 change)";
  if (!view.alias_of.empty()) os << ", alias of " << view.alias_of;
  os << "\n";
  os << "class " << view.name << " : public " << base << " {\n public:\n";
  os << "  static constexpr std::string_view kName = \"" << view.name << "\";\n";
  os << "  static constexpr std::string_view kSpace = \"" << reg.space_name << "\";\n";
  os << "  static constexpr unsigned kWidth = " << reg.width << ";\n";
  os << "  static constexpr uint64_t kReset = " << HexLiteral(reg.reset) << ";\n";
  os << "  static constexpr " << type << " kZeroOnWrite = " << HexLiteral(view.zero_on_write)
     << ";  // mbz and rsvd bits\n";
  os << "  static constexpr " << type << " kMustBeZero = " << HexLiteral(must_be_zero) << ";\n";
  os << "  static constexpr bool kMasked = " << (reg.masked ? "true" : "false") << ";\n";
  os << "  static constexpr bool kVolatile = " << (reg.is_volatile ? "true" : "false") << ";\n";
  if (!view.alias_of.empty()) os << "  static constexpr std::string_view kAliasOf = \"" << view.alias_of << "\";\n";

  std::string params;  // of Get / FromValue / OffsetOf
  std::string args;
  std::string offset_expr;
  if (view.in_block) {
    os << "  static constexpr uint64_t kLocalOffset = " << HexLiteral(view.offset)
       << ";  // from the instance's base\n";
    params = "uint64_t base";
    args = "base";
    offset_expr = "base + kLocalOffset";
  } else {
    os << "  static constexpr uint64_t kOffset = " << HexLiteral(view.offset) << ";\n";
    offset_expr = "kOffset";
  }
  if (view.is_array) {
    os << "  static constexpr uint32_t kCount = " << view.count << ";\n";
    os << "  static constexpr uint32_t kStart = " << view.start << ";  // number of the first element\n";
    os << "  static constexpr uint64_t kStride = " << HexLiteral(view.stride) << ";\n";
    params += params.empty() ? "uint32_t n" : ", uint32_t n";
    args += args.empty() ? "n" : ", n";
    offset_expr += " + uint64_t{n - kStart} * kStride";
  }
  os << "\n  static constexpr uint64_t OffsetOf(" << params << ") { return " << offset_expr << "; }\n";
  os << "  // The register holding its reset value.\n";
  os << "  static constexpr " << view.name << " Get(" << params << ") { return " << view.name << "(OffsetOf(" << args
     << "), static_cast<" << type << ">(kReset)); }\n";
  os << "  static constexpr " << view.name << " FromValue(" << params << (params.empty() ? "" : ", ") << type
     << " value) { return " << view.name << "(OffsetOf(" << args << "), value); }\n";
  for (const regdb::Field& field : reg.fields) Field(os, view, field);
  os << "\n private:\n";
  os << "  constexpr " << view.name << "(uint64_t offset, " << type << " value) : " << base << "(offset, value) {}\n";
  os << "};\n";
}

std::string SpaceDoc(const regdb::Register& reg, const RegisterView& view) {
  std::string text = "space " + reg.space_name + (view.in_block ? ", base + " : ", offset ") + HexLiteral(view.offset);
  if (view.is_array) {
    text += " + (n - " + std::to_string(view.start) + ") * " + HexLiteral(view.stride) + ", n in [" +
            std::to_string(view.start) + ", " + std::to_string(uint64_t{view.start} + view.count - 1) + "]";
  }
  return text;
}

}  // namespace

void CppBackend::Run(std::ostream& os) const {
  const regdb::Database& db = *view_.db;
  os << "// Generated by `regemu header --lang c++` from device '" << db.device << "'. Do not edit.\n";
  if (!db.doc.empty()) os << "// " << CommentText(db.doc) << "\n";
  if (!db.ref.empty()) os << "// ref: " << CommentText(db.ref) << "\n";
  os << "#pragma once\n\n#include <cstdint>\n#include <string_view>\n\n#include \"regemu/hwreg.hpp\"\n\n";
  os << "namespace regemu::regs::" << db.device << " {\n\n";
  os << "inline constexpr std::string_view kDevice = \"" << db.device << "\";\n";
  for (const RegisterView& view : view_.registers) Register(os, view, SpaceDoc(*view.reg, view));
  for (const BlockView& block : view_.blocks) {
    os << "\n";
    DocLines(os, "", block.block->doc, block.block->ref);
    os << "/// block in space " << block.block->space_name << "; instances:";
    for (const regdb::BlockInstance& instance : block.block->instances) {
      os << " " << instance.name << " at " << HexLiteral(instance.base);
    }
    os << "\nnamespace " << block.block->name << " {\n\n";
    for (const regdb::BlockInstance& instance : block.block->instances) {
      os << "inline constexpr uint64_t " << instance.name << "_BASE = " << HexLiteral(instance.base) << ";\n";
    }
    for (const RegisterView& view : block.registers) Register(os, view, SpaceDoc(*view.reg, view));
    os << "\n}  // namespace " << block.block->name << "\n";
  }
  for (const regdb::Range& range : db.ranges) {
    os << "\n";
    DocLines(os, "", range.doc, range.ref);
    os << "/// " << CommentText(RangeSummary(range)) << "\n";
    os << "inline constexpr uint64_t " << range.name << "_BASE = " << HexLiteral(range.base) << ";\n";
    os << "inline constexpr uint64_t " << range.name << "_SIZE = " << HexLiteral(range.size) << ";\n";
  }
  os << "\n}  // namespace regemu::regs::" << db.device << "\n";
}

}  // namespace regemu::headergen
