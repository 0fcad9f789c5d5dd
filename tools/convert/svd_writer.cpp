#include "tools/convert/svd_writer.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <pugixml.hpp>

#include "tools/convert/svd_access.hpp"
#include "tools/convert/yaml_text.hpp"

namespace regemu::convert {

namespace {

void Text(pugi::xml_node parent, const char* name, const std::string& value) {
  parent.append_child(name).text().set(value.c_str());
}

class SvdWriter {
 public:
  explicit SvdWriter(const regdb::Database& database) : database_(database) {}

  SvdExport Run() {
    pugi::xml_document document;
    pugi::xml_node declaration = document.append_child(pugi::node_declaration);
    declaration.append_attribute("version") = "1.0";
    declaration.append_attribute("encoding") = "utf-8";
    document.append_child(pugi::node_comment)
        .set_value(" Written by regemu convert (to svd); what SVD cannot hold is listed at the end. ");
    pugi::xml_node device = document.append_child("device");
    device.append_attribute("schemaVersion") = "1.3";
    device.append_attribute("xmlns:xs") = "http://www.w3.org/2001/XMLSchema-instance";
    device.append_attribute("xs:noNamespaceSchemaLocation") = "CMSIS-SVD.xsd";
    Text(device, "name", database_.device);
    Text(device, "version", "1.0");
    Text(device, "description", database_.doc.empty() ? database_.device : database_.doc);
    Text(device, "addressUnitBits", "8");
    Text(device, "width", "32");
    pugi::xml_node peripherals = device.append_child("peripherals");

    std::optional<regdb::SpaceIndex> bus;
    for (regdb::SpaceIndex i = 0; i < database_.spaces.size(); ++i) {
      const regdb::Space& space = database_.spaces[i];
      if (space.kind == regdb::SpaceKind::kMmio && !bus) {
        bus = i;
        continue;
      }
      LeftOut("space '" + space.name + "' (" + std::string(regdb::SpaceKindName(space.kind)) +
              "): SVD describes one memory-mapped bus");
    }
    if (bus) WriteSpace(*bus, peripherals);
    for (const regdb::BehaviourSpec& behaviour : database_.behaviours) {
      LeftOut("behaviour '" + behaviour.name + "' (kind " + behaviour.kind + ", with its reactions and rules)");
    }
    for (const regdb::Range& range : database_.ranges) {
      if (range.kind == regdb::RangeKind::kAlias) LeftOut("alias range '" + range.name + "'");
    }
    // Without a count: `regemu convert svd` infers volatile bits, so the
    // number would change between passes of a round trip.
    if (volatile_count_ != 0) LeftOut("volatile flags: SVD has no such element");
    if (!left_out_.empty()) {
      std::string list = " Left out (SVD cannot hold them):\n";
      for (const std::string& item : left_out_) list += "  - " + item + "\n";
      document.append_child(pugi::node_comment).set_value(Sanitized(list).c_str());
    }
    std::ostringstream text;
    document.save(text, "  ", pugi::format_default, pugi::encoding_utf8);
    return {text.str(), register_count_, left_out_};
  }

 private:
  // "--" may not appear inside an XML comment.
  static std::string Sanitized(std::string text) {
    for (size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at)) text.replace(at, 2, "- ");
    return text;
  }

  void LeftOut(std::string what) { left_out_.push_back(std::move(what)); }

  bool Exportable(const regdb::Register& reg) {
    std::string why = reg.masked             ? "an Intel masked register"
                      : !reg.view_of.empty() ? "a view of " + reg.view_of
                      : reg.banked()         ? "a split or banked register (decode/decode_when)"
                                             : "";
    if (why.empty()) return true;
    LeftOut("register '" + reg.name + "': " + why);
    return false;
  }

  void WriteSpace(regdb::SpaceIndex space, pugi::xml_node peripherals) {
    // Blocks first, one peripheral per block, in database order.
    std::map<std::string, std::vector<const regdb::Register*>> by_block;
    std::vector<const regdb::Register*> loose;
    for (const regdb::Register& reg : database_.registers) {
      if (reg.space != space || !Exportable(reg)) continue;
      if (reg.block) {
        const regdb::Block* block = FindBlock(reg.block->block);
        if (block && reg.block->instance == block->instances.front().name) by_block[block->name].push_back(&reg);
      } else {
        loose.push_back(&reg);
      }
    }
    for (const regdb::Block& block : database_.blocks) {
      if (database_.FindSpace(block.space_name) != space || block.instances.empty()) continue;
      const regdb::BlockInstance& first = block.instances.front();
      pugi::xml_node peripheral = peripherals.append_child("peripheral");
      Text(peripheral, "name", first.name);
      if (!block.doc.empty()) Text(peripheral, "description", block.doc);
      Text(peripheral, "baseAddress", Hex(first.base));
      std::vector<const regdb::Register*>& regs = by_block[block.name];
      WriteRegisters(peripheral, regs, first.base, true);
      for (size_t i = 1; i < block.instances.size(); ++i) {
        pugi::xml_node derived = peripherals.append_child("peripheral");
        derived.append_attribute("derivedFrom") = first.name.c_str();
        Text(derived, "name", block.instances[i].name);
        Text(derived, "baseAddress", Hex(block.instances[i].base));
      }
    }
    if (loose.empty()) return;
    pugi::xml_node peripheral = peripherals.append_child("peripheral");
    Text(peripheral, "name", database_.spaces[space].name);
    // Empty: the registers keep their own names when converted back.
    peripheral.append_child("prependToName");
    Text(peripheral, "description", database_.spaces[space].doc.empty() ? database_.spaces[space].name
                                                                         : database_.spaces[space].doc);
    Text(peripheral, "baseAddress", "0x0");
    for (const regdb::Range& range : database_.ranges) {
      if (range.kind != regdb::RangeKind::kReserved || database_.FindSpace(range.space_name) != space) continue;
      pugi::xml_node block = peripheral.append_child("addressBlock");
      Text(block, "offset", Hex(range.base));
      Text(block, "size", Hex(range.size));
      Text(block, "usage", "reserved");
    }
    WriteRegisters(peripheral, loose, 0, false);
  }

  const regdb::Block* FindBlock(const std::string& name) const {
    for (const regdb::Block& block : database_.blocks) {
      if (block.name == name) return &block;
    }
    return nullptr;
  }

  void WriteRegisters(pugi::xml_node peripheral, const std::vector<const regdb::Register*>& regs, uint64_t base,
                      bool block_local) {
    uint64_t end = 0;
    for (const regdb::Register* reg : regs) end = std::max(end, reg->offset - base + reg->size_bytes());
    pugi::xml_node address_block = peripheral.insert_child_before("addressBlock", peripheral.child("addressBlock"));
    if (!address_block) address_block = peripheral.append_child("addressBlock");
    Text(address_block, "offset", "0x0");
    Text(address_block, "size", Hex(std::max<uint64_t>(end, 1)));
    Text(address_block, "usage", "registers");
    pugi::xml_node registers = peripheral.append_child("registers");
    for (const regdb::Register* reg : regs) {
      std::string name = block_local ? reg->block->local_name : reg->name;
      pugi::xml_node node = registers.append_child("register");
      Text(node, "name", name);
      if (!reg->doc.empty()) Text(node, "description", reg->doc);
      if (!reg->alias_of.empty()) {
        std::string alias = reg->alias_of;
        if (block_local && alias.starts_with(reg->block->instance + "_")) alias.erase(0, reg->block->instance.size() + 1);
        Text(node, "alternateRegister", alias);
      }
      Text(node, "addressOffset", Hex(reg->offset - base));
      Text(node, "size", std::to_string(reg->width));
      Text(node, "resetValue", Hex(reg->reset));
      ++register_count_;
      if (reg->is_volatile) ++volatile_count_;
      if (reg->fields.empty()) {
        WriteAccess(node, reg->default_access, "register '" + reg->name + "'");
        continue;
      }
      if (reg->default_access != regdb::Access::kRsvd) {
        LeftOut("register '" + reg->name + "': the policy " + std::string(regdb::AccessName(reg->default_access)) +
                " of bits no field covers");
      }
      pugi::xml_node fields = node.append_child("fields");
      for (const regdb::Field& field : reg->fields) WriteField(fields, *reg, field);
      if (!fields.first_child()) node.remove_child(fields);
    }
  }

  bool WriteAccess(pugi::xml_node node, regdb::Access access, const std::string& what) {
    std::string note;
    std::optional<SvdAccessText> svd = SvdFromPolicy(access, note);
    if (!svd) return false;
    if (!note.empty()) LeftOut(what + ": " + note);
    Text(node, "access", svd->access);
    if (!svd->modified_write_values.empty()) Text(node, "modifiedWriteValues", svd->modified_write_values);
    if (!svd->read_action.empty()) Text(node, "readAction", svd->read_action);
    return true;
  }

  void WriteField(pugi::xml_node fields, const regdb::Register& reg, const regdb::Field& field) {
    std::string what = "field '" + reg.name + "." + field.name + "'";
    std::string ignored;
    if (!SvdFromPolicy(field.access, ignored)) {
      LeftOut(what + " (" + std::string(regdb::AccessName(field.access)) + "): SVD has no reserved bits");
      return;
    }
    if (field.write_is_violation) LeftOut(what + ": on_write: violation");
    if (field.is_volatile) ++volatile_count_;
    pugi::xml_node node = fields.append_child("field");
    Text(node, "name", field.name);
    if (!field.doc.empty()) Text(node, "description", field.doc);
    Text(node, "bitRange", "[" + std::to_string(field.bits.msb) + ":" + std::to_string(field.bits.lsb) + "]");
    WriteAccess(node, field.access, what);
    if (field.values.empty()) return;
    pugi::xml_node values = node.append_child("enumeratedValues");
    for (const regdb::EnumValue& value : field.values) {
      pugi::xml_node item = values.append_child("enumeratedValue");
      Text(item, "name", value.name);
      if (!value.doc.empty()) Text(item, "description", value.doc);
      Text(item, "value", Hex(value.value));
    }
  }

  const regdb::Database& database_;
  std::vector<std::string> left_out_;
  size_t register_count_ = 0;
  size_t volatile_count_ = 0;
};

}  // namespace

SvdExport WriteSvd(const regdb::Database& database) { return SvdWriter(database).Run(); }

}  // namespace regemu::convert
