#pragma once
// yaml/nvme as the example's tests and the demo load it.
//
// MODEL PROBLEM (reported, not fixed here: yaml/ is not this example's to
// change). As shipped, yaml/nvme/controller_behaviour.yaml names its
// reactions and rules with hyphens ('controller-reset',
// 'admin-queue-while-enabled', ...), and the reactions reader requires C
// identifiers, so `regemu check yaml/nvme` reports 30 errors, every
// tests/scripts/nvme_*.script fails and DeviceTest cannot load the
// database. Until the database is fixed, LoadableNvmeDatabase() compiles a
// copy of it in a temporary directory with only those names changed
// ('-' -> '_', the spelling the tests expect either way); nothing else
// differs. Once the shipped database loads, it is used as is and `problem`
// stays empty: this file can then go.

#include <filesystem>
#include <string>

namespace regemu::nvme::testing {

struct NvmeDatabase {
  std::filesystem::path path;  // what to load
  std::string problem;         // why it is not the shipped folder ("" when it is)
};

// `shipped`: the yaml/nvme folder. Throws std::runtime_error when even the
// copy does not compile.
NvmeDatabase LoadableNvmeDatabase(const std::filesystem::path& shipped);

}  // namespace regemu::nvme::testing
