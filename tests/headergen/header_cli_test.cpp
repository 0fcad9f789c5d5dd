// `regemu header` as a user runs it, and the generated self-test catching a
// database the checker would reject (generated anyway with --no-check).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

struct RunResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class RegemuHeaderCli : public ::testing::Test {
 protected:
  void SetUp() override {
    // The process id keeps test runs of several checkouts on one machine apart.
    dir_ = fs::temp_directory_path() /
           ("regemu_header_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs a shell command from the source tree, capturing its output.
  RunResult Shell(const std::string& command) {
    fs::path out = dir_ / "stdout.txt";
    fs::path err = dir_ / "stderr.txt";
    std::string line = "cd '" + std::string(REGEMU_SOURCE_DIR) + "' && " + command + " >'" + out.string() + "' 2>'" +
                       err.string() + "'";
    int status = std::system(line.c_str());
    RunResult result;
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    result.out = Slurp(out);
    result.err = Slurp(err);
    return result;
  }
  RunResult Regemu(const std::string& args) { return Shell("'" + std::string(REGEMU_BINARY) + "' " + args); }

  // Compiles a generated self-test with the project's compiler and the
  // generated headers' warning set.
  RunResult CompileCpp(const fs::path& source, const std::string& extra = "",
                       const std::string& compiler = REGEMU_CXX_COMPILER) {
    return Shell("'" + compiler +
                 "' -std=c++20 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Wold-style-cast "
                 "-Werror -Iinclude -I'" +
                 dir_.string() + "' " + extra + " '" + source.string() + "' -o '" + (dir_ / "selftest").string() + "'");
  }
  RunResult CompileC(const fs::path& source, const std::string& compiler = REGEMU_C_COMPILER) {
    return Shell("'" + compiler +
                 "' -std=c11 -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow -Werror -Iinclude -I'" +
                 dir_.string() + "' '" + source.string() + "' -o '" + (dir_ / "selftest_c").string() + "'");
  }

  fs::path Write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path) << text;
    return path;
  }

  fs::path dir_;
};

TEST_F(RegemuHeaderCli, WritesTheHeaderAndItsSelfTest) {
  fs::path hpp = dir_ / "hsw.hpp";
  RunResult r = Regemu("header yaml/hsw --lang c++ -o '" + hpp.string() + "' --selftest '" +
                       (dir_ / "hsw_selftest.cpp").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("device 'hsw', 11284 register(s)"));
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(Slurp(hpp), HasSubstr("namespace regemu::regs::hsw {"));
  EXPECT_THAT(Slurp(dir_ / "hsw_selftest.cpp"), HasSubstr("#include \"hsw.hpp\""));
}

// Every shipped database's headers compile warning-free with g++ and clang
// (tools/setup.sh installs clang), in C++20 and C11, and their self-tests pass.
TEST_F(RegemuHeaderCli, ShippedHeadersCompileWithGccAndClang) {
  for (const std::string db : {"hsw", "icl"}) {
    fs::path hpp = dir_ / (db + ".hpp");
    fs::path h = dir_ / (db + ".h");
    fs::path cpp_test = dir_ / (db + "_selftest.cpp");
    fs::path c_test = dir_ / (db + "_selftest.c");
    ASSERT_EQ(Regemu("header yaml/" + db + " --lang c++ -o '" + hpp.string() + "' --selftest '" + cpp_test.string() +
                     "'")
                  .exit_code,
              0);
    ASSERT_EQ(Regemu("header yaml/" + db + " --lang c -o '" + h.string() + "' --selftest '" + c_test.string() + "'")
                  .exit_code,
              0);
    for (const auto& [cxx, cc] : {std::pair<std::string, std::string>{"g++", "gcc"}, {"clang++", "clang"}}) {
      RunResult compiled = CompileCpp(cpp_test, "", cxx);
      ASSERT_EQ(compiled.exit_code, 0) << cxx << ": " << compiled.err;
      EXPECT_EQ(Shell("'" + (dir_ / "selftest").string() + "'").exit_code, 0) << cxx;
      RunResult compiled_c = CompileC(c_test, cc);
      ASSERT_EQ(compiled_c.exit_code, 0) << cc << ": " << compiled_c.err;
      EXPECT_EQ(Shell("'" + (dir_ / "selftest_c").string() + "'").exit_code, 0) << cc;
    }
  }
}

// The C header's macros (and reg_bits.h's, and iomem.h's accessors), used
// from C++ built with -Wold-style-cast -Wsign-conversion -Werror: their
// conversions are static_casts there, and they stay constant expressions.
TEST_F(RegemuHeaderCli, CHeaderMacrosAreCleanInCpp) {
  fs::path h = dir_ / "icl.h";
  ASSERT_EQ(Regemu("header yaml/icl --lang c -o '" + h.string() + "'").exit_code, 0);
  fs::path use = Write("use.cpp", R"cpp(#include "icl.h"
#include "regemu/iomem.h"
static_assert(ICL_FORCEWAKE_MEDIA_VDBOX_GEN11(1) == 0xa544);
static_assert(REGEMU_FIELD_GET(REGEMU_GENMASK(7, 4), REGEMU_FIELD_PREP(REGEMU_GENMASK(7, 4), 3)) == 3);
static_assert(REGEMU_MASKED_BIT_ENABLE(REGEMU_BIT(2)) == 0x40004);
void Use(char* regs, int n) {
  writel(REGEMU_MASKED_BIT_ENABLE(ICL_FORCEWAKE_MEDIA_VDBOX_GEN11_USER), regs + ICL_FORCEWAKE_MEDIA_VDBOX_GEN11(n));
}
)cpp");
  for (const std::string cxx : {"g++", "clang++"}) {
    RunResult compiled = CompileCpp(use, "-c", cxx);
    EXPECT_EQ(compiled.exit_code, 0) << cxx << ": " << compiled.err;
  }
}

// `-o -` writes the header to stdout, and only the header: the summary line
// goes to stderr, and no file named `-` appears.
TEST_F(RegemuHeaderCli, DashWritesTheHeaderToStdout) {
  RunResult r = Shell("cd '" + dir_.string() + "' && '" + std::string(REGEMU_BINARY) + "' header --lang c -o - '" +
                      REGEMU_SOURCE_DIR + "/yaml/hsw' | head -n 3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, StartsWith("/* Generated by `regemu header --lang c` from device 'hsw'. Do not edit. */\n"));
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 3);
  EXPECT_FALSE(fs::exists(dir_ / "-"));

  RunResult whole = Regemu("header --lang c -o - yaml/hsw");
  ASSERT_EQ(whole.exit_code, 0) << whole.err;
  EXPECT_THAT(whole.out, EndsWith("#endif /* REGEMU_REGS_HSW_H_ */\n"));
  EXPECT_THAT(whole.err, HasSubstr("<stdout>: device 'hsw', 11284 register(s)"));
  // The self-test includes the header by its file name.
  EXPECT_EQ(Regemu("header --lang c -o - --selftest '" + (dir_ / "x.c").string() + "' yaml/hsw").exit_code, 2);
}

// An output that is not a regular file is written, never read back first:
// reading /dev/stdout when it is a pipe waits for this very process to
// close it, so `regemu header -o /dev/stdout | less` used to hang.
TEST_F(RegemuHeaderCli, WritingToAPipeDoesNotHang) {
  RunResult r = Shell("( { timeout 30 '" + std::string(REGEMU_BINARY) +
                      "' header --lang c -o /dev/stdout yaml/hsw; echo \"exit=$?\" >&2; } | cat )");
  EXPECT_THAT(r.err, HasSubstr("exit=0"));
  EXPECT_THAT(r.out, EndsWith("#endif /* REGEMU_REGS_HSW_H_ */\n"));
}

// A computed field's expression is in both headers' comments, so a driver
// writer sees MIS is RIS & INTEN without opening the database.
TEST_F(RegemuHeaderCli, HeadersSayWhatAComputedFieldIs) {
  RunResult c = Regemu("header --lang c -o - yaml/cmsdk_apb");
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_THAT(c.out, HasSubstr("/*  INT [0:0] hw (computed: RIS.INT & CONTROL.INTEN) */"));
  RunResult cpp = Regemu("header --lang c++ -o - yaml/cmsdk_apb");
  ASSERT_EQ(cpp.exit_code, 0) << cpp.err;
  EXPECT_THAT(cpp.out, HasSubstr("  /// computed: RIS.INT & CONTROL.INTEN\n"));
}

// Each C register says which space it is in, as the C++ header's kSpace does.
TEST_F(RegemuHeaderCli, CHeaderGivesEachRegistersSpace) {
  RunResult hsw = Regemu("header --lang c -o - yaml/hsw");
  EXPECT_THAT(hsw.out, HasSubstr("#define HSW_OACONTROL_SPACE \"mmio\"\n"));
  RunResult icl = Regemu("header --lang c -o - yaml/icl");
  EXPECT_THAT(icl.out, HasSubstr("#define ICL_PCICMD_SPACE \"config\"\n"));
  EXPECT_THAT(icl.out, HasSubstr("#define ICL_GEN11_GFX_MSTR_IRQ_SPACE \"mmio\"\n"));
}

// The C macros' prefix (a driver's own headers, Linux's among them, already
// use NVME_...): the database's `c_prefix`, which `--prefix` overrides. The
// header and its self-test compile, and beside a driver's own NVME_CSTS_RDY.
constexpr const char* kPrefixedDatabase =
    "device: nvme\n"
    "c_prefix: EMU_NVME\n"
    "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
    "registers:\n"
    "  - {name: CSTS, space: mmio, offset: 0x1c, fields: [{name: RDY, bits: 0, access: ro}]}\n"
    "blocks:\n"
    "  - name: Q\n"
    "    space: mmio\n"
    "    instances: {SQ0: 0x40, CQ0: 0x44}\n"
    "    registers: [{name: DB, offset: 0, width: 32}]\n";

TEST_F(RegemuHeaderCli, CPrefixFromTheDatabaseStartsEveryMacro) {
  fs::path db = Write("nvme.yaml", kPrefixedDatabase);
  fs::path h = dir_ / "nvme.h";
  fs::path selftest = dir_ / "nvme_selftest.c";
  RunResult r = Regemu("header --lang c '" + db.string() + "' -o '" + h.string() + "' --selftest '" +
                       selftest.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = Slurp(h);
  EXPECT_THAT(text, HasSubstr("#define EMU_NVME_CSTS_RDY REGEMU_BIT(0)\n"));
  EXPECT_THAT(text, HasSubstr("#define EMU_NVME_Q_SQ0_BASE "));
  EXPECT_THAT(text, Not(HasSubstr("#define NVME_")));
  ASSERT_EQ(CompileC(selftest).exit_code, 0);
  EXPECT_EQ(Shell("'" + (dir_ / "selftest_c").string() + "'").exit_code, 0);
  // A driver with its own NVME_CSTS_RDY (as Linux's include/linux/nvme.h)
  // includes the header without a clash.
  fs::path driver = Write("driver.c",
                          "#define NVME_CSTS_RDY (1 << 0)\n"
                          "#include \"nvme.h\"\n"
                          "int main(void) { return (int)(EMU_NVME_CSTS_RDY - NVME_CSTS_RDY); }\n");
  RunResult compiled = CompileC(driver);
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  EXPECT_EQ(Shell("'" + (dir_ / "selftest_c").string() + "'").exit_code, 0);  // the driver: the two bits agree
}

// --changed-only: an overlay's header holds the registers its changes name,
// not the import's others (yaml/mi200 over the 3529 of yaml/gc_9_4_2); a
// database no change names a register of is refused.
TEST_F(RegemuHeaderCli, ChangedOnlyKeepsTheRegistersAnOverlayNames) {
  fs::create_directories(dir_ / "import");
  Write("import/device.yaml", R"(device: chip
spaces:
  - {name: bus, kind: mmio, size: 0x100}
registers:
  - {name: CTRL, space: bus, offset: 0x0, fields: [{name: EN, bits: 0, access: rw}]}
  - {name: STATUS, space: bus, offset: 0x4}
  - {name: SPARE, space: bus, offset: 0x8}
)");
  fs::path overlay = Write("overlay.yaml", R"(include: [import/device.yaml]
changes:
  - {register: STATUS, volatile: true}
  - {field: CTRL.EN, reset: 1}
)");
  fs::path hpp = dir_ / "chip.hpp";
  RunResult r = Regemu("header '" + overlay.string() + "' --changed-only -o '" + hpp.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("device 'chip', 2 register(s)"));
  std::string text = Slurp(hpp);
  EXPECT_THAT(text, HasSubstr("class CTRL "));
  EXPECT_THAT(text, HasSubstr("class STATUS "));
  EXPECT_THAT(text, Not(HasSubstr("SPARE")));

  RunResult whole = Regemu("header '" + overlay.string() + "' -o '" + hpp.string() + "'");
  EXPECT_THAT(whole.err, HasSubstr("device 'chip', 3 register(s)"));
  RunResult plain = Regemu("header '" + (dir_ / "import").string() + "' --changed-only -o '" + hpp.string() + "'");
  EXPECT_EQ(plain.exit_code, 1);
  EXPECT_THAT(plain.err, HasSubstr("--changed-only: no overlay change"));
}

// The depfile names every file the database read, included ones in other
// folders too, so the build regenerates an overlay's header when its
// imported map changes (regemu_add_device's DEPFILE).
TEST_F(RegemuHeaderCli, DepfileNamesEveryFileTheDatabaseRead) {
  fs::create_directories(dir_ / "a map");
  Write("a map/device.yaml", "device: chip\nspaces:\n  - {name: bus, kind: mmio, size: 0x100}\n"
                             "include: [more.yaml]\n");
  Write("a map/more.yaml", "registers:\n  - {name: CTRL, space: bus, offset: 0x0}\n");
  fs::create_directories(dir_ / "overlay");
  Write("overlay/device.yaml", "include: [\"../a map/device.yaml\"]\nchanges:\n  - {register: CTRL, volatile: true}\n");
  fs::path hpp = dir_ / "chip.hpp";
  fs::path depfile = dir_ / "chip.hpp.d";
  RunResult r = Regemu("header '" + (dir_ / "overlay").string() + "' -o '" + hpp.string() + "' --depfile '" +
                       depfile.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = Slurp(depfile);
  EXPECT_THAT(text, StartsWith(hpp.string() + ": \\\n"));
  EXPECT_THAT(text, HasSubstr("  " + (dir_ / "overlay/device.yaml").string()));
  // A space in a path is escaped as make and Ninja read it.
  std::string map = dir_.string() + "/a\\ map/";
  EXPECT_THAT(text, HasSubstr("  " + map + "device.yaml"));
  EXPECT_THAT(text, HasSubstr("  " + map + "more.yaml"));
  EXPECT_THAT(text, Not(HasSubstr("..")));
  EXPECT_THAT(text, EndsWith("\n"));

  // The shipped overlay: yaml/mi200 over the converted map in yaml/gc_9_4_2.
  RunResult mi200 = Regemu("header yaml/mi200 --changed-only -o '" + hpp.string() + "' --depfile '" +
                           depfile.string() + "'");
  ASSERT_EQ(mi200.exit_code, 0) << mi200.err;
  EXPECT_THAT(Slurp(depfile), HasSubstr("/yaml/gc_9_4_2/device.yaml"));
  EXPECT_THAT(Slurp(depfile), HasSubstr("/yaml/mi200/device.yaml"));

  RunResult to_stdout = Regemu("header yaml/nvme -o - --depfile '" + depfile.string() + "'");
  EXPECT_EQ(to_stdout.exit_code, 2);
  EXPECT_THAT(to_stdout.err, HasSubstr("--depfile needs the header in a file"));
}

TEST_F(RegemuHeaderCli, PrefixOnTheCommandLineWinsOverTheDatabase) {
  fs::path db = Write("nvme.yaml", kPrefixedDatabase);
  fs::path h = dir_ / "nvme.h";
  fs::path selftest = dir_ / "nvme_selftest.c";
  RunResult r = Regemu("header --lang c --prefix REGEMU_NVME '" + db.string() + "' -o '" + h.string() +
                       "' --selftest '" + selftest.string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(Slurp(h), HasSubstr("#define REGEMU_NVME_CSTS_RDY REGEMU_BIT(0)\n"));
  EXPECT_THAT(Slurp(h), Not(HasSubstr("#define EMU_NVME")));
  RunResult compiled = CompileC(selftest);
  ASSERT_EQ(compiled.exit_code, 0) << compiled.err;
  EXPECT_EQ(Shell("'" + (dir_ / "selftest_c").string() + "'").exit_code, 0);
  // Without either, the device name, as before.
  EXPECT_THAT(Regemu("header --lang c -o - yaml/nvme").out, HasSubstr("#define NVME_CSTS_RDY "));
}

TEST_F(RegemuHeaderCli, APrefixThatIsNotAnIdentifierIsRejected) {
  RunResult r = Regemu("header --lang c --prefix 9X yaml/nvme -o '" + (dir_ / "x.h").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--prefix '9X' is not a C identifier"));
  fs::path db = Write("bad.yaml", "device: d\nc_prefix: 1ST\n");
  RunResult check = Regemu("check '" + db.string() + "'");
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_THAT(check.err, HasSubstr(db.string() + ":2:11: error: C prefix '1ST' is not a C identifier"));
}

TEST_F(RegemuHeaderCli, UsageErrorsExitTwo) {
  EXPECT_EQ(Regemu("header yaml/hsw").exit_code, 2);  // no -o
  EXPECT_EQ(Regemu("header yaml/hsw --lang rust -o x.h").exit_code, 2);
  RunResult r = Regemu("header no/such/db -o '" + (dir_ / "x.h").string() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no such file or folder"));
}

TEST_F(RegemuHeaderCli, ADatabaseWithErrorsWritesNothing) {
  fs::path out = dir_ / "literal.hpp";
  RunResult r = Regemu("header tests/data/hsw_literal -o '" + out.string() + "'");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("OAPERF_A31"));
  EXPECT_THAT(r.err, HasSubstr("no header written"));
  EXPECT_FALSE(fs::exists(out));
}

// The literal transcription of the PRM puts OAPERF_A31 on CEC3_1's offset: the
// checker rejects it; generated anyway, its self-test does not compile, and
// compiled for run-time checks only it fails naming both registers.
TEST_F(RegemuHeaderCli, SelfTestRejectsOverlappingRegisters) {
  fs::path hpp = dir_ / "hsw.hpp";
  fs::path selftest = dir_ / "hsw_selftest.cpp";
  ASSERT_EQ(Regemu("header --no-check tests/data/hsw_literal -o '" + hpp.string() + "' --selftest '" +
                   selftest.string() + "'")
                .exit_code,
            0);
  RunResult compiled = CompileCpp(selftest);
  EXPECT_NE(compiled.exit_code, 0);
  EXPECT_THAT(compiled.err, HasSubstr("registers overlap or are out of order"));

  ASSERT_EQ(CompileCpp(selftest, "-DREGEMU_SELFTEST_RUNTIME_ONLY").exit_code, 0);
  RunResult ran = Shell("'" + (dir_ / "selftest").string() + "'");
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_THAT(ran.out, HasSubstr("FAIL"));
  EXPECT_THAT(ran.out, HasSubstr("OAPERF_A31"));
}

TEST_F(RegemuHeaderCli, CSelfTestRejectsOverlappingRegisters) {
  fs::path h = dir_ / "hsw.h";
  fs::path selftest = dir_ / "hsw_selftest.c";
  ASSERT_EQ(Regemu("header --no-check tests/data/hsw_literal --lang c -o '" + h.string() + "' --selftest '" +
                   selftest.string() + "'")
                .exit_code,
            0);
  ASSERT_EQ(CompileC(selftest).exit_code, 0);
  RunResult ran = Shell("'" + (dir_ / "selftest_c").string() + "'");
  EXPECT_EQ(ran.exit_code, 1);
  EXPECT_THAT(ran.out, HasSubstr("OAPERF_A31"));
}

// Overlapping fields and a reset wider than its register: both self-tests
// refuse to compile.
TEST_F(RegemuHeaderCli, SelfTestsRejectOverlappingFieldsAndWideResets) {
  fs::path db = Write("bad.yaml",
                      "device: bad\n"
                      "spaces: [{name: mmio, kind: mmio, size: 0x100}]\n"
                      "registers:\n"
                      "  - name: CTL\n"
                      "    space: mmio\n"
                      "    offset: 0x0\n"
                      "    width: 8\n"
                      "    reset: 0x1ff\n"
                      "    fields:\n"
                      "      - {name: A, bits: \"3:0\"}\n"
                      "      - {name: B, bits: \"4:2\"}\n");
  ASSERT_EQ(Regemu("header '" + db.string() + "' -o '" + (dir_ / "bad.hpp").string() + "'").exit_code, 1);
  ASSERT_EQ(Regemu("header --no-check '" + db.string() + "' -o '" + (dir_ / "bad.hpp").string() + "' --selftest '" +
                   (dir_ / "bad_selftest.cpp").string() + "'")
                .exit_code,
            0);
  RunResult cpp = CompileCpp(dir_ / "bad_selftest.cpp");
  EXPECT_NE(cpp.exit_code, 0);
  EXPECT_THAT(cpp.err, HasSubstr("CTL: fields overlap"));
  EXPECT_THAT(cpp.err, HasSubstr("CTL: reset does not fit the register"));

  ASSERT_EQ(Regemu("header --no-check '" + db.string() + "' --lang c -o '" + (dir_ / "bad.h").string() +
                   "' --selftest '" + (dir_ / "bad_selftest.c").string() + "'")
                .exit_code,
            0);
  RunResult c = CompileC(dir_ / "bad_selftest.c");
  EXPECT_NE(c.exit_code, 0);
  EXPECT_THAT(c.err, HasSubstr("BAD_CTL: fields overlap"));
}

}  // namespace
