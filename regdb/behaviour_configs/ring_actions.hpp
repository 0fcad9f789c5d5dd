#pragma once
// `kind: ring`, the parts beyond one queue pair: the queue set (`queues:`,
// doorbells per id, `max_size`, `queue_status`, `vector_status`), the data
// pointer (`data:`) and what a command does besides writes: `copy:`,
// creating and deleting queues, `hold:`. Only ring.cpp's checker calls
// these (yaml/README.md, "kind: ring").

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "regemu/regdb/behaviour_configs/ring.hpp"
#include "regemu/regdb/schema_reader.hpp"
#include "regemu/regdb/yaml_tree.hpp"

namespace regemu::regdb::ring_detail {

// Parses an expression in the scope the caller chose; nothing after an error.
using ExpressionReader =
    std::function<std::optional<Expression>(const YamlNode&, const std::string& what, ExpressionType)>;

// `queues`, `max_size`, `queue_status`, `vector_status` of the ring at `ring`.
void ReadQueueSet(const YamlNode& ring, RingConfig& config, const Database& database, SchemaReader& reader,
                  const std::string& what, const ExpressionReader& queue_expression);

// A doorbell for each queue id: `REG` or `REG.FIELD`, where `{id}` stands
// for the id (SQ{id}TDBL.SQT); without `{id}` the ring must have one queue.
std::vector<RegisterBits> ReadDoorbells(const YamlNode& doorbell, uint64_t queues, const std::string& what,
                                        const Database& database, SchemaReader& reader);

// `data: {first:, second:, page_size:, error_status:}`.
std::optional<RingDataPointer> ReadDataPointer(const YamlNode& node, SchemaReader& reader, const std::string& what,
                                               const ExpressionReader& command_expression);

// A command's `copy`, `create_*_queue`, `delete_*_queue` and `hold` keys;
// false after reporting an error.
bool ReadCommandActions(const YamlNode& command, RingCommand& out, const RingConfig& config, const Database& database,
                        SchemaReader& reader, const std::string& what, const ExpressionReader& command_expression);

}  // namespace regemu::regdb::ring_detail
