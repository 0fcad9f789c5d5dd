// `regemu doc` on a 10,000-register database (target: under 2 s end to
// end), against the same-run baseline of writing the same number of files
// with the same bytes: what the disk costs before any page is made.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/synthetic_database.hpp"
#include "regemu/regdb/loader.hpp"
#include "tools/docgen/doc_site.hpp"

namespace regemu::bench {
namespace {

namespace fs = std::filesystem;
constexpr size_t kDocRegisters = 10'000;

const regdb::LoadedDatabase& Checked10k() {
  static const regdb::LoadedDatabase loaded = [] {
    static const std::string yaml = SyntheticDatabaseYaml(kDocRegisters);
    regdb::LoadOptions options;
    options.read_file = regdb::InMemoryFileReader({{"synthetic.yaml", yaml}});
    return regdb::LoadAndCheck("synthetic.yaml", options);
  }();
  return loaded;
}

fs::path TempFolder() {
  char pattern[] = "/tmp/regemu_doc_bench_XXXXXX";
  if (mkdtemp(pattern) == nullptr) return {};
  return pattern;
}

// The generator from a checked database to files on disk.
void BM_DocSite10k(benchmark::State& state) {
  const regdb::LoadedDatabase& loaded = Checked10k();
  if (loaded.diagnostics.has_errors()) state.SkipWithError("the synthetic database has errors");
  fs::path folder = TempFolder();
  docgen::DocSiteStats stats;
  for (auto _ : state) {
    stats = {};
    std::string error;
    if (!docgen::WriteDocSite(loaded, {}, folder / "site", stats, error)) state.SkipWithError(error.c_str());
  }
  state.counters["files"] = static_cast<double>(stats.pages);
  state.counters["MiB"] = static_cast<double>(stats.bytes) / (1024.0 * 1024.0);
  fs::remove_all(folder);
}
BENCHMARK(BM_DocSite10k)->Unit(benchmark::kMillisecond)->Iterations(3);

// What `regemu doc` does end to end, minus reading the YAML file: load, check, write.
void BM_DocLoadCheckSite10k(benchmark::State& state) {
  static const std::string yaml = SyntheticDatabaseYaml(kDocRegisters);
  fs::path folder = TempFolder();
  for (auto _ : state) {
    regdb::LoadOptions options;
    options.read_file = regdb::InMemoryFileReader({{"synthetic.yaml", yaml}});
    regdb::LoadedDatabase loaded = regdb::LoadAndCheck("synthetic.yaml", options);
    docgen::DocSiteStats stats;
    std::string error;
    if (!docgen::WriteDocSite(loaded, {}, folder / "site", stats, error)) state.SkipWithError(error.c_str());
  }
  fs::remove_all(folder);
}
BENCHMARK(BM_DocLoadCheckSite10k)->Unit(benchmark::kMillisecond)->Iterations(3);

// The baseline: as many files of the same total size, their bytes ready
// (memcpy'd from one buffer), written into fresh folders the same way.
void BM_DocBaselineSameFiles10k(benchmark::State& state) {
  const regdb::LoadedDatabase& loaded = Checked10k();
  fs::path folder = TempFolder();
  docgen::DocSiteStats stats;
  std::string error;
  docgen::WriteDocSite(loaded, {}, folder / "probe", stats, error);  // the sizes to match
  size_t per_file = stats.pages == 0 ? 0 : stats.bytes / stats.pages;
  std::string source(per_file, 'x');
  for (auto _ : state) {
    fs::remove_all(folder / "site");
    fs::create_directories(folder / "site" / "r");
    std::string page(per_file, '\0');
    for (size_t i = 0; i < stats.pages; ++i) {
      std::copy(source.begin(), source.end(), page.begin());
      std::ofstream out(folder / "site" / "r" / (std::to_string(i) + ".html"), std::ios::binary | std::ios::trunc);
      out.write(page.data(), static_cast<std::streamsize>(page.size()));
    }
  }
  fs::remove_all(folder);
}
BENCHMARK(BM_DocBaselineSameFiles10k)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace regemu::bench
