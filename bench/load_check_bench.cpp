// Loading and checking a 10,000-register database, split into its stages so
// the cost of each is visible: reading the text (the raw baseline), YAML
// parsing into the located tree, building the model, and checking it.
#include <benchmark/benchmark.h>

#include <algorithm>

#include "bench/synthetic_database.hpp"
#include "regemu/regdb/checker.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::bench {
namespace {

constexpr size_t kRegisters = 10'000;

const std::string& Yaml10k() {
  static const std::string yaml = SyntheticDatabaseYaml(kRegisters);
  return yaml;
}

regdb::LoadOptions InMemory() {
  regdb::LoadOptions options;
  options.read_file = regdb::InMemoryFileReader({{"synthetic.yaml", Yaml10k()}});
  return options;
}

// Baseline: touching every byte of the text once (what any loader must pay).
void BM_ScanText10k(benchmark::State& state) {
  const std::string& yaml = Yaml10k();
  for (auto _ : state) {
    benchmark::DoNotOptimize(std::count(yaml.begin(), yaml.end(), '\n'));
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(yaml.size()));
}
BENCHMARK(BM_ScanText10k)->Unit(benchmark::kMillisecond);

// Stage 1: yaml-cpp's event parser building the located YamlNode tree.
void BM_YamlParse10k(benchmark::State& state) {
  for (auto _ : state) {
    regdb::SourceSet sources;
    uint32_t id = sources.Add("synthetic.yaml", Yaml10k());
    regdb::Diagnostics diagnostics;
    auto tree = regdb::ParseYamlFile(sources, id, regdb::InputLimits{}, diagnostics);
    benchmark::DoNotOptimize(tree);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(Yaml10k().size()));
}
BENCHMARK(BM_YamlParse10k)->Unit(benchmark::kMillisecond);

// Stages 1+2: parse and build the Database (schema reading, expansion).
void BM_Load10k(benchmark::State& state) {
  regdb::LoadOptions options = InMemory();
  for (auto _ : state) {
    regdb::LoadedDatabase loaded = regdb::LoadDatabase("synthetic.yaml", options);
    if (loaded.diagnostics.has_errors()) state.SkipWithError("synthetic database has errors");
    benchmark::DoNotOptimize(loaded);
  }
}
BENCHMARK(BM_Load10k)->Unit(benchmark::kMillisecond);

// Stages 1+2+3: what `regemu check` does.
void BM_LoadAndCheck10k(benchmark::State& state) {
  regdb::LoadOptions options = InMemory();
  for (auto _ : state) {
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck("synthetic.yaml", options);
    if (loaded.diagnostics.has_errors()) state.SkipWithError("synthetic database has errors");
    benchmark::DoNotOptimize(loaded);
  }
  state.counters["registers"] = static_cast<double>(kRegisters);
}
BENCHMARK(BM_LoadAndCheck10k)->Unit(benchmark::kMillisecond);

// Stage 3 alone: the checker on an already-built database.
void BM_Check10k(benchmark::State& state) {
  regdb::LoadedDatabase loaded = regdb::LoadDatabase("synthetic.yaml", InMemory());
  for (auto _ : state) {
    state.PauseTiming();
    regdb::Database copy = loaded.database;
    regdb::Diagnostics diagnostics;
    state.ResumeTiming();
    regdb::CheckDatabase(copy, diagnostics);
    benchmark::DoNotOptimize(diagnostics);
  }
}
BENCHMARK(BM_Check10k)->Unit(benchmark::kMillisecond);

// Hostile input must be rejected fast: a billion-laughs file (9^9 nodes if
// expanded) and 100,000 nested sequences. Each iteration must end in an error.
void RejectHostile(benchmark::State& state, const std::string& text) {
  for (auto _ : state) {
    regdb::SourceSet sources;
    uint32_t id = sources.Add("hostile.yaml", text);
    regdb::Diagnostics diagnostics;
    auto tree = regdb::ParseYamlFile(sources, id, regdb::InputLimits{}, diagnostics);
    if (tree || !diagnostics.has_errors()) state.SkipWithError("hostile input was accepted");
  }
}

void BM_RejectBillionLaughs(benchmark::State& state) {
  std::string text = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
  for (int level = 1; level <= 9; ++level) {
    std::string prev = "*l" + std::to_string(level - 1);
    text += "l" + std::to_string(level) + ": &l" + std::to_string(level) + " [";
    for (int i = 0; i < 9; ++i) text += (i ? ", " : "") + prev;
    text += "]\n";
  }
  RejectHostile(state, text);
}
BENCHMARK(BM_RejectBillionLaughs)->Unit(benchmark::kMicrosecond);

void BM_RejectDeepNesting(benchmark::State& state) {
  RejectHostile(state, "a: " + std::string(100'000, '[') + std::string(100'000, ']') + "\n");
}
BENCHMARK(BM_RejectDeepNesting)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace regemu::bench

BENCHMARK_MAIN();
