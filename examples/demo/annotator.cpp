#include "examples/demo/annotator.hpp"

#include <bit>

#include "regemu/emulator/behaviour.hpp"
#include "examples/demo/pci_names.hpp"
#include "examples/i915_mini/icl_interrupt_sources.hpp"
#include "examples/i915_mini/pci_regs.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regs/icl.hpp"

namespace regemu::demo {
namespace {

namespace icl = ::regemu::regs::icl;
namespace pci = ::regemu::i915_mini::pci;
using emulator::TraceEntry;
using emulator::TraceOp;
using regdb::Hex;

// The sources behind the set bits of a GT INT DW of `bank`: "RCS0" or "VCS0+VECS0".
std::string Sources(unsigned bank, uint64_t bits) {
  std::string names;
  for (uint64_t rest = bits; rest != 0; rest &= rest - 1) {
    auto bit = static_cast<unsigned>(std::countr_zero(rest));
    const i915_mini::InterruptSource* source = i915_mini::SourceAt(bank, bit);
    names += (names.empty() ? "" : "+") + (source ? std::string(source->name) : "bit " + std::to_string(bit));
  }
  return names.empty() ? "nothing" : names;
}

bool Is(const std::string& reg, std::string_view name) { return reg == name; }
bool IsBank(const std::string& reg, std::string_view prefix, unsigned& bank) {
  if (reg.size() != prefix.size() + 1 || reg.compare(0, prefix.size(), prefix) != 0) return false;
  bank = static_cast<unsigned>(reg.back() - '0');
  return bank <= 1;
}

}  // namespace

Annotator::Annotator(const emulator::Model& model) : model_(model) {
  for (const auto& program : model.behaviours()) {
    for (const emulator::PowerDomainInfo& info : program->PowerDomains()) {
      requests_[info.request] = info.name;
      acks_[info.ack] = info.name;
      if (!info.ranges.empty()) domains_.push_back({info.name, info.space, info.ranges});
    }
  }
}

std::string Annotator::Name(const TraceEntry& entry) const {
  return entry.reg == emulator::kNoRegister ? std::string() : model_.registers()[entry.reg].name;
}

std::string Annotator::Where(const TraceEntry& entry) const {
  const emulator::RangeModel* range = Window(entry);
  // Through a window the entry names the register it reached in the target space.
  if (range != nullptr) return range->name + (entry.reg == emulator::kNoRegister ? "" : " > " + Name(entry));
  if (entry.reg != emulator::kNoRegister) return Name(entry);
  if (entry.space >= model_.spaces().size()) return "";
  range = model_.spaces()[entry.space].RangeAt(entry.offset);
  return range == nullptr ? "" : range->name;
}

const emulator::RangeModel* Annotator::Window(const TraceEntry& entry) const {
  if (entry.space >= model_.spaces().size()) return nullptr;
  // A register at the offset wins over a range (the device decodes registers first).
  if (model_.Decode(entry.space, entry.offset) != emulator::DecodeTable::kNone) return nullptr;
  const emulator::RangeModel* range = model_.spaces()[entry.space].RangeAt(entry.offset);
  return range != nullptr && range->kind == regdb::RangeKind::kAlias ? range : nullptr;
}

std::string Annotator::Fields(emulator::RegisterId reg, uint64_t value) const {
  const emulator::RegisterModel& r = model_.registers()[reg];
  // A single field spanning the register says nothing the value does not.
  if (r.fields.empty() || (r.fields.size() == 1 && r.fields[0].mask == r.width_mask)) return "";
  std::string text;
  for (const emulator::FieldModel& field : r.fields) {
    uint64_t bits = value & field.mask;
    if (bits == 0) continue;
    text += text.empty() ? "" : " ";
    if (std::popcount(field.mask) == 1) {
      text += field.name;
    } else {
      text += field.name + "=" + Hex(bits >> std::countr_zero(field.mask));
    }
  }
  return text;
}

std::string Annotator::DomainAt(const TraceEntry& entry) const {
  std::string names;
  for (const Domain& domain : domains_) {
    if (domain.space != entry.space) continue;
    for (const auto& [first, last] : domain.ranges) {
      if (entry.offset >= first && entry.offset <= last) names += (names.empty() ? "" : "+") + domain.name;
    }
  }
  return names;
}

std::string Annotator::ForcewakeNote(const TraceEntry& entry) const {
  if (auto it = requests_.find(entry.reg); it != requests_.end() && entry.op == TraceOp::kWrite) {
    uint64_t enables = entry.value >> 16;
    if (enables == 0xFFFF && (entry.value & 0xFFFF) == 0) return "force-wake " + it->second + ": reset (all requests off)";
    if ((enables & 1) != 0) return "force-wake " + it->second + ((entry.value & 1) != 0 ? ": get" : ": put");
    return "force-wake " + it->second + ": masked write " + Hex(entry.value);
  }
  if (auto it = acks_.find(entry.reg); it != acks_.end() && entry.op == TraceOp::kRead) {
    return "force-wake " + it->second + " ack: " + ((entry.value & 1) != 0 ? "awake" : "not awake");
  }
  return "";
}

std::string Annotator::InterruptNote(const std::string& reg, const TraceEntry& entry) const {
  const bool read = entry.op == TraceOp::kRead;
  unsigned bank = 0;
  if (Is(reg, icl::GEN11_GFX_MSTR_IRQ::kName)) {
    if (!read) return (entry.value & icl::GEN11_GFX_MSTR_IRQ::MASTER_IRQ::kMask) != 0 ? "master enable" : "master disable";
    std::string pending;
    auto add = [&](uint64_t mask, const char* what) {
      if ((entry.value & mask) != 0) pending += (pending.empty() ? "" : ", ") + std::string(what);
    };
    add(icl::GEN11_GFX_MSTR_IRQ::GT_DW0_IRQ::kMask, "DW0");
    add(icl::GEN11_GFX_MSTR_IRQ::GT_DW1_IRQ::kMask, "DW1");
    add(icl::GEN11_GFX_MSTR_IRQ::GU_MISC_IRQ::kMask, "GU_MISC");
    add(icl::GEN11_GFX_MSTR_IRQ::PCU_IRQ::kMask, "PCU");
    return pending.empty() ? "master: nothing pending" : "master: pending " + pending;
  }
  if (Is(reg, icl::GEN11_GT_INTR_DW0::kName) || Is(reg, icl::GEN11_GT_INTR_DW1::kName)) {
    bank = static_cast<unsigned>(reg.back() - '0');
    return read ? "DW" + std::to_string(bank) + " read (locks it): " + Sources(bank, entry.value) + " pending"
                : "DW" + std::to_string(bank) + " clear: " + Sources(bank, entry.value);
  }
  if (reg == "GEN11_IIR_REG0_SELECTOR" || reg == "GEN11_IIR_REG1_SELECTOR") {
    bank = reg == "GEN11_IIR_REG0_SELECTOR" ? 0 : 1;
    if (read) return "";
    bool one_hot = std::popcount(entry.value) == 1;
    return "select " + Sources(bank, entry.value) + (one_hot ? "" : " (NOT one-hot)");
  }
  if (IsBank(reg, "GEN11_INTR_IDENTITY_REG", bank)) {
    if (!read) return "end service: DATA_VALID cleared";
    auto identity = icl::GEN11_INTR_IDENTITY_REG::FromValue(bank, static_cast<uint32_t>(entry.value));
    if (identity.data_valid() == 0) return "identity: not valid (yet)";
    const i915_mini::InterruptSource* source = i915_mini::SourceOf(identity.class_(), identity.instance());
    return "identity: " + (source ? std::string(source->name) + " " : "") + "class " +
           std::to_string(identity.class_()) + " instance " + std::to_string(identity.instance()) + " data " +
           Hex(identity.data());
  }
  if (Is(reg, icl::GEN11_GU_MISC_IIR::kName) && entry.value != 0) {
    return read ? "GU_MISC IIR: " + Fields(entry.reg, entry.value) : "GU_MISC ack " + Hex(entry.value);
  }
  return "";
}

std::string Annotator::ConfigNote(const TraceEntry& entry) {
  const bool read = entry.op == TraceOp::kRead;
  // BAR sizing: all-ones in, size mask out, original back.
  const bool bar = (entry.offset >= pci::kBaseAddress0 && entry.offset < pci::kBaseAddress0 + 4 * pci::kStdBarCount) ||
                   entry.offset == pci::kRomAddress;
  if (bar && entry.width == 32) {
    int& state = bar_state_[entry.offset];
    const uint64_t all_ones = entry.offset == pci::kRomAddress ? pci::kRomAddressMask : 0xFFFFFFFF;
    if (!read && (entry.value & all_ones) == all_ones) {
      state = 1;
      return "sizing: all-ones";
    }
    if (read && state == 1) {
      state = 2;
      return "sizing: size mask read back";
    }
    if (!read && state == 2) {
      state = 0;
      return "sizing: original restored";
    }
    return read ? "original value" : "";
  }
  // Capability chains, followed as the driver reads them.
  if (read && entry.offset == pci::kCapabilityList) {
    next_cap_ = entry.value & 0xFF;
    return "capability list starts at " + Hex(next_cap_);
  }
  if (read && entry.width == 16 && next_cap_ >= 0x40 && entry.offset == next_cap_) {
    uint64_t id = entry.value & 0xFF;
    next_cap_ = entry.value >> 8;
    return "capability " + CapabilityName(id) + ", next " + Hex(next_cap_);
  }
  if (read && entry.width == 32 && next_ext_cap_ >= 0x100 && entry.offset == next_ext_cap_) {
    uint64_t id = entry.value & 0xFFFF;
    next_ext_cap_ = (entry.value >> 20) & 0xFFC;
    return "extended capability " + ExtCapabilityName(id) + " v" + std::to_string((entry.value >> 16) & 0xF) + ", next " +
           Hex(next_ext_cap_);
  }
  return entry.reg == emulator::kNoRegister ? "" : Fields(entry.reg, entry.value);
}

std::string Annotator::WindowNote(const TraceEntry& entry) const {
  if (entry.op == TraceOp::kWrite) return "write through a read-only window";
  return entry.reg == emulator::kNoRegister ? "" : Fields(entry.reg, entry.value);
}

std::string Annotator::Note(const TraceEntry& entry) {
  if (entry.op != TraceOp::kRead && entry.op != TraceOp::kWrite) return "";
  const std::string& space = model_.spaces()[entry.space].name;
  std::string note;
  if (space == "config") {
    note = ConfigNote(entry);
  } else if (Window(entry) != nullptr) {
    note = WindowNote(entry);
  } else if (entry.reg != emulator::kNoRegister) {
    note = ForcewakeNote(entry);
    if (note.empty()) note = InterruptNote(Name(entry), entry);
    if (note.empty()) note = Fields(entry.reg, entry.value);
  }
  // Request and ack registers are never gated, wherever they lie.
  const bool own = requests_.count(entry.reg) != 0 || acks_.count(entry.reg) != 0;
  if (std::string domain = own ? "" : DomainAt(entry); !domain.empty()) {
    note = "[" + domain + " domain] " + note;
  }
  return note;
}

}  // namespace regemu::demo
