#pragma once
// The pictures and tables of behaviour pages, one per kind that has one
// worth drawing: the force-wake domain map, the Gen11 interrupt tree, the OA
// unit's report layouts and counters, an event-counter catalog. Each returns
// "" for a behaviour of another kind.

#include <string>

#include "regemu/regdb/database.hpp"
#include "tools/docgen/site.hpp"

namespace regemu::docgen {

std::string ForcewakeMap(const Site& site, const regdb::BehaviourSpec& spec);
std::string Gen11InterruptTree(const Site& site, const regdb::BehaviourSpec& spec);
std::string OaReportLayouts(const Site& site, const regdb::BehaviourSpec& spec);
std::string EventCatalog(const Site& site, const regdb::BehaviourSpec& spec);
// A `fifo` behaviour: its ways in and out, streams, rates and flags.
std::string FifoTable(const Site& site, const regdb::BehaviourSpec& spec);
// An `i2c-bus` behaviour: its command layout, signals and targets.
std::string I2cBusTable(const Site& site, const regdb::BehaviourSpec& spec);
// A `reactions` behaviour's reactions and rules as sentences.
std::string ReactionTable(const Site& site, const regdb::BehaviourSpec& spec);
// On a register page: the reactions and rules it triggers, is read by or is
// set by, each as its sentence; "" when none.
std::string ReactionSentences(const Site& site, const regdb::Register& reg);

}  // namespace regemu::docgen
