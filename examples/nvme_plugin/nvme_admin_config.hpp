#pragma once
// The typed configuration of `kind: nvme-admin` (nvme_admin.hpp), and its
// check: the only reader of the behaviour's YAML.

#include <cstdint>
#include <memory>
#include <string>

#include "regemu/regdb/behaviour_config.hpp"
#include "regemu/regdb/behaviour_kinds.hpp"

namespace nvme_plugin {

struct NvmeAdminConfig : regemu::regdb::BehaviourConfig {
  regemu::regdb::SpaceIndex memory = 0;
  regemu::regdb::RegisterIndex completion_tail = 0;
  // NVMe controller properties, found by their names in the database.
  regemu::regdb::RegisterBits cap_mqes;
  regemu::regdb::RegisterBits version;  // VS
  regemu::regdb::RegisterBits cc_en;
  regemu::regdb::RegisterBits cc_mps;
  regemu::regdb::RegisterBits asq_size;  // AQA.ASQS, 0's based
  regemu::regdb::RegisterBits acq_size;  // AQA.ACQS, 0's based
  regemu::regdb::RegisterBits asq;       // ASQ: the base is bits 63:12
  regemu::regdb::RegisterBits acq;
  // Identify data.
  regemu::regdb::RegisterBits vendor_id;
  regemu::regdb::RegisterBits subsystem_vendor_id;
  uint32_t max_io_queues = 1;
  uint64_t namespace_blocks = 0;
  std::string serial;
  std::string model;
  std::string firmware;
  uint8_t mdts = 7;
  uint16_t controller_id = 0;
};

std::unique_ptr<regemu::regdb::BehaviourConfig> CheckNvmeAdminConfig(const regemu::regdb::BehaviourSpec& spec,
                                                                     const regemu::regdb::Database& database,
                                                                     regemu::regdb::SchemaReader& reader);

}  // namespace nvme_plugin
