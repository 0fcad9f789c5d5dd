#include "tools/convert/svd_yaml_writer.hpp"

#include <sstream>
#include <vector>

#include "regemu/regdb/access.hpp"
#include "tools/convert/yaml_text.hpp"

namespace regemu::convert {

namespace {

constexpr std::string_view kBusSpace = "bus";
// Below the loader's 256 files per database, with device.yaml among them.
constexpr size_t kMaxPeripheralFiles = 200;

void Comments(std::ostream& out, const std::vector<std::string>& notes, std::string_view indent) {
  for (const std::string& note : notes) out << indent << "# " << note << "\n";
}

std::string Bits(const SvdField& field) {
  return field.msb == field.lsb ? std::to_string(field.lsb)
                                : Quoted(std::to_string(field.msb) + ":" + std::to_string(field.lsb));
}

std::string FieldName(const SvdField& field, std::string_view indent, std::ostream& out) {
  std::string note;
  std::string name = FieldNameForHeaders(field.name, note);
  if (!note.empty()) out << indent << "# " << note << "\n";
  return name;
}

void WriteField(std::ostream& out, const SvdField& field, std::string_view indent) {
  Comments(out, field.notes, indent);
  std::vector<std::string> value_names;
  for (const SvdEnumValue& value : field.values) {
    std::string note;
    value_names.push_back(ValueNameForHeaders(value.name, note));
    if (!note.empty()) out << indent << "# " << note << "\n";
  }
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
  for (size_t i = 0; i < field.values.size(); ++i) {
    const SvdEnumValue& value = field.values[i];
    out << indent << "     {name: " << value_names[i] << ", value: " << Hex(value.value);
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

// One peripheral's part of a file: comments and the entries of its lists.
struct PeripheralSections {
  std::string comments, registers, blocks, ranges;
};

PeripheralSections Sections(const SvdDevice& device, const SvdPeripheral& peripheral) {
  std::ostringstream comments, registers, blocks, ranges;
  comments << "# " << peripheral.name << " at " << Hex(peripheral.base)
           << (peripheral.doc.empty() ? "" : ": " + peripheral.doc) << "\n";
  WriteInterrupts(comments, peripheral);
  std::vector<const SvdPeripheral*> instances{&peripheral};
  for (const SvdPeripheral& other : device.peripherals) {
    if (other.instance_of == peripheral.name) {
      instances.push_back(&other);
      comments << "# " << other.name << " (derivedFrom " << peripheral.name << ") at " << Hex(other.base)
               << (other.doc.empty() ? "" : ": " + other.doc) << "\n";
      WriteInterrupts(comments, other);
    }
  }
  Comments(comments, peripheral.notes, "");
  std::string space = SpaceOf(peripheral);
  // With instances, loose prefixed names would be defined once per
  // instance: the registers are a block (PAC0_WPCLR, PAC1_WPCLR) instead.
  if (peripheral.prefix && instances.size() > 1) {
    comments << "# prependToName " << Quoted(*peripheral.prefix) << " left out: " << peripheral.name
             << " has derived instances, so its registers are a block named per instance\n";
  }
  if (peripheral.prefix && instances.size() == 1) {
    for (const SvdRegister& reg : peripheral.registers) {
      auto full = [&](const std::string& n) { return YamlName(*peripheral.prefix + n + peripheral.suffix); };
      WriteRegister(registers, reg, full(reg.name), peripheral.base + reg.offset,
                    reg.alternate_of.empty() ? "" : full(reg.alternate_of), space, "  ");
    }
  } else if (!peripheral.registers.empty()) {
    blocks << "  - name: " << IdentifierFrom(peripheral.name) << "\n";
    blocks << "    space: " << space << "\n";
    if (!peripheral.doc.empty()) blocks << "    doc: " << Quoted(peripheral.doc) << "\n";
    blocks << "    instances:\n";
    for (const SvdPeripheral* instance : instances) {
      blocks << "      " << YamlName(instance->name) << ": " << Hex(instance->base) << "\n";
    }
    blocks << "    registers:\n";
    for (const SvdRegister& reg : peripheral.registers) {
      WriteRegister(blocks, reg, YamlName(reg.name), reg.offset,
                    reg.alternate_of.empty() ? "" : YamlName(reg.alternate_of), "", "      ");
    }
  }
  for (const SvdPeripheral* instance : instances) {
    for (size_t i = 0; i < peripheral.reserved.size(); ++i) {
      const SvdReservedBlock& block = peripheral.reserved[i];
      ranges << "  - {name: " << IdentifierFrom(instance->name) << "_RESERVED" << i << ", kind: reserved, space: "
             << space << ", base: " << Hex(instance->base + block.offset) << ", size: " << Hex(block.size)
             << ", doc: \"addressBlock usage reserved\"}\n";
    }
  }
  return {comments.str(), registers.str(), blocks.str(), ranges.str()};
}

// Several peripherals' sections as one file.
std::string FileOf(const std::vector<PeripheralSections>& parts, const std::string& header) {
  std::string out = header;
  for (const PeripheralSections& part : parts) out += part.comments;
  for (auto [key, member] : {std::pair{"registers", &PeripheralSections::registers},
                             std::pair{"blocks", &PeripheralSections::blocks},
                             std::pair{"ranges", &PeripheralSections::ranges}}) {
    std::string entries;
    for (const PeripheralSections& part : parts) entries += part.*member;
    if (!entries.empty()) out += std::string(key) + ":\n" + entries;
  }
  return out;
}

// The bus: 4 GiB for a 32-bit part, larger when a peripheral lies above it.
uint64_t BusSize(const SvdDevice& device) {
  uint64_t end = 0;
  for (const SvdPeripheral& p : device.peripherals) {
    // An instance has its owner's registers at its own base.
    const SvdPeripheral* owner = &p;
    for (const SvdPeripheral& other : device.peripherals) {
      if (!p.instance_of.empty() && other.name == p.instance_of) owner = &other;
    }
    for (const SvdRegister& r : owner->registers) end = std::max(end, p.base + r.offset + r.width / 8);
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
  // One file per peripheral, unless that passes the loader's file limit
  // (InputLimits::max_files): then consecutive peripherals share files.
  std::vector<std::pair<std::string, PeripheralSections>> parts;
  for (const SvdPeripheral& peripheral : device.peripherals) {
    if (!peripheral.instance_of.empty()) continue;
    if (peripheral.registers.empty() && peripheral.reserved.empty()) {
      // Nothing to decode (a peripheral that only names interrupts): said here.
      notes << "# " << peripheral.name << " at " << Hex(peripheral.base) << " has no registers"
            << (peripheral.doc.empty() ? "" : ": " + peripheral.doc) << "\n";
      WriteInterrupts(notes, peripheral);
      continue;
    }
    parts.emplace_back(IdentifierFrom(peripheral.name), Sections(device, peripheral));
  }
  const size_t per_file = (parts.size() + kMaxPeripheralFiles - 1) / kMaxPeripheralFiles;
  std::ostringstream includes;
  for (size_t first = 0; first < parts.size(); first += per_file) {
    std::vector<PeripheralSections> group;
    for (size_t i = first; i < std::min(parts.size(), first + per_file); ++i) group.push_back(parts[i].second);
    std::string path = "peripherals/" + parts[first].first + ".yaml";
    includes << "  - " << path << "\n";
    files[path] = FileOf(group, header);
  }
  if (!includes.str().empty()) root << "include:\n" << includes.str();
  files["device.yaml"] = root.str() + notes.str();
  return files;
}

}  // namespace regemu::convert
