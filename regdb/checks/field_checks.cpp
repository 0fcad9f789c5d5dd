// Per-register checks of fields and reset values: fields inside the width,
// disjoint, resets and enumerated values that fit, no reset bit in an MBZ
// field, and the masked-register layout.

#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/checks/report_once.hpp"

namespace regemu::regdb {
namespace {

std::string BitsText(const BitRange& bits) {
  return bits.msb == bits.lsb ? std::to_string(bits.lsb) : std::to_string(bits.msb) + ":" + std::to_string(bits.lsb);
}

uint64_t Ones(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

void CheckRegisterFields(const Register& reg, ReportOnce& once, Diagnostics& diagnostics) {
  std::string who = reg.array ? "register '" + reg.array->name_template + "'" : "register '" + reg.name + "'";
  uint64_t reg_mask = reg.width_mask();

  if (reg.reset_given && (reg.reset & ~reg_mask) != 0 && once.First(reg.reset_loc, "reset-fit")) {
    diagnostics.Error(reg.reset_loc, "reset " + Hex(reg.reset) + " of " + who + " does not fit in " +
                                         std::to_string(reg.width) + " bits");
  }
  if (reg.masked && reg.width != 32 && once.First(reg.width_loc, "masked-width")) {
    diagnostics.Error(reg.width_loc, "masked " + who + " must be 32 bits wide (bits 31:16 select bits 15:0), not " +
                                         std::to_string(reg.width));
  }

  for (size_t i = 0; i < reg.fields.size(); ++i) {
    const Field& field = reg.fields[i];
    if (field.bits.msb >= reg.width) {
      if (once.First(field.bits_loc, "field-width")) {
        diagnostics.Error(field.bits_loc, "field '" + field.name + "' bits " + BitsText(field.bits) +
                                              " lie outside " + std::to_string(reg.width) + "-bit " + who)
            .notes.push_back({reg.width_loc, "the register's width is set here"});
      }
      continue;
    }
    if (reg.masked && field.bits.msb >= 16 && once.First(field.bits_loc, "masked-field")) {
      diagnostics.Error(field.bits_loc, "field '" + field.name + "' bits " + BitsText(field.bits) + " of masked " +
                                            who + " lie in the mask half (31:16); masked fields live in bits 15:0");
    }
    for (size_t j = 0; j < i; ++j) {
      const Field& other = reg.fields[j];
      if (other.bits.msb >= reg.width) continue;
      if ((field.mask() & other.mask()) != 0 && once.First(field.bits_loc, "field-overlap" + other.name)) {
        diagnostics.Error(field.bits_loc, "field '" + field.name + "' bits " + BitsText(field.bits) +
                                              " overlap field '" + other.name + "' bits " + BitsText(other.bits) +
                                              " in " + who)
            .notes.push_back({other.bits_loc, "'" + other.name + "' is defined here"});
      }
    }
    uint64_t field_ones = Ones(field.bits.width());
    if (field.reset && (*field.reset & ~field_ones) != 0 && once.First(field.reset_loc, "field-reset-fit")) {
      diagnostics.Error(field.reset_loc, "reset " + Hex(*field.reset) + " of field '" + field.name +
                                             "' does not fit in its " + std::to_string(field.bits.width()) + " bits");
    }
    if (reg.reset_given && field.reset && (*field.reset & ~field_ones) == 0 &&
        ((reg.reset & field.mask()) >> field.bits.lsb) != *field.reset && once.First(field.reset_loc, "disagree")) {
      diagnostics.Error(field.reset_loc, "reset " + Hex(*field.reset) + " of field '" + field.name + "' disagrees with " +
                                             who + " reset " + Hex(reg.reset) + " (which gives the field " +
                                             Hex((reg.reset & field.mask()) >> field.bits.lsb) + ")")
          .notes.push_back({reg.reset_loc, "the register's reset is given here"});
    }
    for (const EnumValue& value : field.values) {
      if ((value.value & ~field_ones) != 0 && once.First(value.loc, "enum-fit")) {
        diagnostics.Error(value.loc, "value " + Hex(value.value) + " of '" + value.name + "' does not fit field '" +
                                         field.name + "' (" + std::to_string(field.bits.width()) + " bits)");
      }
    }
    // `on_write: violation` sharpens the read-only rule; a field that takes
    // writes (or ignores them by definition, like rsvd and fixed) has none.
    if (field.write_is_violation && Info(field.access).write != WriteEffect::kIgnore &&
        once.First(field.on_write_loc, "on-write")) {
      diagnostics.Error(field.on_write_loc, "'on_write: violation' applies to read-only fields (ro, rc, rs, hw); field '" +
                                                field.name + "' is " + std::string(AccessName(field.access)) + " (" +
                                                std::string(Info(field.access).summary) + ")");
    }
    if (field.access == Access::kMbz) {
      uint64_t set_bits = reg.reset & field.mask();
      if (set_bits != 0) {
        // Without a register reset the value is the fields' resets combined:
        // blame the reset that sets the bits, which may be an overlapping
        // field's rather than the mbz field's own (it may have none).
        SourceLoc where = reg.reset_loc;
        if (!reg.reset_given) {
          for (const Field& source : reg.fields) {
            if (source.reset && ((*source.reset << source.bits.lsb) & source.mask() & set_bits) != 0) {
              where = source.reset_loc;
              break;
            }
          }
        }
        if (once.First(where, "mbz-reset" + field.name)) {
          diagnostics.Error(where, "reset " + Hex(reg.reset) + " of " + who + " sets bits " + Hex(set_bits) +
                                       " of must-be-zero field '" + field.name + "'")
              .notes.push_back({field.bits_loc, "'" + field.name + "' is mbz here"});
        }
      }
    }
  }
  if (reg.fields.empty() && reg.default_access == Access::kMbz && reg.reset != 0 && once.First(reg.reset_loc, "mbz")) {
    diagnostics.Error(reg.reset_loc, "reset " + Hex(reg.reset) + " of must-be-zero " + who + " is not zero");
  }
}

}  // namespace

void CheckFields(const Database& database, Diagnostics& diagnostics) {
  ReportOnce once;
  for (const Register& reg : database.registers) CheckRegisterFields(reg, once, diagnostics);
}

}  // namespace regemu::regdb
