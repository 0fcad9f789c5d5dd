#pragma once
// CMSIS-SVD's access, modifiedWriteValues and readAction, to and from
// regemu's access policies. Both directions go through the read and write
// effects of regdb/access_policies.def: an SVD triple names a pair of
// effects, and the policy is the row with exactly that pair. A pair no row
// has is not approximated silently: the closest row is chosen and a note
// says what it does not do.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/regdb/access.hpp"

namespace regemu::convert {

struct SvdAccessText {
  std::string access;               // read-only, write-only, read-write, writeOnce, read-writeOnce
  std::string modified_write_values;  // "" when none
  std::string read_action;          // "" when none
};

struct ImportedPolicy {
  regdb::Access access = regdb::Access::kRw;
  // Hardware changes the value (status bits, read side effects): SVD has no
  // such element, so it is implied by read-only bits and side effects.
  bool is_volatile = false;
  std::vector<std::string> notes;
};

// An unknown word in any of the three is an error message in `error`.
ImportedPolicy PolicyFromSvd(const SvdAccessText& svd, std::string& error);

// nullopt when SVD cannot express the policy (rsvd, mbz: no field is written);
// `note` says what the SVD form leaves out (fixed, hw: read-only to SVD).
std::optional<SvdAccessText> SvdFromPolicy(regdb::Access access, std::string& note);

bool IsSvdAccessWord(std::string_view word);

}  // namespace regemu::convert
