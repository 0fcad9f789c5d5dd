#include "tools/regemu/snapshot_command.hpp"

#include <filesystem>
#include <fstream>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/emulator/model.hpp"
#include "regemu/emulator/script/script.hpp"
#include "regemu/emulator/script/script_runner.hpp"
#include "regemu/emulator/space_image.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"
#include "tools/regemu/device_inputs.hpp"

namespace regemu::tools {
namespace {

constexpr const char* kCommand = "regemu snapshot";

std::string SpaceList(const emulator::Model& model) {
  std::string list;
  for (const emulator::SpaceModel& space : model.spaces()) list += (list.empty() ? "" : ", ") + space.name;
  return list;
}

// The space to image: --space, or else the first mmio space (the register
// BAR a driver maps); nothing, with the reason on `err`, when there is none.
std::optional<emulator::SpaceId> ChooseSpace(const emulator::Model& model, const SnapshotOptions& options,
                                             std::ostream& err) {
  if (options.space.empty()) {
    for (emulator::SpaceId id = 0; id < model.spaces().size(); ++id) {
      if (model.spaces()[id].kind == regdb::SpaceKind::kMmio) return id;
    }
    err << kCommand << ": " << options.database
        << " has no mmio space; name one with --space (its spaces: " << SpaceList(model) << ")\n";
    return std::nullopt;
  }
  if (std::optional<emulator::SpaceId> id = model.FindSpace(options.space)) return id;
  std::vector<std::string_view> names;
  for (const emulator::SpaceModel& space : model.spaces()) names.push_back(space.name);
  err << kCommand << ": " << options.database << " has no space '" << options.space << "'"
      << regdb::DidYouMean(options.space, names) << "; its spaces: " << SpaceList(model) << "\n";
  return std::nullopt;
}

// Runs the script leniently: violations are recorded, not fatal. Says on
// `err` what went wrong in it; false when it stopped on a script error.
bool RunLeniently(const emulator::Script& script, emulator::Device& device, const regdb::Database& database,
                  emulator::RunResult& result, std::ostream& err) {
  emulator::RunOptions run_options;
  run_options.policy = emulator::ViolationPolicy::Lenient();
  run_options.database = &database;
  result = emulator::RunScript(script, device, run_options);
  if (result.error) {
    err << emulator::FormatScriptFailure(script, *result.error);
    return false;
  }
  for (const emulator::ScriptFailure& failure : result.failures) err << emulator::FormatScriptFailure(script, failure);
  err << kCommand << ": " << script.sources.file(script.file).path << ": " << result.commands_run << " command(s), "
      << result.failures.size() << " of " << result.checks << " check(s) failed; " << device.violation_count()
      << " violation(s) recorded" << (device.violation_count() > 0 ? " (`regemu run --lenient` lists them)" : "")
      << "\n";
  return true;
}

// Writes the image to `path` ("-": `out`); a file that could not be written
// whole is removed.
bool WriteImage(const emulator::Device& device, emulator::SpaceId space, std::optional<uint64_t> size,
                const std::string& path, std::ostream& out, emulator::SpaceImageStats& stats, std::ostream& err) {
  if (path == "-") {
    stats = emulator::WriteSpaceImage(device, space, size, out);
    out.flush();
    if (out) return true;
    err << kCommand << ": cannot write the image to standard output\n";
    return false;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) {
    err << kCommand << ": cannot write " << path << "\n";
    return false;
  }
  stats = emulator::WriteSpaceImage(device, space, size, file);
  file.close();
  if (file) return true;
  err << kCommand << ": cannot write " << path << ": writing stopped midway, the partial file is removed\n";
  std::error_code ec;
  std::filesystem::remove(path, ec);
  return false;
}

}  // namespace

int RunSnapshot(const SnapshotOptions& options, std::ostream& out, std::ostream& err) {
  if (!DatabaseExists(kCommand, options.database, err)) return 2;
  std::optional<uint64_t> size;
  if (!options.size.empty()) {
    auto parsed = regdb::ParseUnsigned(options.size);
    if (auto* error = std::get_if<regdb::NumberError>(&parsed)) {
      err << kCommand << ": --size: " << error->message << "\n";
      return 2;
    }
    size = std::get<uint64_t>(parsed);
  }
  emulator::ScriptLimits limits;
  std::string text;
  if (!options.script.empty() && !ReadScript(kCommand, options.script, limits.max_bytes, text, err)) return 2;

  CompiledDatabase compiled = CompileDatabase(options.database, err);
  if (!compiled.model) return 2;
  const emulator::Model& model = *compiled.model;
  std::optional<emulator::SpaceId> space = ChooseSpace(model, options, err);
  if (!space) return 2;
  if (std::string refusal = emulator::SpaceImageRefusal(model, *space, size); !refusal.empty()) {
    err << kCommand << ": " << refusal << "\n";
    if (!size && !model.spaces()[*space].indexed) err << "note: --size BYTES writes the space's first BYTES\n";
    return 2;
  }

  emulator::DeviceOptions device_options;
  device_options.policy = emulator::ViolationPolicy::Lenient();
  emulator::Device device(compiled.model, device_options);
  emulator::RunResult result;
  if (!options.script.empty()) {
    emulator::Script script =
        emulator::ParseScript(std::move(text), options.script == "-" ? kStdinName : options.script, model, limits);
    if (!script.ok()) {
      err << script.FormatErrors();
      return 2;
    }
    if (!RunLeniently(script, device, compiled.loaded.database, result, err)) return 2;
  }

  emulator::SpaceImageStats stats;
  if (!WriteImage(device, *space, size, options.output, out, stats, err)) return 2;
  // On stderr, so that `-o -` leaves nothing but the image on stdout.
  err << (options.output == "-" ? "<stdout>" : options.output) << ": space '" << model.spaces()[*space].name
      << "' of device '" << model.device() << "', " << stats.bytes << " bytes, " << stats.registers << " register(s)";
  if (stats.window_registers > 0) err << " and " << stats.window_registers << " through alias windows";
  err << "\n";
  return result.failures.empty() ? 0 : 1;
}

}  // namespace regemu::tools
