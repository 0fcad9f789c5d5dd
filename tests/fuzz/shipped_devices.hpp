#pragma once
// The shipped databases, compiled once per fuzzing process: a target that
// recompiled a model per input would spend its time in the YAML parser.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"

namespace regemu::fuzz {

struct ShippedDevice {
  std::string name;  // "icl": yaml/icl
  std::string yaml_path;  // "yaml/icl", as a user in the source tree names it
  std::shared_ptr<const emulator::Model> model;
  std::shared_ptr<const regdb::Database> database;  // the checked database `model` was compiled from
};

// hsw, bdw, icl, nvme, hpet, uart16550, dw_i2c and cmsdk_apb from REGEMU_FUZZ_YAML_DIR, or regemu_yaml/ beside the
// binary (where .clusterfuzzlite/build.sh copies them), or the source
// tree's yaml/. Aborts with a message when one does not load: the target
// would be fuzzing nothing.
const std::vector<ShippedDevice>& ShippedDevices();
// The one named `name` ("icl"); aborts with a message when there is none.
const ShippedDevice& ShippedDeviceNamed(std::string_view name);

// The comma-separated names in environment variable `variable` (empty
// names skipped); none when it is unset or empty.
std::vector<std::string_view> NamesFromEnvironment(const char* variable);

}  // namespace regemu::fuzz
