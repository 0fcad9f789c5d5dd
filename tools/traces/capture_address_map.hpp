#pragma once
// Where a captured access lands in a database: a space and an offset.
//
// - mmiotrace carries bus addresses. PCIDEV lines list each device's BARs;
//   a space that says `pci_bar: N` (yaml/README.md) is BAR N of the device
//   whose BAR the first mapped access hits (or of `--device VVVV:DDDD`).
// - i915_reg_rw and register logs carry offsets in the register BAR: they
//   land in the space with the lowest `pci_bar` (else the first mmio space).
// - `--map SPACE=BASE` overrides both: the addresses [BASE, BASE + size) are
//   the space, for captures without PCIDEV lines or with absolute addresses.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "regemu/emulator/model.hpp"
#include "regemu/regdb/database.hpp"
#include "tools/traces/capture.hpp"

namespace regemu::traces {

struct ExplicitMapping {
  std::string space;
  uint64_t base = 0;
};

// Parses `SPACE=BASE` (BASE: 0x hex or decimal).
std::optional<ExplicitMapping> ParseMappingOption(const std::string& text, std::string& error);

struct PlacedAccess {
  emulator::SpaceId space = 0;
  uint64_t offset = 0;
};

class CaptureAddressMap {
 public:
  // Fails (with `error`) when an explicit mapping names no space, or when no
  // space can take an offset-only capture.
  static std::optional<CaptureAddressMap> Make(const regdb::Database& db, const emulator::Model& model,
                                               const std::vector<ExplicitMapping>& mappings,
                                               std::optional<uint32_t> device_filter, std::string& error);

  // Learns from PCIDEV records; call for every record in order.
  void Observe(const CaptureRecord& record, CaptureFormat format);
  // An access's place, or none when it is in no space of the database.
  std::optional<PlacedAccess> Place(const CaptureRecord& access, CaptureFormat format);

  // What the map decided, for the report: "mmio = BAR0 of 00:02.0 8086:8a52 (i915) at 0xa0000000".
  const std::vector<std::string>& notes() const { return notes_; }
  // True when mmiotrace accesses could not be placed for want of PCIDEV
  // lines or --map: the report says what to give.
  bool missing_bars() const { return missing_bars_; }

 private:
  struct Window {
    emulator::SpaceId space = 0;
    uint64_t base = 0;
    uint64_t size = 0;
  };

  std::optional<PlacedAccess> InWindows(uint64_t address, unsigned width) const;
  bool ChooseDevice(uint64_t address);

  const emulator::Model* model_ = nullptr;
  std::vector<Window> explicit_;
  std::vector<std::pair<emulator::SpaceId, unsigned>> bar_spaces_;  // (space, BAR)
  std::optional<emulator::SpaceId> offset_space_;
  std::optional<uint32_t> device_filter_;  // vendor << 16 | device
  std::vector<CapturePciDevice> devices_;
  std::vector<Window> bars_;  // of the chosen device
  bool device_chosen_ = false;
  bool missing_bars_ = false;
  bool offset_note_ = false;
  std::vector<std::string> notes_;
};

}  // namespace regemu::traces
