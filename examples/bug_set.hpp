#pragma once
// A set of deliberate driver mistakes, one enum value each, for the example
// drivers (examples/*/bugs.hpp): tests and the demo switch a mistake on to
// show what regemu reports for it. Empty by default: the driver that
// mirrors i915.

#include <cstdint>
#include <initializer_list>
#include <type_traits>

namespace regemu::examples {

template <typename Bug>
  requires std::is_enum_v<Bug>
class BugSet {
 public:
  constexpr BugSet() = default;
  constexpr BugSet(std::initializer_list<Bug> bugs) {
    for (Bug bug : bugs) bits_ |= Bit(bug);
  }
  constexpr bool Has(Bug bug) const { return (bits_ & Bit(bug)) != 0; }
  // This set and `bug`.
  constexpr BugSet With(Bug bug) const {
    BugSet set = *this;
    set.bits_ |= Bit(bug);
    return set;
  }
  constexpr bool empty() const { return bits_ == 0; }

 private:
  static constexpr uint32_t Bit(Bug bug) { return uint32_t{1} << static_cast<unsigned>(bug); }
  uint32_t bits_ = 0;
};

}  // namespace regemu::examples
