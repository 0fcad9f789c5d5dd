// The C shim (include/regemu/regemu.h, include/regemu/iomem.h) over
// emulator::Device. Nothing here throws into C: every failure becomes a
// NULL, a -1 or a recorded misuse.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/device.hpp"
#include "regemu/regdb/diagnostics.hpp"
#include "regemu/regdb/loader.hpp"
#include "regemu/regdb/numbers.hpp"
#include "regemu/iomem.h"
#include "regemu/regemu.h"

struct regemu_device {
  std::unique_ptr<regemu::emulator::Device> device;
  std::vector<std::string> misuse;  // API misuse (unknown space): counted with the violations
  std::string text;                 // the last regemu_violation_text
};

namespace {

using regemu::emulator::Device;
using regemu::emulator::SpaceId;

void CopyError(const std::string& message, char* err, size_t errlen) {
  if (err == nullptr || errlen == 0) return;
  size_t n = std::min(message.size(), errlen - 1);
  std::memcpy(err, message.data(), n);
  err[n] = '\0';
}

std::optional<SpaceId> Space(regemu_device* dev, const char* space, uint64_t offset, const char* what) {
  auto id = dev->device->model().FindSpace(space == nullptr ? "" : space);
  if (!id) {
    dev->misuse.push_back(std::string("unmodelled: ") + what + " of space '" + (space ? space : "(null)") +
                          "' offset " + regemu::regdb::Hex(offset) + ": device '" + dev->device->model().device() +
                          "' has no such space");
  }
  return id;
}

uint64_t Read(regemu_device* dev, const char* space, uint64_t offset, unsigned width) {
  auto id = Space(dev, space, offset, "read");
  if (!id) return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  return dev->device->Read(*id, offset, width);
}

void Write(regemu_device* dev, const char* space, uint64_t offset, unsigned width, uint64_t value) {
  if (auto id = Space(dev, space, offset, "write")) dev->device->Write(*id, offset, width, value);
}

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
    auto* dev = new regemu_device;
    dev->device = std::make_unique<Device>(compiled.model);
    return dev;
  } catch (const std::exception& error) {
    CopyError(std::string("regemu_open: ") + error.what(), err, errlen);
    return nullptr;
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

uint8_t regemu_read8(regemu_device* dev, const char* space, uint64_t offset) {
  return static_cast<uint8_t>(Read(dev, space, offset, 8));
}
uint16_t regemu_read16(regemu_device* dev, const char* space, uint64_t offset) {
  return static_cast<uint16_t>(Read(dev, space, offset, 16));
}
uint32_t regemu_read32(regemu_device* dev, const char* space, uint64_t offset) {
  return static_cast<uint32_t>(Read(dev, space, offset, 32));
}
uint64_t regemu_read64(regemu_device* dev, const char* space, uint64_t offset) { return Read(dev, space, offset, 64); }
void regemu_write8(regemu_device* dev, const char* space, uint64_t offset, uint8_t value) {
  Write(dev, space, offset, 8, value);
}
void regemu_write16(regemu_device* dev, const char* space, uint64_t offset, uint16_t value) {
  Write(dev, space, offset, 16, value);
}
void regemu_write32(regemu_device* dev, const char* space, uint64_t offset, uint32_t value) {
  Write(dev, space, offset, 32, value);
}
void regemu_write64(regemu_device* dev, const char* space, uint64_t offset, uint64_t value) {
  Write(dev, space, offset, 64, value);
}

void regemu_step_ns(regemu_device* dev, uint64_t ns) { dev->device->Advance(ns); }

int regemu_inject_interrupt(regemu_device* dev, const char* engine, uint16_t data) {
  if (engine == nullptr) return -1;
  std::vector<std::string> args{engine, regemu::regdb::Hex(data)};
  std::string why = dev->device->Inject("irq", args);
  if (why.empty()) return 0;
  dev->misuse.push_back("unmodelled: regemu_inject_interrupt(\"" + std::string(engine) + "\"): " + why);
  return -1;
}

int regemu_irq_level(regemu_device* dev) { return dev->device->interrupt_asserted() ? 1 : 0; }

size_t regemu_violation_count(regemu_device* dev) { return dev->device->violations().size() + dev->misuse.size(); }

const char* regemu_violation_text(regemu_device* dev, size_t index) {
  std::vector<regemu::emulator::Violation> violations = dev->device->violations();
  if (index < violations.size()) {
    dev->text = violations[index].Summary();
  } else if (index - violations.size() < dev->misuse.size()) {
    dev->text = dev->misuse[index - violations.size()];
  } else {
    return nullptr;
  }
  return dev->text.c_str();
}

void* regemu_iomap(regemu_device* dev, const char* space, uint64_t size) {
  if (dev == nullptr || space == nullptr || size == 0) return nullptr;
  auto id = dev->device->model().FindSpace(space);
  if (!id || size > dev->device->model().spaces()[*id].size) return nullptr;
  // The range's addresses only need to be unique: an allocation of the
  // mapped size reserves them; its pages are never touched.
  Mapping mapping{std::unique_ptr<char[]>(new (std::nothrow) char[size]), size, dev, *id};
  if (!mapping.range) return nullptr;
  void* base = mapping.range.get();
  std::lock_guard guard(MappingsLock());
  Mappings().push_back(std::move(mapping));
  return base;
}

void regemu_iounmap(void* base) {
  std::lock_guard guard(MappingsLock());
  std::erase_if(Mappings(), [base](const Mapping& m) { return m.range.get() == base; });
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
