#pragma once
// gmock matchers over an emulator device's state and trace, with failure
// messages in register terms:
//
//   EXPECT_THAT(device, FieldIs("PCICMD.MSE", 1));
//   EXPECT_THAT(device, Wrote("GEN11_GFX_MSTR_IRQ", 0x80000000));
//   EXPECT_THAT(device, AccessesInOrder({WriteOf("GEN11_GFX_MSTR_IRQ", 0),
//                                        ReadOf("GEN11_GFX_MSTR_IRQ"),
//                                        WriteOf("GEN11_GFX_MSTR_IRQ", 0x80000000)}));
//
// Trace matchers see only what the trace ring still holds
// (DeviceOptions::trace_capacity). A name that is not a register of the
// device never matches, and the message says so.

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <gmock/gmock.h>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/violation.hpp"

namespace regemu::fakes {

// The value of register REG, or of field FIELD in "REG.FIELD", by the
// backdoor (no side effect).
class FieldIsMatcher {
 public:
  using is_gtest_matcher = void;
  FieldIsMatcher(std::string path, uint64_t expected) : path_(std::move(path)), expected_(expected) {}
  bool MatchAndExplain(const emulator::Device& device, std::ostream* os) const;
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  std::string path_;
  uint64_t expected_;
};

inline FieldIsMatcher FieldIs(std::string path, uint64_t expected) { return {std::move(path), expected}; }

// What the device sent out on output stream STREAM (a FIFO's `to: {stream:}`)
// is exactly `text`'s bytes; the failure message lists each entry with its
// virtual time. For the times themselves, Device::output(STREAM).
//   EXPECT_THAT(device(), OutputIs("serial_out", "hello\r\n"));
class OutputIsMatcher {
 public:
  using is_gtest_matcher = void;
  OutputIsMatcher(std::string stream, std::string text) : stream_(std::move(stream)), text_(std::move(text)) {}
  bool MatchAndExplain(const emulator::Device& device, std::ostream* os) const;
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  std::string stream_;
  std::string text_;
};

inline OutputIsMatcher OutputIs(std::string stream, std::string text) { return {std::move(stream), std::move(text)}; }

// A recorded violation (DeviceTest::TakeViolations()) of `kind` ("protocol")
// at register `reg` whose rule says `rule`:
//   EXPECT_THAT(TakeViolations(), ElementsAre(ViolationIs("mbz", "IA32_PERFEVTSEL0", "must-be-zero")));
inline auto ViolationIs(std::string kind, std::string reg, std::string rule) {
  using ::testing::AllOf;
  using ::testing::Field;
  using ::testing::HasSubstr;
  using ::testing::ResultOf;
  return AllOf(
      ResultOf("kind", [](const emulator::Violation& v) { return std::string(emulator::ViolationKindName(v.kind)); },
               kind),
      Field("register", &emulator::Violation::register_name, reg),
      Field("rule", &emulator::Violation::rule, HasSubstr(rule)));
}

// One access in a trace: a frontdoor write of a value (or any value) or a
// frontdoor read of a whole register or any part of it.
struct AccessPattern {
  emulator::TraceOp op = emulator::TraceOp::kWrite;
  std::string reg;
  std::optional<uint64_t> value;  // writes: the value written; reads: the value read
};

inline AccessPattern WriteOf(std::string reg, std::optional<uint64_t> value = std::nullopt) {
  return {emulator::TraceOp::kWrite, std::move(reg), value};
}
inline AccessPattern ReadOf(std::string reg, std::optional<uint64_t> value = std::nullopt) {
  return {emulator::TraceOp::kRead, std::move(reg), value};
}

// The trace holds the patterns in this order, other accesses in between allowed.
class AccessesInOrderMatcher {
 public:
  using is_gtest_matcher = void;
  explicit AccessesInOrderMatcher(std::vector<AccessPattern> patterns) : patterns_(std::move(patterns)) {}
  bool MatchAndExplain(const emulator::Device& device, std::ostream* os) const;
  void DescribeTo(std::ostream* os) const;
  void DescribeNegationTo(std::ostream* os) const;

 private:
  std::vector<AccessPattern> patterns_;
};

inline AccessesInOrderMatcher AccessesInOrder(std::vector<AccessPattern> patterns) {
  return AccessesInOrderMatcher(std::move(patterns));
}
// The trace holds a frontdoor write of `value` to REG.
inline AccessesInOrderMatcher Wrote(std::string reg, uint64_t value) {
  return AccessesInOrderMatcher({WriteOf(std::move(reg), value)});
}

std::string Describe(const AccessPattern& pattern);

}  // namespace regemu::fakes

namespace regemu::emulator {
// How gtest prints a device in a failed EXPECT_THAT: its name and size of trace.
void PrintTo(const Device& device, std::ostream* os);
}  // namespace regemu::emulator
