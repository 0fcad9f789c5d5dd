// The header generator's output, pinned by golden files. After an intended
// change to the generator, rewrite them and review the diff:
//   REGEMU_UPDATE_GOLDENS=1 ctest --test-dir build/default -R HeadergenGolden
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "regemu/regdb/loader.hpp"
#include "tools/headergen/backends.hpp"

namespace {

namespace fs = std::filesystem;
using regemu::headergen::BuildDeviceView;
using regemu::headergen::CBackend;
using regemu::headergen::CppBackend;
using regemu::headergen::DeviceView;
using regemu::headergen::SelfTestBackend;

const fs::path kSource = REGEMU_SOURCE_DIR;
const fs::path kGoldenDir = kSource / "tests/headergen/golden";

std::string Slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool UpdateGoldens() {
  const char* env = std::getenv("REGEMU_UPDATE_GOLDENS");
  return env != nullptr && std::string(env) == "1";
}

// Compares `actual` with the golden file `name`, or rewrites it.
void ExpectGolden(const std::string& name, const std::string& actual) {
  fs::path path = kGoldenDir / name;
  if (UpdateGoldens()) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << actual;
    return;
  }
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: run with REGEMU_UPDATE_GOLDENS=1";
  std::string expected = Slurp(path);
  if (expected == actual) return;
  // Point at the first differing line rather than dumping two whole files.
  std::istringstream e(expected);
  std::istringstream a(actual);
  std::string el;
  std::string al;
  int line = 1;
  while (true) {
    bool more_e = static_cast<bool>(std::getline(e, el));
    bool more_a = static_cast<bool>(std::getline(a, al));
    if (!more_e && !more_a) break;
    if (el != al || more_e != more_a) {
      ADD_FAILURE() << name << ":" << line << " differs (REGEMU_UPDATE_GOLDENS=1 rewrites the goldens)\n"
                    << "  golden: " << (more_e ? el : "<end of file>") << "\n"
                    << "  actual: " << (more_a ? al : "<end of file>");
      return;
    }
    ++line;
  }
}

class HeadergenGolden : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    loaded_ =
        new regemu::regdb::LoadedDatabase(regemu::regdb::LoadAndCheck(kSource / "tests/headergen/data/golden.yaml"));
  }
  static void TearDownTestSuite() {
    delete loaded_;
    loaded_ = nullptr;
  }
  void SetUp() override {
    ASSERT_FALSE(loaded_->diagnostics.has_errors())
        << regemu::regdb::FormatDiagnostics(loaded_->sources, loaded_->diagnostics);
  }
  static DeviceView View() { return BuildDeviceView(loaded_->database); }

  static regemu::regdb::LoadedDatabase* loaded_;
};

regemu::regdb::LoadedDatabase* HeadergenGolden::loaded_ = nullptr;

TEST_F(HeadergenGolden, CppHeader) {
  DeviceView view = View();
  std::ostringstream os;
  CppBackend(view).Run(os);
  ExpectGolden("golden.hpp", os.str());
}

TEST_F(HeadergenGolden, CHeader) {
  DeviceView view = View();
  std::ostringstream os;
  CBackend(view).Run(os);
  ExpectGolden("golden.h", os.str());
}

TEST_F(HeadergenGolden, CppSelfTest) {
  DeviceView view = View();
  std::ostringstream os;
  SelfTestBackend(view, SelfTestBackend::Lang::kCpp, "golden.hpp").Run(os);
  ExpectGolden("golden_selftest.cpp", os.str());
}

TEST_F(HeadergenGolden, CSelfTest) {
  DeviceView view = View();
  std::ostringstream os;
  SelfTestBackend(view, SelfTestBackend::Lang::kC, "golden.h").Run(os);
  ExpectGolden("golden_selftest.c", os.str());
}

// The view folds the 23 expanded registers back into what the database says.
TEST_F(HeadergenGolden, ViewFoldsArraysAndBlocks) {
  DeviceView view = View();
  ASSERT_EQ(view.placed.size(), 23u);
  std::vector<std::string> top;
  for (const auto& r : view.registers) top.push_back(r.name);
  EXPECT_EQ(top, (std::vector<std::string>{"POLICIES", "MODE_CTL", "BYTE_REG", "HALF_REG", "WIDE_REG", "WIDE_VIEW",
                                           "COUNTER_VALUE", "MSR_PLATFORM_INFO"}));
  const auto& counter = view.registers[6];
  EXPECT_TRUE(counter.is_array);
  EXPECT_EQ(counter.count, 4u);
  EXPECT_EQ(counter.start, 1u);
  EXPECT_EQ(counter.stride, 8u);
  EXPECT_EQ(counter.offset, 0x100u);

  ASSERT_EQ(view.blocks.size(), 1u);
  const auto& ring = view.blocks[0];
  ASSERT_EQ(ring.registers.size(), 4u);
  EXPECT_EQ(ring.registers[0].name, "RING_TAIL");
  EXPECT_EQ(ring.registers[0].offset, 0x30u);  // relative to the instance's base
  EXPECT_EQ(ring.registers[1].alias_of, "RING_TAIL");
  EXPECT_EQ(ring.registers[3].name, "RING_CTX");
  EXPECT_EQ(ring.registers[3].offset, 0x100u);
  EXPECT_TRUE(ring.registers[3].is_array);
}

TEST_F(HeadergenGolden, GoldenDatabaseCoversEveryAccessPolicy) {
  const regemu::regdb::Register* policies = loaded_->database.RegisterNamed("POLICIES");
  ASSERT_NE(policies, nullptr);
  for (const regemu::regdb::AccessInfo& info : regemu::regdb::AllAccessPolicies()) {
    bool found = false;
    for (const regemu::regdb::Field& field : policies->fields) found = found || field.access == info.access;
    EXPECT_TRUE(found) << "no field of POLICIES has policy " << info.name;
  }
}

// Masked registers: bits 31:16 are the write mask, never forced to zero.
TEST_F(HeadergenGolden, MaskedRegisterKeepsItsMaskBits) {
  DeviceView view = View();
  EXPECT_EQ(view.registers[1].name, "MODE_CTL");
  EXPECT_EQ(view.registers[1].zero_on_write, 0xffe0u);  // bits 15:5 are not covered by a field
}

}  // namespace
