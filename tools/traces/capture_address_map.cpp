#include "tools/traces/capture_address_map.hpp"

#include <algorithm>
#include <cstdio>
#include <variant>

#include "regemu/regdb/numbers.hpp"
#include "regemu/regdb/spelling.hpp"

namespace regemu::traces {
namespace {

std::string PciName(const CapturePciDevice& pci) {
  char text[64];
  std::snprintf(text, sizeof text, "%02x:%02x.%u %04x:%04x", pci.bus_devfn >> 8, (pci.bus_devfn & 0xff) >> 3,
                pci.bus_devfn & 7u, pci.vendor, pci.device);
  return std::string(text) + (pci.driver.empty() ? "" : " (" + pci.driver + ")");
}

}  // namespace

std::optional<ExplicitMapping> ParseMappingOption(const std::string& text, std::string& error) {
  size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0) {
    error = "--map '" + text + "': want SPACE=BASE, e.g. mmio=0xa0000000";
    return std::nullopt;
  }
  auto base = regdb::ParseUnsigned(text.substr(equals + 1));
  if (auto* bad = std::get_if<regdb::NumberError>(&base)) {
    error = "--map '" + text + "': " + bad->message;
    return std::nullopt;
  }
  return ExplicitMapping{text.substr(0, equals), std::get<uint64_t>(base)};
}

std::optional<CaptureAddressMap> CaptureAddressMap::Make(const regdb::Database& db, const emulator::Model& model,
                                                         const std::vector<ExplicitMapping>& mappings,
                                                         std::optional<uint32_t> device_filter, std::string& error) {
  CaptureAddressMap map;
  map.model_ = &model;
  map.device_filter_ = device_filter;
  std::vector<std::string_view> names;
  for (const auto& space : model.spaces()) names.push_back(space.name);
  for (const ExplicitMapping& mapping : mappings) {
    auto space = model.FindSpace(mapping.space);
    if (!space) {
      error = "--map names unknown space '" + mapping.space + "'" + regdb::DidYouMean(mapping.space, names);
      return std::nullopt;
    }
    if (model.spaces()[*space].indexed) {
      error = "--map: space '" + mapping.space + "' is an MSR space; captures hold memory addresses";
      return std::nullopt;
    }
    map.explicit_.push_back({*space, mapping.base, model.spaces()[*space].size});
    map.notes_.push_back(mapping.space + " = " + regdb::Hex(mapping.base) + " (--map)");
  }
  for (const regdb::Space& space : db.spaces) {
    if (!space.pci_bar) continue;
    if (auto id = model.FindSpace(space.name)) map.bar_spaces_.emplace_back(*id, *space.pci_bar);
  }
  std::sort(map.bar_spaces_.begin(), map.bar_spaces_.end(),
            [](const auto& a, const auto& b) { return a.second < b.second; });
  if (!map.bar_spaces_.empty()) {
    map.offset_space_ = map.bar_spaces_.front().first;
  } else {
    for (size_t i = 0; i < model.spaces().size(); ++i) {
      if (model.spaces()[i].kind == regdb::SpaceKind::kMmio) {
        map.offset_space_ = static_cast<emulator::SpaceId>(i);
        break;
      }
    }
  }
  return map;
}

void CaptureAddressMap::Observe(const CaptureRecord& record, CaptureFormat format) {
  if (format != CaptureFormat::kMmiotrace) return;
  if (record.kind == CaptureKind::kMap && !device_chosen_ && explicit_.empty()) ChooseDevice(record.address);
  if (record.kind != CaptureKind::kPciDev) return;
  const CapturePciDevice& pci = record.pci;
  if (device_filter_ && *device_filter_ != (uint32_t{pci.vendor} << 16 | pci.device)) return;
  devices_.push_back(pci);
}

// The first access (or MAP) inside a BAR a space claims picks the device:
// an mmiotrace lists every PCI device of the machine, the traced driver
// touches its own.
bool CaptureAddressMap::ChooseDevice(uint64_t address) {
  for (const CapturePciDevice& pci : devices_) {
    for (const auto& [space, bar] : bar_spaces_) {
      if (pci.io[bar] || pci.size[bar] == 0) continue;
      if (address < pci.start[bar] || address - pci.start[bar] >= pci.size[bar]) continue;
      device_chosen_ = true;
      for (const auto& [s, b] : bar_spaces_) {
        if (pci.io[b] || pci.size[b] == 0) continue;
        uint64_t size = std::min(pci.size[b], model_->spaces()[s].size);
        bars_.push_back({s, pci.start[b], size});
        notes_.push_back(model_->spaces()[s].name + " = BAR" + std::to_string(b) + " of " + PciName(pci) + " at " +
                         regdb::Hex(pci.start[b]));
      }
      return true;
    }
  }
  return false;
}

std::optional<PlacedAccess> CaptureAddressMap::InWindows(uint64_t address, unsigned width) const {
  auto find = [&](const std::vector<Window>& windows) -> std::optional<PlacedAccess> {
    for (const Window& w : windows) {
      if (address >= w.base && address - w.base < w.size && w.size - (address - w.base) >= width) {
        return PlacedAccess{w.space, address - w.base};
      }
    }
    return std::nullopt;
  };
  if (!explicit_.empty()) return find(explicit_);
  return find(bars_);
}

std::optional<PlacedAccess> CaptureAddressMap::Place(const CaptureRecord& access, CaptureFormat format) {
  unsigned width = std::max(access.width, 1u);
  if (!explicit_.empty()) return InWindows(access.address, width);
  if (format != CaptureFormat::kMmiotrace) {
    if (!offset_space_) return std::nullopt;
    const auto& space = model_->spaces()[*offset_space_];
    if (!offset_note_) {
      offset_note_ = true;
      notes_.push_back("offsets are " + space.name + " offsets (--map SPACE=BASE chooses another space)");
    }
    if (access.address >= space.size || space.size - access.address < width) return std::nullopt;
    return PlacedAccess{*offset_space_, access.address};
  }
  if (!device_chosen_) {
    if (devices_.empty()) missing_bars_ = true;
    if (!ChooseDevice(access.address)) return std::nullopt;
  }
  return InWindows(access.address, width);
}

}  // namespace regemu::traces
