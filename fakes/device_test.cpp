#include "regemu/fakes/device_test.hpp"

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

#include "regemu/emulator/coverage.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/loader.hpp"

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

namespace {

// A failure at `site`, or at the running test's TEST_F line without one:
// never at a line inside regemu.
void FailAt(const std::optional<hwreg::SourceLocation>& site, const std::string& message) {
  if (site) {
    ADD_FAILURE_AT(site->file_name(), static_cast<int>(site->line()))
        << message << "\n(the access was made in " << site->function_name() << ")";
    return;
  }
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  if (test != nullptr && test->file() != nullptr) {
    ADD_FAILURE_AT(test->file(), test->line()) << message;
  } else {
    ADD_FAILURE() << message;
  }
}

}  // namespace

DeviceTest::DeviceTest() : fail_at_access_(GTEST_FLAG_GET(break_on_failure)) {}

emulator::Device& DeviceTest::LoadDevice(const std::filesystem::path& path, emulator::DeviceOptions options) {
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
  std::optional<hwreg::SourceLocation> site = CurrentAccessSite();
  violation_sites_.emplace(violation.sequence, site);
  if (fail_at_access_ && violation.fails) {
    reported_violations_.insert(violation.sequence);
    FailAt(site, "driver violation on device '" + device_->model().device() + "':\n" +
                     violation.Describe(device_->model()));
  }
}

void DeviceTest::OnBreach(size_t index) {
  std::optional<hwreg::SourceLocation> site = CurrentAccessSite();
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
    FailAt(index < breach_sites_.size() ? breach_sites_[index] : std::nullopt,
           "driver broke a protocol rule on device '" + device_->model().device() + "':\n" +
               breaches[index].Describe(device_->model()));
  }
  breaches_taken_ = breaches.size();
  for (const emulator::Violation& violation : device_->violations()) {
    if (!violation.fails || reported_violations_.contains(violation.sequence)) continue;
    auto site = violation_sites_.find(violation.sequence);
    FailAt(site == violation_sites_.end() ? std::nullopt : site->second,
           "driver violation on device '" + device_->model().device() + "':\n" +
               violation.Describe(device_->model()));
  }
  size_t kept = device_->violations().size();
  if (device_->violation_count() > kept) {
    FailAt(std::nullopt, std::to_string(device_->violation_count() - kept) +
                             " more violation(s) past DeviceOptions::max_violations");
  }
}

}  // namespace regemu::fakes
