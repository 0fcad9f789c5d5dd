#include "tools/convert/svd_yaml_writer.hpp"

#include <sstream>
#include <vector>

#include "regemu/regdb/access.hpp"
#include "tools/convert/yaml_text.hpp"

namespace regemu::convert {

namespace {

constexpr std::string_view kBusSpace = "bus";

void Comments(std::ostream& out, const std::vector<std::string>& notes, std::string_view indent) {
  for (const std::string& note : notes) out << indent << "# " << note << "\n";
}

std::string Bits(const SvdField& field) {
  return field.msb == field.lsb ? std::to_string(field.lsb)
                                : Quoted(std::to_string(field.msb) + ":" + std::to_string(field.lsb));
}

// A field's generated C macros are REGISTER_FIELD, beside the register's own
// REGISTER_RESET and REGISTER_WIDTH: a field of one of those names (RP2040's
// USB buffer controls have a RESET bit) is renamed, and says so.
std::string FieldName(const SvdField& field, std::string_view indent, std::ostream& out) {
  std::string name = YamlName(field.name, true);
  if (name == "RESET" || name == "WIDTH") {
    out << indent << "# " << name << " is named " << name
        << "_ here: a generated C header already has REGISTER_" << name << "\n";
    name += '_';
  }
  return name;
}

void WriteField(std::ostream& out, const SvdField& field, std::string_view indent) {
  Comments(out, field.notes, indent);
  std::string name = FieldName(field, indent, out);
  out << indent << "- {name: " << name << ", bits: " << Bits(field)
      << ", access: " << regdb::AccessName(field.access);
  if (field.is_volatile) out << ", volatile: true";
  if (!field.doc.empty()) out << ", doc: " << Quoted(field.doc);
  if (field.values.empty()) {
    out << "}\n";
    return;
  }
  out << ",\n" << indent << "   values: [\n";
  for (const SvdEnumValue& value : field.values) {
    out << indent << "     {name: " << YamlName(value.name) << ", value: " << Hex(value.value);
    if (!value.doc.empty()) out << ", doc: " << Quoted(value.doc);
    out << "},\n";
  }
  out << indent << "   ]}\n";
}

// `name` and `offset` as the register's context wants them (block-local or absolute).
void WriteRegister(std::ostream& out, const SvdRegister& reg, const std::string& name, uint64_t offset,
                   const std::string& alias, std::string_view space, std::string_view indent) {
  Comments(out, reg.notes, indent);
  if (reg.reset_undefined != 0) {
    out << indent << "# resetMask leaves bits " << Hex(reg.reset_undefined)
        << " undefined at reset; regemu starts them at 0\n";
  }
  out << indent << "- name: " << name << "\n";
  std::string more(indent.size() + 2, ' ');
  if (!space.empty()) out << more << "space: " << space << "\n";
  out << more << "offset: " << Hex(offset) << "\n";
  if (reg.width != 32) out << more << "width: " << reg.width << "\n";
  if (reg.reset != 0) out << more << "reset: " << Hex(reg.reset) << "\n";
  if (reg.fields.empty()) {
    out << more << "access: " << regdb::AccessName(reg.access) << "\n";
    if (reg.is_volatile) out << more << "volatile: true\n";
  }
  if (!alias.empty()) out << more << "alias_of: " << alias << "\n";
  if (!reg.doc.empty()) out << more << "doc: " << Quoted(reg.doc) << "\n";
  if (reg.fields.empty()) return;
  out << more << "fields:\n";
  for (const SvdField& field : reg.fields) WriteField(out, field, more + "  ");
}

std::string SpaceOf(const SvdPeripheral& peripheral) {
  return peripheral.alternate_of.empty() ? std::string(kBusSpace) : IdentifierFrom(peripheral.name);
}

void WriteInterrupts(std::ostream& out, const SvdPeripheral& peripheral) {
  for (const SvdInterrupt& irq : peripheral.interrupts) {
    // regemu's named lines belong to `kind: interrupts` outputs, which need
    // the status bits that raise them: SVD does not say which.
    out << "# " << peripheral.name << " raises interrupt " << irq.name << " (" << irq.value
        << ")" << (irq.doc.empty() ? "" : ": " + irq.doc)
        << "; SVD does not say which status bits drive it, so no `kind: interrupts` line is made\n";
  }
}

std::string PeripheralFile(const SvdDevice& device, const SvdPeripheral& peripheral, const std::string& header) {
  std::ostringstream out;
  out << header;
  out << "# " << peripheral.name << " at " << Hex(peripheral.base)
      << (peripheral.doc.empty() ? "" : ": " + peripheral.doc) << "\n";
  WriteInterrupts(out, peripheral);
  std::vector<const SvdPeripheral*> instances{&peripheral};
  for (const SvdPeripheral& other : device.peripherals) {
    if (other.instance_of == peripheral.name) {
      instances.push_back(&other);
      out << "# " << other.name << " (derivedFrom " << peripheral.name << ") at " << Hex(other.base)
          << (other.doc.empty() ? "" : ": " + other.doc) << "\n";
      WriteInterrupts(out, other);
    }
  }
  Comments(out, peripheral.notes, "");
  std::string space = SpaceOf(peripheral);
  if (peripheral.prefix && !peripheral.registers.empty()) {
    out << "registers:\n";
    for (const SvdRegister& reg : peripheral.registers) {
      auto full = [&](const std::string& n) { return YamlName(*peripheral.prefix + n + peripheral.suffix); };
      WriteRegister(out, reg, full(reg.name), peripheral.base + reg.offset,
                    reg.alternate_of.empty() ? "" : full(reg.alternate_of), space, "  ");
    }
  } else if (!peripheral.registers.empty()) {
    out << "blocks:\n";
    out << "  - name: " << IdentifierFrom(peripheral.name) << "\n";
    out << "    space: " << space << "\n";
    if (!peripheral.doc.empty()) out << "    doc: " << Quoted(peripheral.doc) << "\n";
    out << "    instances:\n";
    for (const SvdPeripheral* instance : instances) {
      out << "      " << YamlName(instance->name) << ": " << Hex(instance->base) << "\n";
    }
    out << "    registers:\n";
    for (const SvdRegister& reg : peripheral.registers) {
      WriteRegister(out, reg, YamlName(reg.name), reg.offset,
                    reg.alternate_of.empty() ? "" : YamlName(reg.alternate_of), "", "      ");
    }
  }
  bool any_reserved = false;
  for (const SvdPeripheral* instance : instances) {
    for (size_t i = 0; i < peripheral.reserved.size(); ++i) {
      const SvdReservedBlock& block = peripheral.reserved[i];
      if (!any_reserved) out << "ranges:\n";
      any_reserved = true;
      out << "  - {name: " << IdentifierFrom(instance->name) << "_RESERVED" << i << ", kind: reserved, space: " << space
          << ", base: " << Hex(instance->base + block.offset) << ", size: " << Hex(block.size)
          << ", doc: \"addressBlock usage reserved\"}\n";
    }
  }
  return out.str();
}

// The bus: 4 GiB for a 32-bit part, larger when a peripheral lies above it.
uint64_t BusSize(const SvdDevice& device) {
  uint64_t end = 0;
  for (const SvdPeripheral& p : device.peripherals) {
    for (const SvdRegister& r : p.registers) {
      uint64_t base = p.prefix ? p.base : 0;  // block registers are checked per instance below
      end = std::max(end, base + r.offset + r.width / 8);
    }
    end = std::max(end, p.base + 1);
  }
  uint64_t size = uint64_t{1} << std::min(device.address_bits, 63u);
  while (size < end && size < (uint64_t{1} << 63)) size <<= 1;
  return size;
}

}  // namespace

std::map<std::string, std::string> WriteDatabaseYaml(const SvdDevice& device, const std::string& source_name) {
  std::map<std::string, std::string> files;
  std::string header = "# Converted from " + source_name +
                       " (CMSIS-SVD) by `regemu convert svd`: re-convert rather than edit.\n";
  std::ostringstream root;
  std::ostringstream notes;
  root << header;
  Comments(root, device.notes, "");
  root << "device: " << IdentifierFrom(device.name) << "\n";
  if (!device.doc.empty()) root << "doc: " << Quoted(device.doc) << "\n";
  uint64_t bus_size = BusSize(device);
  root << "spaces:\n";
  root << "  - {name: " << kBusSpace << ", kind: mmio, size: " << Hex(bus_size)
       << ", doc: \"the CPU's bus: SVD base addresses are offsets here\"}\n";
  for (const SvdPeripheral& peripheral : device.peripherals) {
    if (peripheral.alternate_of.empty() || !peripheral.instance_of.empty()) continue;
    root << "  - {name: " << SpaceOf(peripheral) << ", kind: mmio, size: " << Hex(bus_size)
         << ", doc: " << Quoted("alternatePeripheral of " + peripheral.alternate_of + ": the same addresses") << "}\n";
  }
  std::ostringstream includes;
  for (const SvdPeripheral& peripheral : device.peripherals) {
    if (!peripheral.instance_of.empty()) continue;
    if (peripheral.registers.empty() && peripheral.reserved.empty()) {
      // Nothing to decode (a peripheral that only names interrupts): said here.
      notes << "# " << peripheral.name << " at " << Hex(peripheral.base) << " has no registers"
            << (peripheral.doc.empty() ? "" : ": " + peripheral.doc) << "\n";
      WriteInterrupts(notes, peripheral);
      continue;
    }
    std::string path = "peripherals/" + IdentifierFrom(peripheral.name) + ".yaml";
    includes << "  - " << path << "\n";
    files[path] = PeripheralFile(device, peripheral, header);
  }
  if (!includes.str().empty()) root << "include:\n" << includes.str();
  files["device.yaml"] = root.str() + notes.str();
  return files;
}

}  // namespace regemu::convert
