// The regemu command line. Each subcommand lives in its own file; this one
// only wires CLI11 to them and maps parse failures to exit status 2.

#include <iostream>

#include <CLI/CLI.hpp>

#include "tools/regemu/check_command.hpp"
#include "tools/regemu/events_command.hpp"
#include "tools/regemu/header_command.hpp"
#include "tools/regemu/run_command.hpp"

int main(int argc, char** argv) {
  CLI::App app{"regemu: register-level MMIO emulator for driver testing"};
  app.set_version_flag("--version", std::string("regemu ") + REGEMU_VERSION);
  app.require_subcommand(1);

  regemu::tools::CheckOptions check;
  CLI::App* check_cmd = app.add_subcommand("check", "Load and check register databases (files or device folders)");
  check_cmd->add_option("PATH", check.paths, "A database file or a device folder holding device.yaml")->required();
  check_cmd->add_flag("--json", check.json, "Print diagnostics as JSON on stdout");
  check_cmd->add_option("--max-errors", check.max_errors, "Stop listing errors after this many (default 50)")
      ->check(CLI::Range(1, 100000));

  regemu::tools::RunCommandOptions run;
  CLI::App* run_cmd = app.add_subcommand("run", "Run a register script against a fresh device and print its trace");
  run_cmd->add_option("DB", run.database, "A database file or a device folder holding device.yaml")->required();
  run_cmd
      ->add_option("SCRIPT", run.script,
                   "The script: one command per line (README.md, section regemu run); - reads stdin")
      ->required();
  run_cmd->add_flag("--lenient", run.lenient,
                    "Record violations without failing (default: strict, an unannounced violation fails)");
  run_cmd->add_flag("--quiet", run.quiet, "Print only failed expectations, unannounced violations and the result line");
  run_cmd->add_option("--trace-capacity", run.trace_capacity,
                      "Trace entries kept; older ones are dropped (default 65536, 0: no trace)")
      ->check(CLI::Range(0, 1 << 22));
  run_cmd->add_option("--access-cost", run.access_cost,
                      "Virtual time each frontdoor access takes, e.g. 10ns (default 0ns)");
  CLI::Option* oa_recording =
      run_cmd->add_option("--oa-recording", run.oa_recording,
                          "Write the OA unit's reports as an i915-perf recording (IGT's i915-perf-reader reads it)");
  run_cmd
      ->add_option("--oa-metric-set", run.oa_metric_set,
                   "The recording's metric set, as i915-perf-reader names it (default RenderBasic)")
      ->needs(oa_recording);

  regemu::tools::HeaderOptions header;
  CLI::App* header_cmd =
      app.add_subcommand("header", "Generate a C++ or C register header (and its self-test) from a database");
  header_cmd->add_option("DB", header.database, "A database file or a device folder holding device.yaml")->required();
  header_cmd
      ->add_option("--lang", header.lang,
                   "Output language: c++ (hwreg-style classes, the default) or c (i915-style macros)")
      ->check(CLI::IsMember({"c++", "c"}));
  header_cmd->add_option("-o,--output", header.output, "The header file to write")->required();
  header_cmd->add_option("--selftest", header.selftest, "Also write the header's self-test source to this file");
  header_cmd->add_flag("--no-check", header.no_check,
                       "Generate even when the checker rejects the database (to see the self-test fail)");

  regemu::tools::EventsOptions events;
  CLI::App* events_cmd =
      app.add_subcommand("events", "List the event catalog of a database's event counters (PMU, GPU perf counters)");
  events_cmd->add_option("DB", events.database, "A database file or a device folder holding device.yaml")->required();
  events_cmd->add_option("--grep", events.grep, "Only events whose name contains this text (case-insensitive)");
  events_cmd->add_flag("--json", events.json, "Print the catalog as JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }

  try {
    if (check_cmd->parsed()) return regemu::tools::RunCheck(check, std::cout, std::cerr);
    if (events_cmd->parsed()) return regemu::tools::RunEvents(events, std::cout, std::cerr);
    if (header_cmd->parsed()) return regemu::tools::RunHeader(header, std::cout, std::cerr);
    if (run_cmd->parsed()) return regemu::tools::RunRunCommand(run, std::cout, std::cerr);
  } catch (const std::exception& e) {
    // Library code reports through diagnostics; reaching here is a regemu bug.
    std::cerr << "regemu: internal error: " << e.what() << "\n";
    return 3;
  }
  return 2;
}
