// The fuzz targets' `main` outside libFuzzer: runs LLVMFuzzerTestOneInput
// once on every file named, or on every file under every directory named
// (sorted, so a run is repeatable). ctest replays the in-tree corpora and
// the committed crash reproducers with it in every build, so a fixed crash
// stays fixed, also where no clang is installed.
//
//   access_fuzz_replay tests/fuzz/corpus/access_fuzz tests/fuzz/regressions/access_fuzz
//
// An input that crashes the target aborts the run (the sanitizers or the
// target's own invariant checks say why); the last line printed before it
// names the input.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

std::vector<std::filesystem::path> InputsUnder(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> inputs;
  if (std::filesystem::is_directory(path)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
    std::sort(inputs.begin(), inputs.end());
  } else {
    inputs.push_back(path);
  }
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
    return 2;
  }
  size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path root = argv[i];
    if (!std::filesystem::exists(root)) {
      std::fprintf(stderr, "%s: no such file or directory\n", argv[i]);
      return 2;
    }
    for (const std::filesystem::path& input : InputsUnder(root)) {
      std::ifstream file(input, std::ios::binary);
      std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      std::fprintf(stderr, "replay %s (%zu bytes)\n", input.c_str(), bytes.size());
      // An empty vector's data() may be null; libFuzzer never passes null.
      static const uint8_t kEmpty = 0;
      LLVMFuzzerTestOneInput(bytes.empty() ? &kEmpty : bytes.data(), bytes.size());
      ++replayed;
    }
  }
  std::printf("replayed %zu input(s)\n", replayed);
  return 0;
}
