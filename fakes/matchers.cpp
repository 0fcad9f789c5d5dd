#include "regemu/fakes/matchers.hpp"

#include <algorithm>
#include <set>

#include "regemu/emulator/stream_text.hpp"
#include "regemu/emulator/trace.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::fakes {
namespace {

struct ResolvedField {
  emulator::RegisterId reg = emulator::kNoRegister;
  uint64_t mask = ~uint64_t{0};
  unsigned shift = 0;  // where the field starts (0: the whole register)
  std::string error;  // why it did not resolve
};

// "device 'hsw' has no register 'OACONTRL' (did you mean 'OACONTROL'?)".
std::string NoRegister(const emulator::Model& model, std::string_view name) {
  return "device '" + model.device() + "' has no register '" + std::string(name) + "'" +
         regdb::DidYouMean(name, regdb::NamesOf(model.registers()));
}

ResolvedField Resolve(const emulator::Model& model, const std::string& path) {
  ResolvedField result;
  std::string reg_name = path.substr(0, path.find('.'));
  auto reg = model.FindRegister(reg_name);
  if (!reg) {
    result.error = NoRegister(model, reg_name);
    return result;
  }
  result.reg = *reg;
  const emulator::RegisterModel& r = model.registers()[*reg];
  result.mask = r.width_mask;
  if (path.size() == reg_name.size()) return result;
  std::string field_name = path.substr(reg_name.size() + 1);
  const emulator::FieldModel* field = r.FindField(field_name);
  if (field == nullptr) {
    result.reg = emulator::kNoRegister;
    result.error = "register '" + reg_name + "' has no field '" + field_name + "'" +
                   regdb::DidYouMean(field_name, regdb::NamesOf(r.fields));
    return result;
  }
  result.mask = field->mask;
  result.shift = field->shift();
  return result;
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
  uint64_t actual = (device.PeekRegister(field.reg) & field.mask) >> field.shift;
  if (os) *os << path_ << " is " << regdb::Hex(actual);
  return actual == expected_;
}

void FieldIsMatcher::DescribeTo(std::ostream* os) const { *os << path_ << " is " << regdb::Hex(expected_); }
void FieldIsMatcher::DescribeNegationTo(std::ostream* os) const {
  *os << path_ << " is not " << regdb::Hex(expected_);
}

bool OutputIsMatcher::MatchAndExplain(const emulator::Device& device, std::ostream* os) const {
  if (!device.model().FindStream(stream_)) {
    if (os) *os << "the device has no output stream '" << stream_ << "'";
    return false;
  }
  std::vector<emulator::StreamEntry> out = device.output(stream_);
  if (os) *os << stream_ << " carried " << out.size() << " entries: " << emulator::DescribeStreamEntries(out, 64);
  if (out.size() != text_.size()) return false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i].value != static_cast<unsigned char>(text_[i])) return false;
  }
  return true;
}

void OutputIsMatcher::DescribeTo(std::ostream* os) const {
  *os << stream_ << " carried \"" << text_ << "\" (" << text_.size() << " entries)";
}
void OutputIsMatcher::DescribeNegationTo(std::ostream* os) const { *os << stream_ << " did not carry \"" << text_ << "\""; }

std::string Describe(const AccessPattern& pattern) {
  std::string text = pattern.op == emulator::TraceOp::kWrite ? "write of " : "read of ";
  text += pattern.reg;
  if (pattern.value) text += (pattern.op == emulator::TraceOp::kWrite ? " = " : " returning ") + regdb::Hex(*pattern.value);
  return text;
}

namespace {

// The accesses to the registers the patterns name, in the order they
// happened, so a wrong order shows as plainly as a missing access.
void ExplainWhatHappened(const emulator::Model& model, const std::vector<emulator::TraceEntry>& trace,
                         const std::set<emulator::RegisterId>& named, std::ostream& os) {
  constexpr size_t kShown = 32;
  std::vector<const emulator::TraceEntry*> relevant;
  for (const emulator::TraceEntry& entry : trace) {
    bool access = entry.op == emulator::TraceOp::kRead || entry.op == emulator::TraceOp::kWrite;
    if (access && named.contains(entry.reg)) relevant.push_back(&entry);
  }
  if (relevant.empty()) {
    os << "\n  the trace (" << trace.size() << " entries) has no access to these registers";
    return;
  }
  os << "\n  what happened to these registers, in order (of " << trace.size() << " trace entries):";
  size_t first = relevant.size() > kShown ? relevant.size() - kShown : 0;
  if (first > 0) os << "\n    ... " << first << " earlier";
  for (size_t i = first; i < relevant.size(); ++i) os << "\n    " << emulator::RenderTraceEntry(model, *relevant[i]);
}

}  // namespace

bool AccessesInOrderMatcher::MatchAndExplain(const emulator::Device& device, std::ostream* os) const {
  const emulator::Model& model = device.model();
  std::set<emulator::RegisterId> named;
  for (const AccessPattern& pattern : patterns_) {
    auto reg = model.FindRegister(pattern.reg);
    if (!reg) {
      if (os) *os << NoRegister(model, pattern.reg);
      return false;
    }
    named.insert(*reg);
  }
  std::vector<emulator::TraceEntry> trace = device.Trace();
  size_t at = 0;
  for (size_t i = 0; i < patterns_.size(); ++i) {
    const AccessPattern& pattern = patterns_[i];
    emulator::RegisterId reg = *model.FindRegister(pattern.reg);
    auto found = std::find_if(trace.begin() + static_cast<std::ptrdiff_t>(at), trace.end(),
                              [&](const emulator::TraceEntry& entry) { return Matches(pattern, reg, entry); });
    if (found == trace.end()) {
      if (os) {
        *os << "found no " << Describe(pattern);
        if (i > 0) *os << " after the " << Describe(patterns_[i - 1]) << " (trace entry " << at << ")";
        ExplainWhatHappened(model, trace, named, *os);
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
