#pragma once
// Header-only support for the C++ register headers `regemu header --lang c++`
// generates (Fuchsia hwreg style): a register is a value type that knows its
// offset, read from and written to an injected IO object:
//
//   Reg::Get().ReadFrom(io).set_field(3).WriteTo(io);
//
// `io` is anything satisfying RegisterIo: real MMIO, the emulator, or a plain
// array. It addresses ONE space; a register's kSpace names which.
//
// ReadFrom/WriteTo take the caller's source location (defaulted), and hand
// it to an io that has ReadAt/WriteAt(offset, width, [value,] site): that is
// how regemu's test kit reports a violation at the driver line that made the
// access rather than inside this header.

#include <concepts>
#include <cstdint>
#include <string_view>

namespace regemu::hwreg {

// An IO window onto one address space: `width` is 8, 16, 32 or 64 bits,
// `offset` is in bytes (MSR spaces: the MSR index).
template <typename T>
concept RegisterIo = requires(T& io, uint64_t offset, unsigned width, uint64_t value) {
  { io.Read(offset, width) } -> std::convertible_to<uint64_t>;
  io.Write(offset, width, value);
};

// The caller's file, line and function, as SourceLocation gives them,
// but from the __builtin_FILE/LINE/FUNCTION that GCC and clang both have:
// clang before 15 cannot compile libstdc++'s <source_location>.
class SourceLocation {
 public:
  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          const char* function = __builtin_FUNCTION(),
                                          unsigned line = __builtin_LINE()) noexcept {
    return SourceLocation(file, function, line);
  }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }
  constexpr unsigned line() const noexcept { return line_; }

 private:
  constexpr SourceLocation(const char* file, const char* function, unsigned line) noexcept
      : file_(file), function_(function), line_(line) {}
  const char* file_;
  const char* function_;
  unsigned line_;
};

namespace detail {

template <typename Io>
uint64_t ReadAt(Io& io, uint64_t offset, unsigned width, const SourceLocation& site) {
  if constexpr (requires { io.ReadAt(offset, width, site); }) {
    return io.ReadAt(offset, width, site);
  } else {
    return io.Read(offset, width);
  }
}

template <typename Io>
void WriteAt(Io& io, uint64_t offset, unsigned width, uint64_t value, const SourceLocation& site) {
  if constexpr (requires { io.WriteAt(offset, width, value, site); }) {
    io.WriteAt(offset, width, value, site);
  } else {
    io.Write(offset, width, value);
  }
}

}  // namespace detail

// A field's place in its register: `hi:lo` as in datasheets.
template <unsigned kHi, unsigned kLo>
struct BitField {
  static_assert(kHi >= kLo && kHi < 64, "a field is hi:lo with hi >= lo, inside 64 bits");
  static constexpr unsigned kShift = kLo;
  static constexpr unsigned kWidth = kHi - kLo + 1;
  static constexpr uint64_t kMask = (kWidth == 64 ? ~uint64_t{0} : ((uint64_t{1} << kWidth) - 1)) << kLo;
};

// The CRTP base of every generated register. `Derived` provides kWidth
// and kZeroOnWrite (reserved and must-be-zero bits, forced to 0 on write).
template <typename Derived, typename IntType>
class Register {
 public:
  using ValueType = IntType;

  constexpr uint64_t reg_offset() const { return offset_; }
  constexpr IntType reg_value() const { return value_; }
  constexpr Derived& set_reg_value(IntType value) {
    value_ = value;
    return self();
  }

  template <RegisterIo Io>
  Derived& ReadFrom(Io& io, SourceLocation site = SourceLocation::current()) {
    value_ = static_cast<IntType>(detail::ReadAt(io, offset_, Derived::kWidth, site));
    return self();
  }
  // Writes the value with reserved and must-be-zero bits cleared: a driver
  // written against these headers cannot set them (regemu's `mbz` rule is
  // for raw writes; a test provokes it with the io's Write directly).
  template <RegisterIo Io>
  Derived& WriteTo(Io& io, SourceLocation site = SourceLocation::current()) {
    detail::WriteAt(io, offset_, Derived::kWidth,
                    static_cast<uint64_t>(value_ & static_cast<IntType>(~Derived::kZeroOnWrite)), site);
    return self();
  }

  friend constexpr bool operator==(const Register& a, const Register& b) {
    return a.offset_ == b.offset_ && a.value_ == b.value_;
  }

 protected:
  constexpr Register(uint64_t offset, IntType value) : offset_(offset), value_(value) {}

  template <typename Field>
  constexpr IntType GetField() const {
    return static_cast<IntType>((static_cast<uint64_t>(value_) & Field::kMask) >> Field::kShift);
  }
  template <typename Field>
  constexpr Derived& SetField(uint64_t field_value) {
    uint64_t bits = (field_value << Field::kShift) & Field::kMask;
    value_ = static_cast<IntType>((static_cast<uint64_t>(value_) & ~Field::kMask) | bits);
    return self();
  }

 private:
  constexpr Derived& self() { return static_cast<Derived&>(*this); }

  uint64_t offset_;
  IntType value_;
};

// Intel masked registers: bits 31:16 of a write select which of bits 15:0 change.
template <typename Derived>
class MaskedRegister : public Register<Derived, uint32_t> {
 public:
  static constexpr uint32_t MaskedEnable(uint32_t bits) { return (bits << 16) | bits; }
  static constexpr uint32_t MaskedDisable(uint32_t bits) { return bits << 16; }
  static constexpr uint32_t MaskedField(uint32_t mask, uint32_t value) { return (mask << 16) | (value & mask); }

  // Writes only the bits of `mask` (15:0), taking their values from this register value.
  template <RegisterIo Io>
  Derived& WriteMasked(Io& io, uint32_t mask, SourceLocation site = SourceLocation::current()) {
    detail::WriteAt(io, this->reg_offset(), 32,
                    MaskedField(mask & 0xffffu, this->reg_value() & static_cast<uint32_t>(~Derived::kZeroOnWrite)),
                    site);
    return static_cast<Derived&>(*this);
  }

 protected:
  constexpr MaskedRegister(uint64_t offset, uint32_t value) : Register<Derived, uint32_t>(offset, value) {}
};

}  // namespace regemu::hwreg
