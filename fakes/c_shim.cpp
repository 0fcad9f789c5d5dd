// The C shim (include/regemu/regemu.h, include/regemu/iomem.h) over
// emulator::Device. Nothing here throws into C: every failure becomes an
// error return (all-ones, -1, NULL) with its message in regemu_last_error.
// Misuse of the API is the test's error, never a device violation: those
// stay the driver's.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "regemu/emulator/coverage/coverage.hpp"
#include "regemu/emulator/device.hpp"
#include "regemu/emulator/trap/trap_site.hpp"
#include "regemu/emulator/trap/trapped_mapping.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/names.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"
#include "regemu/iomem.h"
#include "regemu/regemu.h"

struct regemu_device {
  std::unique_ptr<regemu::emulator::Device> device;
  // regemu_map's mappings: declared after `device`, so unmapped before it goes.
  std::vector<regemu::emulator::TrappedMapping> mappings;
  // Per violation (by sequence) made through a mapping: the driver's
  // instruction and line, for regemu_violation_text. Filled by the device's
  // on_violation, under the device lock, hence a lock of its own.
  std::mutex sites_lock;
  std::map<uint64_t, std::string> trapped_sites;
  // The shim's own state is not the device's: the device locks itself, the
  // shim's strings take this lock.
  std::mutex lock;
  // Checked without the lock so that a call after a success costs no lock.
  std::atomic<bool> failed{false};
  std::string error;       // the last call's failure; meaningful while `failed`
  std::string error_text;  // what regemu_last_error returned last (a failing call must not free it)
  std::string text;        // what regemu_violation_text returned last
};

namespace {

using regemu::emulator::Device;
using regemu::emulator::SpaceId;
using regemu::regdb::Hex;

constexpr const char* kNullDevice =
    "regemu: the device is NULL (a call on a NULL device does nothing and fails; did regemu_open fail?)";

uint64_t AllOnes(unsigned width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

void CopyError(const std::string& message, char* err, size_t errlen) {
  if (err == nullptr || errlen == 0) return;
  size_t n = std::min(message.size(), errlen - 1);
  std::memcpy(err, message.data(), n);
  err[n] = '\0';
}

void ClearError(regemu_device& dev) {
  if (!dev.failed.load(std::memory_order_relaxed)) return;
  std::lock_guard guard(dev.lock);
  dev.error.clear();
  dev.failed.store(false, std::memory_order_relaxed);
}

void SetError(regemu_device& dev, std::string message) {
  std::lock_guard guard(dev.lock);
  dev.error = std::move(message);
  dev.failed.store(true, std::memory_order_relaxed);
}

// Every entry point taking a device runs through here: the last error is
// replaced by this call's outcome, and an exception (the shim's misuse
// reports and anything the emulator throws) becomes `failure` and the
// error, prefixed with the entry point's name.
template <typename Result, typename Body>
Result Enter(regemu_device* dev, std::string_view function, Result failure, Body&& body) {
  if (dev == nullptr) return failure;
  ClearError(*dev);
  try {
    return body();
  } catch (const std::exception& error) {
    SetError(*dev, std::string(function) + ": " + error.what());
  } catch (...) {
    SetError(*dev, std::string(function) + ": an unknown exception");
  }
  return failure;
}

[[noreturn]] void Misuse(std::string message) { throw std::invalid_argument(std::move(message)); }

SpaceId SpaceOf(const regemu_device& dev, const char* space) {
  if (space == nullptr) Misuse("the space name is NULL");
  const auto& model = dev.device->model();
  if (auto id = model.FindSpace(space)) return *id;
  std::vector<std::string_view> names = regemu::regdb::NamesOf(model.spaces());
  std::string message = "device '" + model.device() + "' has no space '" + space + "'";
  std::string suggestion = regemu::regdb::DidYouMean(space, names);
  if (!suggestion.empty()) Misuse(message + suggestion);
  std::string list;
  for (std::string_view name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  Misuse(message + " (its spaces: " + list + ")");
}

// The backdoor has no violation to report an access past the end with, and
// the bytes there are no register's: the test asked for something that
// does not exist. The bound is the frontdoor's (an indexed space counts
// registers, not bytes).
void CheckInSpace(const regemu_device& dev, SpaceId id, uint64_t offset, unsigned width) {
  const auto& space = dev.device->model().spaces()[id];
  uint64_t extent = space.indexed ? 1 : width / 8;
  if (offset >= space.size || extent > space.size - offset) {
    Misuse(std::to_string(width) + " bits at " + Hex(offset) + " run past the end of space '" + space.name +
           "' (size " + Hex(space.size) + ")");
  }
}

// `function` is the entry point's name, for the error: a literal, so that
// an access that succeeds builds no string.
uint64_t Read(const char* function, regemu_device* dev, const char* space, uint64_t offset, unsigned width) {
  return Enter(dev, function, AllOnes(width), [&] { return dev->device->Read(SpaceOf(*dev, space), offset, width); });
}

void Write(const char* function, regemu_device* dev, const char* space, uint64_t offset, unsigned width,
           uint64_t value) {
  Enter(dev, function, 0, [&] {
    dev->device->Write(SpaceOf(*dev, space), offset, width, value);
    return 0;
  });
}

uint64_t Peek(const char* function, regemu_device* dev, const char* space, uint64_t offset, unsigned width) {
  return Enter(dev, function, AllOnes(width), [&] {
    SpaceId id = SpaceOf(*dev, space);
    CheckInSpace(*dev, id, offset, width);
    return dev->device->Peek(id, offset, width);
  });
}

int Poke(const char* function, regemu_device* dev, const char* space, uint64_t offset, unsigned width,
         uint64_t value) {
  return Enter(dev, function, -1, [&] {
    SpaceId id = SpaceOf(*dev, space);
    CheckInSpace(*dev, id, offset, width);
    if (!dev->device->Poke(id, offset, width, value)) {
      Misuse("no register or memory of space '" + std::string(space) + "' holds the bytes at " + Hex(offset) +
             ": nothing was stored");
    }
    return 0;
  });
}

// The words of a script's `inject` line after `inject`: the verb, then its
// arguments.
int Inject(regemu_device& dev, const std::vector<std::string>& words) {
  if (words.empty()) Misuse("the command is empty; expected 'VERB ARGS...' (a script's inject line)");
  if (words[0] == "inject") Misuse("the command starts with 'inject'; pass only 'VERB ARGS...'");
  std::vector<std::string> args(words.begin() + 1, words.end());
  if (std::string why = dev.device->Inject(words[0], args); !why.empty()) {
    std::string command = words[0];
    for (const std::string& arg : args) command += " " + arg;
    Misuse("'" + command + "': " + why);
  }
  return 0;
}

std::vector<std::string> Words(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n\v\f";
  std::vector<std::string> words;
  for (size_t begin = text.find_first_not_of(kSpace); begin != std::string_view::npos;) {
    size_t end = std::min(text.find_first_of(kSpace, begin), text.size());
    words.emplace_back(text.substr(begin, end - begin));
    begin = text.find_first_not_of(kSpace, end);
  }
  return words;
}

// The name scripts give the device's interrupt output
// (emulator::kInterruptOutputName; the shim does not link the script
// language), and the names of its lines.
constexpr std::string_view kInterruptOutput = "irq";

// `line` checked: "irq" or one of the device's named lines.
std::string_view LineName(const regemu_device& dev, const char* line) {
  if (line == nullptr) Misuse("the line name is NULL (\"irq\" names the device's interrupt output)");
  const auto& model = dev.device->model();
  if (line == kInterruptOutput || model.FindLine(line)) return line;
  std::vector<std::string_view> names(model.interrupt_lines().begin(), model.interrupt_lines().end());
  names.push_back(kInterruptOutput);
  std::string suggestion = regemu::regdb::DidYouMean(line, names);
  std::string list;
  for (std::string_view name : names) list += (list.empty() ? "" : ", ") + std::string(name);
  Misuse("device '" + model.device() + "' has no interrupt line '" + line + "'" +
         (suggestion.empty() ? " (its lines: " + list + ")" : suggestion));
}

regemu::emulator::Violation ViolationAt(const regemu_device& dev, size_t index) {
  std::vector<regemu::emulator::Violation> violations = dev.device->violations();
  if (index >= violations.size()) {
    Misuse("index " + std::to_string(index) + " is past the end (" + std::to_string(violations.size()) +
           " violations)");
  }
  return std::move(violations[index]);
}

// regemu_enable_coverage: devices opened from then on count coverage.
std::atomic<bool> coverage_enabled{false};

// iomem mappings: address ranges that stand for (device, space).
struct Mapping {
  std::unique_ptr<char[]> range;  // never dereferenced: it only reserves unique addresses
  uint64_t size;
  regemu_device* dev;
  SpaceId space;
};

std::mutex& MappingsLock() {
  static std::mutex lock;
  return lock;
}
std::vector<Mapping>& Mappings() {
  static std::vector<Mapping> mappings;
  return mappings;
}

struct Target {
  regemu_device* dev;
  SpaceId space;
  uint64_t offset;
};

Target Find(const volatile void* addr, const char* accessor) {
  std::lock_guard guard(MappingsLock());
  auto p = reinterpret_cast<uintptr_t>(addr);
  for (const Mapping& m : Mappings()) {
    auto base = reinterpret_cast<uintptr_t>(m.range.get());
    if (p >= base && p - base < m.size) return {m.dev, m.space, p - base};
  }
  std::fprintf(stderr, "regemu: %s(%p): no regemu_iomap mapping holds this address\n", accessor,
               const_cast<const void*>(addr));
  std::abort();
}

}  // namespace

extern "C" {

regemu_device* regemu_open(const char* db_path, char* err, size_t errlen) {
  try {
    if (db_path == nullptr) {
      CopyError("regemu_open: db_path is NULL", err, errlen);
      return nullptr;
    }
    regemu::regdb::LoadedDatabase loaded = regemu::regdb::LoadAndCheck(db_path);
    if (loaded.diagnostics.has_errors()) {
      CopyError(regemu::regdb::FormatDiagnostics(loaded.sources, loaded.diagnostics), err, errlen);
      return nullptr;
    }
    regemu::emulator::CompileResult compiled = regemu::emulator::Compile(loaded.database);
    if (!compiled.model) {
      std::string text = "regemu_open: " + std::string(db_path) + " does not compile:";
      for (const std::string& error : compiled.errors) text += "\n  " + error;
      CopyError(text, err, errlen);
      return nullptr;
    }
    auto dev = std::make_unique<regemu_device>();
    regemu::emulator::DeviceOptions options;
    options.coverage = coverage_enabled.load() || regemu::emulator::CoverageFromEnvironment();
    // A violation a trapped driver instruction made remembers where.
    options.on_violation = [raw = dev.get()](const regemu::emulator::Violation& violation) {
      std::optional<regemu::emulator::TrappedAccessSite> site = regemu::emulator::CurrentTrappedAccessSite();
      if (!site) return;
      std::lock_guard guard(raw->sites_lock);
      raw->trapped_sites.emplace(violation.sequence, site->Describe());
    };
    dev->device = std::make_unique<Device>(compiled.model, std::move(options));
    return dev.release();
  } catch (const std::exception& error) {
    CopyError(std::string("regemu_open: ") + error.what(), err, errlen);
    return nullptr;
  }
}

int regemu_enable_coverage(const char* path) {
  try {
    coverage_enabled.store(true);
    regemu::emulator::ChooseCoverageOutput(path != nullptr ? path : "");
    return 0;
  } catch (const std::exception&) {
    return -1;  // out of memory for the path
  }
}

void regemu_close(regemu_device* dev) {
  if (dev == nullptr) return;
  {
    std::lock_guard guard(MappingsLock());
    std::erase_if(Mappings(), [dev](const Mapping& m) { return m.dev == dev; });
  }
  delete dev;
}

const char* regemu_last_error(regemu_device* dev) {
  if (dev == nullptr) return kNullDevice;
  if (!dev->failed.load(std::memory_order_relaxed)) return nullptr;
  std::lock_guard guard(dev->lock);
  if (!dev->failed.load(std::memory_order_relaxed)) return nullptr;
  dev->error_text = dev->error;
  return dev->error_text.c_str();
}

#define REGEMU_ACCESS(bits)                                                                                \
  uint##bits##_t regemu_read##bits(regemu_device* dev, const char* space, uint64_t offset) {              \
    return static_cast<uint##bits##_t>(Read("regemu_read" #bits, dev, space, offset, bits));              \
  }                                                                                                        \
  void regemu_write##bits(regemu_device* dev, const char* space, uint64_t offset, uint##bits##_t value) { \
    Write("regemu_write" #bits, dev, space, offset, bits, value);                                          \
  }                                                                                                        \
  uint##bits##_t regemu_peek##bits(regemu_device* dev, const char* space, uint64_t offset) {              \
    return static_cast<uint##bits##_t>(Peek("regemu_peek" #bits, dev, space, offset, bits));              \
  }                                                                                                        \
  int regemu_poke##bits(regemu_device* dev, const char* space, uint64_t offset, uint##bits##_t value) {   \
    return Poke("regemu_poke" #bits, dev, space, offset, bits, value);                                     \
  }
REGEMU_ACCESS(8)
REGEMU_ACCESS(16)
REGEMU_ACCESS(32)
REGEMU_ACCESS(64)
#undef REGEMU_ACCESS

void regemu_step_ns(regemu_device* dev, uint64_t ns) {
  Enter(dev, "regemu_step_ns", 0, [&] {
    dev->device->Advance(ns);
    return 0;
  });
}

uint64_t regemu_now_ns(regemu_device* dev) {
  return Enter(dev, "regemu_now_ns", uint64_t{0}, [&] { return dev->device->now_ns(); });
}

int regemu_set_access_cost(regemu_device* dev, uint64_t ns) {
  return Enter(dev, "regemu_set_access_cost", -1, [&] {
    dev->device->SetAccessCost(ns);
    return 0;
  });
}

int regemu_reset(regemu_device* dev) {
  return Enter(dev, "regemu_reset", -1, [&] {
    dev->device->Reset();
    return 0;
  });
}

int regemu_inject(regemu_device* dev, const char* command) {
  return Enter(dev, "regemu_inject", -1, [&] {
    if (command == nullptr) Misuse("the command is NULL");
    return Inject(*dev, Words(command));
  });
}

int regemu_inject_interrupt(regemu_device* dev, const char* engine, uint16_t data) {
  return Enter(dev, "regemu_inject_interrupt", -1, [&] {
    if (engine == nullptr) Misuse("the engine is NULL");
    return Inject(*dev, {"irq", engine, Hex(data)});
  });
}

int regemu_irq_level(regemu_device* dev) {
  return Enter(dev, "regemu_irq_level", -1, [&] { return dev->device->interrupt_asserted() ? 1 : 0; });
}

int regemu_line_level(regemu_device* dev, const char* line) {
  return Enter(dev, "regemu_line_level", -1, [&] {
    std::string_view name = LineName(*dev, line);
    bool asserted = name == kInterruptOutput ? dev->device->interrupt_asserted() : dev->device->line_asserted(name);
    return asserted ? 1 : 0;
  });
}

uint64_t regemu_line_edges(regemu_device* dev, const char* line) {
  return Enter(dev, "regemu_line_edges", ~uint64_t{0}, [&] {
    std::string_view name = LineName(*dev, line);
    return name == kInterruptOutput ? dev->device->interrupt_edges() : dev->device->line_edges(name);
  });
}

size_t regemu_msi_count(regemu_device* dev) {
  return Enter(dev, "regemu_msi_count", size_t{0}, [&] { return dev->device->messages().size(); });
}

int regemu_msi_message(regemu_device* dev, size_t index, uint64_t* address, uint64_t* data) {
  return Enter(dev, "regemu_msi_message", -1, [&] {
    std::vector<regemu::emulator::MessageWrite> messages = dev->device->messages();
    if (index >= messages.size()) {
      Misuse("index " + std::to_string(index) + " is past the end (" + std::to_string(messages.size()) +
             " messages)");
    }
    if (address != nullptr) *address = messages[index].address;
    if (data != nullptr) *data = messages[index].data;
    return 0;
  });
}

size_t regemu_violation_count(regemu_device* dev) {
  return Enter(dev, "regemu_violation_count", size_t{0}, [&] { return dev->device->violations().size(); });
}

const char* regemu_violation_text(regemu_device* dev, size_t index) {
  return Enter(dev, "regemu_violation_text", static_cast<const char*>(nullptr), [&] {
    regemu::emulator::Violation violation = ViolationAt(*dev, index);
    std::string summary = violation.Summary();
    {
      std::lock_guard sites_guard(dev->sites_lock);
      auto site = dev->trapped_sites.find(violation.sequence);
      if (site != dev->trapped_sites.end()) summary += " [driver instruction: " + site->second + "]";
    }
    std::lock_guard guard(dev->lock);
    dev->text = std::move(summary);
    return dev->text.c_str();
  });
}

const char* regemu_violation_kind(regemu_device* dev, size_t index) {
  return Enter(dev, "regemu_violation_kind", static_cast<const char*>(nullptr), [&] {
    // The names are string literals (violation_kinds.def): NUL-terminated, static.
    return regemu::emulator::ViolationKindName(ViolationAt(*dev, index).kind).data();
  });
}

const char* regemu_violation_register(regemu_device* dev, size_t index) {
  return Enter(dev, "regemu_violation_register", static_cast<const char*>(nullptr), [&] {
    // The model's own copy of the name lives as long as the device: no
    // buffer to overwrite.
    const auto& model = dev->device->model();
    auto id = model.FindRegister(ViolationAt(*dev, index).register_name);
    return id ? model.registers()[*id].name.c_str() : "";
  });
}

void* regemu_iomap(regemu_device* dev, const char* space, uint64_t size) {
  return Enter(dev, "regemu_iomap", static_cast<void*>(nullptr), [&]() -> void* {
    SpaceId id = SpaceOf(*dev, space);
    uint64_t space_size = dev->device->model().spaces()[id].size;
    if (size == 0 || size > space_size) {
      Misuse("cannot map " + Hex(size) + " bytes of space '" + space + "' (size " + Hex(space_size) + ")");
    }
    // The range's addresses only need to be unique: an allocation of the
    // mapped size reserves them; its pages are never touched.
    Mapping mapping{std::unique_ptr<char[]>(new (std::nothrow) char[size]), size, dev, id};
    if (!mapping.range) Misuse("no memory to reserve " + Hex(size) + " addresses");
    void* base = mapping.range.get();
    std::lock_guard guard(MappingsLock());
    Mappings().push_back(std::move(mapping));
    return base;
  });
}

void regemu_iounmap(void* base) {
  std::lock_guard guard(MappingsLock());
  std::erase_if(Mappings(), [base](const Mapping& m) { return m.range.get() == base; });
}

void* regemu_map(regemu_device* dev, const char* space, void* fixed_address) {
  return Enter(dev, "regemu_map", static_cast<void*>(nullptr), [&]() -> void* {
    regemu::emulator::MapOptions options;
    if (fixed_address != nullptr) options.fixed_address = reinterpret_cast<uintptr_t>(fixed_address);
    regemu::emulator::TrappedMapping mapping =
        regemu::emulator::TrappedMapping::Map(*dev->device, SpaceOf(*dev, space), options);
    void* base = mapping.base();
    std::lock_guard guard(dev->lock);
    dev->mappings.push_back(std::move(mapping));
    return base;
  });
}

int regemu_unmap(regemu_device* dev, void* base) {
  return Enter(dev, "regemu_unmap", -1, [&] {
    std::lock_guard guard(dev->lock);
    auto it = std::find_if(dev->mappings.begin(), dev->mappings.end(),
                           [base](const regemu::emulator::TrappedMapping& m) { return m.base() == base; });
    if (it == dev->mappings.end()) {
      char text[32];
      std::snprintf(text, sizeof text, "%p", base);
      Misuse(std::string(text) + " is not a regemu_map mapping of this device");
    }
    dev->mappings.erase(it);
    return 0;
  });
}

#define REGEMU_IO(bits)                                                                     \
  uint##bits##_t regemu_ioread##bits(const volatile void* addr) {                          \
    Target t = Find(addr, "regemu_ioread" #bits);                                                  \
    return static_cast<uint##bits##_t>(t.dev->device->Read(t.space, t.offset, bits));      \
  }                                                                                         \
  void regemu_iowrite##bits(uint##bits##_t value, volatile void* addr) {                   \
    Target t = Find(addr, "regemu_iowrite" #bits);                                                 \
    t.dev->device->Write(t.space, t.offset, bits, value);                                   \
  }
REGEMU_IO(8)
REGEMU_IO(16)
REGEMU_IO(32)
REGEMU_IO(64)
#undef REGEMU_IO

}  // extern "C"
