#include "tools/convert/svd_alternates.hpp"

#include <algorithm>
#include <numeric>

#include "tools/convert/yaml_text.hpp"

namespace regemu::convert {

namespace {

bool InAlternateCluster(const SvdRegister& reg) {
  return std::any_of(reg.clusters.begin(), reg.clusters.end(),
                     [](const SvdClusterScope& scope) { return !scope.alternate_of.empty(); });
}

bool IsAlternative(const SvdRegister& reg) { return !reg.alternate_of.empty() || InAlternateCluster(reg); }

bool AlternateClusters(const SvdClusterScope& a, const SvdClusterScope& b) {
  return (!a.alternate_of.empty() && a.alternate_of == b.path) ||
         (!b.alternate_of.empty() && b.alternate_of == a.path) ||
         (!a.alternate_of.empty() && a.alternate_of == b.alternate_of);
}

bool Overlap(const SvdRegister& a, const SvdRegister& b) {
  return a.offset < b.offset + b.width / 8 && b.offset < a.offset + a.width / 8;
}

}  // namespace

bool AreAlternatives(const SvdRegister& a, const SvdRegister& b) {
  if ((!a.alternate_of.empty() && a.alternate_of == b.name) || (!b.alternate_of.empty() && b.alternate_of == a.name) ||
      (!a.alternate_of.empty() && a.alternate_of == b.alternate_of)) {
    return true;
  }
  // The first level where the two leave a common cluster decides.
  for (size_t i = 0; i < a.clusters.size() && i < b.clusters.size(); ++i) {
    if (a.clusters[i].path != b.clusters[i].path) return AlternateClusters(a.clusters[i], b.clusters[i]);
  }
  return false;
}

namespace {

uint64_t End(const SvdRegister& reg) { return reg.offset + reg.width / 8; }

// A group whose widest register spans the others: every other one is an
// alias of it (a SAM TC's COUNT32 CC0 over COUNT16's CC0 and COUNT8's CC0
// and CC1), as regemu names one alias target per register. Prefers a
// register that is no alternative, then the first in the file.
const SvdRegister* SpanningRegister(const std::vector<SvdRegister>& regs, const std::vector<size_t>& group,
                                    uint64_t first, uint64_t end) {
  const SvdRegister* best = nullptr;
  for (size_t i : group) {
    const SvdRegister& reg = regs[i];
    if (reg.offset != first || End(reg) != end) continue;
    if (!best || (IsAlternative(*best) && !IsAlternative(reg))) best = &reg;
  }
  return best;
}

// Without a spanning register: each alternative is an alias of a register
// it overlaps, preferring one that is no alternative, at its offset, of its
// width; else an earlier alternative (never a later one: no two name each other).
std::string OverlappedRegister(const std::vector<SvdRegister>& regs, const std::vector<size_t>& group, size_t index) {
  const SvdRegister& reg = regs[index];
  const SvdRegister* best = nullptr;
  int best_rank = 0;
  for (size_t i : group) {
    const SvdRegister& other = regs[i];
    if (i == index || !Overlap(reg, other) || !AreAlternatives(reg, other)) continue;
    bool primary = !IsAlternative(other);
    if (!primary && i > index) continue;
    int rank = (primary ? 4 : 0) + (other.offset == reg.offset ? 2 : 0) + (other.width == reg.width ? 1 : 0);
    if (!best || rank > best_rank) {
      best = &other;
      best_rank = rank;
    }
  }
  return best ? best->name : "";
}

}  // namespace

void ResolveAlternates(SvdPeripheral& peripheral) {
  std::vector<SvdRegister>& regs = peripheral.registers;
  std::vector<size_t> by_offset(regs.size());
  std::iota(by_offset.begin(), by_offset.end(), size_t{0});
  std::stable_sort(by_offset.begin(), by_offset.end(),
                   [&](size_t a, size_t b) { return regs[a].offset < regs[b].offset; });
  std::vector<std::string> alias(regs.size());
  // After a clean layout check, registers that overlap are alternatives:
  // each run of overlapping registers is one place described several ways.
  for (size_t start = 0; start < by_offset.size();) {
    std::vector<size_t> group{by_offset[start]};
    uint64_t first = regs[by_offset[start]].offset;
    uint64_t end = End(regs[by_offset[start]]);
    size_t next = start + 1;
    for (; next < by_offset.size() && regs[by_offset[next]].offset < end; ++next) {
      group.push_back(by_offset[next]);
      end = std::max(end, End(regs[by_offset[next]]));
    }
    start = next;
    if (group.size() == 1) continue;
    if (const SvdRegister* spanning = SpanningRegister(regs, group, first, end)) {
      for (size_t i : group) {
        if (&regs[i] != spanning) alias[i] = spanning->name;
      }
      continue;
    }
    for (size_t i : group) {
      if (IsAlternative(regs[i])) alias[i] = OverlappedRegister(regs, group, i);
    }
  }
  for (size_t i = 0; i < regs.size(); ++i) {
    if (!regs[i].alternate_of.empty() && alias[i].empty()) {
      regs[i].notes.push_back("alternateRegister " + regs[i].alternate_of + " left out: this register at " +
                              Hex(regs[i].offset) + " overlaps no other");
    }
    regs[i].alternate_of = alias[i];
  }
}

void DropWriteLayoutOverReadFields(SvdRegister& reg) {
  auto overlap = [](const SvdField& a, const SvdField& b) { return a.lsb <= b.msb && b.lsb <= a.msb; };
  auto write_only = [](const SvdField& f) { return !regdb::Info(f.access).readable(); };
  auto read_only = [](const SvdField& f) { return !regdb::Info(f.access).writable(); };
  std::vector<bool> drop(reg.fields.size(), false);
  for (size_t i = 0; i < reg.fields.size(); ++i) {
    const SvdField& field = reg.fields[i];
    if (!write_only(field)) continue;
    std::string under;
    bool only_read_only = true;
    for (const SvdField& other : reg.fields) {
      if (&other == &field || !overlap(field, other)) continue;
      only_read_only = only_read_only && read_only(other);
      under += (under.empty() ? "" : ", ") + other.name;
    }
    if (under.empty() || !only_read_only) continue;
    drop[i] = true;
    reg.notes.push_back("write-only field " + field.name + " [" + std::to_string(field.msb) + ":" +
                        std::to_string(field.lsb) + "] shares its bits with the read-only " + under +
                        ": regemu has one field per bit, so the write layout is left out");
  }
  std::vector<SvdField> kept;
  for (size_t i = 0; i < reg.fields.size(); ++i) {
    if (!drop[i]) kept.push_back(std::move(reg.fields[i]));
  }
  reg.fields = std::move(kept);
}

}  // namespace regemu::convert
