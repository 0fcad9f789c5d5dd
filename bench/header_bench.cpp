// Generating the C++ and C headers and both self-tests for a 10,000-register
// database (target: under 1 s), with and without loading and checking it.
#include <benchmark/benchmark.h>

#include <sstream>

#include "bench/synthetic_database.hpp"
#include "regemu/regdb/loader.hpp"
#include "tools/headergen/backends.hpp"

namespace regemu::bench {
namespace {

constexpr size_t kHeaderRegisters = 10'000;

regdb::LoadOptions HeaderInMemory() {
  static const std::string yaml = SyntheticDatabaseYaml(kHeaderRegisters);
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"synthetic.yaml", yaml}});
  return options;
}

// Every output `regemu header` writes (both languages), returned as its size.
size_t GenerateAll(const regdb::Database& db) {
  headergen::DeviceView view = headergen::BuildDeviceView(db);
  std::ostringstream cpp;
  std::ostringstream c;
  std::ostringstream cpp_test;
  std::ostringstream c_test;
  headergen::CppBackend(view).Run(cpp);
  headergen::CBackend(view).Run(c);
  headergen::SelfTestBackend(view, headergen::SelfTestBackend::Lang::kCpp, "synthetic.hpp").Run(cpp_test);
  headergen::SelfTestBackend(view, headergen::SelfTestBackend::Lang::kC, "synthetic.h").Run(c_test);
  return cpp.str().size() + c.str().size() + cpp_test.str().size() + c_test.str().size();
}

// The generator alone, from a checked database.
void BM_GenerateHeaders10k(benchmark::State& state) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck("synthetic.yaml", HeaderInMemory());
  if (loaded.diagnostics.has_errors()) state.SkipWithError("the synthetic database has errors");
  size_t bytes = 0;
  for (auto _ : state) {
    bytes = GenerateAll(loaded.database);
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["output_bytes"] = static_cast<double>(bytes);
}
BENCHMARK(BM_GenerateHeaders10k)->Unit(benchmark::kMillisecond);

// What `regemu header` does end to end, minus the disk: load, check, generate.
void BM_LoadCheckGenerateHeaders10k(benchmark::State& state) {
  regdb::LoadOptions options = HeaderInMemory();
  for (auto _ : state) {
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck("synthetic.yaml", options);
    benchmark::DoNotOptimize(GenerateAll(loaded.database));
  }
}
BENCHMARK(BM_LoadCheckGenerateHeaders10k)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace regemu::bench
