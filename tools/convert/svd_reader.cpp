#include "tools/convert/svd_reader.hpp"

#include <string_view>

#include "tools/convert/bounded_file.hpp"
#include "tools/convert/svd_access.hpp"
#include "tools/convert/svd_alternates.hpp"
#include "tools/convert/svd_derivation.hpp"
#include "tools/convert/svd_dim.hpp"
#include "tools/convert/svd_document.hpp"
#include "tools/convert/svd_layout_checks.hpp"

namespace regemu::convert {

namespace {

using Chain = std::vector<pugi::xml_node>;

// SVD's registerPropertiesGroup plus the field-level effects a register
// may give its fields: what every level passes down to the next.
struct Inherited {
  std::optional<std::string> size, access, reset_value, reset_mask, modified_write_values, read_action;

  Inherited Over(const Chain& chain) const {
    Inherited out = *this;
    auto take = [&](std::optional<std::string>& slot, const char* name) {
      if (std::optional<std::string> text = SvdDerivation::Text(chain, name)) slot = text;
    };
    take(out.size, "size");
    take(out.access, "access");
    take(out.reset_value, "resetValue");
    take(out.reset_mask, "resetMask");
    take(out.modified_write_values, "modifiedWriteValues");
    take(out.read_action, "readAction");
    return out;
  }
};

class SvdReader {
 public:
  SvdReader(const SvdDocument& document, const SvdLimits& limits, regdb::Diagnostics& diagnostics)
      : document_(document), limits_(limits), diagnostics_(diagnostics), derivation_(document, limits, diagnostics) {}

  SvdDevice Read() {
    pugi::xml_node root = document_.root();
    SvdDevice device;
    device.name = ChildText(root, "name").value_or("");
    if (device.name.empty()) Error(root, "<device> has no <name>");
    device.doc = FoldWhitespace(ChildText(root, "description").value_or(""));
    if (std::optional<std::string> unit = ChildText(root, "addressUnitBits"); unit && ParseSvdNumber(*unit) != 8u) {
      CheckAddressUnit(root.child("addressUnitBits"), *unit, device);
    }
    Inherited defaults = Inherited{}.Over({root});
    pugi::xml_node peripherals = root.child("peripherals");
    if (!peripherals) Error(root, "<device> has no <peripherals>");
    for (pugi::xml_node peripheral : peripherals.children("peripheral")) ReadPeripheral(peripheral, defaults, device);
    return device;
  }

 private:
  // regemu addresses bytes. Espressif's files say addressUnitBits 32 yet
  // give byte offsets (32-bit registers 4 apart, every offset a multiple
  // of 4): when no offset contradicts bytes, offsets are read as bytes with
  // a note; a file whose offsets count wider units is refused.
  void CheckAddressUnit(pugi::xml_node at, const std::string& unit, SvdDevice& device) {
    std::optional<uint64_t> bits = ParseSvdNumber(unit);
    if (!bits || *bits % 8 != 0 || *bits == 0 || *bits > 64) {
      return Error(at, "addressUnitBits " + unit + ": regemu addresses bytes (8 bits)");
    }
    const uint64_t unit_bytes = *bits / 8;
    for (pugi::xml_node node = document_.root(); node;) {
      if (std::string_view(node.name()) == "addressOffset") {
        std::optional<uint64_t> offset = ParseSvdNumber(ChildText(node.parent(), "addressOffset").value_or(""));
        if (offset && *offset % unit_bytes != 0) {
          regdb::Diagnostic& error =
              diagnostics_.Error(document_.Loc(at), "addressUnitBits " + unit + ": regemu addresses bytes (8 bits)");
          error.notes.push_back({document_.Loc(node), "this addressOffset is no multiple of " +
                                                          std::to_string(unit_bytes) + ", so offsets count " + unit +
                                                          "-bit units"});
          return;
        }
      }
      // Iteratively: the file's depth is the attacker's.
      if (node.first_child()) {
        node = node.first_child();
        continue;
      }
      while (node && !node.next_sibling() && node != document_.root()) node = node.parent();
      if (!node || node == document_.root()) break;
      node = node.next_sibling();
    }
    device.notes.push_back("addressUnitBits " + unit + ", but every addressOffset is a multiple of " +
                           std::to_string(unit_bytes) + ": the offsets are read as byte offsets");
  }

  void Error(pugi::xml_node node, std::string message) { diagnostics_.Error(document_.Loc(node), std::move(message)); }

  std::optional<uint64_t> Number(pugi::xml_node at, const std::optional<std::string>& text, const char* what) {
    if (!text) return std::nullopt;
    std::optional<uint64_t> value = ParseSvdNumber(*text);
    if (!value) Error(at, std::string("<") + what + "> '" + *text + "' is not a number");
    return value;
  }

  // The derivation chain and declared name of `node`; nullopt after an error.
  std::optional<Chain> ChainAndName(pugi::xml_node node, std::string& declared) {
    std::optional<Chain> chain = derivation_.Chain(node);
    if (!chain) return std::nullopt;
    declared = SvdDerivation::Text(*chain, "name").value_or("");
    if (declared.empty()) {
      Error(node, std::string("<") + node.name() + "> has no <name>");
      return std::nullopt;
    }
    return chain;
  }

  std::vector<DimCopy> Copies(pugi::xml_node node, const Chain& chain, const std::string& name) {
    std::string error;
    std::vector<DimCopy> copies = ExpandDim(name, SvdDerivation::Text(chain, "dim"),
                                            SvdDerivation::Text(chain, "dimIncrement"),
                                            SvdDerivation::Text(chain, "dimIndex"), limits_, error);
    if (!error.empty()) Error(node, error);
    return copies;
  }

  // A peripheral that derives from another and changes nothing the
  // registers see is another instance of the same registers.
  static bool OnlyMovesTheBase(pugi::xml_node peripheral) {
    for (const char* key : {"registers", "size", "access", "resetValue", "resetMask", "prependToName",
                            "appendToName", "dim", "alternatePeripheral"}) {
      if (peripheral.child(key)) return false;
    }
    return true;
  }

  void ReadPeripheral(pugi::xml_node node, const Inherited& defaults, SvdDevice& device) {
    std::string declared;
    std::optional<Chain> chain = ChainAndName(node, declared);
    if (!chain) return;
    std::optional<uint64_t> base = Number(node, SvdDerivation::Text(*chain, "baseAddress"), "baseAddress");
    if (!base) return Error(node, "peripheral '" + declared + "' has no <baseAddress>");
    Inherited inherited = defaults.Over(*chain);
    for (const DimCopy& copy : Copies(node, *chain, declared)) {
      SvdPeripheral peripheral;
      peripheral.name = copy.name;
      peripheral.base = *base + copy.offset;
      peripheral.loc = document_.Loc(node);
      peripheral.doc = FoldWhitespace(SvdDerivation::Text(*chain, "description").value_or(""));
      peripheral.prefix = SvdDerivation::Text(*chain, "prependToName");
      peripheral.suffix = SvdDerivation::Text(*chain, "appendToName").value_or("");
      peripheral.alternate_of = SvdDerivation::Text(*chain, "alternatePeripheral").value_or("");
      for (pugi::xml_node irq : node.children("interrupt")) {
        SvdInterrupt interrupt{ChildText(irq, "name").value_or(""), 0,
                               FoldWhitespace(ChildText(irq, "description").value_or(""))};
        interrupt.value = Number(irq, ChildText(irq, "value"), "value").value_or(0);
        peripheral.interrupts.push_back(std::move(interrupt));
      }
      for (pugi::xml_node block : SvdDerivation::Find(*chain, "addressBlock").parent().children("addressBlock")) {
        if (ChildText(block, "usage") != "reserved") continue;
        SvdReservedBlock reserved;
        reserved.offset = Number(block, ChildText(block, "offset"), "offset").value_or(0);
        reserved.size = Number(block, ChildText(block, "size"), "size").value_or(0);
        reserved.loc = document_.Loc(block);
        peripheral.reserved.push_back(reserved);
      }
      // A prependToName it inherits does not stop it (Microchip's PAC1 and
      // AFEC1 derive from PAC0 and AFEC0 with their `PAC_`, `AFEC_`): the
      // writer makes the base a block, as loose names would clash.
      if (chain->size() > 1 && OnlyMovesTheBase(node)) {
        std::string base_name = ChildText((*chain)[1], "name").value_or("");
        auto owner = instance_owner_.find(base_name);
        if (owner != instance_owner_.end()) {
          peripheral.instance_of = owner->second;
          instance_owner_[peripheral.name] = owner->second;
          device.peripherals.push_back(std::move(peripheral));
          continue;
        }
      }
      // <registers> is optional: RP2040's SPARE_IRQ only names interrupts.
      if (pugi::xml_node registers = SvdDerivation::Find(*chain, "registers")) {
        ReadContainer(registers, inherited, "", 0, {}, peripheral);
      }
      JoinAlternateGroups(peripheral);
      CheckRegisterLayout(peripheral, diagnostics_);
      ResolveAlternates(peripheral);
      instance_owner_[peripheral.name] = peripheral.name;
      device.peripherals.push_back(std::move(peripheral));
    }
  }

  // A register of an alternateGroup is named NAME_GROUP (as CMSIS headers
  // name it) and is an alias of the register outside any group at its offset.
  static void JoinAlternateGroups(SvdPeripheral& peripheral) {
    for (SvdRegister& reg : peripheral.registers) {
      if (reg.alternate_group.empty()) continue;
      reg.name += "_" + reg.alternate_group;
      for (const SvdRegister& main : peripheral.registers) {
        if (main.alternate_group.empty() && main.offset == reg.offset && reg.alternate_of.empty()) {
          reg.alternate_of = main.name;
        }
      }
    }
  }

  // The registers and clusters of `container` (a <registers> or <cluster>).
  // `scopes`: the clusters around `container`, outermost first (their count is the depth).
  void ReadContainer(pugi::xml_node container, const Inherited& inherited, const std::string& prefix, uint64_t offset,
                     const std::vector<SvdClusterScope>& scopes, SvdPeripheral& peripheral) {
    if (scopes.size() > limits_.max_cluster_depth) {
      return Error(container, "clusters nested deeper than " + std::to_string(limits_.max_cluster_depth));
    }
    for (pugi::xml_node child : container.children()) {
      std::string_view kind = child.name();
      if (kind == "register") {
        ReadRegister(child, inherited, prefix, offset, scopes, peripheral);
      } else if (kind == "cluster") {
        ReadCluster(child, inherited, prefix, offset, scopes, peripheral);
      }
    }
  }

  void ReadCluster(pugi::xml_node node, const Inherited& inherited, const std::string& prefix, uint64_t offset,
                   const std::vector<SvdClusterScope>& scopes, SvdPeripheral& peripheral) {
    std::string declared;
    std::optional<Chain> chain = ChainAndName(node, declared);
    if (!chain) return;
    std::optional<uint64_t> at = Number(node, SvdDerivation::Text(*chain, "addressOffset"), "addressOffset");
    if (!at) return Error(node, "cluster '" + declared + "' has no <addressOffset>");
    Inherited own = inherited.Over(*chain);
    // A derived cluster's registers are its base's unless it lists its own.
    pugi::xml_node body = (*chain)[0];
    for (pugi::xml_node link : *chain) {
      if (link.child("register") || link.child("cluster")) {
        body = link;
        break;
      }
    }
    // <alternateCluster> names a sibling cluster: its path shares this one's prefix.
    std::optional<std::string> alternate = SvdDerivation::Text(*chain, "alternateCluster");
    for (const DimCopy& copy : Copies(node, *chain, declared)) {
      std::vector<SvdClusterScope> inner = scopes;
      inner.push_back({prefix + copy.name, alternate ? prefix + *alternate : ""});
      ReadContainer(body, own, prefix + copy.name + "_", offset + *at + copy.offset, inner, peripheral);
    }
  }

  void ReadRegister(pugi::xml_node node, const Inherited& inherited, const std::string& prefix, uint64_t offset,
                    const std::vector<SvdClusterScope>& scopes, SvdPeripheral& peripheral) {
    std::string declared;
    std::optional<Chain> chain = ChainAndName(node, declared);
    if (!chain) return;
    std::optional<uint64_t> at = Number(node, SvdDerivation::Text(*chain, "addressOffset"), "addressOffset");
    if (!at) return Error(node, "register '" + declared + "' has no <addressOffset>");
    Inherited own = inherited.Over(*chain);
    uint64_t width = Number(node, own.size, "size").value_or(32);
    if (width != 8 && width != 16 && width != 32 && width != 64) {
      return Error(node, "register '" + declared + "' is " + std::to_string(width) +
                             " bits wide; regemu registers are 8, 16, 32 or 64 bits");
    }
    uint64_t width_mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    uint64_t reset = Number(node, own.reset_value, "resetValue").value_or(0);
    uint64_t reset_mask = Number(node, own.reset_mask, "resetMask").value_or(width_mask);

    SvdRegister base;
    base.width = static_cast<unsigned>(width);
    base.reset = reset & reset_mask & width_mask;
    base.reset_undefined = ~reset_mask & width_mask;
    // Microchip's SAMD5x SDHC (HC1R, 8 bits, resetValue 0xE00), TI's and
    // Toshiba's files carry the neighbouring register's reset bits: the
    // register's own bits are kept, and a note says what was dropped.
    if ((reset & width_mask) != reset) {
      base.notes.push_back("resetValue " + *own.reset_value + " does not fit in " + std::to_string(width) +
                           " bits: the bits above are dropped");
    }
    base.doc = FoldWhitespace(SvdDerivation::Text(*chain, "description").value_or(""));
    base.loc = document_.Loc(node);
    base.clusters = scopes;
    base.alternate_of = SvdDerivation::Text(*chain, "alternateRegister").value_or("");
    if (!base.alternate_of.empty()) base.alternate_of = prefix + base.alternate_of;
    if (std::optional<std::string> group = SvdDerivation::Text(*chain, "alternateGroup")) {
      base.alternate_group = *group;
      base.notes.push_back("alternateGroup " + *group + ": a second view of the register at its offset");
    }
    if (SvdDerivation::Find(*chain, "writeConstraint")) {
      base.notes.push_back("writeConstraint: " + DescribeWriteConstraint(SvdDerivation::Find(*chain, "writeConstraint")));
    }
    ImportedPolicy policy = Policy(node, own);
    base.access = policy.access;
    base.is_volatile = policy.is_volatile;
    for (std::string& note : policy.notes) base.notes.push_back(std::move(note));

    pugi::xml_node fields = SvdDerivation::Find(*chain, "fields");
    for (pugi::xml_node field : fields.children("field")) ReadField(field, own, base);
    DropWriteLayoutOverReadFields(base);

    for (const DimCopy& copy : Copies(node, *chain, declared)) {
      if (++register_count_ > limits_.max_registers) {
        return Error(node, "more than " + std::to_string(limits_.max_registers) + " registers; refused");
      }
      SvdRegister reg = base;
      reg.name = prefix + copy.name;
      reg.offset = offset + *at + copy.offset;
      if (!reg.alternate_of.empty()) reg.alternate_of = NameForCopy(reg.alternate_of, copy);
      peripheral.registers.push_back(std::move(reg));
    }
  }

  ImportedPolicy Policy(pugi::xml_node at, const Inherited& inherited) {
    std::string error;
    ImportedPolicy policy = PolicyFromSvd(
        {inherited.access.value_or("read-write"), inherited.modified_write_values.value_or(""),
         inherited.read_action.value_or("")},
        error);
    if (!error.empty()) Error(at, error);
    return policy;
  }

  static std::string DescribeWriteConstraint(pugi::xml_node constraint) {
    if (pugi::xml_node range = constraint.child("range")) {
      return "values " + ChildText(range, "minimum").value_or("?") + " to " + ChildText(range, "maximum").value_or("?") +
             " only; regemu does not check it";
    }
    if (ChildText(constraint, "useEnumeratedValues") == "true") {
      return "only the enumerated values; regemu does not check it";
    }
    if (ChildText(constraint, "writeAsRead") == "true") return "write back what was read; regemu does not check it";
    return "present; regemu does not check it";
  }

  bool BitRange(pugi::xml_node node, const Chain& chain, unsigned& lsb, unsigned& msb) {
    if (std::optional<std::string> range = SvdDerivation::Text(chain, "bitRange")) {
      // [msb:lsb]
      size_t colon = range->find(':');
      if (range->size() < 5 || range->front() != '[' || range->back() != ']' || colon == std::string::npos) {
        Error(node, "<bitRange> '" + *range + "' is not [msb:lsb]");
        return false;
      }
      std::optional<uint64_t> hi = ParseSvdNumber(range->substr(1, colon - 1));
      std::optional<uint64_t> lo = ParseSvdNumber(range->substr(colon + 1, range->size() - colon - 2));
      if (!hi || !lo || *hi < *lo || *hi > 63) {
        Error(node, "<bitRange> '" + *range + "' is not [msb:lsb] with lsb <= msb <= 63");
        return false;
      }
      msb = static_cast<unsigned>(*hi);
      lsb = static_cast<unsigned>(*lo);
      return true;
    }
    std::optional<std::string> offset = SvdDerivation::Text(chain, "bitOffset");
    std::optional<std::string> width = SvdDerivation::Text(chain, "bitWidth");
    std::optional<std::string> low = SvdDerivation::Text(chain, "lsb");
    std::optional<std::string> high = SvdDerivation::Text(chain, "msb");
    std::optional<uint64_t> lo = offset ? ParseSvdNumber(*offset) : low ? ParseSvdNumber(*low) : std::nullopt;
    std::optional<uint64_t> hi;
    if (offset) {
      std::optional<uint64_t> bits = width ? ParseSvdNumber(*width) : std::optional<uint64_t>(1);
      if (lo && bits && *bits >= 1 && *bits <= 64 && *lo < 64) hi = *lo + *bits - 1;
    } else if (high) {
      hi = ParseSvdNumber(*high);
    }
    if (!lo || !hi || *hi < *lo || *hi > 63) {
      Error(node, "field needs bitRange [msb:lsb], bitOffset + bitWidth, or lsb + msb, with lsb <= msb <= 63");
      return false;
    }
    lsb = static_cast<unsigned>(*lo);
    msb = static_cast<unsigned>(*hi);
    return true;
  }

  void ReadField(pugi::xml_node node, const Inherited& register_properties, SvdRegister& reg) {
    std::string declared;
    std::optional<Chain> chain = ChainAndName(node, declared);
    if (!chain) return;
    unsigned lsb = 0, msb = 0;
    if (!BitRange(node, *chain, lsb, msb)) return;
    Inherited own = register_properties;
    for (const char* key : {"access", "modifiedWriteValues", "readAction"}) {
      if (std::optional<std::string> text = SvdDerivation::Text(*chain, key)) {
        std::string_view k = key;
        (k == "access" ? own.access : k == "readAction" ? own.read_action : own.modified_write_values) = text;
      }
    }
    SvdField base;
    base.doc = FoldWhitespace(SvdDerivation::Text(*chain, "description").value_or(""));
    base.loc = document_.Loc(node);
    ImportedPolicy policy = Policy(node, own);
    base.access = policy.access;
    base.is_volatile = policy.is_volatile;
    base.notes = std::move(policy.notes);
    if (pugi::xml_node constraint = SvdDerivation::Find(*chain, "writeConstraint")) {
      base.notes.push_back("writeConstraint: " + DescribeWriteConstraint(constraint));
    }
    ReadEnumerations(*chain, msb - lsb + 1, base);

    for (const DimCopy& copy : Copies(node, *chain, declared)) {
      if (copy.offset > 63 || msb + copy.offset > 63) {
        Error(node, "field '" + copy.name + "' of the dim array lies past bit 63");
        return;
      }
      if (++field_count_ > limits_.max_fields) {
        return Error(node, "more than " + std::to_string(limits_.max_fields) + " fields; refused");
      }
      SvdField field = base;
      field.name = copy.name;
      field.lsb = lsb + static_cast<unsigned>(copy.offset);
      field.msb = msb + static_cast<unsigned>(copy.offset);
      reg.fields.push_back(std::move(field));
    }
  }

  // Up to two <enumeratedValues> (one per usage). regemu names values once
  // per field, so one set is kept (read-write, else read, else the first)
  // and a note lists the other.
  void ReadEnumerations(const Chain& chain, unsigned field_bits, SvdField& field) {
    pugi::xml_node owner;
    for (pugi::xml_node link : chain) {
      if (link.child("enumeratedValues")) {
        owner = link;
        break;
      }
    }
    if (!owner) return;
    pugi::xml_node chosen;
    for (pugi::xml_node set : owner.children("enumeratedValues")) {
      std::string usage = ChildText(set, "usage").value_or("read-write");
      if (!chosen || usage == "read-write" || (usage == "read" && ChildText(chosen, "usage") == "write")) chosen = set;
    }
    for (pugi::xml_node set : owner.children("enumeratedValues")) {
      if (set == chosen) continue;
      field.notes.push_back("enumeratedValues for usage " + ChildText(set, "usage").value_or("read-write") +
                            " left out: " + EnumSummary(set));
    }
    std::optional<Chain> set_chain = derivation_.Chain(chosen);
    if (!set_chain) return;
    pugi::xml_node values_owner;
    for (pugi::xml_node link : *set_chain) {
      if (link.child("enumeratedValue")) {
        values_owner = link;
        break;
      }
    }
    std::string usage = ChildText(chosen, "usage").value_or("read-write");
    if (usage != "read-write") field.notes.push_back("the values below are for usage " + usage);
    for (pugi::xml_node value : values_owner.children("enumeratedValue")) {
      if (++enum_count_ > limits_.max_enum_values) {
        return Error(value, "more than " + std::to_string(limits_.max_enum_values) + " enumerated values; refused");
      }
      std::string name = ChildText(value, "name").value_or("");
      std::string doc = FoldWhitespace(ChildText(value, "description").value_or(""));
      if (ChildText(value, "isDefault") == "true") {
        field.notes.push_back("isDefault: every value not listed is " + name + (doc.empty() ? "" : " (" + doc + ")"));
        continue;
      }
      std::optional<std::string> text = ChildText(value, "value");
      if (!text) {
        Error(value, "<enumeratedValue> '" + name + "' has neither <value> nor <isDefault>true");
        continue;
      }
      std::optional<uint64_t> number = ParseSvdNumber(*text);
      if (!number) {
        // "#1x0": x bits match anything; regemu's values are exact.
        field.notes.push_back("enumerated value " + name + " = " + *text + " (don't-care bits) left out");
        continue;
      }
      // STMicro's STM32G0 TIM15 SMS2 (1 bit) lists SMS's values 0x4-0x7: a
      // value the field cannot hold names nothing, so it goes with a note.
      if (field_bits < 64 && *number >> field_bits != 0) {
        field.notes.push_back("enumerated value " + name + " = " + *text + " does not fit the field's " +
                              std::to_string(field_bits) + " bit(s); left out");
        continue;
      }
      field.values.push_back({name, *number, doc});
    }
  }

  static std::string EnumSummary(pugi::xml_node set) {
    std::string out;
    for (pugi::xml_node value : set.children("enumeratedValue")) {
      if (!out.empty()) out += ", ";
      out += ChildText(value, "name").value_or("?") + "=" + ChildText(value, "value").value_or("default");
    }
    return out;
  }

  const SvdDocument& document_;
  const SvdLimits& limits_;
  regdb::Diagnostics& diagnostics_;
  SvdDerivation derivation_;
  std::unordered_map<std::string, std::string> instance_owner_;  // peripheral → the one holding its registers
  size_t register_count_ = 0;
  size_t field_count_ = 0;
  size_t enum_count_ = 0;
};

}  // namespace

size_t SvdDevice::RegisterCount() const {
  size_t count = 0;
  for (const SvdPeripheral& p : peripherals) count += p.registers.size();
  return count;
}

size_t SvdDevice::FieldCount() const {
  size_t count = 0;
  for (const SvdPeripheral& p : peripherals) {
    for (const SvdRegister& r : p.registers) count += r.fields.size();
  }
  return count;
}

SvdReadResult ReadSvdText(std::string name, std::string text, const SvdLimits& limits) {
  SvdReadResult result;
  if (text.size() > limits.max_file_bytes) {
    uint32_t id = result.sources.Add(std::move(name), "");
    result.diagnostics.Error({id, 1, 1}, "larger than " + std::to_string(limits.max_file_bytes >> 20) +
                                             " MiB; refused");
    return result;
  }
  uint32_t id = result.sources.Add(std::move(name), std::move(text));
  SvdDocument document;
  if (!document.Parse(result.sources, id, limits, result.diagnostics)) return result;
  SvdDevice device = SvdReader(document, limits, result.diagnostics).Read();
  if (!result.diagnostics.has_errors()) result.device = std::move(device);
  return result;
}

SvdReadResult ReadSvdFile(const std::filesystem::path& path, const SvdLimits& limits) {
  SvdReadResult failed;
  std::optional<std::string> text = ReadBoundedFile(path, limits.max_file_bytes, failed.sources, failed.diagnostics);
  if (!text) return failed;
  return ReadSvdText(path.string(), std::move(*text), limits);
}

}  // namespace regemu::convert
