#pragma once
// The device as a header generator sees it: the checker's expanded registers
// folded back into single registers, arrays (functions of an index) and
// block registers (functions of a base). Every backend reads this view.

#include <cstdint>
#include <string>
#include <vector>

#include "regemu/regdb/database.hpp"

namespace regemu::headergen {

struct RegisterView {
  const regdb::Register* reg = nullptr;  // the representative: element 0 of the first instance
  std::string name;                      // identifier: the register, the array without {n}, the block-local name
  uint64_t offset = 0;                   // absolute; in a block: relative to the instance's base
  bool is_array = false;
  uint32_t count = 1;
  uint32_t start = 0;
  uint64_t stride = 0;
  bool in_block = false;

  std::string alias_of;  // in a block: the sibling's block-local name

  // The bits written as 0 whatever the value: `mbz` and `rsvd` ones.
  uint64_t zero_on_write = 0;
};

struct BlockView {
  const regdb::Block* block = nullptr;
  std::vector<RegisterView> registers;
};

// One expanded register as the self-test checks it.
struct PlacedRegister {
  const regdb::Register* reg = nullptr;
  std::string space;
  uint64_t offset = 0;
  uint64_t size = 0;  // bytes; 1 in an indexed (MSR) space
};

struct DeviceView {
  const regdb::Database* db = nullptr;
  // What every C macro starts with: `--prefix`, else the database's
  // `c_prefix`, else the device name, in each case followed by `_`.
  std::string c_prefix;
  std::vector<RegisterView> registers;  // outside blocks, in database order
  std::vector<BlockView> blocks;
  std::vector<PlacedRegister> placed;  // every expanded register, sorted by space then offset
};

DeviceView BuildDeviceView(const regdb::Database& db);
// A register of a `state` space: the device's internal state, which no
// driver reaches, so headers leave it out.
bool IsDeviceState(const regdb::Database& db, const regdb::Register& reg);

// Bits of `reg` whose policy (a field's, or the register's default for
// uncovered bits) satisfies `pred`.
template <typename Pred>
uint64_t BitsWhere(const regdb::Register& reg, Pred pred) {
  uint64_t covered = 0;
  uint64_t bits = 0;
  for (const regdb::Field& field : reg.fields) {
    covered |= field.mask();
    if (pred(field.access)) bits |= field.mask();
  }
  if (pred(reg.default_access)) bits |= reg.width_mask() & ~covered;
  return bits & reg.width_mask();
}

// One line saying what a range is: "reserved range in space mmio (reads 0,
// writes ignored)" or "alias window in space mmio onto space mchbar at 0x0,
// read-only (writes ignored), decoded while PCICMD.MSE".
std::string RangeSummary(const regdb::Range& range);

std::string Upper(std::string text);
std::string Lower(std::string text);
// A C/C++ identifier for `text`, avoiding C++ keywords by a trailing `_`.
std::string SafeIdentifier(std::string text);
std::string HexLiteral(uint64_t value);  // 0x2360
// Text safe inside a C comment on one line.
std::string CommentText(const std::string& text);

}  // namespace regemu::headergen
