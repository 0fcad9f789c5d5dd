// regdb_fuzz: YAML text -> load, check, compile, a device, every register
// read and written through the frontdoor. Finds crashes, hangs and
// unbounded memory in the loader, the checker, the compiler and the
// device's setup. The input is one database file (`fuzz.yaml`); an include
// of any other file is "no such file", which the loader must report as
// any missing file.
//
//   seed corpus: every YAML file of yaml/ and tests/data (fuzz/seeds.cmake)
//   dictionary:  tests/fuzz/regdb_fuzz.dict (the schema's keys and values)
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/regdb/loader.hpp"

using namespace regemu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  regdb::LoadOptions options;
  // Bounds a user would set for an untrusted database; the defaults allow
  // a million registers, which would make every input slow, not wrong.
  options.max_registers = 4096;
  options.read_file = regdb::InMemoryFileReader(
      std::map<std::string, std::string>{{"fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size)}});
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("fuzz.yaml", options);
  if (loaded.diagnostics.has_errors()) return 0;
  emulator::CompileResult compiled = emulator::Compile(loaded.database);
  if (!compiled.model) return 0;

  emulator::DeviceOptions device_options;
  device_options.policy = emulator::ViolationPolicy::Lenient();
  device_options.thread_safe = false;
  device_options.trace_capacity = 16;
  emulator::Device device(compiled.model, device_options);
  const auto& registers = compiled.model->registers();
  for (emulator::RegisterId reg = 0; reg < registers.size(); ++reg) {
    uint64_t value = device.ReadRegister(reg);
    device.WriteRegister(reg, ~value);
    device.WriteRegister(reg, value);
  }
  device.Advance(1'000'000);
  device.Reset();
  return 0;
}
