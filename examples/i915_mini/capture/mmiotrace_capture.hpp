#pragma once
// The example driver's whole run on an emulated Ice Lake GPU, recorded as
// Linux mmiotrace would record it on real hardware: its GTTMMADR accesses
// (the `mmio` space, BAR0) as R/W records at BAR0's bus address, the
// driver's steps as markers. What the sample traces in tests/data/traces/
// are made of (i915_mini_mmiotrace writes them).

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>

#include "examples/i915_mini/bugs.hpp"
#include "regemu/emulator/model.hpp"

namespace regemu::i915_mini {

// Where the trace says GTTMMADR is: a plausible firmware assignment, BAR0
// first in the 32-bit MMIO window, and the kernel virtual address an
// ioremap of it returns (x86-64 vmalloc space).
inline constexpr uint64_t kCaptureMmioBase = 0xa0000000;
inline constexpr uint64_t kCaptureIoBase = 0x3000;
inline constexpr uint64_t kCaptureGttmmadrVirt = 0xffffc90002000000;

struct CaptureSummary {
  size_t accesses = 0;    // R and W records written
  size_t violations = 0;  // what the device recorded (the bugs' doing)
};

// Runs probe, engine init, interrupt install, two engine interrupts (RCS0
// and VCS0) injected and handled, and the frequency read, with `bugs`, on a
// fresh lenient device of `model` (yaml/icl), and writes the mmiotrace to
// `out`: VERSION, the PCIDEV line of 00:02.0 with the BARs the probe sized,
// a MAP of GTTMMADR's register half before its first access, the
// accesses, each driver step as a MARK, and the UNMAP after the last step.
// Time is the device's virtual clock, so the same input gives the same
// trace, byte for byte. Throws std::invalid_argument when the model has no
// `mmio` space or no behaviour takes the `irq` inject.
CaptureSummary CaptureMmiotrace(const std::shared_ptr<const emulator::Model>& model, Bugs bugs, std::ostream& out);

}  // namespace regemu::i915_mini
