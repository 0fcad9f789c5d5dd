#pragma once
// The databases regemu ships: every folder of yaml/ with a device.yaml, by
// name, sorted, for tests that hold a rule over all of them (a database
// added to yaml/ is held without editing the tests).

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace regemu::testing_support {

inline std::vector<std::string> ShippedDatabases() {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(fs::path(REGEMU_SOURCE_DIR) / "yaml")) {
    if (fs::exists(entry.path() / "device.yaml")) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace regemu::testing_support
