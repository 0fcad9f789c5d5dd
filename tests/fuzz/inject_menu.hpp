#pragma once
// The hardware-side events access_fuzz may inject into a device: every
// `inject` command its behaviours accept, as templates with at most one
// number the fuzzer chooses (an IIR bit, an engine's 16 data bits, a GPU
// frequency), made from the forms the behaviours declare
// (emulator/inject_forms.hpp). Built once per database by offering each candidate to a
// device and keeping those it accepts, so an input never spends an
// operation on a refused inject.
#include <cstdint>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"

namespace regemu::fuzz {

struct InjectTemplate {
  enum class Number : uint8_t {
    kNone,
    kDecimal,   // 0..max (min 1 for gpu-freq)
    kHex,       // 0..max, written 0x...
    kFraction,  // 0..max thousandths, written 0.750
  };
  std::string verb;
  std::vector<std::string> args;
  size_t number_arg = 0;  // which argument the number goes in
  Number number = Number::kNone;
  uint64_t min = 0;
  uint64_t max = 0;
};

// The accepted templates for `device`'s behaviours. Trying them changes
// the device: restore it afterwards.
std::vector<InjectTemplate> BuildInjectMenu(emulator::Device& device);

// Writes `choice`'s arguments with `number` (taken modulo its range) into
// `args`, reusing its strings' storage.
void FillInjectArgs(const InjectTemplate& choice, uint64_t number, std::vector<std::string>& args);

}  // namespace regemu::fuzz
