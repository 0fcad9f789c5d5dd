#pragma once
// The functions of the plain-pointer drivers in drivers/*.c, one line
// each. tests/trap/CMakeLists.txt builds every driver file once per
// compiler and optimization level ("build": gcc_O2, clang_O0, ...) and
// gives each function the build's prefix (gcc_O2_cmsis_uart_init) with -D,
// reading the names from this list: keep one F(...) per line.

#include <cstddef>
#include <cstdint>
#include <ostream>

// mmio_memcpy.c's MSI-X table entry.
struct msix_entry {
  uint32_t addr_lo;
  uint32_t addr_hi;
  uint32_t data;
  uint32_t vector_control;
};

// clang-format off
#define REGEMU_TRAP_DRIVER_FUNCTIONS(F, build) \
  F(build, void, cmsis_uart_init, (uint16_t divisor)) \
  F(build, int, cmsis_uart_put, (char c, unsigned spins)) \
  F(build, uint64_t, cmsis_uart_timestamp, (void)) \
  F(build, void, cmsis_nvic_enable_irq, (unsigned irq)) \
  F(build, void, cmsis_nvic_disable_irq, (unsigned irq)) \
  F(build, uint32_t, nvme_read_version, (uint8_t* bar)) \
  F(build, void, nvme_mask_vectors, (uint8_t* bar, uint32_t set, uint32_t clear)) \
  F(build, void, nvme_configure_admin_queue, (uint8_t* bar, uint64_t asq, uint64_t acq, uint32_t depth)) \
  F(build, long, nvme_wait_ready, (uint8_t* bar, uint32_t want, long max_polls)) \
  F(build, long, nvme_enable_ctrl, (uint8_t* bar, unsigned page_shift, long max_polls)) \
  F(build, long, nvme_disable_ctrl, (uint8_t* bar, long max_polls)) \
  F(build, void, nvme_write_version_by_mistake, (uint8_t* bar)) \
  F(build, uint64_t, reg64_readq, (const uint8_t* bar, unsigned long offset)) \
  F(build, uint64_t, reg64_lo_hi_readq, (const uint8_t* bar, unsigned long offset)) \
  F(build, void, mmio_memcpy_toio, (void* dst, const void* src, size_t n)) \
  F(build, void, mmio_memcpy_fromio, (void* dst, const void* src, size_t n)) \
  F(build, void, mmio_memset_io, (void* dst, int c, size_t n)) \
  F(build, void, mmio_msix_write_entry, (void* table, unsigned index, const msix_entry* entry)) \
  F(build, void, mmio_msix_read_entry, (const void* table, unsigned index, msix_entry* entry)) \
  F(build, uint32_t, atomic_fetch_set_bits, (volatile uint32_t* reg, uint32_t bits)) \
  F(build, void, atomic_set_bits, (volatile uint32_t* reg, uint32_t bits)) \
  F(build, void, atomic_clear_bits, (volatile uint32_t* reg, uint32_t bits)) \
  F(build, int, atomic_claim, (volatile uint32_t* reg, uint32_t expected, uint32_t desired)) \
  F(build, uint32_t, atomic_swap, (volatile uint32_t* reg, uint32_t value)) \
  F(build, uint64_t, atomic_add64, (volatile uint64_t* reg, uint64_t value)) \
  F(build, int, atomic_test_and_set_bit, (volatile uint64_t* word, unsigned nr))
// clang-format on

// One build of every driver function.
struct DriverBuild {
  const char* name;
#define REGEMU_TRAP_FIELD(build, ret, name, params) ret(*name) params;
  REGEMU_TRAP_DRIVER_FUNCTIONS(REGEMU_TRAP_FIELD, unused)
#undef REGEMU_TRAP_FIELD
};

// gtest names a build by its name, not its 200 bytes of pointers.
inline void PrintTo(const DriverBuild& build, std::ostream* os) { *os << build.name; }

// REGEMU_TRAP_DRIVER_BUILDS(X): X(gcc_O0) X(gcc_O2) ..., from CMake.
#include "trap_driver_builds.hpp"

#define REGEMU_TRAP_DECLARE(build, ret, name, params) extern "C" ret build##_##name params;
#define REGEMU_TRAP_DECLARE_BUILD(build) REGEMU_TRAP_DRIVER_FUNCTIONS(REGEMU_TRAP_DECLARE, build)
REGEMU_TRAP_DRIVER_BUILDS(REGEMU_TRAP_DECLARE_BUILD)
#undef REGEMU_TRAP_DECLARE_BUILD
#undef REGEMU_TRAP_DECLARE

#define REGEMU_TRAP_ENTRY(build, ret, name, params) &build##_##name,
#define REGEMU_TRAP_BUILD(build) DriverBuild{#build, REGEMU_TRAP_DRIVER_FUNCTIONS(REGEMU_TRAP_ENTRY, build)},
inline const DriverBuild kDriverBuilds[] = {REGEMU_TRAP_DRIVER_BUILDS(REGEMU_TRAP_BUILD)};
#undef REGEMU_TRAP_BUILD
#undef REGEMU_TRAP_ENTRY
