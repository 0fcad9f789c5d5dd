#include "tools/convert/svd_layout_checks.hpp"

#include <algorithm>
#include <numeric>

#include "tools/convert/svd_alternates.hpp"

namespace regemu::convert {

namespace {

void CheckFields(const SvdPeripheral& peripheral, const SvdRegister& reg, regdb::Diagnostics& diagnostics) {
  std::vector<const SvdField*> by_lsb;
  for (const SvdField& field : reg.fields) {
    if (field.msb >= reg.width) {
      diagnostics.Error(field.loc, "field '" + field.name + "' [" + std::to_string(field.msb) + ":" +
                                       std::to_string(field.lsb) + "] lies past the " + std::to_string(reg.width) +
                                       " bits of register '" + peripheral.name + "." + reg.name + "'");
    }
    by_lsb.push_back(&field);
  }
  std::sort(by_lsb.begin(), by_lsb.end(), [](const SvdField* a, const SvdField* b) { return a->lsb < b->lsb; });
  for (size_t i = 1; i < by_lsb.size(); ++i) {
    if (by_lsb[i]->lsb <= by_lsb[i - 1]->msb) {
      regdb::Diagnostic& error =
          diagnostics.Error(by_lsb[i]->loc, "field '" + by_lsb[i]->name + "' overlaps field '" + by_lsb[i - 1]->name +
                                                "' in register '" + peripheral.name + "." + reg.name + "'");
      error.notes.push_back({by_lsb[i - 1]->loc, "the other field"});
    }
  }
}

}  // namespace

void CheckRegisterLayout(const SvdPeripheral& peripheral, regdb::Diagnostics& diagnostics) {
  const std::vector<SvdRegister>& regs = peripheral.registers;
  for (const SvdRegister& reg : regs) CheckFields(peripheral, reg, diagnostics);

  std::vector<size_t> order(regs.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return regs[a].offset < regs[b].offset; });
  // Each register against those still open before it (sorted by offset:
  // the open set is small, except for alternate views of one place).
  std::vector<size_t> open;
  for (size_t index : order) {
    const SvdRegister& reg = regs[index];
    std::erase_if(open, [&](size_t other) { return regs[other].offset + regs[other].width / 8 <= reg.offset; });
    for (size_t other : open) {
      if (AreAlternatives(reg, regs[other])) continue;
      regdb::Diagnostic& error = diagnostics.Error(
          reg.loc, "register '" + peripheral.name + "." + reg.name + "' overlaps register '" + peripheral.name + "." +
                       regs[other].name + "' (neither is an alternateRegister of the other, nor in an alternateCluster of the other's)");
      error.notes.push_back({regs[other].loc, "the other register"});
      break;
    }
    open.push_back(index);
    for (const SvdReservedBlock& block : peripheral.reserved) {
      if (reg.offset < block.offset + block.size && block.offset < reg.offset + reg.width / 8) {
        regdb::Diagnostic& error = diagnostics.Error(
            reg.loc, "register '" + peripheral.name + "." + reg.name + "' lies in an addressBlock marked reserved");
        error.notes.push_back({block.loc, "the reserved block"});
      }
    }
  }
}

}  // namespace regemu::convert
