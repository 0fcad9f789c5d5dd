#pragma once
// The shipped databases, compiled once per fuzzing process: a target that
// recompiled a model per input would spend its time in the YAML parser.
#include <memory>
#include <string>
#include <vector>

#include "emulator/model.hpp"

namespace regemu::fuzz {

struct ShippedDevice {
  std::string name;  // "icl": yaml/icl
  std::shared_ptr<const emulator::Model> model;
};

// yaml/hsw, yaml/bdw and yaml/icl, from the source tree the target was
// built from or, when REGEMU_FUZZ_YAML_DIR is set (ClusterFuzzLite copies
// the databases next to the targets), from there. Aborts with a message
// when one does not load: the target would be fuzzing nothing.
const std::vector<ShippedDevice>& ShippedDevices();

}  // namespace regemu::fuzz
