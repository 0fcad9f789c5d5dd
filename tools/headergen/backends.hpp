#pragma once
// The header generator's backends, TableGen style: one small class per
// output, constructed from the device view, writing everything in Run(os).

#include <iosfwd>
#include <string>
#include <utility>

#include "tools/headergen/device_view.hpp"

namespace regemu::headergen {

// C++20 header: namespace regemu::regs::<device>, one hwreg-style class per
// register, array and block register (include/regemu/hwreg.hpp).
class CppBackend {
 public:
  explicit CppBackend(const DeviceView& view) : view_(view) {}
  void Run(std::ostream& os) const;

 private:
  const DeviceView& view_;
};

// C11 header, i915 style: <DEVICE>_<REG> offsets, _MASK/_SHIFT/_WIDTH per
// field, enum values as REGEMU_FIELD_PREP (include/regemu/reg_bits.h).
class CBackend {
 public:
  explicit CBackend(const DeviceView& view) : view_(view) {}
  void Run(std::ostream& os) const;

 private:
  const DeviceView& view_;
};

// A self-test translation unit for the header named `header_include`:
// static assertions (fields disjoint and inside the register, masks equal to
// width and shift, resets fit, no must-be-zero bit set at reset) and a main()
// that checks offsets ascend without overlap within each space.
class SelfTestBackend {
 public:
  enum class Lang { kCpp, kC };
  SelfTestBackend(const DeviceView& view, Lang lang, std::string header_include)
      : view_(view), lang_(lang), header_include_(std::move(header_include)) {}
  void Run(std::ostream& os) const;

 private:
  void RunCpp(std::ostream& os) const;
  void RunC(std::ostream& os) const;

  const DeviceView& view_;
  Lang lang_;
  std::string header_include_;
};

}  // namespace regemu::headergen
