#pragma once
// `regemu header DB --lang c++|c -o OUT [--selftest OUT2] [--no-check]`:
// generate a register header (and its self-test) from a database.

#include <iosfwd>
#include <string>

namespace regemu::tools {

struct HeaderOptions {
  std::string database;
  std::string lang = "c++";  // "c++" or "c"
  std::string output;        // the header
  std::string selftest;      // the self-test source, "" for none
  bool no_check = false;     // generate from a database the checker rejects (to test the self-test)
  std::string prefix;        // --prefix: the C macros' prefix, over the database's `c_prefix`; "" for that
  bool changed_only = false;  // --changed-only: only the registers an overlay change names
  std::string depfile;        // --depfile: a Makefile-style list of the database files read, "" for none
};

// Exit status: 0 written, 1 the database has errors, 2 usage or I/O error.
int RunHeader(const HeaderOptions& options, std::ostream& out, std::ostream& err);

}  // namespace regemu::tools
