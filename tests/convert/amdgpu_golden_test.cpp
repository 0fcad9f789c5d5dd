// The shipped yaml/gc_9_4_2 is exactly what `regemu convert amdgpu`
// makes of AMD's gfx90a headers (tests/convert/data/amdgpu): converted
// again here and compared file by file, byte for byte, so the committed
// copy cannot drift from the headers or from the converter.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "tools/convert/amdgpu_reader.hpp"
#include "tools/convert/amdgpu_yaml_writer.hpp"

namespace regemu::convert {
namespace {

namespace fs = std::filesystem;

const fs::path kSource(REGEMU_SOURCE_DIR);
constexpr const char* kRegenerate =
    "regenerate it from the source tree with: regemu convert amdgpu tests/convert/data/amdgpu/gc_9_4_2_offset.h "
    "tests/convert/data/amdgpu/gc_9_4_2_sh_mask.h --bases 0x2000,0xA000,0x02402C00 -o yaml/gc_9_4_2";

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return std::move(text).str();
}

TEST(AmdgpuGolden, ShippedGc942IsTheConversionOfTheHeaders) {
  fs::path data = kSource / "tests/convert/data/amdgpu";
  fs::path shipped = kSource / "yaml/gc_9_4_2";
  const std::vector<uint64_t> bases = {0x2000, 0xA000, 0x02402C00};
  AmdgpuReadResult read =
      ReadAmdgpuHeaderFiles(data / "gc_9_4_2_offset.h", data / "gc_9_4_2_sh_mask.h", bases);
  ASSERT_TRUE(read.map.has_value()) << regdb::FormatDiagnostics(read.sources, read.diagnostics);
  std::map<std::string, std::string> files =
      WriteAmdgpuDatabaseYaml(*read.map, {"gc_9_4_2", "gc_9_4_2_offset.h", "gc_9_4_2_sh_mask.h", bases});

  for (const auto& [relative, text] : files) {
    fs::path path = shipped / relative;
    ASSERT_TRUE(fs::exists(path)) << path << " is missing: " << kRegenerate;
    EXPECT_TRUE(ReadFile(path) == text) << path << " differs from a fresh conversion: " << kRegenerate;
  }
  for (const auto& entry : fs::recursive_directory_iterator(shipped)) {
    if (!entry.is_regular_file()) continue;
    std::string relative = fs::relative(entry.path(), shipped).generic_string();
    if (relative == "README.md") continue;
    EXPECT_TRUE(files.count(relative)) << entry.path() << " is not in the conversion: " << kRegenerate;
  }
  EXPECT_EQ(read.map->registers.size(), 3529u);
  EXPECT_EQ(read.map->FieldCount(), 13469u);
}

}  // namespace
}  // namespace regemu::convert
