// i915_mini_mmiotrace: the example driver's run on yaml/icl as a Linux
// mmiotrace, to make realistic traces for the trace tools' tests
// (tests/data/traces/README.md has the commands that made the samples).
//
//   i915_mini_mmiotrace [--bug NAME]... [-o FILE]
//
// Exit 0 with the trace written (a bug's violations are what it is for),
// 2 on a usage error, an unreadable database or an unwritable file.
#include <CLI/CLI.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "examples/i915_mini/bugs.hpp"
#include "examples/i915_mini/capture/mmiotrace_capture.hpp"
#include "regemu/fakes/device_test.hpp"

int main(int argc, char** argv) {
  using namespace regemu;
  std::map<std::string, i915_mini::Bug> bug_names;
  for (i915_mini::Bug bug : i915_mini::kAllBugs) bug_names.emplace(i915_mini::BugName(bug), bug);

  CLI::App app("The example driver (examples/i915_mini) on yaml/icl, its GTTMMADR accesses written as a Linux "
               "mmiotrace (format 20070824)");
  std::vector<std::string> bugs;
  std::string output;
  app.add_option("--bug", bugs, "Make this mistake too (repeatable)")->check(CLI::IsMember(bug_names));
  app.add_option("-o,--output", output, "Write the trace here instead of to stdout");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return 2;  // a usage error, as regemu's own
  }

  i915_mini::Bugs bug_set;
  for (const std::string& name : bugs) bug_set = bug_set.With(bug_names.at(name));

  std::ostringstream trace;
  i915_mini::CaptureSummary summary;
  try {
    summary = i915_mini::CaptureMmiotrace(fakes::CompileDatabase(fakes::ShippedDatabase("icl")), bug_set, trace);
  } catch (const std::exception& error) {
    std::cerr << "i915_mini_mmiotrace: " << error.what() << "\n";
    return 2;
  }
  if (output.empty()) {
    std::cout << trace.str();
  } else {
    std::ofstream file(output);
    file << trace.str();
    file.close();
    if (!file) {
      std::cerr << "i915_mini_mmiotrace: cannot write '" << output << "'\n";
      return 2;
    }
  }
  std::cerr << summary.accesses << " MMIO access(es) traced, " << summary.violations
            << " violation(s) on the device\n";
  return 0;
}
