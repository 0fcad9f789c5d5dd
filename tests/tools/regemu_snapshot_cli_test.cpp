// `regemu snapshot DB [SCRIPT] [--space NAME] [--size BYTES] -o FILE` as a
// user runs it: the image after a script, violations counted but not fatal,
// the exit codes and errors, and IGT's intel_reg reading the image of
// yaml/icl as it reads a dump of a real GPU's BAR.
#include <stdlib.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/tools/cli_support.hpp"

namespace {

namespace fs = std::filesystem;
using regemu::testing_support::CliResult;
using regemu::testing_support::FindIntelReg;
using regemu::testing_support::kNoIntelRegMessage;
using regemu::testing_support::RunRegemu;
using regemu::testing_support::RunShell;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;

// config comes first, so the default space is the first *mmio* one. CTRL is
// read/write, ID read-only, EVENTS clear-on-read; a hole is reserved.
constexpr const char* kSmallDb = R"(device: small
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: mmio, kind: mmio, size: 0x100}
  - {name: msr, kind: msr, size: 0x100}
registers:
  - {name: VID, space: config, offset: 0x0, width: 16, access: ro, reset: 0x8086}
  - {name: CTRL, space: mmio, offset: 0x0}
  - {name: ID, space: mmio, offset: 0x4, access: ro, reset: 0xA5}
  - {name: EVENTS, space: mmio, offset: 0x8, access: rc, reset: 0x3}
  - {name: WIDE, space: mmio, offset: 0x10, width: 64}
  - {name: EFER, space: msr, offset: 0x80, width: 64}
)";


class RegemuSnapshotCli : public ::testing::Test {
 protected:
  RegemuSnapshotCli() {
    std::string pattern = (fs::temp_directory_path() / "regemu-snapshot-cli-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    db_ = Write("small.yaml", kSmallDb);
  }
  ~RegemuSnapshotCli() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }

  std::string Write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path.string();
  }
  std::string Path(const std::string& name) const { return (dir_ / name).string(); }
  static std::vector<uint8_t> Bytes(const std::string& text) { return std::vector<uint8_t>(text.begin(), text.end()); }
  static std::vector<uint8_t> Image(const std::string& path) { return Bytes(regemu::testing_support::Slurp(path)); }

  fs::path dir_;
  std::string db_;
};

uint64_t At(const std::vector<uint8_t>& image, uint64_t offset, unsigned bytes) {
  uint64_t value = 0;
  for (unsigned b = 0; b < bytes; ++b) value |= uint64_t{image.at(offset + b)} << (8 * b);
  return value;
}

// After the script, the first mmio space's every byte: the values the script
// left, little-endian; the summary names space, size and registers on stderr.
TEST_F(RegemuSnapshotCli, WritesTheFirstMmioSpaceAfterTheScript) {
  std::string script = Write("s.script", "write32 CTRL 0x12345678\nwrite64 WIDE 0x1122334455667788\n");
  CliResult r = RunRegemu("snapshot '" + db_ + "' '" + script + "' -o '" + Path("mmio.bin") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<uint8_t> image = Image(Path("mmio.bin"));
  ASSERT_EQ(image.size(), 0x100u);
  EXPECT_EQ(At(image, 0x0, 4), 0x12345678u);
  EXPECT_EQ(image[0x0], 0x78);
  EXPECT_EQ(At(image, 0x4, 4), 0xA5u);
  EXPECT_EQ(At(image, 0x10, 8), 0x1122334455667788u);
  EXPECT_EQ(At(image, 0xF0, 4), 0u);
  EXPECT_THAT(r.err, HasSubstr("s.script: 2 command(s), 0 of 0 check(s) failed; 0 violation(s) recorded\n"));
  EXPECT_THAT(r.err, HasSubstr("mmio.bin: space 'mmio' of device 'small', 256 bytes, 4 register(s)\n"));
  EXPECT_EQ(r.out, "");
}

// Without a script: the power-on state. `-o -` puts only the image on
// stdout; --space picks another space; reading for the image clears nothing.
TEST_F(RegemuSnapshotCli, ResetStateToStdoutAndOtherSpaces) {
  CliResult r = RunRegemu("snapshot '" + db_ + "' -o -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<uint8_t> image = Bytes(r.out);
  ASSERT_EQ(image.size(), 0x100u);
  EXPECT_EQ(At(image, 0x8, 4), 0x3u) << "EVENTS is clear-on-read; the image must not read it";
  EXPECT_THAT(r.err, HasSubstr("<stdout>: space 'mmio'"));

  CliResult config = RunRegemu("snapshot '" + db_ + "' --space config -o -");
  ASSERT_EQ(config.exit_code, 0) << config.err;
  EXPECT_EQ(At(Bytes(config.out), 0x0, 2), 0x8086u);

  CliResult part = RunRegemu("snapshot '" + db_ + "' --size 0x10 -o -");
  ASSERT_EQ(part.exit_code, 0) << part.err;
  EXPECT_EQ(part.out.size(), 0x10u);
}

// A driver's sequence that breaks a rule still gets its snapshot (the
// violation is counted); a failed expectation writes it too, but exits 1.
TEST_F(RegemuSnapshotCli, ViolationsAreCountedAndFailedExpectationsExitOne) {
  std::string script = Write("bad.script", "write32 ID 0x1\nwrite32 CTRL 0x2\n");
  CliResult r = RunRegemu("snapshot '" + db_ + "' '" + script + "' -o '" + Path("a.bin") + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err,
              HasSubstr("2 command(s), 0 of 0 check(s) failed; 1 violation(s) recorded (`regemu run --lenient`"));
  EXPECT_EQ(At(Image(Path("a.bin")), 0x0, 4), 0x2u);

  std::string failing = Write("expect.script", "write32 CTRL 0x2\nexpect32 CTRL 0x3\n");
  CliResult f = RunRegemu("snapshot '" + db_ + "' '" + failing + "' -o '" + Path("b.bin") + "'");
  EXPECT_EQ(f.exit_code, 1) << f.err;
  EXPECT_THAT(f.err, HasSubstr("expect.script:2:1: error: expectation failed"));
  EXPECT_THAT(f.err, HasSubstr("1 of 1 check(s) failed"));
  EXPECT_EQ(At(Image(Path("b.bin")), 0x0, 4), 0x2u);
}

// Usage, database and script errors and spaces without an image exit 2 and
// leave no file.
TEST_F(RegemuSnapshotCli, ErrorsExitTwoWithoutAFile) {
  std::string out = " -o '" + Path("x.bin") + "'";
  EXPECT_EQ(RunRegemu("snapshot '" + db_ + "'").exit_code, 2) << "-o is required";

  CliResult missing = RunRegemu("snapshot does/not/exist" + out);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("regemu snapshot: no such file or folder: does/not/exist"));

  CliResult space = RunRegemu("snapshot '" + db_ + "' --space mmoi" + out);
  EXPECT_EQ(space.exit_code, 2);
  EXPECT_THAT(space.err, HasSubstr("has no space 'mmoi' (did you mean 'mmio'?); its spaces: config, mmio, msr\n"));

  CliResult msr = RunRegemu("snapshot '" + db_ + "' --space msr" + out);
  EXPECT_EQ(msr.exit_code, 2);
  EXPECT_THAT(msr.err, HasSubstr("space 'msr' is an msr space: its registers are numbered, not laid out in bytes"));

  CliResult size = RunRegemu("snapshot '" + db_ + "' --size 0x101" + out);
  EXPECT_EQ(size.exit_code, 2);
  EXPECT_THAT(size.err, HasSubstr("runs past the end of space 'mmio' (size 0x100)"));
  CliResult not_a_number = RunRegemu("snapshot '" + db_ + "' --size big" + out);
  EXPECT_EQ(not_a_number.exit_code, 2);
  EXPECT_THAT(not_a_number.err, HasSubstr("regemu snapshot: --size: "));

  std::string bad_script = Write("bad.script", "write32 CTRLL 0x1\n");
  CliResult script = RunRegemu("snapshot '" + db_ + "' '" + bad_script + "'" + out);
  EXPECT_EQ(script.exit_code, 2);
  EXPECT_THAT(script.err, HasSubstr("bad.script:1:9: error: "));
  CliResult no_script = RunRegemu("snapshot '" + db_ + "' does/not/exist.script" + out);
  EXPECT_EQ(no_script.exit_code, 2);
  EXPECT_THAT(no_script.err, HasSubstr("regemu snapshot: no such script file: does/not/exist.script"));

  std::string no_mmio = Write("no_mmio.yaml", "device: cpu\nspaces: [{name: msr, kind: msr, size: 0x100}]\n");
  CliResult none = RunRegemu("snapshot '" + no_mmio + "'" + out);
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, HasSubstr("has no mmio space; name one with --space (its spaces: msr)"));

  EXPECT_FALSE(fs::exists(Path("x.bin")));
}

// yaml/icl's graphics memory is 4 GiB, over the 256 MiB an image may hold:
// refused with the way out, and its start is fine.
TEST_F(RegemuSnapshotCli, BigMemorySpaceNeedsASize) {
  CliResult whole = RunRegemu("snapshot yaml/icl --space ggtt -o '" + Path("ggtt.bin") + "'");
  EXPECT_EQ(whole.exit_code, 2);
  EXPECT_THAT(whole.err, HasSubstr("is larger than an image may be (0x10000000 bytes)"));
  EXPECT_THAT(whole.err, HasSubstr("note: --size BYTES writes the space's first BYTES"));
  EXPECT_FALSE(fs::exists(Path("ggtt.bin")));

  CliResult start = RunRegemu("snapshot yaml/icl --space ggtt --size 0x10000 -o '" + Path("ggtt.bin") + "'");
  ASSERT_EQ(start.exit_code, 0) << start.err;
  EXPECT_EQ(fs::file_size(Path("ggtt.bin")), 0x10000u);
}

// What IGT's intel_reg reads from the image is what the device holds: it
// maps the file as GTTMMADR (`--mmio=FILE`, no root, no GPU; it needs
// `--devid` for the platform and a file covering every offset it reads,
// hence the whole 16 MiB). The script is i915's order: memory decode on,
// render force-wake held for the ring registers.
TEST_F(RegemuSnapshotCli, IntelRegReadsTheIceLakeImage) {
  std::optional<std::string> intel_reg = FindIntelReg();
  if (!intel_reg) GTEST_SKIP() << kNoIntelRegMessage;
  std::string script = Write("icl.script", R"(write16 PCICMD 0x0006
write32 FORCEWAKE_RENDER_GEN9 0x00010001
poll32 FORCEWAKE_ACK_RENDER_GEN9 0x1 mask 0x1 timeout 50ms
write32 RCS0_RING_START 0x00123000
write32 RCS0_RING_TAIL 0x00000040
write32 RCS0_RING_CTL 0x00003001
write32 GEN11_GFX_MSTR_IRQ 0x80000000
poke32 MAD_INTER_CHANNEL 0x00000C11
)");
  std::string image = Path("icl.bin");
  CliResult snapshot = RunRegemu("snapshot yaml/icl '" + script + "' -o '" + image + "'");
  ASSERT_EQ(snapshot.exit_code, 0) << snapshot.err;
  EXPECT_THAT(snapshot.err, HasSubstr("0 violation(s) recorded"));
  EXPECT_THAT(snapshot.err, ContainsRegex("space 'mmio' of device 'icl', 16777216 bytes, [0-9]+ register\\(s\\) and 7 "
                                          "through alias windows"));

  // 0x145000 is MAD_INTER_CHANNEL through the MCHBAR mirror.
  CliResult read = RunShell("'" + *intel_reg + "' --mmio='" + image +
                            "' --devid=0x8a52 read 0x190010 0x2030 0x2038 0x203c 0x145000 0x178000");
  ASSERT_EQ(read.exit_code, 0) << read.err;
  EXPECT_THAT(read.out, HasSubstr("(0x00190010): 0x80000000"));
  EXPECT_THAT(read.out, HasSubstr("(0x00002030): 0x00000040"));
  EXPECT_THAT(read.out, HasSubstr("(0x00002038): 0x00123000"));
  EXPECT_THAT(read.out, HasSubstr("(0x0000203c): 0x00003001"));
  EXPECT_THAT(read.out, HasSubstr("(0x00145000): 0x00000c11"));
  EXPECT_THAT(read.out, HasSubstr("(0x00178000): 0x00000000"));

  // `dump` reads every register it knows for the platform: the image covers them all.
  CliResult dump = RunShell("'" + *intel_reg + "' --mmio='" + image + "' --devid=0x8a52 dump");
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  EXPECT_THAT(dump.out, ContainsRegex("GEN8_MASTER_IRQ \\(0x00044200\\): 0x[0-9a-f]{8}"));
}

}  // namespace
