#pragma once
// `regemu show DB --injects [--json]`: the `inject` verbs a script may
// send the database's device, with their arguments and the behaviour that
// takes each, from the forms the behaviours declare
// (emulator/inject_forms.hpp).

#include <iosfwd>
#include <string>

namespace regemu::tools {

// Exit status: 0 listed (a device with no inject verb says so), 1 the
// database has errors or does not compile.
int ShowInjects(const std::string& database, bool json, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
