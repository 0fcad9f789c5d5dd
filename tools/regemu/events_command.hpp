#pragma once
// `regemu events DB`: the event catalogs of a database's event-counters
// behaviours: each event's name, how a slot selects it, its unit and
// description, as a table or JSON.

#include <iosfwd>
#include <string>

namespace regemu::tools {

struct EventsOptions {
  std::string database;
  std::string grep;  // only events whose name contains this (case-insensitive)
  bool json = false;
};

// Exit status: 0 with the list (even an empty one), 1 when the database has
// errors or no event-counters behaviour, 2 when the path does not exist.
int RunEvents(const EventsOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
