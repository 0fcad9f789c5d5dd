#pragma once
// A fixture over one shipped database of the source tree, loaded and checked
// once per test suite:
//
//   struct Icl { static constexpr const char* kPath = "yaml/icl"; };
//   class IclDatabaseTest : public testing_support::ShippedDatabaseTest<Icl> {};
//
// Needs REGEMU_SOURCE_DIR (regdb_tests defines it).

#include <string>

#include <gtest/gtest.h>

#include "regemu/regdb/loader.hpp"

namespace regemu::regdb::testing_support {

inline std::string SourcePath(const std::string& relative) { return std::string(REGEMU_SOURCE_DIR) + "/" + relative; }

template <typename Device>
class ShippedDatabaseTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { loaded_ = new LoadedDatabase(LoadAndCheck(SourcePath(Device::kPath))); }
  static void TearDownTestSuite() {
    delete loaded_;
    loaded_ = nullptr;
  }

  // The register `name`; a missing one fails the test and reads as an empty register.
  static const Register& Reg(const std::string& name) {
    const Register* reg = loaded_->database.RegisterNamed(name);
    EXPECT_NE(reg, nullptr) << name;
    static const Register kMissing;
    return reg ? *reg : kMissing;
  }

  static inline LoadedDatabase* loaded_ = nullptr;
};

}  // namespace regemu::regdb::testing_support
