#include "regemu/fakes/matchers.hpp"

#include <algorithm>

#include "regemu/regdb/numbers.hpp"

namespace regemu::fakes {
namespace {

struct ResolvedField {
  emulator::RegisterId reg = emulator::kNoRegister;
  uint64_t mask = ~uint64_t{0};
  std::string error;  // why it did not resolve
};

ResolvedField Resolve(const emulator::Model& model, const std::string& path) {
  ResolvedField result;
  std::string reg_name = path.substr(0, path.find('.'));
  auto reg = model.FindRegister(reg_name);
  if (!reg) {
    result.error = "device '" + model.device() + "' has no register '" + reg_name + "'";
    return result;
  }
  result.reg = *reg;
  const emulator::RegisterModel& r = model.registers()[*reg];
  result.mask = r.width_mask;
  if (path.size() == reg_name.size()) return result;
  std::string field_name = path.substr(reg_name.size() + 1);
  auto field = std::find_if(r.fields.begin(), r.fields.end(),
                            [&](const emulator::FieldModel& f) { return f.name == field_name; });
  if (field == r.fields.end()) {
    result.reg = emulator::kNoRegister;
    result.error = "register '" + reg_name + "' has no field '" + field_name + "'";
    return result;
  }
  result.mask = field->mask;
  return result;
}

unsigned Shift(uint64_t mask) {
  unsigned shift = 0;
  while (shift < 63 && ((mask >> shift) & 1) == 0) ++shift;
  return shift;
}

bool Matches(const AccessPattern& pattern, emulator::RegisterId reg, const emulator::TraceEntry& entry) {
  return entry.op == pattern.op && entry.reg == reg && (!pattern.value || *pattern.value == entry.value);
}

}  // namespace

bool FieldIsMatcher::MatchAndExplain(const emulator::Device& device, std::ostream* os) const {
  ResolvedField field = Resolve(device.model(), path_);
  if (field.reg == emulator::kNoRegister) {
    if (os) *os << field.error;
    return false;
  }
  uint64_t actual = (device.PeekRegister(field.reg) & field.mask) >> Shift(field.mask);
  if (os) *os << path_ << " is " << regdb::Hex(actual);
  return actual == expected_;
}

void FieldIsMatcher::DescribeTo(std::ostream* os) const { *os << path_ << " is " << regdb::Hex(expected_); }
void FieldIsMatcher::DescribeNegationTo(std::ostream* os) const {
  *os << path_ << " is not " << regdb::Hex(expected_);
}

std::string Describe(const AccessPattern& pattern) {
  std::string text = pattern.op == emulator::TraceOp::kWrite ? "a write of " : "a read of ";
  text += pattern.reg;
  if (pattern.value) text += (pattern.op == emulator::TraceOp::kWrite ? " = " : " returning ") + regdb::Hex(*pattern.value);
  return text;
}

bool AccessesInOrderMatcher::MatchAndExplain(const emulator::Device& device, std::ostream* os) const {
  const emulator::Model& model = device.model();
  std::vector<emulator::TraceEntry> trace = device.Trace();
  size_t at = 0;
  for (size_t i = 0; i < patterns_.size(); ++i) {
    const AccessPattern& pattern = patterns_[i];
    auto reg = model.FindRegister(pattern.reg);
    if (!reg) {
      if (os) *os << "device '" << model.device() << "' has no register '" << pattern.reg << "'";
      return false;
    }
    auto found = std::find_if(trace.begin() + static_cast<std::ptrdiff_t>(at), trace.end(),
                              [&](const emulator::TraceEntry& entry) { return Matches(pattern, *reg, entry); });
    if (found == trace.end()) {
      if (os) {
        *os << "found no " << Describe(pattern);
        if (i > 0) *os << " after " << Describe(patterns_[i - 1]) << " (access " << at << " of the trace)";
        // What the register did see, to tell a wrong value from a missing access.
        std::vector<std::string> seen;
        for (const emulator::TraceEntry& entry : trace) {
          if (entry.reg == *reg && entry.op == pattern.op) seen.push_back(regdb::Hex(entry.value));
        }
        if (!seen.empty()) {
          *os << "; " << pattern.reg << (pattern.op == emulator::TraceOp::kWrite ? " was written" : " read");
          for (const std::string& value : seen) *os << " " << value;
        }
        *os << " (" << trace.size() << " trace entries)";
      }
      return false;
    }
    at = static_cast<size_t>(found - trace.begin()) + 1;
  }
  return true;
}

void AccessesInOrderMatcher::DescribeTo(std::ostream* os) const {
  *os << "has in its trace, in order:";
  for (const AccessPattern& pattern : patterns_) *os << " [" << Describe(pattern) << "]";
}

void AccessesInOrderMatcher::DescribeNegationTo(std::ostream* os) const {
  *os << "does not have in its trace, in order:";
  for (const AccessPattern& pattern : patterns_) *os << " [" << Describe(pattern) << "]";
}

}  // namespace regemu::fakes

namespace regemu::emulator {
void PrintTo(const Device& device, std::ostream* os) {
  *os << "device '" << device.model().device() << "' after " << device.access_count() << " trace events";
}
}  // namespace regemu::emulator
