#include "regemu/fakes/device_test.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/emulator/trap/trap_site.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/numbers.hpp"

namespace regemu::fakes {

std::filesystem::path ShippedDatabaseIn(const std::filesystem::path& directory, std::string_view name) {
  std::filesystem::path base = directory;
  if (const char* from_environment = std::getenv("REGEMU_DATABASE_DIR"); from_environment && *from_environment) {
    base = from_environment;
  }
  if (base.empty()) {
    throw std::invalid_argument(
        "regemu: no database directory: link regemu::fakes through find_package(regemu), or set REGEMU_DATABASE_DIR");
  }
  std::filesystem::path database = base / std::string(name);
  std::error_code error;
  if (std::filesystem::exists(database, error)) return database;
  std::vector<std::string> shipped;
  for (const auto& entry : std::filesystem::directory_iterator(base, error)) {
    if (entry.is_directory(error)) shipped.push_back(entry.path().filename().string());
  }
  std::sort(shipped.begin(), shipped.end());
  std::string known;
  for (const std::string& each : shipped) known += (known.empty() ? "" : ", ") + each;
  throw std::invalid_argument("regemu: no database '" + std::string(name) + "' in " + base.string() +
                              (known.empty() ? std::string(" (the directory is empty or missing)")
                                             : " (there are: " + known + ")"));
}

std::shared_ptr<const emulator::Model> CompileDatabase(const std::filesystem::path& path) {
  static std::mutex mutex;
  static std::map<std::filesystem::path, std::shared_ptr<const emulator::Model>> cache;
  std::lock_guard lock(mutex);
  if (auto it = cache.find(path); it != cache.end()) return it->second;
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(path);
  if (loaded.diagnostics.has_errors()) {
    throw std::runtime_error("regemu: the database " + path.string() + " has errors:\n" +
                             FormatDiagnostics(loaded.sources, loaded.diagnostics));
  }
  emulator::CompileResult compiled = emulator::Compile(loaded.database);
  if (!compiled.model) {
    std::string text = "regemu: the database " + path.string() + " does not compile:";
    for (const std::string& error : compiled.errors) text += "\n  " + error;
    throw std::runtime_error(text);
  }
  cache.emplace(path, compiled.model);
  return compiled.model;
}

// The MmioBus helper's caller, or the trapped instruction's line.
DeviceTest::AccessSite DeviceTest::CurrentSite() {
  if (std::optional<hwreg::SourceLocation> site = CurrentAccessSite()) return {site, ""};
  std::optional<emulator::TrappedAccessSite> trapped = emulator::CurrentTrappedAccessSite();
  if (!trapped) return {};
  AccessSite site{std::nullopt, "by the trapped instruction at " + trapped->Describe()};
  if (trapped->location.has_line()) {
    site.location = hwreg::SourceLocation::current(trapped->location.file, trapped->location.function,
                                                   trapped->location.line);
  }
  return site;
}

// A failure at `site`, or at the running test's TEST_F line without one:
// never at a line inside regemu.
void DeviceTest::FailAt(const AccessSite& site, const std::string& message) {
  std::string how = site.instruction.empty() ? "" : "\n(the access was made " + site.instruction + ")";
  if (site.location) {
    if (how.empty()) how = "\n(the access was made in " + std::string(site.location->function_name()) + ")";
    ADD_FAILURE_AT(site.location->file_name(), static_cast<int>(site.location->line())) << message << how;
    return;
  }
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (test != nullptr && test->file() != nullptr) {
    ADD_FAILURE_AT(test->file(), test->line()) << message << how;
  } else {
    ADD_FAILURE() << message << how;
  }
}

DeviceTest::DeviceTest() : fail_at_access_(GTEST_FLAG_GET(break_on_failure)) {}

emulator::Device& DeviceTest::LoadDevice(const std::filesystem::path& path, emulator::DeviceOptions options) {
  mappings_.clear();
  buses_.clear();
  device_.reset();
  violation_sites_.clear();
  reported_violations_.clear();
  breach_sites_.clear();
  reported_breaches_ = 0;
  std::shared_ptr<const emulator::Model> model = CompileDatabase(path);
  options.coverage = options.coverage || coverage_ || emulator::CoverageFromEnvironment();
  checker_ = std::make_unique<ProtocolChecker>(model);
  breaches_taken_ = 0;
  // The checker sees every access; a test's own observer still runs first.
  options.on_trace = [this, own = std::move(options.on_trace)](const emulator::TraceEntry& entry) {
    if (own) own(entry);
    size_t before = checker_->breaches().size();
    checker_->Observe(entry);
    for (size_t index = before; index < checker_->breaches().size(); ++index) OnBreach(index);
  };
  options.on_violation = [this, own = std::move(options.on_violation)](const emulator::Violation& violation) {
    if (own) own(violation);
    OnViolation(violation);
  };
  device_ = std::make_unique<emulator::Device>(std::move(model), std::move(options));
  return *device_;
}

// Both run under the device lock, in the thread that made the access.
void DeviceTest::OnViolation(const emulator::Violation& violation) {
  AccessSite site = CurrentSite();
  violation_sites_.emplace(violation.sequence, site);
  if (fail_at_access_ && violation.fails) {
    reported_violations_.insert(violation.sequence);
    FailAt(site, "driver violation on device '" + device_->model().device() + "':\n" +
                     violation.Describe(device_->model()));
  }
}

void DeviceTest::OnBreach(size_t index) {
  AccessSite site = CurrentSite();
  breach_sites_.push_back(site);
  if (fail_at_access_) {
    reported_breaches_ = index + 1;
    FailAt(site, "driver broke a protocol rule on device '" + device_->model().device() + "':\n" +
                     checker_->breaches()[index].Describe(device_->model()));
  }
}

void DeviceTest::EnableCoverage(std::string path_pattern) {
  coverage_ = true;
  emulator::ChooseCoverageOutput(std::move(path_pattern));
}

emulator::Device& DeviceTest::device() {
  if (!device_) throw std::logic_error("DeviceTest: call LoadDevice() before device()");
  return *device_;
}

FakeMmioBus& DeviceTest::bus(std::string_view space) {
  auto it = buses_.find(space);
  if (it == buses_.end()) {
    it = buses_.emplace(std::string(space), std::make_unique<FakeMmioBus>(device(), space)).first;
  }
  return *it->second;
}

uint8_t* DeviceTest::MappedSpace(std::string_view space, std::optional<uintptr_t> fixed_address) {
  auto it = mappings_.find(space);
  if (it == mappings_.end()) {
    std::optional<emulator::SpaceId> id = device().model().FindSpace(space);
    if (!id) throw std::invalid_argument("DeviceTest: device '" + device().model().device() + "' has no space '" +
                                         std::string(space) + "'");
    emulator::MapOptions options;
    options.fixed_address = fixed_address;
    it = mappings_.emplace(std::string(space), emulator::TrappedMapping::Map(device(), *id, options)).first;
  } else if (fixed_address && reinterpret_cast<uintptr_t>(it->second.base()) != *fixed_address) {
    throw std::invalid_argument("DeviceTest: space '" + std::string(space) + "' is already mapped at " +
                                regdb::Hex(reinterpret_cast<uintptr_t>(it->second.base())) + ", not at " +
                                regdb::Hex(*fixed_address));
  }
  return static_cast<uint8_t*>(it->second.base());
}

std::vector<emulator::Violation> DeviceTest::TakeViolations() {
  std::vector<emulator::Violation> violations = device().violations();
  device().ClearViolations();
  violation_sites_.clear();
  reported_violations_.clear();
  return violations;
}

void DeviceTest::EnableRule(std::unique_ptr<ProtocolRule> rule) {
  if (!checker_) throw std::logic_error("DeviceTest: call LoadDevice() before EnableRule()");
  checker_->Add(std::move(rule));
}

std::vector<RuleBreach> DeviceTest::TakeBreaches() {
  if (!checker_) return {};
  const std::vector<RuleBreach>& all = checker_->breaches();
  std::vector<RuleBreach> taken(all.begin() + static_cast<std::ptrdiff_t>(breaches_taken_), all.end());
  breaches_taken_ = all.size();
  return taken;
}

void DeviceTest::TearDown() {
  if (!device_) return;
  const std::vector<RuleBreach>& breaches = checker_->breaches();
  for (size_t index = std::max(breaches_taken_, reported_breaches_); index < breaches.size(); ++index) {
    FailAt(index < breach_sites_.size() ? breach_sites_[index] : AccessSite{},
           "driver broke a protocol rule on device '" + device_->model().device() + "':\n" +
               breaches[index].Describe(device_->model()));
  }
  breaches_taken_ = breaches.size();
  for (const emulator::Violation& violation : device_->violations()) {
    if (!violation.fails || reported_violations_.contains(violation.sequence)) continue;
    auto site = violation_sites_.find(violation.sequence);
    FailAt(site == violation_sites_.end() ? AccessSite{} : site->second,
           "driver violation on device '" + device_->model().device() + "':\n" +
               violation.Describe(device_->model()));
  }
  size_t kept = device_->violations().size();
  if (device_->violation_count() > kept) {
    FailAt(AccessSite{}, std::to_string(device_->violation_count() - kept) +
                             " more violation(s) past DeviceOptions::max_violations");
  }
}

}  // namespace regemu::fakes
