// The example driver's run as an mmiotrace (examples/i915_mini/capture): the
// records a trace of i915 on Ice Lake would hold, a bug's trace set apart
// from the clean one, and the committed samples still what the program writes.
#include <sys/wait.h>
#include <unistd.h>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "examples/i915_mini/capture/mmiotrace_capture.hpp"
#include "regemu/fakes/device_test.hpp"

namespace regemu::i915_mini {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::Not;
using ::testing::StartsWith;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<std::string> Fields(const std::string& line) {
  std::vector<std::string> fields;
  std::istringstream in(line);
  for (std::string field; in >> field;) fields.push_back(field);
  return fields;
}

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string Capture(Bugs bugs = {}) {
  std::ostringstream out;
  CaptureMmiotrace(fakes::CompileDatabase(fakes::ShippedDatabase("icl")), bugs, out);
  return out.str();
}

// The R and W records, without their timestamps.
std::vector<std::string> Accesses(const std::string& trace) {
  std::vector<std::string> accesses;
  for (const std::string& line : Lines(trace)) {
    std::vector<std::string> f = Fields(line);
    if (f[0] == "R" || f[0] == "W") accesses.push_back(f[0] + " " + f[1] + " " + f[4] + " " + f[5]);
  }
  return accesses;
}

TEST(I915MiniCapture, StartsWithTheVersionAndTheGpuAt00_02_0) {
  std::vector<std::string> lines = Lines(Capture());
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0], "VERSION 20070824");
  // GTTMMADR: 16 MiB, 64-bit; GMADR: 256 MiB, 64-bit prefetchable; the
  // I/O BAR; no driver bound yet when the trace starts.
  EXPECT_EQ(lines[1], "PCIDEV 0010 80868a52 10 a0000004 0 b000000c 0 3001 0 0 1000000 0 10000000 0 40 0 0 ");
}

TEST(I915MiniCapture, MapsGttmmadrBeforeTheFirstAccessAndUnmapsAtTheEnd) {
  std::vector<std::string> lines = Lines(Capture());
  auto map = std::find_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("MAP "); });
  auto first_access = std::find_if(lines.begin(), lines.end(),
                                   [](const std::string& l) { return l.starts_with("R ") || l.starts_with("W "); });
  ASSERT_NE(map, lines.end());
  EXPECT_LT(map, first_access);
  EXPECT_THAT(Fields(*map), ElementsAre("MAP", Fields(*first_access)[2], "1", "0xa0000000", "0xffffc90002000000",
                                        "0x200000", "0x0", "0"));
  EXPECT_EQ(std::count_if(lines.begin(), lines.end(), [](const std::string& l) { return l.starts_with("MAP "); }), 1);
  EXPECT_THAT(lines.back(), StartsWith("UNMAP "));
  EXPECT_THAT(Fields(lines.back()), ElementsAre("UNMAP", ::testing::_, "1", "0x0", "0"));
}

// Every access is a 32-bit access through map 1 inside the 2 MiB mapped,
// with no PC, and time only goes forward.
TEST(I915MiniCapture, AccessesAreInsideTheMapAndInTimeOrder) {
  double last = 0;
  size_t accesses = 0;
  for (const std::string& line : Lines(Capture())) {
    std::vector<std::string> f = Fields(line);
    if (f[0] == "VERSION" || f[0] == "PCIDEV") continue;
    double time = std::stod(f[1 + (f[0] == "R" || f[0] == "W" ? 1 : 0)]);
    EXPECT_GE(time, last) << line;
    last = time;
    if (f[0] != "R" && f[0] != "W") continue;
    ++accesses;
    ASSERT_EQ(f.size(), 8u) << line;
    EXPECT_EQ(f[1], "4") << line;
    EXPECT_EQ(f[3], "1") << line;
    uint64_t phys = std::stoull(f[4], nullptr, 16);
    EXPECT_GE(phys, kCaptureMmioBase) << line;
    EXPECT_LT(phys, kCaptureMmioBase + (2u << 20)) << line;
    EXPECT_EQ(f[6], "0x0") << line;
    EXPECT_EQ(f[7], "0") << line;
  }
  EXPECT_GT(accesses, 50u);
}

// The Gen11 master interrupt control (GEN11_GFX_MSTR_IRQ, mmio 0x190010):
// disabled and read back in gen11_irq_reset, the handler's master disable
// and read, and re-enabled (bit 31) when it is done.
TEST(I915MiniCapture, HoldsTheMasterInterruptControlAtBar0Plus0x190010) {
  std::vector<std::string> accesses = Accesses(Capture());
  EXPECT_THAT(accesses, Contains("W 4 0xa0190010 0x0"));
  EXPECT_THAT(accesses, Contains("R 4 0xa0190010 0x3"));  // both GT banks pending
  EXPECT_THAT(accesses, Contains("W 4 0xa0190010 0x80000000"));
}

TEST(I915MiniCapture, MarksEachDriverStepInOrder) {
  std::vector<std::string> marks;
  for (const std::string& line : Lines(Capture())) {
    if (line.starts_with("MARK ")) marks.push_back(line.substr(line.find(' ', 5) + 1));
  }
  EXPECT_THAT(marks, ElementsAre("pci: vendor and device ID", "pci: BAR sizing (pci_read_bases)",
                                 "pci: capability lists", "pci: enable memory decode and bus mastering",
                                 "pci: MSI (msi_capability_init)", "forcewake: reset every domain",
                                 "engines: media fuses and render ring, RENDER + GT held", "irq: gen11_irq_reset",
                                 "irq: gen11_irq_postinstall", "irq: gen11_irq_handler",
                                 "rps: frequencies through the MCHBAR mirror"));
}

// Configuration space is not in an mmiotrace: the probe's steps, all
// config accesses, leave no record.
TEST(I915MiniCapture, HoldsNoConfigurationSpaceAccess) {
  std::vector<std::string> lines = Lines(Capture());
  auto first_mmio_step = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
    return l.starts_with("MARK ") && l.ends_with(" forcewake: reset every domain");
  });
  ASSERT_NE(first_mmio_step, lines.end());
  EXPECT_TRUE(std::none_of(lines.begin(), first_mmio_step, [](const std::string& l) {
    return l.starts_with("R ") || l.starts_with("W ");
  }));
}

TEST(I915MiniCapture, IsTheSameEveryRun) { EXPECT_EQ(Capture(), Capture()); }

// Without force-wake the driver neither requests nor polls the domains'
// acks, and the render registers it reads come back 0.
TEST(I915MiniCapture, SkipForcewakeDropsTheRequestsAndAckPolls) {
  std::vector<std::string> clean = Accesses(Capture());
  std::vector<std::string> buggy = Accesses(Capture({Bug::kSkipForcewake}));
  EXPECT_THAT(clean, Contains("W 4 0xa000a278 0x10001"));  // FORCEWAKE_RENDER_GEN9: kernel bit on
  EXPECT_THAT(clean, Contains("R 4 0xa0000d84 0x1"));      // its ack
  EXPECT_THAT(buggy, Not(Contains("W 4 0xa000a278 0x10001")));
  EXPECT_THAT(buggy, Not(Contains("R 4 0xa0000d84 0x1")));
  EXPECT_THAT(buggy, Contains("R 4 0xa0002038 0x0"));  // RING_START(RCS0) reads back nothing
}

// Writing the read-only MCHBAR mirror is one more record: a W to
// RP_STATE_CAP (mmio 0x145998) after the frequency reads.
TEST(I915MiniCapture, WriteMchbarMirrorAddsOneWriteToRpStateCap) {
  std::vector<std::string> clean = Accesses(Capture());
  std::vector<std::string> buggy = Accesses(Capture({Bug::kWriteMchbarMirror}));
  ASSERT_EQ(buggy.size(), clean.size() + 1);
  EXPECT_THAT(std::vector<std::string>(buggy.begin(), buggy.end() - 1), ElementsAreArray(clean));
  EXPECT_THAT(buggy.back(), StartsWith("W 4 0xa0145998 "));
}

// ------------------------------------------------------ the committed samples

const fs::path kSamples = fs::path(REGEMU_SOURCE_DIR) / "tests/data/traces";

TEST(I915MiniCaptureSamples, AreWhatTheProgramWritesNow) {
  EXPECT_EQ(Slurp(kSamples / "i915_mini.mmiotrace"), Capture())
      << "regenerate as tests/data/traces/README.md says";
  EXPECT_EQ(Slurp(kSamples / "i915_mini_write-mchbar-mirror.mmiotrace"), Capture({Bug::kWriteMchbarMirror}))
      << "regenerate as tests/data/traces/README.md says";
}

// ------------------------------------------------------------- the program

struct ProgramRun {
  int exit_code = -1;
  std::string trace;
};

// i915_mini_mmiotrace ARGS -o FILE; the file's text.
ProgramRun RunProgram(const std::string& args) {
  fs::path file = fs::temp_directory_path() / ("i915_mini_mmiotrace_" + std::to_string(getpid()) + ".txt");
  std::string command = "'" + std::string(I915_MINI_MMIOTRACE) + "' " + args + " -o '" + file.string() +
                        "' >/dev/null 2>&1";
  int status = std::system(command.c_str());
  ProgramRun run;
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.trace = Slurp(file);
  fs::remove(file);
  return run;
}

TEST(I915MiniMmiotraceProgram, WritesTheCaptureWithTheBugsNamed) {
  ProgramRun run = RunProgram("--bug write-mchbar-mirror --bug skip-forcewake");
  EXPECT_EQ(run.exit_code, 0);
  EXPECT_EQ(run.trace, Capture({Bug::kWriteMchbarMirror, Bug::kSkipForcewake}));
}

TEST(I915MiniMmiotraceProgram, AnUnknownBugIsAUsageError) {
  ProgramRun run = RunProgram("--bug skip-forcewak");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.trace, "");
}

}  // namespace
}  // namespace regemu::i915_mini
