#pragma once
// Coverage of register semantics: what a test suite exercised on each
// device model. A device with DeviceOptions::coverage counts, per register,
// the frontdoor reads and writes that reached it, the writes that changed
// each field, and the accesses where an access policy acted (a w1c bit that
// was 1 and got cleared); per behaviour, how often each of its paths ran
// (BehaviourProgram::CoveragePoints); and the violations raised, by kind
// and register. Backdoor accesses (Peek, Poke) never count.
//
// Each process collects what its devices recorded (a device hands its
// counts over when it is destroyed) and writes one file at exit, like
// gcov's .gcda or LLVM's .profraw; `regemu coverage merge` and `regemu
// coverage report` combine them. The file is JSON, see docs/coverage.md.

#include <cstdint>
#include <filesystem>
#include <map>
#include <span>
#include <string>
#include <vector>

namespace regemu::emulator {

struct RegisterCoverage {
  uint64_t reads = 0, writes = 0;  // frontdoor accesses that reached it
  // field -> writes that changed its value
  std::map<std::string, uint64_t, std::less<>> fields_changed;
  // Effect name -> accesses where it acted. Names are the access policies'
  // (regdb/access_policies.def), each effect under the policy that has it
  // alone: "rc" (a read cleared bits that were 1; also from wrc, wsrc,
  // w1src, w0src), "rs", "wc", "ws", "w1c", "w1s", "w1t", "w0c", "w0s",
  // "w0t" (bits changed by the write), "w1" (a write-once field stored,
  // also wo1), and "masked-write" (a write to an Intel masked register
  // with at least one enable bit).
  std::map<std::string, uint64_t, std::less<>> effects;
};

// One path of a behaviour (a force-wake domain woken, an engine's
// interrupt serviced, an OA report format written) and how often it ran.
struct PointCoverage {
  std::string group, name;
  uint64_t hits = 0;
};

struct BehaviourCoverage {
  std::string kind;
  std::vector<PointCoverage> points;  // every point the behaviour declares, hit or not
};

struct ModelCoverage {
  std::string device;  // Model::device()
  // The model's shape: a hash of its registers' names, offsets and fields.
  // Models with the same device name merge only when it matches (the same
  // database, not an edited one).
  uint64_t layout = 0;
  uint64_t registers = 0, fields = 0;  // how many the model has (denominators)
  // Effect name -> how many registers have bits where it can act
  // (denominators for RegisterCoverage::effects).
  std::map<std::string, uint64_t, std::less<>> effect_registers;
  uint64_t processes = 0;  // test processes that used this model
  uint64_t devices = 0;    // device instances merged in
  std::map<std::string, RegisterCoverage, std::less<>> touched;      // register name -> only registers accessed
  std::map<std::string, BehaviourCoverage, std::less<>> behaviours;  // behaviour name ->
  // Violation kind name -> register name ("" when none decodes there) -> count.
  std::map<std::string, std::map<std::string, uint64_t>, std::less<>> violations;
};

struct CoverageData {
  uint64_t processes = 0;
  // By device name. A model of the same name but another layout is kept
  // apart under "NAME (2)", "NAME (3)", ... (ModelCoverage::device keeps the
  // plain name).
  std::map<std::string, ModelCoverage, std::less<>> models;
};

// Adds `from` into `into`: counts sum (saturating), point universes are
// united (by group and name), models match by device name and layout.
void MergeInto(CoverageData& into, const CoverageData& from);
void MergeInto(CoverageData& into, const ModelCoverage& model);
CoverageData Merge(std::span<const CoverageData> all);

// The file format: {"format": "regemu-coverage", "version": 1, ...}. A file
// that is not JSON, not a coverage file, of another version or of a wrong
// shape is an error naming the file and the place; `out` is then unchanged.
bool ReadCoverageFile(const std::filesystem::path& path, CoverageData& out, std::string& error);
bool WriteCoverageFile(const std::filesystem::path& path, const CoverageData& data, std::string& error);
// The same as text, for tools that hold the data in memory.
bool ParseCoverage(const std::string& text, const std::string& origin, CoverageData& out, std::string& error);
std::string CoverageJson(const CoverageData& data);

// ---------------------------------------------------------------- the process
//
// Devices with coverage hand their counts to the process when destroyed;
// at exit the process writes them to its output file. Devices still alive
// at exit (leaked, or static) are not in it: destroy them first. A process
// that collected nothing writes no file.

// The environment variable naming the output: a path where %p stands for
// the process id (REGEMU_COVERAGE=cov/regemu-%p.json). DeviceTest and the C
// shim turn coverage on for their devices when it is set.
inline constexpr const char* kCoverageEnvironment = "REGEMU_COVERAGE";
bool CoverageFromEnvironment();
// The output pattern for hosts that choose it in code; the environment
// variable, when set, wins (as LLVM_PROFILE_FILE does). "" forgets it.
void SetCoverageOutput(std::string path_pattern);
// For a host's "turn coverage on" switch (DeviceTest::EnableCoverage,
// regemu_enable_coverage): `path_pattern` when given, else, when no output
// is chosen yet, regemu-coverage-%p.json in the working directory.
void ChooseCoverageOutput(std::string path_pattern);
// Where this process writes: the environment's pattern, else the one set
// in code, with %p replaced; "" when neither is set.
std::filesystem::path CoverageOutputPath();
// A device's counts, as it is destroyed (Device does this).
void CollectCoverage(const ModelCoverage& model);
// What this process has collected so far.
CoverageData CollectedCoverage();
// Writes what was collected to CoverageOutputPath() now (creating its
// folder), replacing the file; at exit this runs again. True when written
// or when there is nothing to write or nowhere to write it.
bool FlushCoverage(std::string& error);

}  // namespace regemu::emulator
