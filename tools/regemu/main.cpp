// The regemu command line. Each subcommand lives in its own file; this one
// only wires CLI11 to them and maps parse failures, an unknown subcommand
// among them, to exit status 2.

#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "regemu/emulator/behaviour_registry.hpp"
#include "regemu/regdb/spelling.hpp"
#include "tools/regemu/boot_command.hpp"
#include "tools/regemu/check_command.hpp"
#include "tools/regemu/convert_command.hpp"
#include "tools/regemu/coverage_command.hpp"
#include "tools/regemu/decode_command.hpp"
#include "tools/regemu/diff_command.hpp"
#include "tools/regemu/doc_command.hpp"
#include "tools/regemu/events_command.hpp"
#include "tools/regemu/header_command.hpp"
#include "tools/regemu/import_command.hpp"
#include "tools/regemu/replay_command.hpp"
#include "tools/regemu/run_command.hpp"
#include "tools/regemu/schema_command.hpp"
#include "tools/regemu/show_command.hpp"
#include "tools/regemu/snapshot_command.hpp"

namespace {

// The page that documents the script language: the installed copy next to
// this executable (<prefix>/bin/regemu, <prefix>/share/doc/regemu/docs/scripts.md)
// when there is one, else the source tree's that built it.
std::string ScriptsPagePath() {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    fs::path installed = (exe.parent_path() / REGEMU_SCRIPTS_PAGE_FROM_BINDIR).lexically_normal();
    if (fs::is_regular_file(installed, ec)) return installed.string();
  }
  return REGEMU_SOURCE_SCRIPTS_PAGE;
}

// CLI11 calls an unknown subcommand an unexpected argument; say what it is
// and which subcommand was probably meant, as a usage error (2).
bool ReportUnknownSubcommand(const CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return false;
  std::string_view word = argv[1];
  std::vector<std::string_view> names;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (sub->get_name() == word) return false;
    names.push_back(sub->get_name());
  }
  std::cerr << "regemu: unknown subcommand '" << word << "'" << regemu::regdb::DidYouMean(word, names)
            << "\nRun with --help for more information.\n";
  return true;
}

// --format, --map and --device, for every command that reads captures.
void AddCaptureOptions(CLI::App* command, regemu::tools::CaptureOptions& options) {
  command
      ->add_option("--format", options.format,
                   "The capture's format: auto (the default: from its first line), mmiotrace, i915 (the "
                   "i915_reg_rw ftrace event) or log (R/W 0xOFFSET: 0xVALUE lines)")
      ->check(CLI::IsMember({"auto", "mmiotrace", "i915", "log"}));
  command->add_option("--map", options.maps,
                      "SPACE=BASE: the capture's addresses [BASE, BASE + size) are SPACE (repeatable; default: "
                      "PCIDEV BARs and the spaces' pci_bar, offsets in the register BAR for i915 and log)");
  command->add_option("--device", options.device,
                      "VVVV:DDDD: the PCI device whose BARs an mmiotrace maps (default: the first one accessed)");
}

// `--plugin LIB.so` (or `--plugin=LIB.so`), anywhere on the command line
// and repeatable: loaded before anything else, so that every command that
// loads a database knows the kinds it registers. Taken out of argv; false
// after reporting a plugin that did not load.
bool LoadPlugins(int& argc, char** argv) {
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string path;
    if (arg == "--plugin") {
      if (i + 1 >= argc) {
        std::cerr << "regemu: --plugin needs a library path\n";
        return false;
      }
      path = argv[++i];
    } else if (arg.starts_with("--plugin=")) {
      path = std::string(arg.substr(9));
    } else {
      argv[kept++] = argv[i];
      continue;
    }
    if (std::string error = regemu::emulator::LoadBehaviourPlugin(path); !error.empty()) {
      std::cerr << "regemu: " << error << "\n";
      return false;
    }
  }
  argc = kept;
  argv[argc] = nullptr;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (!LoadPlugins(argc, argv)) return 2;
  CLI::App app{"regemu: register-level MMIO emulator for driver testing"};
  app.set_version_flag("--version", std::string("regemu ") + REGEMU_VERSION);
  app.require_subcommand(1);
  std::vector<std::string> plugins;  // taken out of argv by LoadPlugins; here for --help
  app.add_option("--plugin", plugins,
                 "LIB.so: load a plugin defining behaviour kinds (REGEMU_PLUGIN) before the command runs; "
                 "repeatable, allowed anywhere on the line");

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
                   "The script, one command per line; - reads stdin (the language: " + ScriptsPagePath() + ")")
      ->required();
  run_cmd->add_flag("--lenient", run.lenient,
                    "Record violations without failing (default: strict, an unannounced violation fails)");
  run_cmd->add_flag("--quiet", run.quiet, "Print only failed expectations, unannounced violations and the result line");
  run_cmd->add_flag("--json", run.json,
                    "Print the run as one JSON document (each command, check and violation; "
                    "docs/run-json.schema.json) instead of the trace and report");
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
  header_cmd->add_option("-o,--output", header.output, "The header file to write (- for stdout)")->required();
  header_cmd->add_option("--selftest", header.selftest, "Also write the header's self-test source to this file");
  header_cmd->add_flag("--no-check", header.no_check,
                       "Generate even when the checker rejects the database (to see the self-test fail)");
  header_cmd->add_option("--prefix", header.prefix,
                         "Start of every C macro, before '_' (default: the database's c_prefix, else the device "
                         "name in upper case)");
  header_cmd->add_flag("--changed-only", header.changed_only,
                       "Only the registers an overlay change names (yaml/README.md \"Overlays\"), not the thousands "
                       "of the map the overlay includes");
  header_cmd->add_option("--depfile", header.depfile,
                         "Also write a Makefile-style depfile: the header depends on every database file read, "
                         "included ones too (for CMake's DEPFILE, Ninja, make)");

  regemu::tools::SchemaOptions schema;
  CLI::App* schema_cmd = app.add_subcommand(
      "schema", "Write the JSON Schema of the YAML database format (for editors: completion and validation)");
  schema_cmd->add_option("-o,--output", schema.output, "The schema file to write (- for stdout, the default)");

  regemu::tools::ShowOptions show;
  CLI::App* show_cmd =
      app.add_subcommand("show", "List a database's spaces and registers, or show one register or REG.FIELD in full");
  show_cmd->add_option("DB", show.database, "A database file or a device folder holding device.yaml")->required();
  show_cmd->add_option("NAME", show.name,
                       "A register, REG.FIELD, or a glob listing the registers it matches ('GEN11_*', "
                       "case-insensitive); none: every register");
  show_cmd->add_flag("--json", show.json, "Print as JSON");
  show_cmd->add_flag("--injects", show.injects,
                     "List the inject verbs a script may send the device, with their arguments, instead");

  regemu::tools::DecodeOptions decode;
  CLI::App* decode_cmd =
      app.add_subcommand("decode", "Split a register value into its fields, naming enumerated values");
  decode_cmd->add_option("DB", decode.database, "A database file or a device folder holding device.yaml")->required();
  decode_cmd->add_option("REG", decode.reg, "The register's name")->required();
  decode_cmd->add_option("VALUE", decode.value, "The value: 0x hex, 0b binary or decimal")->required();
  decode_cmd->add_flag("--json", decode.json, "Print as JSON");

  regemu::tools::EventsOptions events;
  CLI::App* events_cmd =
      app.add_subcommand("events", "List the event catalog of a database's event counters (PMU, GPU perf counters)");
  events_cmd->add_option("DB", events.database, "A database file or a device folder holding device.yaml")->required();
  events_cmd->add_option("--grep", events.grep, "Only events whose name contains this text (case-insensitive)");
  events_cmd->add_flag("--json", events.json, "Print the catalog as JSON");

  regemu::tools::SnapshotOptions snapshot;
  CLI::App* snapshot_cmd = app.add_subcommand(
      "snapshot", "Write a space of a device, after an optional script, as the image a driver reads (intel_reg --mmio)");
  snapshot_cmd->add_option("DB", snapshot.database, "A database file or a device folder holding device.yaml")
      ->required();
  snapshot_cmd->add_option("SCRIPT", snapshot.script,
                           "A script to run first, leniently (violations are counted, not fatal); - reads stdin");
  snapshot_cmd->add_option("--space", snapshot.space, "The space to write (default: the database's first mmio space)");
  snapshot_cmd->add_option("--size", snapshot.size,
                           "Write only the space's first BYTES (default: all of it; at most 256 MiB)");
  snapshot_cmd->add_option("-o,--output", snapshot.output, "The image file to write (- for stdout)")->required();

  regemu::tools::DocOptions doc;
  CLI::App* doc_cmd =
      app.add_subcommand("doc", "Write a device's register map as static HTML pages (bit-field pictures, address maps)");
  doc_cmd->add_option("DB", doc.database, "A database file or a device folder holding device.yaml")->required();
  doc_cmd->add_option("-o,--output", doc.output, "The folder to write the site into (new, empty, or an earlier map)")
      ->required();
  doc_cmd->add_option("--coverage", doc.coverage,
                      "Coverage files of a test run (REGEMU_COVERAGE) or folders of them, merged and painted onto "
                      "the map");

  regemu::tools::ImportCommandOptions import;
  CLI::App* import_cmd =
      app.add_subcommand("import", "Write a real driver's capture (mmiotrace, i915_reg_rw, R/W log) as a regemu script");
  import_cmd->add_option("DB", import.database, "A database file or a device folder holding device.yaml")->required();
  import_cmd->add_option("TRACE", import.capture, "The capture (- for stdin)")->required();
  import_cmd->add_option("-o,--output", import.output, "The script to write (default -: stdout)");
  import_cmd->add_flag("--no-values", import.no_values, "Reads become plain reads instead of expects");
  import_cmd->add_flag("--no-time", import.no_time, "No step lines for the time between accesses");
  AddCaptureOptions(import_cmd, import.capture_options);

  regemu::tools::DiffCommandOptions diff;
  CLI::App* diff_cmd = app.add_subcommand(
      "diff", "Compare two driver runs (captures or scripts) step by step: names, polls collapsed, volatile bits ignored");
  diff_cmd->add_option("A", diff.a, "The first run: a capture or a regemu script")->required();
  diff_cmd->add_option("B", diff.b, "The second run")->required();
  diff_cmd->add_option("--db", diff.database,
                       "A database: register names, volatile bits and spaces (needed for scripts; without it "
                       "captures compare by address)");
  diff_cmd->add_option("--context", diff.context, "Unchanged steps shown around each change (default 3)");
  AddCaptureOptions(diff_cmd, diff.capture_options);

  regemu::tools::ReplayCommandOptions replay;
  CLI::App* replay_cmd = app.add_subcommand(
      "replay", "Replay a real driver's capture against a database: its gaps, its mistakes, the driver's violations");
  replay_cmd->add_option("DB", replay.database, "A database file or a device folder holding device.yaml")->required();
  replay_cmd
      ->add_option("TRACE", replay.capture,
                   "The capture: a Linux mmiotrace, i915_reg_rw ftrace text, or an R/W register log (- for stdin)")
      ->required();
  replay_cmd->add_flag("--json", replay.json, "Print the report as JSON");
  AddCaptureOptions(replay_cmd, replay.capture_options);

  regemu::tools::ConvertOptions convert;
  CLI::App* convert_cmd = app.add_subcommand(
      "convert",
      "Convert another register description into a database (CMSIS-SVD, amdgpu register headers), or a database into "
      "one");
  convert_cmd
      ->add_option("INPUT", convert.inputs,
                   "svd FILE: a CMSIS-SVD file into a database folder; amdgpu OFFSET_H SH_MASK_H: amdgpu's "
                   "<ip>_<ver>_offset.h and _sh_mask.h into one (needs --bases); with --to svd: the database (a file "
                   "or a device folder holding device.yaml)")
      ->required()
      ->expected(1, 3);
  convert_cmd->add_option("--to", convert.to, "Write the database as this format instead: svd (CMSIS-SVD 1.3)")
      ->check(CLI::IsMember({"svd"}));
  convert_cmd
      ->add_option("-o,--output", convert.output,
                   "The database folder to write (device.yaml, peripherals/ or registers/); with --to svd, the SVD "
                   "file (- for stdout)")
      ->required();
  convert_cmd->add_option(
      "--bases", convert.bases,
      "amdgpu: the IP's segment bases in dwords, by base index (NAME_BASE_IDX), comma-separated: the kernel's "
      "<IP>_BASE.instance[0].segment[] (gfx90a's GC, aldebaran_ip_offset.h: 0x2000,0xA000,0x02402C00). Given on the "
      "command line because newer parts (MI300) have no ip_offset header: amdgpu reads their bases from IP "
      "discovery at run time");
  convert_cmd->add_option("--device", convert.device,
                          "amdgpu: the database's device name (default: the offset header's name before _offset)");
  convert_cmd->footer(
      "amdgpu: byte offset = 4 x (base[NAME_BASE_IDX] + the header's dword offset). The headers carry no access "
      "policies, resets or behaviour: every field is imported as rw, and the output says so. docs/import-amdgpu.md.");

  CLI::App* coverage_cmd = app.add_subcommand(
      "coverage", "Combine and report the coverage files test processes wrote (REGEMU_COVERAGE=DIR/%p.json)");
  coverage_cmd->require_subcommand(1);
  regemu::tools::CoverageMergeOptions coverage_merge;
  CLI::App* coverage_merge_cmd = coverage_cmd->add_subcommand("merge", "Merge coverage files into one");
  coverage_merge_cmd->add_option("-o,--output", coverage_merge.output, "The merged file to write (- for stdout)")
      ->required();
  coverage_merge_cmd->add_option("FILE", coverage_merge.files, "Coverage files, or folders of *.json files")
      ->required();
  regemu::tools::CoverageReportOptions coverage_report;
  CLI::App* coverage_report_cmd =
      coverage_cmd->add_subcommand("report", "Summarize coverage files: registers, fields, effects, behaviour paths");
  coverage_report_cmd->add_option("FILE", coverage_report.files, "Coverage files, or folders of *.json files")
      ->required();
  coverage_report_cmd->add_flag("--json", coverage_report.json, "Print the summary as JSON");

  regemu::tools::BootCommandOptions boot;
  CLI::App* boot_cmd = app.add_subcommand(
      "boot", "Boot a User-Mode Linux kernel with the databases as PCI functions, in one virtual time "
              "(docs/real-kernels.md)");
  boot_cmd->add_option("--kernel", boot.kernel, "The UML kernel (tools/uml/build-kernel.sh builds one)")->required();
  boot_cmd->add_option("--initrd", boot.initrd, "The initramfs (a newc cpio; tools/uml/make-initramfs.sh)")
      ->required();
  boot_cmd->add_flag("--real-time", boot.real_time,
                     "No time travel: the devices follow the host's clock (not deterministic)");
  boot_cmd->add_option("--timeout", boot.timeout_s, "Wall-clock seconds before the kernel counts as hung (default 60)")
      ->check(CLI::Range(1, 86400));
  boot_cmd->add_flag("--lenient", boot.lenient, "Record violations without failing (default: strict)");
  boot_cmd->add_option("--trace", boot.trace, "Write each device's accesses as a script (FILE, or FILE.N for several)");
  boot_cmd->add_option("DB", boot.databases, "Databases with a pci-config space, one per PCI slot (at most 8)")
      ->required();
  boot_cmd->footer("Arguments after -- are appended to the kernel's command line.\n"
                   "Exit status: 0 the kernel powered off and no violation (strict); 1 violations; 2 usage or a bad "
                   "database; 3 the kernel panicked, hung past --timeout, or could not start.");

  regemu::tools::ServeCommandOptions serve;
  CLI::App* serve_cmd = app.add_subcommand(
      "serve", "Serve one database as a PCI function on a vhost-user socket, for a kernel started elsewhere (KUnit)");
  serve_cmd->add_option("--socket", serve.socket, "The socket the kernel's virtio_uml.device=PATH:1234 names")
      ->required();
  serve_cmd->add_option("--time-travel", serve.time_travel,
                        "Also be the kernel's time-travel controller on this socket (time-travel=ext:PATH)");
  serve_cmd->add_flag("--lenient", serve.lenient, "Record violations without failing (default: strict)");
  serve_cmd->add_option("DB", serve.database, "A database with a pci-config space")->required();

  if (ReportUnknownSubcommand(app, argc, argv)) return 2;
  // `regemu boot ... DB... -- KERNEL_ARGS...`: CLI11 would hand the words
  // after `--` to DB (a list), so they are split off before it parses.
  if (argc > 1 && std::string_view(argv[1]) == "boot") {
    for (int i = 2; i < argc; ++i) {
      if (std::string_view(argv[i]) != "--") continue;
      boot.kernel_args.assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  }
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
    if (boot_cmd->parsed()) return regemu::tools::RunBootCommand(boot, std::cout, std::cerr);
    if (serve_cmd->parsed()) return regemu::tools::RunServeCommand(serve, std::cout, std::cerr);
    if (check_cmd->parsed()) return regemu::tools::RunCheck(check, std::cout, std::cerr);
    if (convert_cmd->parsed()) return regemu::tools::RunConvert(convert, std::cout, std::cerr);
    if (coverage_merge_cmd->parsed()) return regemu::tools::RunCoverageMerge(coverage_merge, std::cout, std::cerr);
    if (coverage_report_cmd->parsed()) return regemu::tools::RunCoverageReport(coverage_report, std::cout, std::cerr);
    if (decode_cmd->parsed()) return regemu::tools::RunDecode(decode, std::cout, std::cerr);
    if (diff_cmd->parsed()) return regemu::tools::RunDiffCommand(diff, std::cout, std::cerr);
    if (doc_cmd->parsed()) return regemu::tools::RunDoc(doc, std::cout, std::cerr);
    if (events_cmd->parsed()) return regemu::tools::RunEvents(events, std::cout, std::cerr);
    if (header_cmd->parsed()) return regemu::tools::RunHeader(header, std::cout, std::cerr);
    if (import_cmd->parsed()) return regemu::tools::RunImportCommand(import, std::cout, std::cerr);
    if (replay_cmd->parsed()) return regemu::tools::RunReplayCommand(replay, std::cout, std::cerr);
    if (run_cmd->parsed()) return regemu::tools::RunRunCommand(run, std::cout, std::cerr);
    if (schema_cmd->parsed()) return regemu::tools::RunSchema(schema, std::cout, std::cerr);
    if (show_cmd->parsed()) return regemu::tools::RunShow(show, std::cout, std::cerr);
    if (snapshot_cmd->parsed()) return regemu::tools::RunSnapshot(snapshot, std::cout, std::cerr);
  } catch (const std::exception& e) {
    // Library code reports through diagnostics; reaching here is a regemu bug.
    std::cerr << "regemu: internal error: " << e.what() << "\n";
    return 3;
  }
  return 2;
}
